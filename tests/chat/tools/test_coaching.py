import datetime as dt

import pytest

from chat.tools import ToolContext, run_tool
from exercise.services import exercise_create_custom, exercise_entry_create
from measurements.services import checkin_upsert
from nutrition.services import food_create_custom, food_entry_create, goal_set, water_add

TODAY = dt.date(2025, 3, 12)


def ago(days: int) -> dt.date:
    return TODAY - dt.timedelta(days=days)


def call(user, name, args=None):
    return run_tool(ToolContext.for_user(user), name, args or {})


@pytest.fixture(autouse=True)
def _today(time_machine):
    time_machine.move_to(dt.datetime(2025, 3, 12, 12, 0, tzinfo=dt.UTC), tick=False)


def salty_meal(user):
    # Per 100 g: fiber and sodium recorded, the other micronutrients not.
    return food_create_custom(
        user=user,
        name="Instant noodles",
        serving_size=100,
        serving_unit="g",
        calories=500,
        protein=25,
        carbs=60,
        fat=15,
        dietary_fiber=2,
        sodium=1200,
    )


@pytest.fixture
def alices_week(alice, bob):
    goal_set(user=alice, calories=2000, protein=100, water_goal=8)
    noodles = salty_meal(alice)
    apple = food_create_custom(
        user=alice,
        name="Apple",
        serving_size=1,
        serving_unit="piece",
        calories=95,
        protein=0.5,
        carbs=25,
        fat=0.3,
        dietary_fiber=4.4,
        sodium=2,
    )
    for days, grams in ((6, 400), (4, 300), (1, 200), (0, 360)):
        food_entry_create(
            user=alice,
            food=noodles,
            quantity=grams,
            unit="g",
            meal_type="dinner",
            entry_date=ago(days),
        )
    food_entry_create(user=alice, food=apple, quantity=1, meal_type="snack", entry_date=ago(1))
    water_add(user=alice, glasses=7, entry_date=ago(1))
    padel = exercise_create_custom(user=alice, name="Padel", calories_per_hour=450)
    exercise_entry_create(
        user=alice, exercise=padel, duration_minutes=45, calories_burned=340, entry_date=ago(2)
    )
    checkin_upsert(user=alice, entry_date=ago(6), weight=80)
    checkin_upsert(user=alice, entry_date=TODAY, weight=79.4)

    # Bob eats well and trains a lot; none of it is alice's.
    oats = food_create_custom(
        user=bob,
        name="Oats",
        serving_size=100,
        serving_unit="g",
        calories=380,
        protein=13,
        carbs=68,
        fat=7,
        dietary_fiber=10,
        sodium=5,
    )
    for days in range(7):
        food_entry_create(user=bob, food=oats, quantity=300, unit="g", entry_date=ago(days))
    run = exercise_create_custom(user=bob, name="Rowing", calories_per_hour=600)
    exercise_entry_create(user=bob, exercise=run, duration_minutes=90, entry_date=ago(1))


def test_the_snapshot_gives_alices_last_seven_days_against_her_goals(alice, alices_week):
    result = call(alice, "coaching_snapshot")

    assert result.ok, result.message
    data = result.data
    assert data["period"] == f"{ago(6)} to {TODAY}"
    assert data["days_logged"] == "4 of 7"
    assert data["current_streak"] == 2
    # (2000 + 1500 + 1095 + 1800) / 4 logged days
    assert data["calories"]["average"] == 1599
    assert data["calories"]["goal"] == 2000
    assert data["protein"]["goal"] == 100
    assert data["exercise"] == {"sessions": 1, "minutes": 45, "calories": 340, "active_days": 1}
    assert data["water"]["goal_glasses"] == 8
    assert data["water"]["average_glasses"] == 1.0  # 7 glasses over 7 days
    assert data["weight"]["change"] == -0.6
    assert data["top_foods"][0]["name"] == "Instant noodles"
    assert "Oats" not in str(data) and "Rowing" not in str(data)
    assert "1,599 kcal (goal 2,000)" in result.message


def test_the_snapshot_of_a_user_with_no_data_says_to_start_logging(alice, bob):
    result = call(alice, "coaching_snapshot")

    assert result.ok
    assert "Nothing logged" in result.message


def test_gaps_flag_low_fiber_and_high_sodium_against_reference_intakes(alice, alices_week):
    result = call(alice, "nutrient_gaps", {"days": 7})

    assert result.ok, result.message
    gaps = {g["nutrient"]: g for g in result.data["gaps"]}
    assert gaps["dietary_fiber"]["status"] == "low"
    assert gaps["dietary_fiber"]["basis"] == "reference"
    assert gaps["dietary_fiber"]["target"] == "at least 28"
    assert gaps["sodium"]["status"] == "high"
    assert gaps["sodium"]["days_off"] == "4 of 4"
    # Protein misses the 100 g goal on only 2 of 4 days: not consistent, so not a gap.
    assert "protein" not in gaps
    # Nothing logged records calcium: unknown, not "low".
    assert "calcium" in result.data["not_tracked"]
    assert "calcium" not in gaps
    assert "sodium high" in result.message


def test_a_goal_replaces_the_reference_intake(alice, alices_week):
    goal_set(user=alice, sodium=6000)

    result = call(alice, "nutrient_gaps", {"days": 7})

    assert "sodium" not in {g["nutrient"] for g in result.data["gaps"]}


def test_gaps_without_logged_food_say_there_is_nothing_to_judge(alice, bob):
    result = call(alice, "nutrient_gaps")

    assert result.ok
    assert result.data["gaps"] == []
    assert "No food logged" in result.message
