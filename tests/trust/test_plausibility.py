"""Numbers and names no diary can hold are refused by the domain services, so every surface
(the API, MCP and chat tools, imports) refuses them with the same plain sentence."""

import pytest
from django.core.exceptions import ValidationError

from diary.services import preferences_update
from exercise import services as exercise_services
from measurements import services as measurement_services
from nutrition import services as food_services
from sparky.dates import today_for
from tests.api.conftest import client_for

pytestmark = pytest.mark.django_db


def refused(call) -> str:
    with pytest.raises(ValidationError) as caught:
        call()
    return " ".join(caught.value.messages)


@pytest.mark.parametrize("name", ["\u200b", "\u200b\u200d\u2060", " \ufeff "])
def test_a_name_of_only_invisible_characters_is_refused_everywhere(alice, name):
    assert "one can see" in refused(
        lambda: food_services.food_create_custom(user=alice, name=name, calories=100)
    )
    assert "one can see" in refused(
        lambda: exercise_services.exercise_create_custom(
            user=alice, name=name, calories_per_hour=300
        )
    )
    assert "one can see" in refused(
        lambda: measurement_services.custom_measurement_log(user=alice, name=name, value=1)
    )


def test_a_name_with_one_visible_character_among_invisible_ones_is_kept(alice):
    food = food_services.food_create_custom(user=alice, name="\u200bé", calories=100)

    assert food.name == "\u200bé"


def test_a_food_with_more_than_900_kcal_per_100_g_is_refused(alice):
    message = refused(
        lambda: food_services.food_create_custom(
            user=alice, name="Butter?", serving_size=50, serving_unit="g", calories=600
        )
    )

    assert "1,200 kcal per 100 g" in message and "900" in message
    oil = food_services.food_create_custom(user=alice, name="Olive oil", calories=884)
    assert oil.calories == 884  # pure fat is a real food


def test_a_food_whose_macros_weigh_more_than_it_is_refused_also_on_update(alice):
    food = food_services.food_create_custom(
        user=alice, name="Shake", serving_size=30, serving_unit="g", calories=120, protein=24
    )

    message = refused(
        lambda: food_services.food_update_custom(user=alice, food_id=food.pk, carbs=20)
    )

    assert "more than the food weighs" in message
    food.refresh_from_db()
    assert food.carbs is None


def test_a_food_by_the_piece_has_no_weight_to_check(alice):
    food = food_services.food_create_custom(
        user=alice, name="Burrito", serving_size=1, serving_unit="piece", calories=1100
    )

    assert food.calories == 1100


def test_calories_burned_beyond_30_a_minute_are_refused(alice, catalog):
    message = refused(
        lambda: exercise_services.exercise_entry_create(
            user=alice, exercise=catalog["running"], duration_minutes=10, calories_burned=2000
        )
    )

    assert "at most 300 kcal" in message
    entry = exercise_services.exercise_entry_create(
        user=alice, exercise=catalog["running"], duration_minutes=10, calories_burned=250
    )
    assert "at most 300 kcal" in refused(
        lambda: exercise_services.exercise_entry_update(
            user=alice, entry_id=entry.pk, calories_burned=900
        )
    )


def test_a_custom_exercise_burns_at_most_1800_kcal_an_hour(alice):
    assert "1,800" in refused(
        lambda: exercise_services.exercise_create_custom(
            user=alice, name="Hyper", calories_per_hour=2500
        )
    )


def test_a_distance_that_rounds_to_nothing_is_refused(alice, catalog):
    message = refused(
        lambda: exercise_services.exercise_entry_create(
            user=alice,
            exercise=catalog["running"],
            duration_minutes=10,
            distance="0.0001",
            distance_unit="km",
        )
    )

    assert "too small to keep" in message


@pytest.mark.parametrize("age", [5, 12, 121, 200])
def test_a_birth_year_gives_an_age_from_13_to_120(alice, age):
    year = today_for(alice).year - age

    message = refused(lambda: preferences_update(user=alice, birth_year=year))

    assert f"Birth year {year}" in message and "13 to 120" in message


@pytest.mark.parametrize("age", [13, 120])
def test_the_ages_at_the_ends_are_kept(alice, age):
    prefs = preferences_update(user=alice, birth_year=today_for(alice).year - age)

    assert prefs.birth_year == today_for(alice).year - age


def test_the_api_answers_the_services_sentence(alice):
    response = client_for(alice).post(
        "/api/foods/",
        {"name": "Lard?", "serving_size": 10, "serving_unit": "g", "calories": 500},
        format="json",
    )

    assert response.status_code == 400
    assert "5,000 kcal per 100 g" in response.content.decode()
