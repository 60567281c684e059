"""Provider faults: every case ends in a clear reply, the user's message is kept, nothing is
half-written, and the next turn works. Plus the circuit to the offline parser, and a turn killed
between two tool calls."""

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.db import connection

from aiservices.services import ai_service_create
from chat.models import ChatMessage
from chat.turn.coach import handle_turn
from nutrition.models import FoodEntry
from tests.worker import database_url

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[3]


def user_messages(user):
    return list(
        ChatMessage.objects.for_user(user)
        .filter(message_type="user")
        .values_list("content", flat=True)
    )


def next_turn_works(alice, fake_llm):
    fake_llm.reply_tool_call("log_food", {"food_name": "banana"})
    fake_llm.reply_text("Logged a banana.")
    response = handle_turn(alice, "a banana for a snack")
    assert response.action == "logged", response.message


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_connection_refused_is_explained_and_the_message_kept(alice, catalog, ai_settings):
    ai_service_create(
        user=alice,
        service_name="Dead",
        service_type="custom",
        api_key="x",
        model_name="m",
        custom_url=f"http://127.0.0.1:{closed_port()}/v1",
        is_active=True,
    )
    response = handle_turn(alice, "2 eggs for breakfast")
    question = handle_turn(alice, "any advice for a better sleep routine?")

    # the meal is logged all the same, by the offline parser, and the reply says why
    assert response.action == "logged" and response.engine == "offline"
    assert "couldn't be reached" in response.message and "Sparky answered this" in response.message
    assert "127.0.0.1" not in response.message
    assert FoodEntry.objects.for_user(alice).get().quantity == 2
    # a question that needs the model says what is wrong with the service
    assert question.action == "error" and question.error == "LLMUnavailable"
    assert "couldn't be reached" in question.message and "Settings" in question.message
    assert user_messages(alice) == [
        "2 eggs for breakfast",
        "any advice for a better sleep routine?",
    ]


def test_a_429_with_retry_after_is_retried_once_and_succeeds(
    alice, catalog, openai_service, fake_llm
):
    fake_llm.reply_error(429, "slow down", retry_after=1)
    fake_llm.reply_tool_call("log_food", {"food_name": "egg", "quantity": 2})
    response = handle_turn(alice, "2 eggs for breakfast")
    assert response.action == "logged"
    # the 429 and its retry (the tool step); the confirmation is Sparky's own
    assert len(fake_llm.completion_requests) == 2
    assert FoodEntry.objects.for_user(alice).count() == 1


def test_a_provider_that_keeps_rate_limiting_gets_a_clear_message(
    alice, catalog, openai_service, fake_llm
):
    for _ in range(3):
        fake_llm.reply_error(429, "slow down", retry_after=0.1)
    response = handle_turn(alice, "2 eggs for breakfast")
    assert response.engine == "offline" and "busy right now" in response.message
    assert FoodEntry.objects.count() == 1  # logged offline while the service said wait
    next_turn_works(alice, fake_llm)


def test_a_tool_that_exists_but_was_not_offered_is_not_run(
    alice, catalog, openai_service, fake_llm
):
    fake_llm.reply_tool_call("log_exercise", {"exercise_name": "running", "duration_minutes": 30})
    fake_llm.reply_text("Done.")
    handle_turn(alice, "2 eggs for breakfast")
    tool_result = json.loads(
        next(m for m in fake_llm.last.messages if m.get("role") == "tool")["content"]
    )
    assert tool_result["ok"] is False
    assert "not offered" in tool_result["message"]
    assert "sparky_enable_tools" in tool_result["message"]
    from exercise.models import ExerciseEntry

    assert not ExerciseEntry.objects.exists()


def test_a_failure_after_a_logged_tool_call_keeps_that_whole_entry(
    alice, catalog, openai_service, fake_llm
):
    fake_llm.reply_tool_call("log_food", {"food_name": "egg", "quantity": 2})
    fake_llm.reply_error(500).reply_error(500)
    response = handle_turn(alice, "2 eggs and a banana for breakfast")  # the banana is left
    entry = FoodEntry.objects.for_user(alice).get()
    assert entry.quantity == 2
    assert "Already saved: Logged 2 large eggs (143 kcal) for breakfast." in response.message
    assert response.entries and response.entries[0]["id"] == str(entry.id)


def test_repeated_failures_open_the_circuit_and_logging_falls_back_to_the_offline_parser(
    alice, catalog, openai_service, fake_llm
):
    for _ in range(3):
        fake_llm.reply_error(500).reply_error(500)
        failed = handle_turn(alice, "2 eggs for breakfast")
        assert failed.engine == "offline" and "server error" in failed.message
    requests_so_far = len(fake_llm.requests)
    response = handle_turn(alice, "2 eggs for breakfast")
    assert len(fake_llm.requests) == requests_so_far  # the provider is left alone
    assert response.engine == "offline" and response.action == "logged"
    assert "failed several times in a row, so Sparky answered" in response.message
    assert FoodEntry.objects.for_user(alice).count() == 4
    assert len(user_messages(alice)) == 4


CHILD = """
import os, sys, django
os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
django.setup()
from chat.turn.coach import handle_turn
from sparky.models import User
handle_turn(User.objects.get(email=sys.argv[1]), sys.argv[2])
"""


@pytest.mark.django_db(transaction=True)
def test_a_turn_killed_between_tool_calls_leaves_whole_tool_calls_only(
    alice, catalog, openai_service, fake_llm
):
    fake_llm.reply_tool_call("log_food", {"food_name": "egg", "quantity": 2})
    fake_llm.reply_delay(60, then="never sent")  # the step after the first tool call hangs
    env = {
        **os.environ,
        "DATABASE_URL": database_url(connection.settings_dict),
        "SPARKY_ALLOW_PRIVATE_AI_URLS": "true",
        "SPARKY_LLM_TIMEOUT": "120",
        "SPARKY_LOCAL_LLM_TIMEOUT": "120",
    }
    env.pop("CELERY_BROKER_URL", None)
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, alice.email, "2 eggs and a banana"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 60
        while len(fake_llm.completion_requests) < 2 and time.monotonic() < deadline:
            assert child.poll() is None, child.stdout.read().decode()
            time.sleep(0.1)
        assert len(fake_llm.completion_requests) == 2, "the child never reached the second step"
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(10)
        fake_llm.reset()
    entries = list(FoodEntry.objects.for_user(alice))
    assert len(entries) == 1 and entries[0].quantity == 2  # the first call, whole
    assert user_messages(alice) == ["2 eggs and a banana"]
    assert not ChatMessage.objects.for_user(alice).filter(message_type="assistant").exists()
    next_turn_works(alice, fake_llm)


def test_a_retry_of_a_turn_that_died_gets_an_honest_answer_not_pending_forever(alice, catalog):
    import datetime as dt

    from django.utils import timezone

    died = ChatMessage.objects.create(
        user=alice, message_type="user", content="2 eggs", idempotency_key="key-died-1"
    )
    ChatMessage.objects.filter(pk=died.pk).update(
        created_at=timezone.now() - dt.timedelta(minutes=15)
    )
    first = handle_turn(alice, "2 eggs", idempotency_key="key-died-1")
    again = handle_turn(alice, "2 eggs", idempotency_key="key-died-1")
    assert first.action == "error" and first.error == "interrupted"
    assert "interrupted" in first.message and "diary" in first.message
    assert again.message_id == first.message_id
    assert user_messages(alice) == ["2 eggs"]
    assert not FoodEntry.objects.exists()  # nothing is replayed behind the user's back
