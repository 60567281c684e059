import datetime as dt

from exercise.selectors import exercise_diary, exercise_totals
from exercise.services import exercise_entry_create
from sparky.dates import today_for
from tests.exercise.conftest import public_exercise


def test_totals_add_up_the_days_minutes_and_calories(alice, bob):
    swim = public_exercise("Swimming, leisurely", met=6.0, calories_per_hour=420)
    today = today_for(alice)
    exercise_entry_create(user=alice, exercise=swim, duration_minutes=30)
    exercise_entry_create(user=alice, duration_minutes=20, calories_burned=100)
    exercise_entry_create(user=alice, exercise=swim, entry_date=today - dt.timedelta(days=1))
    exercise_entry_create(user=bob, exercise=swim, duration_minutes=60)

    assert exercise_totals(user=alice, day=today) == {
        "minutes": 50,
        "calories_burned": 310,
        "count": 2,
    }


def test_a_day_without_exercise_has_zero_totals(alice):
    assert exercise_totals(user=alice, day=today_for(alice)) == {
        "minutes": 0,
        "calories_burned": 0,
        "count": 0,
    }


def test_the_diary_lists_the_days_entries_in_logging_order(alice, bob):
    swim = public_exercise("Swimming, leisurely", met=6.0, calories_per_hour=420)
    first = exercise_entry_create(
        user=alice, exercise=swim, duration_minutes=30, distance=1.5, distance_unit="km"
    )
    second = exercise_entry_create(user=alice, notes="circuit at the park")
    exercise_entry_create(user=bob, exercise=swim)

    rows = exercise_diary(user=alice, day=today_for(alice))

    assert [r["id"] for r in rows] == [first.id, second.id]
    assert rows[0]["name"] == "Swimming, leisurely"
    assert (rows[0]["distance"], rows[0]["distance_unit"]) == (first.distance, "km")
    assert rows[1]["name"] == "General Exercise"
    assert rows[1]["notes"] == "circuit at the park"
    assert set(rows[0]) == {
        "id", "exercise_id", "name", "category", "duration_minutes", "calories_burned",
        "distance", "distance_unit", "notes", "date", "is_custom",
    }  # fmt: skip
