"""Chat history: paginated, newest last, progress summaries marked; clearing; alice's only."""

import pytest

from chat.models import ChatMessage
from chat.turn.coach import handle_turn
from nutrition import services

from .conftest import results

pytestmark = pytest.mark.django_db


@pytest.fixture
def egg(alice):
    return services.food_create_custom(
        user=alice, name="Egg", serving_size=1, serving_unit="large", calories=72, protein=6.3
    )


def test_history_is_oldest_first_with_the_summary_marked(
    alice_api, alice, egg, django_capture_on_commit_callbacks
):
    handle_turn(alice, "hello there")
    with django_capture_on_commit_callbacks(execute=True):  # the summary is queued on commit
        reply = handle_turn(alice, "2 eggs for breakfast")
    rows = results(alice_api.get("/api/chat/history/"))
    assert [r["role"] for r in rows[:4]] == ["user", "assistant", "user", "assistant"]
    assert rows[0]["content"] == "hello there"
    times = [r["created_at"] for r in rows]
    assert times == sorted(times)
    summaries = [r for r in rows if r["kind"] == "progress_summary"]
    assert len(summaries) == 1 and summaries[0]["summary_for"] == reply.message_id
    logged = next(r for r in rows if r["id"] == reply.message_id)
    assert logged["action"] == "logged" and logged["entries"][0]["kind"] == "food_entry"
    assert logged["reply_to"] == reply.user_message_id


def test_history_is_paginated(alice_api, alice):
    for i in range(3):
        handle_turn(alice, f"message {i}")
    page = alice_api.get("/api/chat/history/", {"limit": 2, "offset": 2}).json()
    assert page["count"] == 6 and len(page["results"]) == 2
    assert page["results"][0]["content"] == "message 1"


def test_clearing_deletes_only_alices_history(alice_api, alice, bob):
    handle_turn(alice, "hello")
    handle_turn(bob, "hello")
    response = alice_api.delete("/api/chat/history/")
    assert response.status_code == 200 and response.json() == {"deleted": 2}
    assert not ChatMessage.objects.for_user(alice).exists()
    assert ChatMessage.objects.for_user(bob).count() == 2


def test_bob_sees_none_of_alices_messages(alice, bob_api):
    handle_turn(alice, "my secret diary")
    assert results(bob_api.get("/api/chat/history/")) == []
    bob_api.delete("/api/chat/history/")
    assert ChatMessage.objects.for_user(alice).count() == 2
