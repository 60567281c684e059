"""The LLM gateway against the loopback fake: real litellm, real wire formats, no mocks."""

import logging
import socket

import pytest

from aiservices.llm import (
    LLMAuthError,
    LLMBadResponse,
    LLMBlockedURL,
    LLMConfig,
    LLMConfigError,
    LLMError,
    LLMRateLimited,
    LLMTimeout,
    LLMUnavailable,
    complete,
    config_for,
    count_tokens,
    test_connection,
)
from aiservices.services import ai_service_create
from tests import fake_llm as fake_llm_module
from tests.conftest import make_user
from tests.fake_llm import Usage

fake_llm = fake_llm_module.fake_llm  # the fixture, for this module

SECRET = "sk-live-SECRET-abcdef1234567890"
HI = [{"role": "user", "content": "I had two eggs"}]
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
ENABLE = {
    "type": "function",
    "function": {
        "name": "sparky_enable_tools",
        "description": "Load more tool categories.",
        "parameters": {"type": "object", "properties": {"categories": {"type": "array"}}},
    },
    "cache_control": {"type": "ephemeral"},
}


@pytest.fixture
def private_ok(settings):
    # The fake listens on loopback, which the guard refuses unless an admin allows it.
    settings.SPARKY_ALLOW_PRIVATE_AI_URLS = True


@pytest.fixture
def dns(monkeypatch):
    """Scripted answers for chosen names at the socket edge; every lookup is counted."""
    answers: dict[str, list[str]] = {}
    lookups: list[str] = []
    real = socket.getaddrinfo

    def getaddrinfo(host, port, *args, **kwargs):
        if host in answers:
            lookups.append(host)
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (a, port)) for a in answers[host]]
        return real(host, port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    return type("DNS", (), {"answers": answers, "lookups": lookups})


def service_for(user, fake, service_type="custom", *, url=None, model="fake-model", **extra):
    if url is None:
        url = fake.anthropic_base if service_type in ("anthropic", "ollama") else fake.openai_base
    return ai_service_create(
        user=user,
        service_name=f"{service_type} on the fake",
        service_type=service_type,
        api_key=extra.pop("api_key", SECRET),
        model_name=model,
        custom_url=url,
        **extra,
        is_active=True,
    )


def config_on_fake(user, fake, service_type="custom", **kwargs) -> LLMConfig:
    return config_for(service_for(user, fake, service_type, **kwargs), user)


# configuration ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("service_type", "model_name", "litellm_model"),
    [
        ("openai", "gpt-4.1-mini", "openai/gpt-4.1-mini"),
        ("openai", "openai/gpt-4.1-mini", "openai/gpt-4.1-mini"),
        ("anthropic", "claude-haiku-4-5", "anthropic/claude-haiku-4-5"),
        ("google", "gemini-2.5-flash", "gemini/gemini-2.5-flash"),
        ("google", "", "gemini/gemini-flash-latest"),
        ("mistral", "mistral-small-latest", "mistral/mistral-small-latest"),
        ("groq", "openai/gpt-oss-20b", "groq/openai/gpt-oss-20b"),
        ("openrouter", "openai/gpt-4o-mini", "openrouter/openai/gpt-4o-mini"),
        ("openrouter", "openrouter/openai/gpt-4o-mini", "openrouter/openai/gpt-4o-mini"),
    ],
)
def test_each_cloud_service_type_maps_to_its_litellm_route(
    alice, service_type, model_name, litellm_model
):
    service = ai_service_create(
        user=alice,
        service_name="cloud",
        service_type=service_type,
        api_key=SECRET,
        model_name=model_name,
        is_active=True,
    )

    config = config_for(service, alice)

    assert config.model == litellm_model
    assert config.api_base is None  # the provider's own endpoint
    assert config.api_key == SECRET
    assert config.supports_cache_control is (service_type == "anthropic")


def test_ollama_uses_the_local_default_url_when_private_targets_are_allowed(alice, private_ok):
    service = ai_service_create(
        user=alice,
        service_name="local",
        service_type="ollama",
        api_key="local-key",
        model_name="llama3.1",
        is_active=True,
    )

    config = config_for(service, alice)

    assert config.model == "ollama_chat/llama3.1"
    assert config.api_base == "http://127.0.0.1:11434"
    assert config.target.host == "127.0.0.1"


def test_ollama_on_loopback_is_refused_for_a_member_when_the_setting_is_off(alice, settings):
    settings.SPARKY_ALLOW_PRIVATE_AI_URLS = True  # saved while allowed, then switched off
    service = ai_service_create(
        user=alice,
        service_name="local",
        service_type="ollama",
        api_key="local-key",
        model_name="llama3.1",
        is_active=True,
    )
    settings.SPARKY_ALLOW_PRIVATE_AI_URLS = False

    with pytest.raises(LLMBlockedURL) as refused:
        config_for(service, alice)

    assert "127.0.0.1 is a loopback address" in str(refused.value)
    assert "SPARKY_ALLOW_PRIVATE_AI_URLS" in str(refused.value)


def test_a_staff_user_may_point_a_service_at_a_private_address(db, settings):
    settings.SPARKY_ALLOW_PRIVATE_AI_URLS = False
    admin = make_user("admin@example.com", is_staff=True)
    service = ai_service_create(
        user=admin,
        service_name="lab",
        service_type="custom",
        api_key="local-key",
        model_name="qwen",
        custom_url="http://10.0.0.5:8000/v1",
        is_active=True,
    )

    config = config_for(service, admin)

    assert config.model == "openai/qwen"
    assert config.api_base == "http://10.0.0.5:8000/v1"


def test_a_custom_url_on_the_private_network_is_refused(alice, settings):
    settings.SPARKY_ALLOW_PRIVATE_AI_URLS = True  # saved while allowed, then switched off
    service = ai_service_create(
        user=alice,
        service_name="sneaky",
        service_type="custom",
        api_key="local-key",
        model_name="x",
        custom_url="http://192.168.1.1/v1",
        is_active=True,
    )
    settings.SPARKY_ALLOW_PRIVATE_AI_URLS = False

    with pytest.raises(LLMBlockedURL, match="192.168.1.1 is a private address"):
        config_for(service, alice)


def test_an_anthropic_url_ending_in_v1_is_not_doubled(alice, fake_llm, private_ok):
    fake_llm.reply_text("ok")
    config = config_on_fake(alice, fake_llm, "anthropic", url=f"{fake_llm.anthropic_base}/v1/")

    complete(config, messages=HI)

    assert fake_llm.last.path == "/v1/messages"


def test_another_users_service_cannot_be_used(alice, bob):
    service = ai_service_create(
        user=bob,
        service_name="bob's",
        service_type="openai",
        api_key=SECRET,
        model_name="gpt",
        is_active=True,
    )

    with pytest.raises(LLMConfigError, match="another user"):
        config_for(service, alice)


def test_the_config_repr_hides_the_api_key(alice, fake_llm, private_ok):
    config = config_on_fake(alice, fake_llm)

    assert SECRET not in repr(config)
    assert SECRET not in str(config)
    assert "api_key='***'" in repr(config)


def test_the_timeout_comes_from_the_settings_and_a_local_server_gets_the_long_one(
    alice, fake_llm, private_ok, settings
):
    settings.SPARKY_LLM_TIMEOUT = 12.5
    settings.SPARKY_LOCAL_LLM_TIMEOUT = 240

    # an OpenAI-compatible server of the user's own may start cold on a small machine
    assert config_on_fake(alice, fake_llm).timeout == 240


# replies ---------------------------------------------------------------------------------------
def test_an_openai_format_tool_call_is_parsed_with_usage(alice, fake_llm, private_ok):
    fake_llm.reply_tool_call(
        "log_food",
        {"food_name": "egg", "quantity": 2},
        id="call_9",
        usage=Usage(input_tokens=321, output_tokens=12, cache_read_tokens=256),
    )

    result = complete(config_on_fake(alice, fake_llm), messages=HI, tools=[LOG_FOOD])

    assert result.tool_calls == [("call_9", "log_food", '{"food_name": "egg", "quantity": 2}')]
    assert result.text == ""
    assert result.finish_reason == "tool_calls"
    assert (result.usage.prompt_tokens, result.usage.completion_tokens) == (321, 12)
    assert result.usage.cache_read_tokens == 256
    assert fake_llm.last.headers["authorization"] == f"Bearer {SECRET}"
    assert fake_llm.tool_names() == ["log_food"]
    assert fake_llm.last.model == "fake-model"


def test_an_anthropic_reply_with_text_and_tool_calls_is_parsed(alice, fake_llm, private_ok):
    fake_llm.reply_tool_calls(
        [("log_food", {"food_name": "egg"}), ("log_food", {"food_name": "toast"})],
        text="Logging breakfast.",
        usage=Usage(
            input_tokens=900, output_tokens=40, cache_read_tokens=800, cache_creation_tokens=50
        ),
    )
    config = config_on_fake(alice, fake_llm, "anthropic", model="claude-haiku-4-5")

    result = complete(config, messages=HI, tools=[LOG_FOOD, ENABLE], max_tokens=300)

    assert result.text == "Logging breakfast."
    assert [(c.name, c.arguments) for c in result.tool_calls] == [
        ("log_food", '{"food_name": "egg"}'),
        ("log_food", '{"food_name": "toast"}'),
    ]
    assert all(c.id.startswith("toolu_") for c in result.tool_calls)
    assert result.usage.completion_tokens == 40
    assert (result.usage.cache_read_tokens, result.usage.cache_creation_tokens) == (800, 50)
    assert fake_llm.last.path == "/v1/messages"
    assert fake_llm.last.headers["x-api-key"] == SECRET
    assert fake_llm.last.json["max_tokens"] == 300
    assert fake_llm.cache_control_positions() == ["tools[1]"]


def test_cache_markers_are_not_sent_to_openai_format_providers(alice, fake_llm, private_ok):
    fake_llm.reply_text("ok")
    system = {
        "role": "system",
        "content": [{"type": "text", "text": "Be kind.", "cache_control": {"type": "ephemeral"}}],
    }

    complete(config_on_fake(alice, fake_llm), messages=[system, *HI], tools=[LOG_FOOD, ENABLE])

    assert fake_llm.cache_control_positions() == []
    assert fake_llm.tool_names() == ["log_food", "sparky_enable_tools"]
    assert fake_llm.system_prompt() == "Be kind."


def test_ollama_tool_calls_come_back_through_the_gateway(alice, fake_llm, private_ok):
    fake_llm.reply_tool_call("log_food", {"food_name": "rice"})
    config = config_on_fake(alice, fake_llm, "ollama", model="llama3.1", api_key="local-key")

    result = complete(config, messages=HI, tools=[LOG_FOOD])

    assert [(c.name, c.arguments) for c in result.tool_calls] == [
        ("log_food", '{"food_name": "rice"}')
    ]
    assert fake_llm.last.path == "/api/chat"


def test_the_assistant_message_replays_the_tool_calls(alice, fake_llm, private_ok):
    fake_llm.reply_tool_call("log_food", {"food_name": "egg"}, id="call_1")

    result = complete(config_on_fake(alice, fake_llm), messages=HI, tools=[LOG_FOOD])

    assert result.assistant_message() == {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": "call_1",
                "type": "function",
                "function": {"name": "log_food", "arguments": '{"food_name": "egg"}'},
            }
        ],
    }


def test_temperature_tool_choice_and_max_tokens_reach_the_provider(alice, fake_llm, private_ok):
    fake_llm.reply_text("ok")

    complete(
        config_on_fake(alice, fake_llm),
        messages=HI,
        tools=[LOG_FOOD],
        tool_choice="auto",
        temperature=0.2,
        max_tokens=64,
    )

    body = fake_llm.last.json
    assert (body["temperature"], body["max_tokens"], body["tool_choice"]) == (0.2, 64, "auto")


# failures --------------------------------------------------------------------------------------
@pytest.mark.parametrize("service_type", ["custom", "anthropic"])
def test_a_server_error_is_retried_once(alice, fake_llm, private_ok, service_type):
    fake_llm.reply_error(500).reply_text("recovered")
    config = config_on_fake(alice, fake_llm, service_type)

    result = complete(config, messages=HI)

    assert result.text == "recovered"
    assert len(fake_llm.requests) == 2


def test_a_server_error_twice_is_unavailable(alice, fake_llm, private_ok):
    fake_llm.reply_error(503, retry_after=0).reply_error(502, retry_after=0)

    with pytest.raises(LLMUnavailable, match="server error") as failed:
        complete(config_on_fake(alice, fake_llm), messages=HI)

    assert failed.value.status == 502
    assert len(fake_llm.requests) == 2


def test_a_rate_limit_with_retry_after_is_retried_twice_at_most(alice, fake_llm, private_ok):
    for _ in range(3):
        fake_llm.reply_error(429, retry_after=0)

    with pytest.raises(LLMRateLimited) as limited:
        complete(config_on_fake(alice, fake_llm, "anthropic"), messages=HI)

    assert len(fake_llm.requests) == 3
    assert limited.value.retry_after == 0


def test_a_rate_limit_that_clears_gives_the_reply(alice, fake_llm, private_ok):
    fake_llm.reply_error(429, retry_after=0).reply_error(429, retry_after=0).reply_text("done")

    result = complete(config_on_fake(alice, fake_llm), messages=HI)

    assert result.text == "done"
    assert len(fake_llm.requests) == 3


def test_a_long_retry_after_is_not_waited_for(alice, fake_llm, private_ok):
    fake_llm.reply_error(429, retry_after=30)

    with pytest.raises(LLMRateLimited, match="wait 30 s") as limited:
        complete(config_on_fake(alice, fake_llm), messages=HI)

    assert limited.value.retry_after == 30
    assert len(fake_llm.requests) == 1


def test_a_rate_limit_without_retry_after_is_not_retried(alice, fake_llm, private_ok):
    fake_llm.reply_error(429)

    with pytest.raises(LLMRateLimited) as limited:
        complete(config_on_fake(alice, fake_llm, "anthropic"), messages=HI)

    assert limited.value.retry_after is None
    assert len(fake_llm.requests) == 1


@pytest.mark.parametrize("status", [401, 403])
@pytest.mark.parametrize("service_type", ["custom", "anthropic"])
def test_a_refused_key_is_an_auth_error(alice, fake_llm, private_ok, status, service_type):
    fake_llm.reply_error(status)

    with pytest.raises(LLMAuthError, match="check the key in settings") as refused:
        complete(config_on_fake(alice, fake_llm, service_type), messages=HI)

    assert refused.value.status == status
    assert len(fake_llm.requests) == 1


@pytest.mark.parametrize("service_type", ["custom", "anthropic"])
def test_garbage_is_a_bad_response(alice, fake_llm, private_ok, service_type):
    fake_llm.reply_garbage()

    with pytest.raises(LLMBadResponse, match="not valid JSON"):
        complete(config_on_fake(alice, fake_llm, service_type), messages=HI)
    assert len(fake_llm.requests) == 1


@pytest.mark.parametrize("service_type", ["custom", "anthropic"])
def test_an_empty_reply_is_a_bad_response(alice, fake_llm, private_ok, service_type):
    fake_llm.reply_empty()

    with pytest.raises(LLMBadResponse, match="empty reply"):
        complete(config_on_fake(alice, fake_llm, service_type), messages=HI)


def test_an_empty_reply_can_be_accepted_when_asked_for(alice, fake_llm, private_ok):
    fake_llm.reply_empty()

    result = complete(config_on_fake(alice, fake_llm), messages=HI, allow_empty=True)

    assert (result.text, result.tool_calls) == ("", [])


@pytest.mark.parametrize("service_type", ["custom", "anthropic"])
def test_a_slow_service_times_out_without_a_retry(alice, fake_llm, private_ok, service_type):
    fake_llm.reply_delay(5)

    with pytest.raises(LLMTimeout, match="did not answer within 0.3 seconds"):
        complete(config_on_fake(alice, fake_llm, service_type), messages=HI, timeout=0.3)
    assert len(fake_llm.requests) == 1


@pytest.mark.parametrize("service_type", ["custom", "anthropic"])
def test_a_closed_port_is_unavailable(alice, private_ok, service_type):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # nothing listens here once the probe closes
    service = ai_service_create(
        user=alice,
        service_name="gone",
        service_type=service_type,
        api_key=SECRET,
        model_name="m",
        custom_url=f"http://127.0.0.1:{port}",
        is_active=True,
    )

    with pytest.raises(LLMUnavailable, match=f"could not be reached at http://127.0.0.1:{port}"):
        complete(config_for(service, alice), messages=HI)


@pytest.mark.parametrize("service_type", ["custom", "anthropic"])
def test_a_redirect_is_not_followed(alice, fake_llm, private_ok, service_type):
    fake_llm.reply_redirect("http://93.184.216.34/v1/chat/completions")

    with pytest.raises(LLMBadResponse, match="redirect"):
        complete(config_on_fake(alice, fake_llm, service_type), messages=HI)
    assert len(fake_llm.requests) == 1


def test_a_rejected_request_names_the_providers_reason(alice, fake_llm, private_ok):
    fake_llm.reply_error(404, {"error": {"message": "The model 'nope' does not exist"}})

    with pytest.raises(LLMError, match="refused the request \\(404\\): The model 'nope'"):
        complete(config_on_fake(alice, fake_llm), messages=HI)


@pytest.mark.parametrize("service_type", ["custom", "anthropic"])
@pytest.mark.parametrize("status", [400, 401, 429, 500])
def test_the_api_key_never_appears_in_errors_or_logs(
    alice, fake_llm, private_ok, caplog, service_type, status
):
    # Providers do quote keys back ("Incorrect API key provided: sk-...").
    echo = {"error": {"message": f"Incorrect API key provided: {SECRET}", "type": "x"}}
    for _ in range(3):
        fake_llm.reply_error(status, echo)
    caplog.set_level(logging.DEBUG)
    for name in ("LiteLLM", "httpx", "openai", "chat"):
        caplog.set_level(logging.DEBUG, logger=name)

    with pytest.raises(LLMError) as failed:
        complete(config_on_fake(alice, fake_llm, service_type), messages=HI)

    assert fake_llm.last.api_key == SECRET  # it was sent, where the provider reads it
    assert SECRET not in str(failed.value)
    assert SECRET not in repr(failed.value)
    assert failed.value.__cause__ is None
    assert SECRET not in caplog.text
    assert "LLM call failed" in caplog.text


def test_the_api_key_is_not_logged_on_success(alice, fake_llm, private_ok, caplog):
    fake_llm.reply_text("fine")
    caplog.set_level(logging.DEBUG)
    for name in ("LiteLLM", "httpx", "openai", "chat"):
        caplog.set_level(logging.DEBUG, logger=name)

    complete(config_on_fake(alice, fake_llm, "anthropic"), messages=HI)

    assert SECRET not in caplog.text


# the guard at call time ------------------------------------------------------------------------
@pytest.mark.parametrize("service_type", ["custom", "anthropic", "ollama"])
def test_calls_go_to_the_checked_address_even_if_dns_changes(
    alice, fake_llm, private_ok, dns, service_type
):
    dns.answers["llm.example.test"] = ["127.0.0.1"]
    path = "/v1" if service_type == "custom" else ""
    url = f"http://llm.example.test:{fake_llm.port}{path}"
    service = service_for(alice, fake_llm, service_type, url=url, model="m")
    dns.lookups.clear()  # saving checked the URL too; what matters is the turn's one lookup
    config = config_for(service, alice)
    dns.answers["llm.example.test"] = ["10.66.66.66"]  # rebinding after the check
    fake_llm.reply_text("one").reply_text("two")

    first = complete(config, messages=HI)
    second = complete(config, messages=HI)

    assert (first.text, second.text) == ("one", "two")
    assert dns.lookups == ["llm.example.test"]
    assert fake_llm.last.headers["host"] == f"llm.example.test:{fake_llm.port}"


# tokens and the settings page ------------------------------------------------------------------
def test_count_tokens_grows_with_the_prompt_and_the_tools(alice, fake_llm, private_ok):
    config = config_on_fake(alice, fake_llm, "anthropic")

    short = count_tokens(config, messages=HI)
    longer = count_tokens(config, messages=[{"role": "user", "content": "eggs " * 200}])
    with_tools = count_tokens(config, messages=HI, tools=[LOG_FOOD])

    assert 0 < short < longer
    assert with_tools > short
    assert count_tokens("openai/gpt-4.1-mini", text="hello world") > 0
    assert fake_llm.requests == []  # counted offline


def test_test_connection_reports_success(alice, fake_llm, private_ok):
    fake_llm.reply_text("ok")

    result = test_connection(config_on_fake(alice, fake_llm, "anthropic"))

    assert result.ok is True
    assert result.message.startswith("Connected: Anthropic (fake-model) answered in ")


def test_test_connection_reports_a_bad_key_plainly(alice, fake_llm, private_ok):
    fake_llm.reply_error(401)

    result = test_connection(config_on_fake(alice, fake_llm))

    assert result.ok is False and result.cause == "key_rejected"
    assert "rejected the API key (401)" in result.message
    assert SECRET not in result.message
