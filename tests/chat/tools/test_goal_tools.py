"""Goal tools as a model calls them: whose goals are set, which days they apply to, what is
refused, and the day's and the week's numbers read against them."""

import datetime as dt
from decimal import Decimal

import pytest

from chat.tools import ToolContext, run_tool
from nutrition.models import UserGoal
from sparky.dates import today_for
from tests.factories import ExerciseEntryFactory, FoodEntryFactory, UserGoalFactory

pytestmark = pytest.mark.django_db


def call(user, name, args):
    return run_tool(ToolContext.for_user(user), name, args)


def test_goals_set_for_every_day_are_the_users_own(alice, bob):
    result = call(alice, "set_goals", {"calories": 2200, "protein": 140})

    assert result.ok, result.message
    assert result.message == "Goals set for every day: calories 2200, protein 140."
    goal = UserGoal.objects.get(user=alice)
    assert (goal.goal_date, goal.calories, goal.protein) == (None, 2200, 140)
    assert result.written[0].kind == "goal" and result.written[0].id == str(goal.id)

    read = call(alice, "get_goals", {"date": "today"})
    bobs = call(bob, "get_goals", {"date": "today"})
    assert read.data["goals"]["calories"] == 2200
    assert read.data["goals"]["applies_to"] == "every day (default)"
    assert bobs.message == "No goals are set yet." and bobs.data["goals"] == {}


def test_setting_one_goal_keeps_the_others(alice):
    UserGoalFactory(user=alice, calories=2000, protein=120)

    result = call(alice, "set_goals", {"protein": 150})

    assert result.ok, result.message
    goal = UserGoal.objects.get(user=alice)
    assert (goal.calories, goal.protein) == (2000, 150)


def test_a_goal_for_one_day_leaves_the_other_days_on_the_default(alice):
    UserGoalFactory(user=alice, calories=2000)
    yesterday = today_for(alice) - dt.timedelta(days=1)

    result = call(
        alice, "set_goals", {"calories": 2600, "only_for_date": True, "date": yesterday.isoformat()}
    )

    assert result.ok, result.message
    assert result.message.startswith(f"Goals set on {yesterday}")
    on_the_day = call(alice, "get_goals", {"date": yesterday.isoformat()})
    today = call(alice, "get_goals", {"date": "today"})
    assert on_the_day.data["goals"]["calories"] == 2600
    assert on_the_day.data["goals"]["applies_to"] == yesterday.isoformat()
    assert today.data["goals"]["calories"] == 2000


def test_a_call_with_no_goal_value_is_refused(alice):
    result = call(alice, "set_goals", {"only_for_date": True})

    assert not result.ok
    assert "Give at least one goal value" in result.message
    assert not UserGoal.objects.exists()


@pytest.mark.parametrize(
    ("field", "value"), [("calories", 100_000), ("calories", 200), ("protein", -5)]
)
def test_a_goal_no_one_should_follow_is_refused_and_the_old_one_stays(alice, field, value):
    UserGoalFactory(user=alice, calories=2000, protein=120)

    result = call(alice, "set_goals", {field: value})

    assert not result.ok
    assert "Nothing was saved" in result.message
    goal = UserGoal.objects.get(user=alice)
    assert (goal.calories, goal.protein) == (2000, 120)


def test_a_refused_value_among_good_ones_saves_none_of_them(alice):
    UserGoalFactory(user=alice, calories=2000, protein=120)

    result = call(alice, "set_goals", {"protein": 160, "calories": 50})

    assert not result.ok
    goal = UserGoal.objects.get(user=alice)
    assert (goal.calories, goal.protein) == (2000, 120)


def test_the_daily_summary_counts_what_the_user_ate_and_burned_against_the_goal(
    alice, bob, catalog
):
    UserGoalFactory(user=alice, calories=2000)
    FoodEntryFactory(user=alice, food=catalog["egg"], quantity=200, unit="g")  # 286 kcal
    FoodEntryFactory(user=bob, food=catalog["bread"], quantity=500, unit="g")  # bob's
    ExerciseEntryFactory(user=alice, exercise=catalog["running"], calories_burned=300)

    result = call(alice, "daily_summary", {"date": "today"})

    assert result.ok
    calories = result.data["calories"]
    assert calories["consumed"] == Decimal("286.0")
    assert calories["burned"] == 300
    assert calories["remaining"] == Decimal("2014.0")  # 2000 - 286 + 300
    assert result.data["goal_source"] == "default"


def test_goal_progress_counts_the_days_the_calorie_goal_was_met(alice, catalog):
    UserGoalFactory(user=alice, calories=2000)
    today = today_for(alice)
    for days_ago in (0, 1):
        FoodEntryFactory(
            user=alice,
            food=catalog["bread"],
            quantity=600,  # 1,836 kcal: under the goal
            unit="g",
            entry_date=today - dt.timedelta(days=days_ago),
        )

    result = call(alice, "goal_progress", {"days": 3})

    assert result.ok
    assert result.message == f"Progress over 3 days to {today}."
    assert len(result.data["days"]) == 3
    assert result.data["days_logged"] == 2
    assert result.data["goals_met"]["calories"]["of"] == 2


@pytest.mark.parametrize(("asked", "given"), [(1, 2), (400, 31)])
def test_goal_progress_keeps_the_period_between_2_and_31_days(alice, asked, given):
    result = call(alice, "goal_progress", {"days": asked})

    assert result.ok
    assert len(result.data["days"]) == given
