"""A broker outage costs neither the chat turn nor its progress summary: one WARNING line, and the
summary is written in-process as with no broker."""

import logging
import socket

import pytest

from chat.models import ChatMessage
from chat.turn.coach import handle_turn
from config.celery import app
from nutrition.models import WaterIntake


@pytest.fixture
def dead_broker(settings):
    with socket.socket() as sock:  # a port nothing listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    url = f"redis://127.0.0.1:{port}/5"
    saved = {k: app.conf[k] for k in ("broker_url", "task_always_eager")}
    settings.CELERY_BROKER_URL = url
    app.conf.update(broker_url=url, task_always_eager=False)
    app._pool = None
    app.amqp._producer_pool = None
    yield url
    app.conf.update(saved)
    app._pool = None
    app.amqp._producer_pool = None


@pytest.mark.django_db(transaction=True)
def test_a_logging_turn_answers_and_gets_its_summary_when_the_broker_is_down(
    dead_broker, alice, caplog
):
    with caplog.at_level(logging.INFO):
        response = handle_turn(alice, "3 glasses of water")

    assert response.action == "logged"
    assert WaterIntake.objects.get(user=alice).glasses_consumed == 3
    assert ChatMessage.objects.filter(pk=response.message_id).exists()
    summary = ChatMessage.objects.get(metadata__kind="progress_summary")
    assert summary.metadata["summary_for"] == str(response.message_id)
    trouble = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert [(r.levelname, r.exc_info) for r in trouble] == [("WARNING", None)]
    assert "broker is unreachable" in trouble[0].getMessage()


@pytest.mark.django_db(transaction=True)
def test_an_import_confirmed_while_the_broker_is_down_still_runs(dead_broker, alice, caplog):
    from diary.imports import import_confirm, import_get, import_preview
    from nutrition.models import FoodEntry

    job = import_preview(
        user=alice,
        filename="log.csv",
        content=b"Day,Group,Food Name,Amount,Energy (kcal)\n2026-11-02,Lunch,Pho,1.00 bowl,450\n",
    )

    with caplog.at_level(logging.WARNING):
        import_confirm(user=alice, job_id=job.pk)

    assert import_get(user=alice, job_id=job.pk).status == "done"
    assert FoodEntry.objects.for_user(alice).count() == 1
    assert "the import runs in-process" in caplog.text
