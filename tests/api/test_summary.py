"""The daily summary: the day's food, exercise and water against the goals."""

import pytest

from exercise.services import exercise_entry_create
from nutrition import services

pytestmark = pytest.mark.django_db


def test_the_summary_shows_the_day_against_the_goal(alice_api, alice):
    services.goal_set(user=alice, calories=2000, water_goal=8)
    food = services.food_create_custom(user=alice, name="Pasta", calories=500, serving_size=1,
                                       serving_unit="plate")  # fmt: skip
    services.food_entry_create(user=alice, food=food, quantity=1)
    exercise_entry_create(user=alice, duration_minutes=30, calories_burned=200)
    services.water_add(user=alice, glasses=3)
    body = alice_api.get("/api/summary/").json()
    assert body["goal_source"] == "default"
    assert body["calories"]["consumed"] == 500 and body["calories"]["burned"] == 200
    assert body["calories"]["remaining"] == 1700
    assert body["nutrients"]["calories"]["remaining"] == 1700  # one figure, one definition
    assert body["nutrients"]["calories"]["percent"] == 25
    assert body["water"] == {"glasses": 3, "goal": 8, "goal_is_default": False, "remaining": 5}


def test_bobs_summary_is_empty(bob_api, alice):
    food = services.food_create_custom(user=alice, name="Pasta", calories=500)
    services.food_entry_create(user=alice, food=food, quantity=1)
    body = bob_api.get("/api/summary/").json()
    assert body["calories"]["consumed"] == 0 and body["exercise"]["count"] == 0


def test_a_malformed_date_is_a_400(alice_api):
    response = alice_api.get("/api/summary/", {"date": "someday"})
    assert response.status_code == 400 and response.json()["error"] == "invalid_date"
