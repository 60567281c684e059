"""The Idempotency-Key of a chat turn, as payment APIs keep theirs: the same request again gets the
first answer; a key over the limit is refused (never shortened); the same key for another request
is a 422 naming what differs; and keys are per user, so two users' equal keys are two turns."""

import pytest

from chat.models import ChatMessage
from nutrition.models import FoodEntry

pytestmark = pytest.mark.django_db


def turn(api, message, key, **extra):
    return api.post(
        "/api/chat/", {"message": message, **extra}, format="json", HTTP_IDEMPOTENCY_KEY=key
    )


def test_a_key_over_100_characters_is_a_400_and_nothing_is_stored(alice_api, alice, catalog):
    shared = "k" * 100
    for key in (shared + "1", shared + "2"):
        response = turn(alice_api, "2 eggs for breakfast", key)

        assert response.status_code == 400, response.content
        body = response.json()
        assert body["error"] == "bad_idempotency_key"
        assert body["detail"] == (
            "The Idempotency-Key is 101 characters long; the limit is 100. "
            "Send a shorter key (a UUID is 36)."
        )
    assert not ChatMessage.objects.for_user(alice).exists()
    assert not FoodEntry.objects.for_user(alice).exists()


def test_a_key_of_exactly_100_characters_is_kept_whole(alice_api, alice, catalog):
    key = "k" * 99 + "1"

    assert turn(alice_api, "2 eggs for breakfast", key).status_code == 200
    assert ChatMessage.objects.for_user(alice).get(message_type="user").idempotency_key == key


def test_the_key_as_a_field_over_the_limit_is_a_400_too(alice_api, alice):
    response = alice_api.post(
        "/api/chat/", {"message": "2 eggs", "idempotency_key": "k" * 101}, format="json"
    )

    assert response.status_code == 400
    assert not ChatMessage.objects.for_user(alice).exists()


def test_the_same_key_with_another_message_is_a_422_and_the_first_turn_stands(
    alice_api, alice, catalog
):
    first = turn(alice_api, "2 eggs for breakfast", "order-1")

    second = turn(alice_api, "a banana", "order-1")

    assert second.status_code == 422, second.content
    body = second.json()
    assert body["error"] == "idempotency_conflict"
    assert body["detail"].startswith(
        "This Idempotency-Key was already used for another request (the message differs)."
    )
    assert ChatMessage.objects.for_user(alice).filter(message_type="user").count() == 1
    assert [e.food.name for e in FoodEntry.objects.for_user(alice)] == ["Egg, whole, raw, fresh"]
    again = turn(alice_api, "2 eggs for breakfast", "order-1")
    assert again.status_code == 200
    assert again.json()["message_id"] == first.json()["message_id"]


def test_the_same_key_with_other_categories_is_a_422_naming_them(alice_api, catalog):
    turn(alice_api, "2 eggs for breakfast", "order-2", categories=["food"])

    response = turn(alice_api, "2 eggs for breakfast", "order-2", categories=["food", "exercise"])

    assert response.status_code == 422
    assert "(the tool categories differs)" in response.json()["detail"]


@pytest.mark.django_db(transaction=True)  # the streamed turn runs in a thread of its own
def test_a_streamed_turn_reusing_a_key_gets_the_422_as_json(alice_api, catalog):
    turn(alice_api, "2 eggs for breakfast", "order-3")

    response = alice_api.post(
        "/api/chat/",
        {"message": "a banana"},
        format="json",
        HTTP_IDEMPOTENCY_KEY="order-3",
        HTTP_ACCEPT="text/event-stream",
    )

    assert response.status_code == 422
    assert response.json()["error"] == "idempotency_conflict"


def test_two_users_sending_the_same_key_each_get_their_own_turn(
    alice_api, bob_api, alice, bob, catalog
):
    alices = turn(alice_api, "2 eggs for breakfast", "shared-key")
    bobs = turn(bob_api, "2 eggs for breakfast", "shared-key")

    assert alices.status_code == bobs.status_code == 200
    assert alices.json()["message_id"] != bobs.json()["message_id"]
    assert FoodEntry.objects.for_user(alice).count() == 1
    assert FoodEntry.objects.for_user(bob).count() == 1
    assert ChatMessage.objects.for_user(bob).filter(message_type="user").count() == 1
    # And each one's retry answers with their own turn.
    assert (
        turn(bob_api, "2 eggs for breakfast", "shared-key").json()["message_id"]
        == (bobs.json()["message_id"])
    )
    assert turn(alice_api, "a banana", "shared-key").status_code == 422
