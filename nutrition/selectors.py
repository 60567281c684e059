"""Nutrition reads for one user: a day's totals, the diary by meal, water, frequent foods."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from decimal import Decimal

from django.core.exceptions import ValidationError

from nutrition.models import NUTRIENTS, FoodEntry, MealType, WaterIntake
from nutrition.services import nutrients_for
from nutrition.units import portion
from sparky.dates import parse_day, today_for

_MACROS = ("calories", "protein", "carbs", "fat")


def nutrition_totals(*, user, day) -> dict[str, Decimal]:
    """Every nutrient eaten on `day`, summed over the day's entries (0 when nothing is logged).

    One query (entries with their food and serving); the amounts are converted in Python by the
    same rules that logged them.
    """
    totals = dict.fromkeys(NUTRIENTS, Decimal(0))
    for _entry, nutrients, _grams in _day_entries(user, day):
        for name, value in nutrients.items():
            if value is not None:
                totals[name] += value
    return totals


def food_diary(*, user, day) -> dict[str, list[dict]]:
    """The day's entries by meal (breakfast, lunch, dinner, snack; empty lists included), in the
    order they were logged, each with its food, amount, weight when known, calories and macros."""
    diary: dict[str, list[dict]] = {meal.value: [] for meal in MealType}
    for entry, nutrients, grams in _day_entries(user, day):
        diary.setdefault(entry.meal_type, []).append(
            {
                "id": entry.id,
                "food_id": entry.food_id,
                "food_name": entry.food.readable_name,
                "food_full_name": entry.food.name,
                "estimate": entry.food.is_estimate,
                "quantity": entry.quantity,
                "unit": entry.unit,
                "serving": entry.variant.serving_unit if entry.variant_id else None,
                "grams": grams,
                "meal_type": entry.meal_type,
                "entry_date": entry.entry_date,
                **{name: nutrients.get(name) for name in _MACROS},
            }
        )
    return diary


def water_for(*, user, day) -> int:
    """Glasses of water on `day` (0 when none were logged)."""
    row = WaterIntake.objects.for_user(user).filter(entry_date=_day(user, day)).first()
    return row.glasses_consumed if row else 0


def frequent_foods(*, user, days: int = 14, limit: int = 10) -> list[dict]:
    """The foods logged most often in the last `days` days (today included), most often first,
    with the amount usually logged: {food_id, name, times, last_logged, usual_quantity,
    usual_unit}."""
    since = today_for(user) - dt.timedelta(days=max(1, days) - 1)
    rows = (
        FoodEntry.objects.for_user(user)
        .filter(entry_date__gte=since)
        .select_related("food")
        .order_by("entry_date", "created_at")
    )
    seen: dict = {}
    for entry in rows:
        item = seen.setdefault(
            entry.food_id, {"food": entry.food, "times": 0, "last": None, "amounts": Counter()}
        )
        item["times"] += 1
        item["last"] = entry.entry_date
        item["amounts"][(entry.quantity, entry.unit)] += 1
    ranked = sorted(seen.values(), key=lambda i: (-i["times"], -i["last"].toordinal()))
    out = []
    for item in ranked[:limit]:
        (quantity, unit), _ = item["amounts"].most_common(1)[0]
        out.append(
            {
                "food_id": item["food"].id,
                "name": item["food"].readable_name,
                "full_name": item["food"].name,
                "times": item["times"],
                "last_logged": item["last"],
                "usual_quantity": quantity,
                "usual_unit": unit,
            }
        )
    return out


def _day(user, day) -> dt.date:
    if isinstance(day, dt.date) and not isinstance(day, dt.datetime):
        return day
    return parse_day(user, day)


def _day_entries(user, day):
    """(entry, nutrients, grams or None) for each entry of the day, in one query."""
    entries = (
        FoodEntry.objects.for_user(user)
        .on_date(_day(user, day))
        .select_related("food", "variant")
        .order_by("created_at", "id")
    )
    for entry in entries:
        try:
            amount = portion(
                food=entry.food, quantity=entry.quantity, unit=entry.unit, variant=entry.variant
            )
        except ValidationError:
            # Written before a rule it now breaks (or by hand): shown, counted as nothing.
            yield entry, dict.fromkeys(NUTRIENTS), None
            continue
        grams = None if amount.grams is None else amount.grams.quantize(Decimal("0.1"))
        yield entry, nutrients_for(entry.food, amount.multiplier), grams
