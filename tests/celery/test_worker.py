"""Celery tasks run by a real worker on Redis (tests/worker.py), writing to the pytest database."""

import datetime as dt
import time
import uuid

import pytest
from django.conf import settings
from django.utils import timezone

from chat.models import ChatMessage
from chat.tasks import auto_clear_history_task
from chat.turn.coach import handle_turn
from chat.turn.summaries import KIND, create_progress_summary
from config.celery import app
from diary.services import preferences_update

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]
WAIT_SECONDS = 30


def summaries_of(user):
    return ChatMessage.objects.for_user(user).filter(metadata__kind=KIND)


def wait_for_summary(user, reply_id: str) -> ChatMessage:
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        found = summaries_of(user).filter(metadata__summary_for=reply_id).first()
        if found is not None:
            return found
        time.sleep(0.2)
    raise AssertionError(f"no progress summary for {reply_id} within {WAIT_SECONDS} s")


def test_the_beat_schedule_names_a_task_the_worker_runs(worker):
    entry = settings.CELERY_BEAT_SCHEDULE["auto-clear-chat-history"]
    registered = app.control.inspect(destination=[worker.name], timeout=5).registered()

    tasks = set(registered[worker.name])
    assert entry["task"] == "chat.tasks.auto_clear_history_task"
    assert entry["task"] in tasks
    assert {"chat.tasks.progress_summary_task", "config.tasks.catalog_import_task"} <= tasks
    assert app.conf.beat_schedule == settings.CELERY_BEAT_SCHEDULE


def test_a_water_turn_gets_exactly_one_summary_written_by_the_worker(worker, alice):
    response = handle_turn(alice, "3 glasses of water")

    assert response.action == "logged"
    summary = wait_for_summary(alice, response.message_id)
    assert summaries_of(alice).count() == 1
    assert summary.message_type == "assistant"
    assert summary.metadata["date"] == response.entries[0]["date"]
    assert "water 3/8 glasses" in summary.content
    assert "Tip:" in summary.content
    assert "chat.tasks.progress_summary_task" in worker.log_text()
    # The same reply summarised again (a retried task) still has one summary.
    assert create_progress_summary(message_id=response.message_id).id == summary.id
    assert summaries_of(alice).count() == 1


def test_a_multi_item_turn_gets_one_summary_for_all_items(worker, alice, catalog):
    response = handle_turn(alice, "2 eggs and a banana for breakfast")

    assert response.action == "logged", response.message
    assert len(response.entries) == 2
    summary = wait_for_summary(alice, response.message_id)
    assert summaries_of(alice).count() == 1
    assert "kcal eaten" in summary.content
    assert summary.session_id == ChatMessage.objects.get(pk=response.message_id).session_id


def test_a_turn_that_logs_nothing_gets_no_summary(worker, alice):
    logged = handle_turn(alice, "3 glasses of water")
    wait_for_summary(alice, logged.message_id)

    chatted = handle_turn(alice, "hello")

    assert not chatted.entries
    # The worker handles tasks in order; a later logging turn's summary proves it got this far.
    later = handle_turn(alice, "1 glass of water")
    wait_for_summary(alice, later.message_id)
    assert not summaries_of(alice).filter(metadata__summary_for=chatted.message_id).exists()
    assert summaries_of(alice).count() == 2


def test_auto_clear_on_the_worker_deletes_old_messages_of_7day_users_only(worker, alice, bob):
    preferences_update(user=alice, auto_clear_history="7days")
    preferences_update(user=bob, auto_clear_history="never")
    old = timezone.now() - dt.timedelta(days=8)
    for user in (alice, bob):
        session = uuid.uuid4()
        ChatMessage.objects.create(
            user=user, session_id=session, message_type="user", content="old", created_at=old
        )
        ChatMessage.objects.create(
            user=user, session_id=session, message_type="user", content="new"
        )

    first = auto_clear_history_task.delay().get(timeout=WAIT_SECONDS)
    second = auto_clear_history_task.delay().get(timeout=WAIT_SECONDS)

    assert first == 1
    assert second == 0
    assert list(ChatMessage.objects.for_user(alice).values_list("content", flat=True)) == ["new"]
    assert sorted(ChatMessage.objects.for_user(bob).values_list("content", flat=True)) == [
        "new",
        "old",
    ]
