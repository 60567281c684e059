"""Composed reads across the apps: the day at a glance and a period's progress against goals.

Every number a person sees about their day comes from here, so the chat coach, the progress
summary, the diary page and the API agree.
"""

import datetime as dt
from decimal import ROUND_HALF_UP, Decimal

from exercise.selectors import exercise_totals
from measurements.models import CheckInMeasurement
from measurements.selectors import measurements_for
from nutrition.models import NUTRIENTS, nutrient_unit
from nutrition.selectors import nutrition_totals, water_for
from nutrition.services import goal_for
from sparky.dates import parse_day
from sparky.services import preferences_for

DEFAULT_WATER_GOAL = 8  # glasses, when the user has not set one
REMAINING_FORMULA = "goal - consumed + burned"
# Food columns and goal columns share names except this one (the spec's tables differ).
_GOAL_COLUMN = {"monounsaturated_unsaturated": "monounsaturated_fat"}
# Goals that are floors (eat at least this much); for period reports a day "meets" them when
# consumption reaches the goal. Calories are met when the day ends with remaining >= 0.
_FLOOR_GOALS = ("protein", "dietary_fiber")
_TENTH = Decimal("0.1")
MAX_PERIOD_DAYS = 93


def _tenth(value) -> Decimal:
    return Decimal(value).quantize(_TENTH, rounding=ROUND_HALF_UP)


def _day(user, day) -> dt.date:
    return (
        day
        if isinstance(day, dt.date) and not isinstance(day, dt.datetime)
        else parse_day(user, day)
    )


def goal_value(goal, nutrient: str) -> Decimal | None:
    """The goal for a nutrient (named as in NUTRIENTS), None when not set."""
    if goal is None:
        return None
    value = getattr(goal, _GOAL_COLUMN.get(nutrient, nutrient), None)
    return None if value is None else Decimal(value)


def daily_summary(*, user, day) -> dict:
    """The user's day against their goals.

    {
      "date": date,
      "goal_source": "day" | "default" | None,      # per-date goal, the default goal, or none
      "calories": {"consumed", "goal", "burned", "net", "remaining", "remaining_formula"},
          # remaining = goal - consumed + burned (None without a calorie goal); net = consumed
          # - burned; kcal, Decimal to 0.1 (burned is an int)
      "nutrients": {name: {"consumed", "goal", "remaining", "percent", "unit"}},
          # every name in nutrition.models.NUTRIENTS, calories included; remaining = goal -
          # consumed (calories: the one figure above, exercise counted back in); percent =
          # consumed / goal x 100 as an int; goal/remaining/percent None when that goal is not set
      "exercise": {"minutes", "calories_burned", "count"},
      "water": {"glasses", "goal", "goal_is_default", "remaining"},   # glasses; goal 8 default
      "measurements": measurements_for(...)   # {"checkin": {...} | None, "custom": [...], ...}
    }
    """
    day = _day(user, day)
    consumed = nutrition_totals(user=user, day=day)
    goal = goal_for(user=user, day=day)
    exercise = exercise_totals(user=user, day=day)

    nutrients = {}
    for name in NUTRIENTS:
        eaten = _tenth(consumed.get(name) or 0)
        target = goal_value(goal, name)
        nutrients[name] = {
            "consumed": eaten,
            "goal": None if target is None else _tenth(target),
            "remaining": None if target is None else _tenth(target - eaten),
            "percent": int((eaten * 100 / target).to_integral_value(ROUND_HALF_UP))
            if target
            else None,
            "unit": nutrient_unit(name),
        }

    calories = nutrients["calories"]
    burned = exercise["calories_burned"]
    calorie_goal = calories["goal"]
    # One "remaining" for calories wherever the summary says it: exercise burned counts back in.
    calorie_remaining = (
        None if calorie_goal is None else calorie_goal - calories["consumed"] + burned
    )
    calories["remaining"] = calorie_remaining
    water_glasses = water_for(user=user, day=day)
    water_goal = goal.water_goal if goal is not None and goal.water_goal is not None else None
    return {
        "date": day,
        "goal_source": None if goal is None else ("day" if goal.goal_date else "default"),
        "calories": {
            "consumed": calories["consumed"],
            "goal": calorie_goal,
            "burned": burned,
            "net": calories["consumed"] - burned,
            "remaining": calorie_remaining,
            "remaining_formula": REMAINING_FORMULA,
        },
        "nutrients": nutrients,
        "exercise": exercise,
        "water": {
            "glasses": water_glasses,
            "goal": water_goal if water_goal is not None else DEFAULT_WATER_GOAL,
            "goal_is_default": water_goal is None,
            "remaining": max(
                (water_goal if water_goal is not None else DEFAULT_WATER_GOAL) - water_glasses, 0
            ),
        },
        "measurements": measurements_for(user=user, day=day),
    }


def _average(values: list) -> Decimal | None:
    values = [Decimal(v) for v in values if v is not None]
    return _tenth(sum(values) / len(values)) if values else None


def period_summary(*, user, start: dt.date, end: dt.date) -> dict:
    """Daily totals from `start` to `end` (inclusive), their averages and goal counts.

    {
      "start", "end", "days_logged",        # days_logged: days with any calories eaten
      "days": [{"date", "calories", "protein", "carbs", "fat", "calorie_goal", "burned",
                "exercise_minutes", "water", "water_goal", "weight", "logged"}],
      "averages": {key: Decimal | None}     # calories/protein/carbs/fat over logged days only
                                            # (an unlogged day is missing data, not a fast);
                                            # burned/exercise_minutes/water over every day;
                                            # weight over days with a weigh-in
      "goals_met": {"calories", "protein", "dietary_fiber", "water"}: {"met", "of"}
          # calories: remaining >= 0 on a logged day with a calorie goal; protein and fiber:
          # eaten at least the goal; water: glasses >= goal (default 8)
      "weight_unit": the unit of "weight"
    }
    """
    start, end = _day(user, start), _day(user, end)
    if start > end:
        start, end = end, start
    if (end - start).days + 1 > MAX_PERIOD_DAYS:
        start = end - dt.timedelta(days=MAX_PERIOD_DAYS - 1)
    weights = dict(
        CheckInMeasurement.objects.for_user(user)
        .between(start, end)
        .filter(weight__isnull=False)
        .values_list("entry_date", "weight")
    )
    days = []
    met = {key: {"met": 0, "of": 0} for key in ("calories", *_FLOOR_GOALS, "water")}
    day = start
    while day <= end:
        totals = nutrition_totals(user=user, day=day)
        goal = goal_for(user=user, day=day)
        exercise = exercise_totals(user=user, day=day)
        water = water_for(user=user, day=day)
        calories = _tenth(totals.get("calories") or 0)
        logged = calories > 0
        calorie_goal = goal_value(goal, "calories")
        water_goal = (
            goal.water_goal
            if goal is not None and goal.water_goal is not None
            else DEFAULT_WATER_GOAL
        )
        days.append(
            {
                "date": day,
                "calories": calories,
                "protein": _tenth(totals.get("protein") or 0),
                "carbs": _tenth(totals.get("carbs") or 0),
                "fat": _tenth(totals.get("fat") or 0),
                "calorie_goal": None if calorie_goal is None else _tenth(calorie_goal),
                "burned": exercise["calories_burned"],
                "exercise_minutes": exercise["minutes"],
                "water": water,
                "water_goal": water_goal,
                "weight": weights.get(day),
                "logged": logged,
            }
        )
        if logged and calorie_goal is not None:
            met["calories"]["of"] += 1
            met["calories"]["met"] += calories <= calorie_goal + exercise["calories_burned"]
        for name in _FLOOR_GOALS:
            target = goal_value(goal, name)
            if logged and target:
                met[name]["of"] += 1
                met[name]["met"] += (totals.get(name) or 0) >= target
        met["water"]["of"] += 1
        met["water"]["met"] += water >= water_goal
        day += dt.timedelta(days=1)

    logged_days = [d for d in days if d["logged"]]
    averages = {
        key: _average([d[key] for d in logged_days])
        for key in ("calories", "protein", "carbs", "fat")
    }
    for key in ("burned", "exercise_minutes", "water"):
        averages[key] = _average([d[key] for d in days])
    averages["weight"] = _average([d["weight"] for d in days])
    return {
        "start": start,
        "end": end,
        "days_logged": len(logged_days),
        "days": days,
        "averages": averages,
        "goals_met": met,
        "weight_unit": preferences_for(user).default_weight_unit,
    }


def weekly_summary(*, user, end_day) -> dict:
    """period_summary of the seven days ending on `end_day` (inclusive)."""
    end = _day(user, end_day)
    return period_summary(user=user, start=end - dt.timedelta(days=6), end=end)
