"""A broker outage costs the progress summary, never the chat turn."""

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
def test_a_logging_turn_still_answers_when_the_broker_is_down(dead_broker, alice):
    response = handle_turn(alice, "3 glasses of water")

    assert response.action == "logged"
    assert WaterIntake.objects.get(user=alice).glasses_consumed == 3
    assert ChatMessage.objects.filter(pk=response.message_id).exists()
    assert not ChatMessage.objects.filter(metadata__kind="progress_summary").exists()
