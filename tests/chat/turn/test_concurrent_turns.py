"""Two requests of one user at the same time, on two database connections (threads)."""

import threading
import time

import pytest
from django.db import connections

from chat.models import ChatMessage
from chat.turn.coach import handle_turn
from nutrition.models import FoodEntry
from tests.fake_llm import Reply, ToolCall


@pytest.mark.django_db(transaction=True)
def test_a_retry_sent_while_the_first_request_is_in_flight_gets_the_first_answer(
    alice, catalog, openai_service, fake_llm
):
    # The first step of the first request is slow, so the retry arrives mid-turn.
    call = ToolCall("log_food", {"food_name": "egg", "quantity": 2, "meal_type": "breakfast"})
    fake_llm.enqueue(Reply.message(None, [call]).delayed(1.5))
    first = {}

    def original():
        try:
            first["response"] = handle_turn(alice, "2 eggs for breakfast", idempotency_key="k-1")
        finally:
            connections.close_all()

    thread = threading.Thread(target=original)
    thread.start()
    deadline = time.monotonic() + 10
    while not ChatMessage.objects.filter(idempotency_key="k-1").exists():
        assert time.monotonic() < deadline, "the first request never stored its message"
        time.sleep(0.05)

    retry = handle_turn(alice, "2 eggs for breakfast", idempotency_key="k-1")
    thread.join(timeout=30)

    assert retry.action == "logged"
    assert retry.message_id == first["response"].message_id
    assert retry.message == "Logged 2 large eggs (143 kcal) for breakfast."
    assert FoodEntry.objects.for_user(alice).count() == 1
    assert ChatMessage.objects.for_user(alice).filter(message_type="user").count() == 1
    assert len(fake_llm.completion_requests) == 1  # the retry never reached the model


@pytest.mark.django_db(transaction=True)
def test_an_option_picked_twice_at_once_is_logged_once(alice, catalog):
    # offline: catalog options (a food the catalog lacks that is no dish: a smoothie is offered
    # only as a smoothie, and this small catalog has none)
    offered = handle_turn(alice, "had banana chips for lunch")
    assert offered.action == "options"
    start = threading.Barrier(2)
    answers = []

    def pick(key):
        try:
            start.wait()
            answers.append(handle_turn(alice, "1", idempotency_key=key))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=pick, args=(f"tap-{i}",)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)

    assert FoodEntry.objects.for_user(alice).count() == 1
    assert sorted(a.action for a in answers) == ["none", "selected"]
    late = next(a for a in answers if a.action == "none")
    assert "no longer open" in late.message
