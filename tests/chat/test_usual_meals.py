"""The usual meals: saved once from the diary, logged again in one go, by every path."""

import pytest

from chat.turn.coach import handle_turn
from nutrition import services as food_services
from nutrition.models import FoodEntry, UsualMeal
from tests.api.conftest import client_for

pytestmark = pytest.mark.django_db


def breakfast(user):
    return sorted(
        (e.food.name.split(",")[0], float(e.quantity), e.unit)
        for e in FoodEntry.objects.for_user(user).filter(meal_type="breakfast")
    )


def test_save_this_as_my_usual_breakfast_then_log_it_on_another_day(alice, catalog):
    handle_turn(alice, "2 eggs and a slice of toast for breakfast")
    saved = handle_turn(alice, "save this as my usual breakfast")
    assert saved.message.startswith("Saved today's breakfast (2 items) as your usual breakfast")
    FoodEntry.objects.for_user(alice).delete()

    logged = handle_turn(alice, "log my usual breakfast")

    assert logged.action == "logged"
    assert breakfast(alice) == [("Bread", 1.0, "slice"), ("Egg", 2.0, "large")]
    assert len(logged.entries) == 2


def test_usual_breakfast_without_one_saved_says_how_to_make_one(alice, catalog):
    response = handle_turn(alice, "my usual breakfast")

    assert "You have no usual breakfast yet" in response.message
    assert not FoodEntry.objects.for_user(alice).exists()


def test_saving_an_empty_meal_is_refused_with_the_day(alice, catalog):
    response = handle_turn(alice, "save today's lunch as my usual")

    assert "Nothing is logged for lunch" in response.message
    assert not UsualMeal.objects.exists()


def test_a_model_service_never_sees_the_usual_meal_command(
    alice, catalog, openai_service, fake_llm
):
    food_services.food_entry_create(user=alice, food=catalog["egg"], quantity=2, meal_type="lunch")
    food_services.usual_meal_save(user=alice, meal="lunch")
    FoodEntry.objects.for_user(alice).delete()

    response = handle_turn(alice, "the usual for lunch")

    assert response.engine == "sparky" and len(response.entries) == 1
    assert not fake_llm.completion_requests  # the diary's own record, not a model's guess


def test_one_users_usual_meal_is_not_anothers(alice, bob, catalog):
    food_services.food_entry_create(
        user=alice, food=catalog["egg"], quantity=2, meal_type="breakfast"
    )
    food_services.usual_meal_save(user=alice, meal="breakfast")

    response = handle_turn(bob, "my usual breakfast")

    assert "no usual breakfast" in response.message
    assert not FoodEntry.objects.for_user(bob).exists()


def test_the_api_saves_lists_and_logs_usual_meals(alice, bob, catalog):
    food_services.food_entry_create(
        user=alice, food=catalog["bananas"], quantity=1, meal_type="snack"
    )
    api = client_for(alice)

    saved = api.post("/api/usual-meals/", {"meal_type": "snack"}, format="json")
    assert saved.status_code == 201 and len(saved.json()["items"]) == 1
    assert api.get("/api/usual-meals/").json()[0]["meal_type"] == "snack"
    assert client_for(bob).get("/api/usual-meals/").json() == []

    logged = api.post("/api/usual-meals/snack/log/", {}, format="json")
    assert logged.status_code == 201 and len(logged.json()) == 1
    assert FoodEntry.objects.for_user(alice).count() == 2
    missing = client_for(bob).post("/api/usual-meals/snack/log/", {}, format="json")
    assert missing.status_code == 400 and missing.json()["error"] == "no_usual_meal"
