"""The review of a reply that waits before logging: its items in the turn's answer, logged with
the user's changes or dropped, through the API."""

from decimal import Decimal

import pytest

from chat.models import ChatMessage
from nutrition.models import FoodEntry
from nutrition.services import entry_nutrients

pytestmark = pytest.mark.django_db


def held(api) -> dict:
    body = api.post("/api/chat/", {"message": "0.01 eggs for breakfast"}, format="json").json()
    assert body["action"] == "confirm", body
    return body


def confirm(api, message_id, items=None):
    return api.post(
        f"/api/chat/messages/{message_id}/review/confirm/", {"items": items or []}, format="json"
    )


def test_the_turn_answer_lists_the_items_waiting_and_nothing_is_saved(alice_api, alice, catalog):
    body = held(alice_api)

    [item] = body["review"]
    assert item["index"] == 0 and "egg" in item["name"].lower()
    assert item["quantity"] == 0.01 and item["editable"] is True
    assert FoodEntry.objects.for_user(alice).count() == 0


def test_confirm_logs_the_item_with_its_changed_amount_and_meal(alice_api, alice, catalog):
    body = held(alice_api)

    response = confirm(
        alice_api, body["message_id"], [{"index": 0, "quantity": 2, "meal_type": "lunch"}]
    )

    assert response.status_code == 200, response.content
    assert response.json()["resolved"] == "logged"
    assert "egg" in response.json()["message"].lower()
    [entry] = FoodEntry.objects.for_user(alice)
    assert entry.quantity == Decimal("2") and entry.meal_type == "lunch"
    assert [e["id"] for e in response.json()["entries"]] == [str(entry.pk)]


def test_what_the_review_logged_is_taken_back_by_the_reply_undo(alice_api, alice, catalog):
    body = held(alice_api)
    confirm(alice_api, body["message_id"], [{"index": 0, "quantity": 2}])

    undone = alice_api.post(f"/api/chat/messages/{body['message_id']}/undo/")

    assert undone.status_code == 200, undone.content
    assert FoodEntry.objects.for_user(alice).count() == 0


def test_a_review_confirmed_twice_logs_once(alice_api, alice, catalog):
    body = held(alice_api)

    first = confirm(alice_api, body["message_id"], [{"index": 0, "quantity": 1}])
    second = confirm(alice_api, body["message_id"], [{"index": 0, "quantity": 1}])

    assert first.status_code == 200
    assert second.status_code == 409 and second.json()["error"] == "already_resolved"
    assert FoodEntry.objects.for_user(alice).count() == 1


def test_cancel_logs_nothing_and_closes_the_list(alice_api, alice, catalog):
    body = held(alice_api)

    cancelled = alice_api.post(f"/api/chat/messages/{body['message_id']}/review/cancel/")

    assert cancelled.status_code == 200 and cancelled.json()["resolved"] == "cancelled"
    assert confirm(alice_api, body["message_id"]).status_code == 409
    assert (
        alice_api.post("/api/chat/", {"message": "yes"}, format="json").json()["action"] != "logged"
    )
    assert FoodEntry.objects.for_user(alice).count() == 0


def test_a_removed_item_is_not_logged(alice_api, alice, catalog):
    body = held(alice_api)

    response = confirm(alice_api, body["message_id"], [{"index": 0, "remove": True}])

    assert response.status_code == 200
    assert response.json()["entries"] == []
    assert FoodEntry.objects.for_user(alice).count() == 0


def test_an_item_that_is_not_in_the_list_is_a_400(alice_api, catalog):
    body = held(alice_api)

    response = confirm(alice_api, body["message_id"], [{"index": 5, "quantity": 1}])

    assert response.status_code == 400 and response.json()["error"] == "bad_item"


def test_bob_cannot_confirm_or_cancel_alices_review(alice_api, bob_api, alice, catalog):
    body = held(alice_api)

    assert confirm(bob_api, body["message_id"], [{"index": 0, "quantity": 2}]).status_code == 404
    cancel = bob_api.post(f"/api/chat/messages/{body['message_id']}/review/cancel/")
    assert cancel.status_code == 404
    assert FoodEntry.objects.for_user(alice).count() == 0
    reply = ChatMessage.objects.for_user(alice).get(pk=body["message_id"])
    assert not reply.metadata["confirm"].get("resolved")


def test_a_reply_with_nothing_waiting_is_a_409(alice_api, catalog):
    body = alice_api.post("/api/chat/", {"message": "2 eggs for breakfast"}, format="json").json()

    response = confirm(alice_api, body["message_id"])

    assert response.status_code == 409 and response.json()["error"] == "nothing_to_review"


def test_ask_before_logging_holds_a_plain_meal_for_review(alice_api, alice, catalog):
    assert alice_api.get("/api/preferences/").json()["review_before_logging"] is False
    changed = alice_api.patch("/api/preferences/", {"review_before_logging": True}, format="json")
    assert changed.status_code == 200, changed.content

    body = alice_api.post("/api/chat/", {"message": "2 eggs for breakfast"}, format="json").json()

    assert body["action"] == "confirm" and body["entries"] == []
    [item] = body["review"]
    assert item["quantity"] == 2 and item["meal_type"] == "breakfast"
    assert FoodEntry.objects.for_user(alice).count() == 0
    assert confirm(alice_api, body["message_id"]).status_code == 200
    assert FoodEntry.objects.for_user(alice).count() == 1


def test_each_item_waiting_says_about_how_many_kcal_it_is(alice_api, alice, client, catalog):
    alice_api.patch("/api/preferences/", {"review_before_logging": True}, format="json")

    body = alice_api.post("/api/chat/", {"message": "2 eggs for breakfast"}, format="json").json()

    # as logging would count it: 2 large eggs, 100 g, 143 kcal, before anything is saved
    [item] = body["review"]
    assert item["kcal"] == 143
    client.force_login(alice)
    assert "about 143 kcal" in client.get("/").content.decode()
    confirm(alice_api, body["message_id"])
    logged = entry_nutrients(FoodEntry.objects.for_user(alice).get())
    assert round(logged["calories"]) == 143


def test_without_the_preference_a_plain_meal_is_logged_at_once(alice_api, alice, catalog):
    body = alice_api.post("/api/chat/", {"message": "2 eggs for breakfast"}, format="json").json()

    assert body["action"] == "logged" and body["review"] is None
    assert FoodEntry.objects.for_user(alice).count() == 1


def test_two_changes_of_one_item_are_refused_and_nothing_is_logged(alice_api, alice, catalog):
    body = held(alice_api)

    response = confirm(
        alice_api, body["message_id"], [{"index": 0, "quantity": 2}, {"index": 0, "quantity": 3}]
    )

    assert response.status_code == 400 and response.json()["error"] == "bad_item"
    assert "Item 1" in str(response.json()) and "changed twice" in str(response.json())
    assert not FoodEntry.objects.for_user(alice).exists()
    # the list still waits: one change per item logs it
    assert confirm(alice_api, body["message_id"], [{"index": 0, "quantity": 2}]).status_code == 200
    assert FoodEntry.objects.for_user(alice).get().quantity == Decimal("2")


def test_the_page_refuses_two_amounts_for_one_item_rather_than_taking_the_last(
    alice_api, alice, client, catalog
):
    body = held(alice_api)
    client.force_login(alice)

    response = client.post(
        f"/chat/turn/review/{body['message_id']}/",
        {"answer": "log", "quantity_0": ["2", "3"]},
        follow=True,
    )

    assert "changed twice" in response.content.decode()
    assert not FoodEntry.objects.for_user(alice).exists()


def test_a_negative_amount_is_said_as_people_write_it(alice_api, alice, catalog):
    response = alice_api.post(
        "/api/food-entries/", {"food": str(catalog["egg"].pk), "quantity": "-1"}, format="json"
    )

    assert response.status_code == 400
    assert "-1 is not an amount" in str(response.json()) and "Decimal" not in str(response.json())


def test_an_item_refused_only_once_done_costs_only_itself(alice_api, alice, catalog):
    # A restaurant dish is checked by its arguments only and done at the end: an amount the
    # diary refuses then must not take the eggs beside it back, and the reply says what wasn't.
    alice_api.patch("/api/preferences/", {"review_before_logging": True}, format="json")
    message = "2 eggs for breakfast and a burger, about 600 cal"
    body = alice_api.post("/api/chat/", {"message": message}, format="json").json()
    assert body["action"] == "confirm", body
    [burger] = [i["index"] for i in body["review"] if "burger" in i["name"].lower()]

    response = confirm(alice_api, body["message_id"], [{"index": burger, "quantity": 100000}])

    assert response.status_code == 200, response.content
    [entry] = FoodEntry.objects.for_user(alice)
    assert "egg" in entry.food.name.lower()
    assert "Not logged" in response.json()["message"]
    assert "egg" in response.json()["message"].lower()
