"""Undo of one reply: exactly what it wrote is taken back, once, for its owner only."""

from decimal import Decimal

import pytest

from chat.models import ChatMessage
from chat.turn.coach import handle_turn
from chat.turn.undo import UndoRefused, can_undo, reply_undo
from exercise.models import ExerciseEntry
from measurements.models import CheckInMeasurement
from nutrition import services as food_services
from nutrition.models import Food, FoodEntry, UserGoal, WaterIntake
from tests.api.conftest import client_for

pytestmark = pytest.mark.django_db


def reply(response) -> ChatMessage:
    return ChatMessage.objects.get(pk=response.message_id)


def test_undo_takes_back_every_entry_of_a_reply_and_nothing_else(alice, catalog):
    handle_turn(alice, "a banana for lunch")
    response = handle_turn(alice, "2 eggs and toast for breakfast, ran 30 min")
    assert FoodEntry.objects.for_user(alice).count() == 3
    assert ExerciseEntry.objects.for_user(alice).count() == 1

    done = reply_undo(alice, response.message_id)

    left = FoodEntry.objects.for_user(alice).select_related("food")
    assert [e.food.name.split(",")[0] for e in left] == ["Bananas"]  # the earlier reply's
    assert not ExerciseEntry.objects.for_user(alice).exists()
    assert len(done.taken_back) == 3 and done.kept == []
    assert done.message.startswith("Undone: 2 large Egg")
    assert not can_undo(reply(response))


def test_undo_works_once(alice, catalog):
    response = handle_turn(alice, "a banana")
    reply_undo(alice, response.message_id)
    handle_turn(alice, "a banana")  # logged again on purpose

    with pytest.raises(UndoRefused) as refused:
        reply_undo(alice, response.message_id)

    assert refused.value.code == "already_undone"
    assert FoodEntry.objects.for_user(alice).count() == 1


def test_only_the_owner_can_undo_a_reply(alice, bob, catalog):
    response = handle_turn(alice, "a banana")

    with pytest.raises(UndoRefused) as refused:
        reply_undo(bob, response.message_id)

    assert refused.value.code == "not_found"
    assert FoodEntry.objects.for_user(alice).count() == 1
    assert not (reply(response).metadata or {}).get("undone")


def test_an_entry_edited_since_the_reply_is_kept_as_edited(alice, catalog):
    response = handle_turn(alice, "2 eggs and a banana for breakfast")
    egg = FoodEntry.objects.for_user(alice).get(food__name__startswith="Egg")
    food_services.food_entry_update(user=alice, entry_id=egg.id, quantity=3)

    done = reply_undo(alice, response.message_id)

    left = FoodEntry.objects.for_user(alice).get()
    assert left.id == egg.id and left.quantity == 3
    assert done.kept == ["2 large Egg (changed since)"]
    assert "changed since" in done.message


def test_undo_of_water_takes_off_only_the_glasses_that_reply_added(alice, catalog):
    response = handle_turn(alice, "2 glasses of water")
    handle_turn(alice, "1 glass of water")

    reply_undo(alice, response.message_id)

    assert WaterIntake.objects.for_user(alice).get().glasses_consumed == 1


def test_undo_puts_a_changed_check_in_back_and_drops_a_new_one(alice, catalog):
    handle_turn(alice, "weight 82.5 kg")
    changed = handle_turn(alice, "weight 81.9 kg waist 90 cm")

    reply_undo(alice, changed.message_id)

    row = CheckInMeasurement.objects.for_user(alice).get()
    assert row.weight == Decimal("82.5") and row.waist is None

    first = (
        ChatMessage.objects.for_user(alice).filter(message_type="assistant").earliest("created_at")
    )
    reply_undo(alice, first.id)
    assert not CheckInMeasurement.objects.for_user(alice).exists()


def test_undo_of_an_edit_a_delete_and_goals_made_by_model_calls(
    alice, catalog, openai_service, fake_llm
):
    egg = food_services.food_entry_create(
        user=alice, food=catalog["egg"], quantity=2, unit="large", meal_type="breakfast"
    )
    food_services.goal_set(user=alice, calories=2000)
    fake_llm.reply_tool_call("set_goals", {"calories": 1800, "protein": 120})
    fake_llm.reply_tool_call("log_food", {"food_name": "banana", "quantity": 1})
    fake_llm.reply_text("Set your goals and logged a banana.")
    both = handle_turn(alice, "set my goals to 1800 kcal and 120 g protein, and I had a banana")
    fake_llm.reply_tool_call("edit_food_entry", {"food_name": "egg", "quantity": 3})
    fake_llm.reply_text("Changed your eggs to 3.")
    edit = handle_turn(alice, "make that 3 eggs")
    assert FoodEntry.objects.for_user(alice).count() == 2

    assert len(reply_undo(alice, edit.message_id).taken_back) == 1
    assert len(reply_undo(alice, both.message_id).taken_back) == 2

    assert list(FoodEntry.objects.for_user(alice).values_list("id", "quantity")) == [(egg.id, 2)]
    goal = UserGoal.objects.for_user(alice).get()
    assert goal.calories == 2000 and goal.protein is None

    fake_llm.reply_tool_call("delete_food_entry", {"food_name": "egg"})
    fake_llm.reply_text("Deleted your eggs.")
    deleted = handle_turn(alice, "delete the eggs")
    assert not FoodEntry.objects.for_user(alice).exists()

    reply_undo(alice, deleted.message_id)

    back = FoodEntry.objects.for_user(alice).get()
    assert (back.id, back.quantity, back.meal_type) == (egg.id, 2, "breakfast")


def test_undo_removes_a_custom_food_the_reply_created_with_its_entry(
    alice, catalog, openai_service, fake_llm
):
    fake_llm.reply_tool_call(
        "create_custom_food",
        {"food_name": "Oat flapjack", "calories": 420, "serving_size": 100, "serving_unit": "g"},
    )
    fake_llm.reply_tool_call(
        "log_food", {"food_name": "Oat flapjack", "quantity": 100, "unit": "g"}
    )
    fake_llm.reply_text("Saved your flapjack and logged 100 g.")
    response = handle_turn(alice, "my oat flapjack is 420 kcal per 100 g, I had 100 g")
    assert FoodEntry.objects.for_user(alice).count() == 1

    reply_undo(alice, response.message_id)

    assert not FoodEntry.objects.for_user(alice).exists()
    assert not Food.objects.filter(name="Oat flapjack").exists()


def test_a_reply_that_saved_nothing_has_nothing_to_undo(alice, catalog):
    response = handle_turn(alice, "hello")

    assert not can_undo(reply(response))
    with pytest.raises(UndoRefused) as refused:
        reply_undo(alice, response.message_id)
    assert refused.value.code == "nothing_to_undo"


def test_the_model_is_not_told_an_undone_reply_is_still_saved(
    alice, catalog, core_service, fake_llm
):
    fake_llm.reply_tool_call("log_food", {"food_name": "banana", "quantity": 1})
    fake_llm.reply_text("Logged a banana.")
    logged = handle_turn(alice, "a banana")
    reply_undo(alice, logged.message_id)
    fake_llm.reply_text("Try grilled fish with vegetables.")

    handle_turn(alice, "any ideas for a light dinner?")

    sent = fake_llm.last.messages
    assert not any(m.get("tool_calls") for m in sent)  # the banana call is not replayed
    assert any("undid this reply" in (m.get("content") or "") for m in sent)


# --- the API --------------------------------------------------------------------------------


def test_api_undo_answers_what_was_taken_back_and_refuses_a_second_time(alice, bob, catalog):
    response = handle_turn(alice, "a banana and 2 eggs")
    url = f"/api/chat/messages/{response.message_id}/undo/"

    assert client_for(bob).post(url).status_code == 404
    first = client_for(alice).post(url)
    again = client_for(alice).post(url)

    assert first.status_code == 200
    assert len(first.json()["taken_back"]) == 2 and first.json()["kept"] == []
    assert not FoodEntry.objects.for_user(alice).exists()
    assert again.status_code == 409 and again.json()["error"] == "already_undone"
    history = client_for(alice).get("/api/chat/history/").json()["results"]
    undone = next(m for m in history if m["id"] == response.message_id)
    assert undone["can_undo"] is False and len(undone["undone"]["taken_back"]) == 2


def test_the_undo_route_is_in_the_api_schema(alice):
    schema = client_for(alice).get("/api/schema/", HTTP_ACCEPT="application/json").json()
    assert "post" in schema["paths"]["/api/chat/messages/{message_id}/undo/"]


# --- the chat page ----------------------------------------------------------------------------


def test_the_page_offers_undo_under_a_reply_that_saved_something(alice, catalog, client):
    client.force_login(alice)
    saved = handle_turn(alice, "a banana")
    handle_turn(alice, "hello")

    page = client.get("/").content.decode()
    assert page.count('class="undo__button"') == 1
    assert f"/chat/turn/undo/{saved.message_id}/" in page

    drawn = client.post(f"/chat/turn/undo/{saved.message_id}/", HTTP_HX_REQUEST="true")
    assert drawn.status_code == 200
    assert "Undone: 1 medium Banana" in drawn.content.decode()
    assert "undo__button" not in drawn.content.decode()
    assert "diary-changed" in drawn["HX-Trigger"]
    assert not FoodEntry.objects.for_user(alice).exists()
