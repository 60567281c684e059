"""What lands in the diary is right, by every path: the offline parser (no AI service), a model's
tool calls (the scripted loopback server) and the REST API. The rules live in the domain services;
these tests check that each path gets the same answer: containers, crumbs, bulk, compounds,
dishes, picks, limits and replies."""

import json
from decimal import Decimal

import pytest

from chat.models import ChatMessage
from chat.turn.coach import handle_turn
from chat.web.views import message_view
from exercise.models import ExerciseEntry
from measurements.models import CustomMeasurement
from nutrition.models import FoodEntry
from nutrition.services import entry_nutrients
from tests.api.conftest import client_for
from tests.nutrition.conftest import catalog_food

pytestmark = pytest.mark.django_db


def entries(user) -> list[FoodEntry]:
    return list(FoodEntry.objects.for_user(user).select_related("food").order_by("created_at"))


def kcal(entry) -> float:
    return float(entry_nutrients(entry)["calories"])


@pytest.fixture
def drinks(catalog):
    return {
        "cola": catalog_food(
            "Beverages, carbonated, cola, regular",
            42,
            servings=[(1, "fl oz", "30.7"), (1, "can or bottle (12 fl oz)", 370)],
        ),
        "coffee": catalog_food(
            "Beverages, coffee, brewed, prepared with tap water", 1, servings=[(1, "cup", 237)]
        ),
        "milk": catalog_food(
            "Milk, whole, 3.25% milkfat, with added vitamin D",
            61,
            servings=[(1, "cup", 244), (1, "tbsp", 15), (1, "fl oz", "30.5")],
        ),
    }


@pytest.fixture
def sandwiches(catalog):
    return {
        "turkey": catalog_food(
            "Turkey, whole, meat only, cooked, roasted", 189, servings=[(1, "cup", 140)]
        ),
        "sub": catalog_food(
            "Fast foods, submarine sandwich, turkey breast on white bread",
            147,
            servings=[(1, "sandwich", 230)],
        ),
    }


# --- containers ---------------------------------------------------------------------------------


def test_a_can_of_coke_offline_is_the_12_fl_oz_can(alice, drinks):
    response = handle_turn(alice, "a can of coke")

    [entry] = entries(alice)
    assert response.action == "logged"
    assert entry.food == drinks["cola"] and entry.unit == "can"
    assert round(kcal(entry)) == 155


def test_a_bottle_from_a_model_is_the_same_12_fl_oz(alice, drinks, openai_service, fake_llm):
    fake_llm.reply_tool_call("log_food", {"food_name": "coke", "quantity": 1, "unit": "bottle"})
    fake_llm.reply_text("Logged a bottle of coke.")

    handle_turn(alice, "had a bottle of coke for lunch")

    [entry] = entries(alice)
    assert round(kcal(entry)) == 155


# --- crumbs and confirmations -------------------------------------------------------------------


def test_a_crumb_offline_writes_nothing_and_asks_with_the_numbers(alice, catalog):
    response = handle_turn(alice, "0.01 eggs")

    assert response.action == "confirm"
    assert "egg" in response.message.lower() and "kcal" in response.message
    assert entries(alice) == []
    pending = ChatMessage.objects.get(pk=response.message_id).metadata["confirm"]
    assert pending["calls"][0][0] == "log_food"


def test_yes_to_a_confirmation_logs_it_without_a_model_call(alice, catalog):
    handle_turn(alice, "0.01 eggs")

    response = handle_turn(alice, "yes")

    [entry] = entries(alice)
    assert response.action == "logged"
    assert entry.quantity == Decimal("0.010")
    assert handle_turn(alice, "yes").action != "logged"  # answered once
    assert len(entries(alice)) == 1


def test_no_to_a_confirmation_saves_nothing(alice, catalog):
    handle_turn(alice, "0.01 eggs")

    response = handle_turn(alice, "no")

    assert response.message == "OK, nothing was saved."
    assert entries(alice) == []


def test_a_crumb_from_a_model_is_held_and_the_model_is_told_to_ask(
    alice, catalog, openai_service, fake_llm
):
    fake_llm.reply_tool_call("log_food", {"food_name": "egg", "quantity": 0.01})
    fake_llm.reply_text("Did you mean one egg?")

    response = handle_turn(alice, "0.01 eggs")

    assert entries(alice) == []
    assert response.action == "confirm"
    told = json.loads([m for m in fake_llm.last.messages if m.get("role") == "tool"][0]["content"])
    assert told["ok"] is False and "confirm" in told["message"]
    handle_turn(alice, "yes")  # no model call: the stored call is replayed
    assert len(entries(alice)) == 1
    assert len(fake_llm.completion_requests) == 2


def test_a_crumb_beside_a_plain_item_holds_both_until_yes(alice, catalog):
    response = handle_turn(alice, "2 slices of toast and 0.01 eggs for breakfast")

    assert response.action == "confirm"
    assert entries(alice) == []  # nothing of the message is saved before the answer
    handle_turn(alice, "yes")
    assert sorted(e.food.name.split(",")[0] for e in entries(alice)) == ["Bread", "Egg"]


def test_a_custom_food_no_one_eats_at_once_is_asked_about_and_saved_on_yes(alice, catalog):
    response = handle_turn(alice, "a burger, about 9000 cal")

    assert response.action == "confirm"
    assert "9,000 kcal" in response.message and "Reply yes" in response.message
    assert entries(alice) == []
    handle_turn(alice, "yes")
    [entry] = entries(alice)
    assert entry.food.name == "burger"


def test_the_chat_page_shows_yes_and_no_buttons_for_a_confirmation(alice, catalog):
    response = handle_turn(alice, "0.01 eggs")

    view = message_view(ChatMessage.objects.get(pk=response.message_id), latest_reply=True)

    assert view["confirm"] is True


# --- bulk ---------------------------------------------------------------------------------------


def test_a_message_with_more_than_eight_entries_asks_first_offline(alice, catalog):
    response = handle_turn(alice, "I had " + ", ".join(["a banana"] * 9) + " for breakfast")

    assert response.action == "confirm"
    assert "9 entries" in response.message
    assert entries(alice) == []
    handle_turn(alice, "yes")
    assert len(entries(alice)) == 9


def test_eight_entries_are_logged_without_a_question(alice, catalog):
    response = handle_turn(alice, "I had " + ", ".join(["a banana"] * 8) + " for breakfast")

    assert response.action == "logged"
    assert len(entries(alice)) == 8


def test_a_models_step_of_nine_entries_is_held_whole(alice, catalog, openai_service, fake_llm):
    fake_llm.reply_tool_calls([("log_food", {"food_name": "banana"})] * 9)
    fake_llm.reply_text("Shall I log them?")

    response = handle_turn(alice, "nine bananas for breakfast, one by one")

    assert response.action == "confirm"
    assert entries(alice) == []


def test_a_meal_over_2500_kcal_asks_first(alice, catalog):
    response = handle_turn(alice, "1000 g of chicken breast and 600 g of oats")

    assert response.action == "confirm"
    assert "kcal" in response.message
    assert entries(alice) == []


@pytest.mark.parametrize("text", ["a burger, about 5000 cal", "a huge burrito, 3000 calories"])
def test_a_food_of_the_users_own_over_2500_kcal_asks_first_offline(alice, catalog, text):
    response = handle_turn(alice, text)

    assert response.action == "confirm"
    assert "kcal in one message" in response.message
    assert entries(alice) == []
    assert response.review[0]["kcal"] in (5000, 3000)
    handle_turn(alice, "yes")
    assert len(entries(alice)) == 1


def test_a_models_food_of_its_own_numbers_over_2500_kcal_asks_first(
    alice, catalog, openai_service, fake_llm
):
    fake_llm.reply_tool_call(
        "log_external_food", {"food_name": "burger", "calories": 1500, "quantity": 2}
    )
    fake_llm.reply_text("Shall I log it?")

    response = handle_turn(alice, "two burgers, 1500 kcal each")

    assert response.action == "confirm"
    assert "3,000 kcal" in response.message
    assert entries(alice) == []


def test_own_numbers_for_a_food_not_found_over_2500_kcal_ask_first(alice, catalog):
    handle_turn(alice, "pad thai for lunch")

    response = handle_turn(alice, "manual: 3000 kcal, 40g protein, 5g sugars")

    assert response.action == "confirm"
    assert "3,000 kcal in one message" in response.message
    assert [(i["name"], i["kcal"]) for i in response.review] == [("pad thai", 3000)]
    assert entries(alice) == []
    handle_turn(alice, "yes")
    [entry] = entries(alice)
    assert (entry.food.name, entry.meal_type, kcal(entry)) == ("pad thai", "lunch", 3000)
    assert entry.food.sugars == 5


def test_a_food_of_the_users_own_under_2500_kcal_is_logged_at_once(alice, catalog):
    response = handle_turn(alice, "a burger, about 900 cal")

    assert response.action == "logged"
    assert len(entries(alice)) == 1


def test_a_food_over_2500_kcal_through_the_api_answers_confirm(alice, catalog):
    response = client_for(alice).post(
        "/api/chat/", {"message": "a burger, about 5000 cal"}, format="json"
    )

    assert response.status_code == 200
    assert response.json()["action"] == "confirm"
    assert entries(alice) == []


# --- every item accounted for -------------------------------------------------------------------


def test_coffee_with_milk_offline_logs_both_and_says_so(alice, drinks):
    response = handle_turn(alice, "coffee with milk")

    logged = entries(alice)
    assert [e.food for e in logged] == [drinks["coffee"], drinks["milk"]]
    assert logged[1].quantity == 2 and logged[1].unit == "tbsp"
    assert "milk" in response.message.lower()


def test_coffee_with_milk_from_a_model_logs_both(alice, drinks, openai_service, fake_llm):
    fake_llm.reply_tool_call("log_food", {"food_name": "coffee with milk"})
    fake_llm.reply_text("Logged.")

    handle_turn(alice, "coffee with milk")

    assert [e.food for e in entries(alice)] == [drinks["coffee"], drinks["milk"]]


# --- dishes and picks ---------------------------------------------------------------------------


def test_a_dish_is_offered_as_a_dish_never_as_one_of_its_parts(alice, sandwiches):
    response = handle_turn(alice, "a turkey sandwich")

    assert response.action == "options"
    assert [o["name"] for o in response.options] == [sandwiches["sub"].name]
    assert entries(alice) == []


def test_a_pick_logs_exactly_what_the_option_showed(alice, sandwiches):
    offered = handle_turn(alice, "a turkey sandwich")

    handle_turn(alice, "1")

    [entry] = entries(alice)
    assert abs(kcal(entry) - offered.options[0]["calories"]) < 1
    assert round(kcal(entry)) == 338  # the 230 g sandwich, not 100 g


def test_a_dish_the_catalog_lacks_offers_the_users_own_numbers(alice, catalog):
    response = handle_turn(alice, "pad thai")

    assert response.action == "options"
    assert response.options == []
    assert "manual:" in response.message


# --- limits and replies -------------------------------------------------------------------------


def test_thirty_hours_of_sleep_is_refused_with_the_range(alice, catalog):
    response = handle_turn(alice, "slept 30 hours")

    assert not CustomMeasurement.objects.for_user(alice).exists()
    assert "0-24" in response.message


def test_the_water_reply_says_the_days_total(alice, catalog):
    response = handle_turn(alice, "2 glasses of water")

    assert "2 glasses of water (2 today)" in response.message


def test_a_run_with_a_distance_and_a_time_burns_by_its_pace(alice, catalog):
    handle_turn(alice, "ran 5k in 20 min")

    run = ExerciseEntry.objects.for_user(alice).get()
    assert run.duration_minutes == 20
    assert 280 <= run.calories_burned <= 440  # 15 km/h, not a 6 mph jog


# --- the REST API -------------------------------------------------------------------------------


def test_the_api_refuses_a_crumb_clearly_and_logs_it_once_confirmed(alice, catalog):
    api = client_for(alice)
    egg = catalog["egg"]

    refused = api.post("/api/food-entries/", {"food": str(egg.id), "quantity": 0.01}, format="json")
    confirmed = api.post(
        "/api/food-entries/",
        {"food": str(egg.id), "quantity": 0.01, "confirmed": True},
        format="json",
    )

    assert refused.status_code == 400
    assert refused.json()["error"] == "implausible"
    assert "kcal" in refused.json()["detail"]
    assert confirmed.status_code == 201
    assert len(entries(alice)) == 1
