"""Daily nutrition goals: set, read and deleted, each within a range a person can follow."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import transaction

from nutrition.models import (
    MICRONUTRIENTS,
    UserGoal,
)
from nutrition.services.values import (
    _GOAL_ALIASES,
    GOAL_FIELDS,
    MAX_WATER_GOAL,
    NUTRIENT_MAX,
    _amount,
    _is_date,
)
from nutrition.services.water import _glasses
from sparky.dates import parse_day, today_for
from sparky.services import user_row_for_update

# --- goals ---------------------------------------------------------------------------------------


@transaction.atomic
def goal_set(*, user, goal_date=None, **values) -> UserGoal:
    """Set goals: the default goal when goal_date is None, else the goal of that day (which may
    be in the future: tomorrow's plan). Only the given values change; None clears one.

    The MICRONUTRIENTS ("vitamin_d", "zinc") are goals too, kept in UserGoal.micronutrients.
    """
    if not values:
        raise ValidationError(
            f"Say which goals to set: {', '.join(GOAL_FIELDS)} or water_goal.", code="no_values"
        )
    changes, micronutrients = {}, {}
    for name, value in values.items():
        field = _GOAL_ALIASES.get(name, name)
        if field == "water_goal":
            changes[field] = None if value is None else _glasses(value, 0, MAX_WATER_GOAL, "goal")
        elif field in GOAL_FIELDS:
            changes[field] = None if value is None else _amount(value, name, NUTRIENT_MAX)
            _check_goal_range(field, changes[field])
        elif field in MICRONUTRIENTS:
            micronutrients[field] = None if value is None else _amount(value, name, NUTRIENT_MAX)
        else:
            raise ValidationError(
                f"{name!r} is not a goal; goals are {', '.join(GOAL_FIELDS)}, water_goal and "
                f"{', '.join(MICRONUTRIENTS)}.",
                code="unknown_field",
            )
    day = None if goal_date is None else _goal_day(user, goal_date)
    # The first setting of a goal may come from several requests at once: all of them land.
    goal = user_row_for_update(UserGoal, user=user, goal_date=day)
    for field, value in changes.items():
        setattr(goal, field, value)
    if micronutrients:
        kept = {**(goal.micronutrients or {}), **micronutrients}
        goal.micronutrients = {
            name: f"{Decimal(str(value)).normalize():f}"
            for name, value in kept.items()
            if value is not None
        }
    goal.full_clean()
    goal.save()
    return goal


# Daily goals a person can follow: 100,000 kcal or 5,000 g of protein is a typo. (A goal of 0
# is allowed for the macros: "no carbs"; calories below 500 are no diet anyone should follow.)
GOAL_RANGES = {
    "calories": (Decimal(500), Decimal(10_000), "kcal"),
    "protein": (Decimal(0), Decimal(1_000), "g"),
    "carbs": (Decimal(0), Decimal(1_500), "g"),
    "fat": (Decimal(0), Decimal(1_000), "g"),
}


def _check_goal_range(field: str, value: Decimal | None) -> None:
    if value is None or field not in GOAL_RANGES:
        return
    low, high, unit = GOAL_RANGES[field]
    if not low <= value <= high:
        raise ValidationError(
            f"A daily {field} goal of {value.normalize():,f} {unit} is not one to follow; "
            f"use {low:,}-{high:,} {unit}.",
            code="out_of_range",
        )


@transaction.atomic
def goal_delete(*, user, goal_date=None) -> None:
    """Remove the default goal (goal_date None) or the goal of one day; UserGoal.DoesNotExist
    when there is none. Days without their own goal then follow the default one again."""
    day = None if goal_date is None else _goal_day(user, goal_date)
    goal = UserGoal.objects.for_user(user).select_for_update().filter(goal_date=day).first()
    if goal is None:
        which = "default goal" if day is None else f"goal for {day.isoformat()}"
        raise UserGoal.DoesNotExist(f"No {which} is set.")
    goal.delete()


def goal_for(*, user, day) -> UserGoal | None:
    """The goal that applies on `day`: that day's own goal, else the default goal, else None."""
    day = day if _is_date(day) else parse_day(user, day)
    goals = UserGoal.objects.for_user(user)
    return goals.filter(goal_date=day).first() or goals.filter(goal_date__isnull=True).first()


def _goal_day(user, value) -> dt.date:
    if _is_date(value):
        return value
    text = str(value).strip().lower()
    if text == "tomorrow":
        return today_for(user) + dt.timedelta(days=1)
    try:
        return parse_day(user, value)
    except ValidationError as exc:
        if exc.code != "future_date":
            raise
        return dt.date.fromisoformat(text[:10])
