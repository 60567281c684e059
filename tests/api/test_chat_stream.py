"""`POST /api/chat/` with `Accept: text/event-stream`: the turn as server-sent events (the step
being run, the reply as it is written, each entry once saved, then the answer), with the model
played by the scripted server. The turn runs in a thread of its own, so these tests commit their
data."""

import json
import threading
import time

import httpx
import pytest

from aiservices.services import ai_service_create
from chat.models import ChatMessage
from nutrition.models import FoodEntry
from sparky.api import token_issue
from tests.fake_llm import Reply
from tests.mcp import conftest as mcp_fixtures

pytestmark = pytest.mark.django_db(transaction=True)

mcp_url = mcp_fixtures.mcp_url  # config.asgi under uvicorn, as `make run` serves it

SSE = "text/event-stream"


def parse(chunks) -> list[tuple[str, dict]]:
    """The events of a stream body, in order: [(name, data)]; comment lines are skipped."""
    text = b"".join(chunks).decode()
    events = []
    for block in text.split("\n\n"):
        lines = [line for line in block.splitlines() if line and not line.startswith(":")]
        if not lines:
            continue
        fields = dict(line.split(": ", 1) for line in lines)
        events.append((fields["event"], json.loads(fields["data"])))
    return events


def stream(client, message: str, **headers) -> list[tuple[str, dict]]:
    response = client.post(
        "/api/chat/", {"message": message}, format="json", HTTP_ACCEPT=SSE, **headers
    )
    assert response.status_code == 200
    assert response["Content-Type"].startswith(SSE)
    return parse(response.streaming_content)


def named(events, name: str) -> list[dict]:
    return [data for event, data in events if event == name]


@pytest.fixture
def model(alice, fake_llm, settings):
    settings.SPARKY_ALLOW_PRIVATE_AI_URLS = True  # the fake lives on loopback
    settings.SPARKY_LLM_TIMEOUT = 10
    return ai_service_create(
        user=alice,
        service_name="Loopback",
        service_type="custom",
        api_key="sk-test-alice-0001",
        model_name="fake-model",
        custom_url=fake_llm.openai_base,
        is_active=True,
    )


def test_the_offline_parser_streams_its_reply_at_once(alice_api, alice, catalog):
    events = stream(alice_api, "2 eggs for breakfast")

    assert [e for e, _ in events] == ["step", "entry", "text", "done"]
    assert named(events, "step") == [{"text": "Reading your message…"}]
    entry = named(events, "entry")[0]
    saved = FoodEntry.objects.for_user(alice).get()
    assert entry["id"] == str(saved.pk) and entry["kind"] == "food_entry"
    assert entry["chip"].startswith("Egg · ")
    done = named(events, "done")[0]
    assert named(events, "text") == [{"text": done["message"]}]  # the whole reply at once
    assert done["action"] == "logged" and done["engine"] == "offline"
    assert done["entries"][0]["id"] == str(saved.pk)
    stored = ChatMessage.objects.for_user(alice).get(pk=done["message_id"])
    assert stored.content == done["message"]


def test_a_model_turn_names_its_steps_and_streams_its_words(
    alice_api, alice, catalog, model, fake_llm
):
    fake_llm.reply_tool_call("log_food", {"food_name": "banana", "quantity": 1})
    fake_llm.reply_text("Logged a medium banana for you. Enjoy!", token_delay=0.01)

    events = stream(alice_api, "a banana")

    order = [e for e, _ in events]
    steps = [d["text"] for d in named(events, "step")]
    assert steps[0] == "Reading your message…"
    assert steps.count("Looking up banana…") == 1  # named as the model wrote it, said once
    assert order.index("entry") < order.index("text") < order.index("done")
    assert len(named(events, "text")) > 1  # word by word, as the model wrote it
    written = "".join(d["text"] for d in named(events, "text"))
    assert written == "Logged a medium banana for you. Enjoy!"
    done = named(events, "done")[0]
    assert done["action"] == "logged"
    assert done["entries"][0]["id"] == named(events, "entry")[0]["id"]
    assert FoodEntry.objects.for_user(alice).count() == 1
    for line in steps:  # plain words only
        assert "log_food" not in line and "fake-model" not in line
    assert all(request.stream for request in fake_llm.completion_requests)


@pytest.mark.parametrize(
    ("service_type", "model_name", "base"),
    [
        ("anthropic", "claude-haiku-4-5", "anthropic_base"),
        ("ollama", "gemma2:2b", "ollama_base"),
    ],
)
def test_other_providers_stream_through_the_same_events(
    alice_api, alice, catalog, fake_llm, settings, service_type, model_name, base
):
    settings.SPARKY_ALLOW_PRIVATE_AI_URLS = True
    ai_service_create(
        user=alice,
        service_name="Another",
        service_type=service_type,
        api_key="sk-test-0002",
        model_name=model_name,
        custom_url=getattr(fake_llm, base),
        tool_profile="full",
        sparky_reads_first=False,
        is_active=True,
    )
    fake_llm.reply_tool_call("log_food", {"food_name": "banana", "quantity": 1})
    fake_llm.reply_text("Logged a medium banana for your snack.")

    events = stream(alice_api, "a banana")

    assert "Looking up banana…" in [d["text"] for d in named(events, "step")]
    assert "".join(d["text"] for d in named(events, "text")) == (
        "Logged a medium banana for your snack."
    )
    assert named(events, "done")[0]["action"] == "logged"
    assert all(r.stream for r in fake_llm.completion_requests)
    assert FoodEntry.objects.for_user(alice).count() == 1


@pytest.mark.parametrize(
    "written",
    [
        '{"name": "log_food", "arguments": {"food_name": "banana"}}',
        'Sure, logging it now.\n```json\n{"name": "log_food", "arguments": {"food_name": '
        '"banana"}}\n```',
    ],
    ids=["alone", "after-words"],
)
def test_a_tool_call_written_as_text_is_never_streamed(
    alice_api, alice, catalog, model, fake_llm, written
):
    fake_llm.enqueue(Reply.message(written, token_delay=0.001))
    fake_llm.reply_text("Logged a banana for you, a fine snack.", token_delay=0.001)

    events = stream(alice_api, "a banana")

    streamed = "".join(d["text"] for d in named(events, "text"))
    assert "log_food" not in streamed and "```" not in streamed and "{" not in streamed
    assert "Logged a banana" in streamed
    assert FoodEntry.objects.for_user(alice).count() == 1
    assert named(events, "done")[0]["action"] == "logged"


def test_a_retry_with_the_same_key_gets_the_stored_reply_and_logs_nothing_again(
    alice_api, alice, catalog
):
    first = stream(alice_api, "2 eggs for breakfast", HTTP_IDEMPOTENCY_KEY="same-1")
    again = stream(alice_api, "2 eggs for breakfast", HTTP_IDEMPOTENCY_KEY="same-1")

    assert [e for e, _ in again] == ["done"]
    a, b = named(first, "done")[0], named(again, "done")[0]
    for field in ("message", "action", "entries", "message_id", "user_message_id"):
        assert a[field] == b[field], field
    assert FoodEntry.objects.for_user(alice).count() == 1


def test_a_refused_turn_answers_400_in_json_and_stores_nothing(alice_api, alice):
    response = alice_api.post("/api/chat/", {"message": "  "}, format="json", HTTP_ACCEPT=SSE)

    assert response.status_code == 400
    assert response.json() == {"error": "empty", "detail": "Type a message or attach a photo."}
    assert not ChatMessage.objects.for_user(alice).exists()


def test_a_dropped_connection_still_stores_the_turn_once(
    live_server, alice, catalog, model, fake_llm
):
    fake_llm.reply_tool_call("log_food", {"food_name": "banana", "quantity": 1})
    fake_llm.reply_text(
        "Logged a medium banana for your snack, a good choice before a run.", token_delay=0.2
    )
    token = token_issue(user=alice).key
    headers = {"Authorization": f"Token {token}", "Accept": SSE, "Idempotency-Key": "drop-1"}

    with (
        httpx.Client(base_url=live_server.url, timeout=20) as client,
        client.stream("POST", "/api/chat/", json={"message": "a banana"}, headers=headers) as r,
    ):
        assert r.status_code == 200
        for line in r.iter_lines():
            if line == "event: text":
                break  # the reader goes away while the reply is being written
    reply = _wait_for_reply(alice)

    assert FoodEntry.objects.for_user(alice).count() == 1
    assert reply.content.startswith("Logged a medium banana")
    assert replies(alice).count() == 1

    with httpx.Client(base_url=live_server.url, timeout=20) as client:
        retry = client.post("/api/chat/", json={"message": "a banana"}, headers=headers)
    assert parse([retry.content]) == [("done", _done_of(parse([retry.content])))]
    assert _done_of(parse([retry.content]))["message_id"] == str(reply.pk)
    assert FoodEntry.objects.for_user(alice).count() == 1


def test_a_retry_while_the_first_is_still_answered_waits_for_that_answer(
    live_server, alice, catalog, model, fake_llm
):
    fake_llm.reply_tool_call("log_food", {"food_name": "banana", "quantity": 1})
    answer = "Logged a medium banana for your snack, well done."
    fake_llm.reply_text(answer, token_delay=0.3)
    headers = {
        "Authorization": f"Token {token_issue(user=alice).key}",
        "Accept": SSE,
        "Idempotency-Key": "twice-1",
    }

    with (
        httpx.Client(base_url=live_server.url, timeout=30, headers=headers) as client,
        client.stream("POST", "/api/chat/", json={"message": "a banana"}) as first,
    ):
        lines = first.iter_lines()
        while next(lines) != "event: text":
            pass  # the first request is being answered...
        retry = client.post("/api/chat/", json={"message": "a banana"})  # ...and sent again
        rest = list(lines)
    events = parse([retry.content])

    assert named(events, "step") == [
        {"text": "Sparky is already answering this message: waiting for that answer…"}
    ]
    assert named(events, "done")[0]["message"] == answer
    assert any("done" in line for line in rest)  # the first request got its answer too
    assert FoodEntry.objects.for_user(alice).count() == 1
    assert replies(alice).count() == 1


def replies(user):
    """The user's replies from Sparky (not the progress notes that follow them)."""
    return ChatMessage.objects.for_user(user).filter(metadata__has_key="reply_to")


def _done_of(events) -> dict:
    return named(events, "done")[0]


def _wait_for_reply(user, seconds: float = 15) -> ChatMessage:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        reply = replies(user).first()
        if reply is not None:
            return reply
        time.sleep(0.1)
    raise AssertionError(f"no reply stored in {seconds} s; threads: {threading.active_count()}")


def test_under_the_asgi_server_the_words_arrive_while_they_are_written(
    mcp_url, alice, catalog, model, fake_llm
):
    fake_llm.reply_tool_call("log_food", {"food_name": "banana", "quantity": 1})
    fake_llm.reply_text(
        "Logged a medium banana for your snack, a good choice before a run.", token_delay=0.2
    )
    headers = {"Authorization": f"Token {token_issue(user=alice).key}", "Accept": SSE}
    names: list[str] = []
    stored_at_first_words = None

    with (
        httpx.Client(base_url=mcp_url, timeout=20) as client,
        client.stream("POST", "/api/chat/", json={"message": "a banana"}, headers=headers) as r,
    ):
        assert r.status_code == 200 and r.headers["content-type"].startswith(SSE)
        for line in r.iter_lines():
            if line.startswith("event: "):
                names.append(line[7:])
                if names[-1] == "text" and stored_at_first_words is None:
                    stored_at_first_words = replies(alice).count()

    assert names[0] == "step" and names[-1] == "done" and "entry" in names
    # 11 words 0.2 s apart: the first reach the client while the model is still writing, before
    # the reply is stored (bench/timings.py measures the spread).
    assert stored_at_first_words == 0
    assert names.count("text") > 1
    assert replies(alice).count() == 1
    assert FoodEntry.objects.for_user(alice).count() == 1


def test_under_the_asgi_server_a_dropped_connection_still_stores_the_turn_once(
    mcp_url, alice, catalog, model, fake_llm
):
    fake_llm.reply_tool_call("log_food", {"food_name": "banana", "quantity": 1})
    fake_llm.reply_text("Logged a medium banana, a fine snack before a long run.", token_delay=0.2)
    headers = {"Authorization": f"Token {token_issue(user=alice).key}", "Accept": SSE}

    with (
        httpx.Client(base_url=mcp_url, timeout=20) as client,
        client.stream("POST", "/api/chat/", json={"message": "a banana"}, headers=headers) as r,
    ):
        for line in r.iter_lines():
            if line == "event: text":
                break
    reply = _wait_for_reply(alice)

    assert reply.content.startswith("Logged a medium banana, a fine snack")
    assert replies(alice).count() == 1
    assert FoodEntry.objects.for_user(alice).count() == 1


def test_the_stream_and_its_events_are_in_the_openapi_description(alice_api):
    schema = alice_api.get("/api/schema/", {"format": "json"}).json()
    turn = schema["paths"]["/api/chat/"]["post"]

    assert SSE in turn["responses"]["200"]["content"]
    assert "application/json" in turn["responses"]["200"]["content"]
    for event in ("`step`", "`text`", "`entry`", "`done`", "`error`"):
        assert event in turn["description"], event


def test_a_models_thinking_is_not_streamed_but_the_answer_after_it_is(
    alice_api, alice, catalog, model, fake_llm
):
    # "good for me" is a request for advice: the coaching tools, with no classifier request
    fake_llm.reply_text(
        "<think>The user asks about bananas; no tool is needed.</think>"
        "Bananas are a good source of potassium.",
        token_delay=0.01,
    )

    events = stream(alice_api, "are bananas good for me?")

    written = "".join(d["text"] for d in named(events, "text"))
    assert written == "Bananas are a good source of potassium."
    assert named(events, "done")[0]["message"] == "Bananas are a good source of potassium."
