import datetime as dt
from decimal import Decimal

import pytest

from diary.selectors import daily_summary, period_summary, weekly_summary
from exercise.services import exercise_entry_create
from measurements.services import checkin_upsert, custom_measurement_log
from nutrition.models import NUTRIENTS
from nutrition.services import food_create_custom, food_entry_create, goal_set, water_add
from sparky.dates import today_for


def days_ago(user, n: int) -> dt.date:
    return today_for(user) - dt.timedelta(days=n)


@pytest.fixture
def oats(alice):
    # Per 100 g, so 150 g is 1.5 times every number.
    return food_create_custom(
        user=alice,
        name="Oat bowl",
        serving_size=100,
        serving_unit="g",
        calories=400,
        protein=10,
        carbs=60,
        fat=8,
        monounsaturated_unsaturated=3,
        sodium=200,
    )


@pytest.fixture
def alices_day(alice, oats):
    """Alice today: 150 g of oats, an hour of General Exercise at 80 kg, 3 glasses of water,
    a check-in and a custom value; goals 2,000 kcal, 120 g protein, 20 g MUFA, 10 glasses."""
    goal_set(user=alice, calories=2000, protein=120, monounsaturated_fat=20, water_goal=10)
    checkin_upsert(user=alice, weight=80, steps=7000)
    custom_measurement_log(user=alice, name="Sleep", value=7.5, unit="hours")
    food_entry_create(user=alice, food=oats, quantity=150, unit="g", meal_type="breakfast")
    exercise_entry_create(user=alice, duration_minutes=60)  # 4.0 MET x 80 kg = 320 kcal
    water_add(user=alice, glasses=3)
    return today_for(alice)


def test_calories_count_what_was_eaten_against_the_goal_plus_what_was_burned(alice, alices_day):
    calories = daily_summary(user=alice, day=alices_day)["calories"]

    assert calories == {
        "consumed": Decimal("600.0"),
        "goal": Decimal("2000.0"),
        "burned": 320,
        "net": Decimal("280.0"),
        "remaining": Decimal("1720.0"),
        "remaining_formula": "goal - consumed + burned",
    }


def test_every_nutrient_is_reported_against_its_goal(alice, alices_day):
    nutrients = daily_summary(user=alice, day=alices_day)["nutrients"]

    assert set(nutrients) == set(NUTRIENTS)
    assert nutrients["protein"] == {
        "consumed": Decimal("15.0"),
        "goal": Decimal("120.0"),
        "remaining": Decimal("105.0"),
        "percent": 13,
        "unit": "g",
    }
    # The goal column is monounsaturated_fat, the food column monounsaturated_unsaturated.
    assert nutrients["monounsaturated_unsaturated"]["goal"] == Decimal("20.0")
    assert nutrients["monounsaturated_unsaturated"]["consumed"] == Decimal("4.5")
    assert nutrients["sodium"]["consumed"] == Decimal("300.0")
    assert nutrients["sodium"]["unit"] == "mg"
    assert (nutrients["sodium"]["goal"], nutrients["sodium"]["percent"]) == (None, None)
    assert nutrients["iron"]["consumed"] == Decimal("0.0")


def test_exercise_water_and_measurements_of_the_day_are_included(alice, alices_day):
    summary = daily_summary(user=alice, day=alices_day)

    assert summary["date"] == alices_day
    assert summary["goal_source"] == "default"
    assert summary["exercise"] == {"minutes": 60, "calories_burned": 320, "count": 1}
    assert summary["water"] == {"glasses": 3, "goal": 10, "goal_is_default": False, "remaining": 7}
    assert summary["measurements"]["checkin"]["weight"] == Decimal("80.00")
    assert summary["measurements"]["checkin"]["steps"] == 7000
    assert [c["category"] for c in summary["measurements"]["custom"]] == ["Sleep"]


def test_a_day_with_nothing_logged_and_no_goals(bob):
    summary = daily_summary(user=bob, day=today_for(bob))

    assert summary["goal_source"] is None
    assert summary["calories"]["consumed"] == Decimal("0.0")
    assert summary["calories"]["remaining"] is None
    assert summary["water"] == {"glasses": 0, "goal": 8, "goal_is_default": True, "remaining": 8}
    assert summary["exercise"] == {"minutes": 0, "calories_burned": 0, "count": 0}
    assert summary["measurements"]["checkin"] is None


def test_a_goal_for_one_date_overrides_the_default(alice, alices_day):
    goal_set(user=alice, goal_date=days_ago(alice, 1), calories=1800)

    yesterday = daily_summary(user=alice, day="yesterday")

    assert yesterday["goal_source"] == "day"
    assert yesterday["calories"]["goal"] == Decimal("1800.0")
    assert daily_summary(user=alice, day=alices_day)["calories"]["goal"] == Decimal("2000.0")


def test_bobs_summary_does_not_see_alices_day(alice, bob, alices_day):
    summary = daily_summary(user=bob, day=alices_day)

    assert summary["calories"]["consumed"] == Decimal("0.0")
    assert summary["exercise"]["count"] == 0
    assert summary["water"]["glasses"] == 0


def test_the_week_has_seven_days_and_averages_food_over_logged_days(alice, oats):
    goal_set(user=alice, calories=2000, protein=12, water_goal=2)
    checkin_upsert(user=alice, weight=81, entry_date=days_ago(alice, 6))
    checkin_upsert(user=alice, weight=80)
    for n, grams in ((6, 100), (3, 200)):  # 400 and 800 kcal
        food_entry_create(
            user=alice, food=oats, quantity=grams, unit="g", entry_date=days_ago(alice, n)
        )
    water_add(user=alice, glasses=2, entry_date=days_ago(alice, 3))
    exercise_entry_create(user=alice, duration_minutes=30, calories_burned=140)
    food_entry_create(user=alice, food=oats, quantity=100, unit="g", entry_date=days_ago(alice, 7))

    week = weekly_summary(user=alice, end_day=today_for(alice))

    assert (week["start"], week["end"]) == (days_ago(alice, 6), today_for(alice))
    assert [d["date"] for d in week["days"]] == [days_ago(alice, n) for n in range(6, -1, -1)]
    assert week["days_logged"] == 2
    assert week["averages"]["calories"] == Decimal("600.0")  # (400 + 800) / 2 logged days
    assert week["averages"]["burned"] == Decimal("20.0")  # 140 / 7 days
    assert week["averages"]["weight"] == Decimal("80.5")
    assert week["weight_unit"] == "kg"
    assert week["goals_met"]["calories"] == {"met": 2, "of": 2}
    assert week["goals_met"]["protein"] == {"met": 1, "of": 2}  # 10 g and 20 g against 12 g
    assert week["goals_met"]["water"] == {"met": 1, "of": 7}


def test_a_period_can_be_any_span(alice, oats):
    report = period_summary(user=alice, start=days_ago(alice, 2), end=today_for(alice))

    assert len(report["days"]) == 3
    assert report["days_logged"] == 0
    assert report["averages"]["calories"] is None
