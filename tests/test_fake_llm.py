"""The fake LLM server speaks the real wire formats: litellm itself is the client here."""

import threading
import time

import httpx
import pytest

from tests import fake_llm as fake_llm_module
from tests.fake_llm import FakeLLM, Reply, ToolCall, Usage

fake_llm = fake_llm_module.fake_llm  # the fixture, for this module

LOG_FOOD = {
    "type": "function",
    "function": {
        "name": "log_food",
        "description": "Log a food the user ate.",
        "parameters": {
            "type": "object",
            "properties": {"food_name": {"type": "string"}, "quantity": {"type": "number"}},
            "required": ["food_name"],
        },
    },
}
LOG_WATER = {
    "type": "function",
    "function": {
        "name": "log_water",
        "description": "Log glasses of water.",
        "parameters": {"type": "object", "properties": {"glasses": {"type": "integer"}}},
    },
}
CLAUDE = "anthropic/claude-haiku-4-5"
HI = [{"role": "user", "content": "hi"}]


@pytest.fixture(scope="module")
def litellm():
    # config.settings has already switched litellm to its bundled cost map, offline.
    import litellm as lib

    lib.suppress_debug_info = True
    return lib


def openai_call(litellm, fake, **kwargs):
    kwargs.setdefault("messages", HI)
    return litellm.completion(
        model="openai/fake-model",
        api_base=fake.openai_base,
        api_key="sk-test-openai",
        num_retries=0,
        max_retries=0,
        **kwargs,
    )


def anthropic_call(litellm, fake, **kwargs):
    kwargs.setdefault("messages", HI)
    kwargs.setdefault("max_tokens", 200)
    return litellm.completion(
        model=CLAUDE,
        api_base=fake.anthropic_base,
        api_key="sk-ant-test",
        num_retries=0,
        max_retries=0,
        **kwargs,
    )


def test_an_openai_tool_call_round_trips_through_litellm(litellm, fake_llm):
    fake_llm.reply_tool_call("log_food", {"food_name": "egg", "quantity": 2}, id="call_1")

    response = openai_call(litellm, fake_llm, tools=[LOG_FOOD, LOG_WATER])

    call = response.choices[0].message.tool_calls[0]
    assert (call.id, call.function.name) == ("call_1", "log_food")
    assert call.function.arguments == '{"food_name": "egg", "quantity": 2}'
    assert response.choices[0].finish_reason == "tool_calls"
    assert response.usage.prompt_tokens > 0
    assert fake_llm.last.path == "/v1/chat/completions"
    assert fake_llm.tool_names() == ["log_food", "log_water"]
    assert fake_llm.last.headers["authorization"] == "Bearer sk-test-openai"


def test_an_anthropic_reply_with_text_and_two_tool_calls_round_trips(litellm, fake_llm):
    fake_llm.reply_tool_calls(
        [("log_food", {"food_name": "toast"}), ToolCall("log_water", {"glasses": 2}, "toolu_2")],
        text="Logging both.",
        usage=Usage(input_tokens=120, output_tokens=30, cache_read_tokens=100),
    )

    response = anthropic_call(litellm, fake_llm, tools=[LOG_FOOD, LOG_WATER])

    message = response.choices[0].message
    assert message.content == "Logging both."
    assert [c.function.name for c in message.tool_calls] == ["log_food", "log_water"]
    assert message.tool_calls[1].id == "toolu_2"
    assert message.tool_calls[1].function.arguments == '{"glasses": 2}'
    assert response.choices[0].finish_reason == "tool_calls"
    assert response.usage.completion_tokens == 30
    assert response.usage.cache_read_input_tokens == 100
    assert fake_llm.last.path == "/v1/messages"
    assert fake_llm.last.headers["x-api-key"] == "sk-ant-test"
    assert fake_llm.tool_names() == ["log_food", "log_water"]


def test_cache_control_on_a_tool_and_a_system_block_reaches_the_anthropic_body(litellm, fake_llm):
    fake_llm.reply_text("ok")
    marked = {**LOG_WATER, "cache_control": {"type": "ephemeral"}}
    system = {
        "role": "system",
        "content": [
            {"type": "text", "text": "You are Sparky.", "cache_control": {"type": "ephemeral"}}
        ],
    }

    anthropic_call(litellm, fake_llm, tools=[LOG_FOOD, marked], messages=[system, *HI])

    assert fake_llm.cache_control_positions() == ["tools[1]", "system[0]"]
    assert fake_llm.last.json["tools"][1]["cache_control"] == {"type": "ephemeral"}
    assert fake_llm.system_prompt() == "You are Sparky."


def test_the_system_prompt_is_read_from_openai_system_messages(litellm, fake_llm):
    fake_llm.reply_text("ok")

    openai_call(litellm, fake_llm, messages=[{"role": "system", "content": "Be brief."}, *HI])

    assert fake_llm.system_prompt() == "Be brief."
    assert fake_llm.last.last_user_text() == "hi"


def test_a_500_is_an_internal_server_error_in_both_formats(litellm, fake_llm):
    fake_llm.reply_error(500).reply_error(500)

    with pytest.raises(litellm.InternalServerError):
        openai_call(litellm, fake_llm)
    with pytest.raises(litellm.InternalServerError):
        anthropic_call(litellm, fake_llm)


def test_a_429_is_a_rate_limit_error_that_carries_retry_after(litellm, fake_llm):
    fake_llm.reply_error(429, retry_after=7).reply_error(429, retry_after=3)

    with pytest.raises(litellm.RateLimitError) as openai_error:
        openai_call(litellm, fake_llm)
    with pytest.raises(litellm.RateLimitError) as anthropic_error:
        anthropic_call(litellm, fake_llm)

    assert openai_error.value.litellm_response_headers["retry-after"] == "7"
    assert anthropic_error.value.litellm_response_headers["retry-after"] == "3"
    assert len(fake_llm.requests) == 2


def test_a_custom_error_body_is_sent_as_written(litellm, fake_llm):
    fake_llm.reply_error(400, {"error": {"message": "model 'nope' does not exist"}})

    with pytest.raises(litellm.BadRequestError, match="model 'nope' does not exist"):
        openai_call(litellm, fake_llm)


def test_garbage_fails_to_parse_and_an_empty_reply_has_no_content(litellm, fake_llm):
    fake_llm.reply_garbage().reply_empty()

    # litellm reports an unparsable body as a server error, naming the JSON failure.
    with pytest.raises(litellm.InternalServerError, match="Expecting value"):
        openai_call(litellm, fake_llm)
    response = openai_call(litellm, fake_llm)

    assert response.choices[0].message.content is None
    assert response.choices[0].message.tool_calls is None


def test_a_delayed_reply_makes_the_client_time_out(litellm, fake_llm):
    fake_llm.reply_delay(3)

    with pytest.raises(litellm.Timeout):
        openai_call(litellm, fake_llm, timeout=0.3)


@pytest.mark.parametrize("call", [openai_call, anthropic_call], ids=["openai", "anthropic"])
def test_streaming_delivers_text_and_a_tool_call(litellm, fake_llm, call):
    fake_llm.reply_tool_call("log_food", {"food_name": "apple"}, text="One apple.")

    chunks = list(call(litellm, fake_llm, tools=[LOG_FOOD], stream=True))
    rebuilt = litellm.stream_chunk_builder(chunks)

    assert fake_llm.last.stream
    message = rebuilt.choices[0].message
    assert message.content == "One apple."
    assert message.tool_calls[0].function.name == "log_food"
    assert message.tool_calls[0].function.arguments == '{"food_name": "apple"}'


def test_a_slow_model_streams_its_words_one_by_one(litellm, fake_llm):
    fake_llm.reply_text("two eggs and toast", token_delay=0.2)

    started = time.monotonic()
    arrivals = []
    for chunk in openai_call(litellm, fake_llm, stream=True):
        if chunk.choices and chunk.choices[0].delta.content:
            arrivals.append((chunk.choices[0].delta.content, time.monotonic() - started))

    assert [word for word, _ in arrivals] == ["two", " eggs", " and", " toast"]
    assert arrivals[-1][1] - arrivals[0][1] >= 0.55  # three pauses of 0.2 s between four words


def test_ollama_chat_is_answered_in_its_own_format(litellm, fake_llm):
    fake_llm.reply_tool_call("log_water", {"glasses": 1})

    response = litellm.completion(
        model="ollama_chat/llama3.1",
        api_base=fake_llm.ollama_base,
        messages=HI,
        tools=[LOG_WATER],
        num_retries=0,
    )

    assert response.choices[0].message.tool_calls[0].function.name == "log_water"
    assert fake_llm.last.path == "/api/chat"
    assert fake_llm.tool_names() == ["log_water"]


def test_a_responder_answers_by_rule_once_the_queue_is_empty(litellm, fake_llm):
    fake_llm.reply_text("scripted first")
    fake_llm.respond_with(lambda req: f"echo: {req.last_user_text()}")

    first = openai_call(litellm, fake_llm)
    second = openai_call(litellm, fake_llm, messages=[{"role": "user", "content": "again"}])

    assert first.choices[0].message.content == "scripted first"
    assert second.choices[0].message.content == "echo: again"


def test_a_responder_that_passes_falls_through_to_the_default():
    with FakeLLM(default="default text") as fake:
        fake.respond_with(
            lambda req: Reply.message("water") if "water" in req.raw.decode() else None
        )
        url = f"{fake.openai_base}/chat/completions"

        water = httpx.post(url, json={"messages": [{"role": "user", "content": "water"}]})
        other = httpx.post(url, json={"messages": [{"role": "user", "content": "hello"}]})

    assert water.json()["choices"][0]["message"]["content"] == "water"
    assert other.json()["choices"][0]["message"]["content"] == "default text"


def test_an_unscripted_request_gets_a_loud_error_and_is_remembered(litellm):
    with FakeLLM() as fake:
        with pytest.raises(litellm.BadRequestError, match="no scripted reply left"):
            openai_call(litellm, fake)

        assert [r.path for r in fake.unscripted] == ["/v1/chat/completions"]


def test_the_models_list_is_served():
    with FakeLLM() as fake:
        response = httpx.get(f"{fake.openai_base}/models")

    assert response.json()["data"][0]["id"] == "fake-model"


def test_concurrent_requests_are_all_answered_and_recorded():
    with FakeLLM() as fake:
        fake.respond_with(lambda req: req.last_user_text().upper())
        answers: dict[int, str] = {}

        def ask(client: httpx.Client, n: int) -> None:
            body = {"messages": [{"role": "user", "content": f"message {n}"}]}
            reply = client.post(f"{fake.openai_base}/chat/completions", json=body)
            answers[n] = reply.json()["choices"][0]["message"]["content"]

        with httpx.Client() as client:
            threads = [threading.Thread(target=ask, args=(client, n)) for n in range(20)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()

        assert answers == {n: f"MESSAGE {n}" for n in range(20)}
        assert len(fake.requests) == 20


def test_a_redirect_is_sent_with_its_location():
    with FakeLLM() as fake:
        fake.reply_redirect("http://elsewhere.example/v1/chat/completions")
        response = httpx.post(f"{fake.openai_base}/chat/completions", json={})

    assert response.status_code == 307
    assert response.headers["location"] == "http://elsewhere.example/v1/chat/completions"
