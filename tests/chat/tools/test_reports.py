import datetime as dt

import pytest

from chat.tools import ToolContext, run_tool, tools_for
from diary.services import preferences_update
from exercise.services import exercise_create_custom, exercise_entry_create
from measurements.services import checkin_upsert, custom_measurement_log
from nutrition.services import food_create_custom, food_entry_create, goal_set, water_add

TODAY = dt.date(2025, 3, 12)


def ago(days: int) -> dt.date:
    return TODAY - dt.timedelta(days=days)


def call(user, name, args=None):
    return run_tool(ToolContext.for_user(user), name, args or {})


@pytest.fixture(autouse=True)
def _today(time_machine):
    time_machine.move_to(dt.datetime(2025, 3, 12, 12, 0, tzinfo=dt.UTC), tick=False)


def log_meal(user, grams: int, day: dt.date, food=None):
    food = food or food_create_custom(
        user=user,
        name="Test meal",
        serving_size=100,
        serving_unit="g",
        calories=500,
        protein=25,
        carbs=60,
        fat=15,
    )
    food_entry_create(
        user=user, food=food, quantity=grams, unit="g", meal_type="lunch", entry_date=day
    )
    return food


@pytest.fixture
def week(alice, bob):
    """Alice logs food on 4 of the last 7 days, one padel session and two weigh-ins; bob logs a
    lot more of everything, none of which may show up in alice's reports."""
    goal_set(user=alice, calories=2000, protein=100, water_goal=8)
    meal = log_meal(alice, 400, ago(6))  # 2000 kcal, 100 g protein
    log_meal(alice, 300, ago(4), meal)  # 1500 kcal
    log_meal(alice, 200, ago(1), meal)  # 1000 kcal
    log_meal(alice, 360, TODAY, meal)  # 1800 kcal
    water_add(user=alice, glasses=6, entry_date=ago(1))
    padel = exercise_create_custom(
        user=alice, name="Padel", calories_per_hour=450, category="sports"
    )
    exercise_entry_create(
        user=alice, exercise=padel, duration_minutes=60, calories_burned=400, entry_date=ago(1)
    )
    checkin_upsert(user=alice, entry_date=ago(6), weight=80)
    checkin_upsert(user=alice, entry_date=ago(1), weight=79.2)

    bob_meal = log_meal(bob, 800, ago(1))
    for days in range(2, 12):
        log_meal(bob, 500, ago(days), bob_meal)
    bobs_run = exercise_create_custom(user=bob, name="Rowing", calories_per_hour=600)
    exercise_entry_create(
        user=bob, exercise=bobs_run, duration_minutes=90, calories_burned=900, entry_date=ago(1)
    )
    checkin_upsert(user=bob, entry_date=ago(1), weight=120)


def test_the_full_profile_has_35_domain_tools_and_core_19():
    assert len(tools_for("full")) == 35
    assert len(tools_for("core")) == 19
    names = {t.name for t in tools_for("full")}
    assert {
        "coaching_snapshot",
        "nutrient_gaps",
        "analyze_meal_photo",
        "scan_nutrition_label",
        "get_preferences",
        "update_preferences",
        "weekly_report",
        "nutrition_trend",
        "measurement_trend",
        "logging_streak",
        "exercise_report",
    } <= names


def test_the_weekly_report_shows_alices_days_averages_and_goals(alice, week):
    result = call(alice, "weekly_report")

    assert result.ok, result.message
    data = result.data
    assert (data["start"], data["end"]) == (ago(6), TODAY)
    by_day = {d["date"]: d for d in data["days"]}
    assert len(by_day) == 7
    assert by_day[ago(6)]["calories"] == 2000 and by_day[ago(6)]["protein"] == 100
    assert by_day[ago(1)]["calories"] == 1000  # bob's 4,000 kcal that day is not hers
    assert by_day[ago(1)]["burned"] == 400
    assert by_day[ago(1)]["water"] == 6
    assert by_day[ago(1)]["weight"] == 79.2
    assert not by_day[ago(5)]["logged"] and "calories" not in by_day[ago(5)]
    assert data["days_logged"] == 4
    assert data["averages"]["calories"] == 1575  # over the 4 logged days
    assert data["goals"]["calories"] == 2000
    assert "80 -> 79.2 kg" in result.message


def test_a_weekly_report_can_end_on_an_earlier_day(alice, week):
    result = call(alice, "weekly_report", {"date": ago(3).isoformat()})

    assert result.ok
    assert result.data["end"] == ago(3)
    assert result.data["days_logged"] == 2


def test_the_calorie_trend_lists_logged_days_and_falls(alice, week):
    result = call(alice, "nutrition_trend", {"days": 7})

    assert result.ok, result.message
    assert result.data["per_day"] == {
        ago(6).isoformat(): 2000,
        ago(4).isoformat(): 1500,
        ago(1).isoformat(): 1000,
        TODAY.isoformat(): 1800,
    }
    assert result.data["average"] == 1575
    assert result.data["direction"] == "falling"
    assert result.data["goal"] == 2000


def test_the_protein_trend_is_in_grams(alice, week):
    result = call(alice, "nutrition_trend", {"nutrient": "protein", "days": 7})

    assert result.data["unit"] == "g"
    assert result.data["per_day"][ago(6).isoformat()] == 100
    assert result.data["max"] == 100 and result.data["min"] == 50


def test_a_trend_with_nothing_logged_says_so(bob, alice):
    result = call(alice, "nutrition_trend", {"days": 14})

    assert result.ok
    assert result.data["days_logged"] == 0
    assert "No food logged" in result.message


def test_the_weight_trend_gives_first_last_and_change(alice, week):
    result = call(alice, "measurement_trend", {"measurement": "weight", "days": 30})

    assert result.ok, result.message
    data = result.data
    assert data["unit"] == "kg"
    assert (data["first"]["value"], data["last"]["value"]) == (80, 79.2)
    assert data["change"] == -0.8
    assert (data["min"], data["max"]) == (79.2, 80)
    assert data["direction"] == "falling"
    assert data["count"] == 2


def test_the_weight_trend_follows_a_switch_to_pounds(alice, week):
    preferences_update(user=alice, default_weight_unit="lb")

    result = call(alice, "measurement_trend", {"measurement": "weight"})

    assert result.data["unit"] == "lb"
    assert result.data["first"]["value"] == 176.37


def test_a_custom_measurement_trend_is_found_by_a_loose_name(alice):
    custom_measurement_log(
        user=alice, name="Resting heart rate", value=62, unit="bpm", entry_date=ago(9)
    )
    custom_measurement_log(
        user=alice, name="Resting heart rate", value=58, unit="bpm", entry_date=ago(2)
    )

    result = call(alice, "measurement_trend", {"measurement": "resting heart rate"})

    assert result.ok, result.message
    assert result.data["measurement"] == "Resting heart rate"
    assert result.data["unit"] == "bpm"
    assert result.data["change"] == -4


def test_an_unknown_measurement_lists_what_the_user_tracks(alice, bob):
    custom_measurement_log(user=bob, name="Blood glucose", value=5.4, unit="mmol/L")

    result = call(alice, "measurement_trend", {"measurement": "blood glucose"})

    assert not result.ok
    assert "weight" in result.message
    assert "Blood glucose" not in result.message


def test_the_streak_counts_consecutive_logged_days(alice, week):
    result = call(alice, "logging_streak")

    assert result.ok
    assert result.data["current_streak"] == 2  # yesterday and today
    assert result.data["longest_streak"] == 2
    assert result.data["days_logged_last_30"] == 4
    assert result.data["logged_today"]


def test_an_unlogged_morning_does_not_break_the_streak(alice):
    meal = log_meal(alice, 100, ago(3))
    log_meal(alice, 100, ago(2), meal)
    log_meal(alice, 100, ago(1), meal)
    log_meal(alice, 100, ago(10), meal)

    result = call(alice, "logging_streak")

    assert result.data["current_streak"] == 3
    assert not result.data["logged_today"]
    assert "Nothing logged yet today" in result.message


def test_the_exercise_report_sums_alices_sessions_by_activity(alice, week):
    result = call(alice, "exercise_report", {"days": 7})

    assert result.ok, result.message
    assert result.data["sessions"] == 1
    assert result.data["minutes"] == 60
    assert result.data["calories"] == 400
    assert result.data["by_activity"] == [
        {"activity": "Padel", "sessions": 1, "minutes": 60, "calories": 400}
    ]
    assert "Rowing" not in result.message


def test_an_exercise_report_without_exercise_says_so(alice):
    result = call(alice, "exercise_report")

    assert result.ok
    assert result.data["sessions"] == 0
    assert "No exercise" in result.message
