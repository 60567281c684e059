"""Nutrition reads for one user: a day's totals, the diary by meal, water, frequent foods, and
the nutrients eaten against their reference intakes."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from dataclasses import asdict, dataclass
from decimal import ROUND_HALF_UP, Decimal

from django.core.exceptions import ValidationError

from nutrition import intakes
from nutrition.models import NUTRIENTS, FoodEntry, MealType, WaterIntake, public_nutrient
from nutrition.services import goal_for, micronutrients_for, nutrients_for
from nutrition.units import portion
from sparky.dates import parse_day, today_for
from sparky.services import preferences_for

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


# --- nutrients against reference intakes -------------------------------------------------------


@dataclass(frozen=True)
class NutrientIntake:
    """One nutrient eaten against its reference: the diary's Nutrients panel row, an item of the
    API summary's `nutrient_intakes`, what the coach answers "am I getting enough iron?" from."""

    nutrient: str  # as in nutrition.intakes.GROUPS ("iron", "vitamin_b12")
    label: str  # "Iron", "Vitamin B12"
    group: str  # vitamins | minerals | protein_fiber | limits
    unit: str
    amount: Decimal | None  # average per logged day, over the foods that record it; None: none
    reference: Decimal
    kind: str  # floor (reach it) | ceiling (stay under it)
    basis: str  # dri | daily_value | goal
    source: str  # the reference's source, in words
    upper: Decimal | None  # the Tolerable Upper Intake Level of a floor nutrient, if any
    percent: int | None  # amount / reference x 100
    coverage: float  # share of the entries whose food records the nutrient (0 to 1)
    known: bool  # coverage reaches intakes.MIN_COVERAGE: otherwise the amount says little
    status: str  # unknown | low | ok | high (over a ceiling, or over a floor's upper limit)
    days_logged: int

    def as_dict(self) -> dict:
        return asdict(self)


def personal_reference_intakes(user) -> dict[str, intakes.Reference]:
    """The user's reference for each nutrient, goals aside: the DRI of their sex and age (as
    their preferences give them), else the FDA Daily Values."""
    prefs = preferences_for(user)
    return intakes.reference_intakes(
        sex=prefs.sex, age=intakes.age_from_birth_year(prefs.birth_year, today_for(user))
    )


def reference_person(user) -> str | None:
    """Whom the user's references are for ("a woman of 30"), or None when their preferences do
    not give both sex and an adult age (the Daily Values apply then)."""
    prefs = preferences_for(user)
    age = intakes.age_from_birth_year(prefs.birth_year, today_for(user))
    if prefs.sex not in ("female", "male") or age is None or age < intakes.ADULT_AGE:
        return None
    return f"a {'woman' if prefs.sex == 'female' else 'man'} of {age}"


def reference_intakes_for(user, *, day: dt.date | None = None) -> dict[str, intakes.Reference]:
    """personal_reference_intakes with the goal that applies on `day` (default today)
    overriding a nutrient's reference."""
    day = day or today_for(user)
    references = personal_reference_intakes(user)
    goal = goal_for(user=user, day=day)
    if goal is not None:
        goals = {name: getattr(goal, public_nutrient(name), None) for name in NUTRIENTS}
        goals.update({n: Decimal(str(v)) for n, v in (goal.micronutrients or {}).items()})
        for name, value in goals.items():
            if name in references and value is not None and value > 0:
                # A goal keeps the reference's direction: a sodium goal is a ceiling still.
                references[name] = intakes.Reference(
                    nutrient=name,
                    amount=Decimal(value),
                    kind=references[name].kind,
                    unit=references[name].unit,
                    basis="goal",
                    upper=references[name].upper,
                )
    return references


def nutrient_intakes(*, user, start: dt.date, end: dt.date | None = None) -> list[NutrientIntake]:
    """Every nutrient of nutrition.intakes.GROUPS eaten from `start` to `end` (both included;
    one day when `end` is None), as the average of the days with any food entry, against the
    user's reference (reference_intakes_for, the goal of `end`), in GROUPS's order.

    A food that does not record a nutrient adds nothing to its amount and lowers its coverage;
    below intakes.MIN_COVERAGE the nutrient is `known` False and its status "unknown", not low.
    """
    end = end or start
    entries = (
        FoodEntry.objects.for_user(user)
        .between(start, end)
        .select_related("food", "variant")
        .order_by("entry_date", "created_at")
    )
    names = [name for group in intakes.GROUPS.values() for name in group]
    sums = dict.fromkeys(names, Decimal(0))
    recorded = dict.fromkeys(names, 0)
    days, count = set(), 0
    for entry in entries:
        count += 1
        days.add(entry.entry_date)
        try:
            amount = portion(
                food=entry.food, quantity=entry.quantity, unit=entry.unit, variant=entry.variant
            )
        except ValidationError:
            continue  # an entry a later unit rule no longer converts counts as unknown
        values = {
            **nutrients_for(entry.food, amount.multiplier),
            **micronutrients_for(entry.food, amount.multiplier),
        }
        for name in names:
            if values.get(name) is not None:
                sums[name] += values[name]
                recorded[name] += 1
    references = reference_intakes_for(user, day=end)
    out = []
    for group, members in intakes.GROUPS.items():
        for name in members:
            reference = references[name]
            coverage = recorded[name] / count if count else 0.0
            eaten = (sums[name] / len(days)).quantize(Decimal("0.001")) if recorded[name] else None
            percent = (
                None
                if eaten is None
                else int((eaten * 100 / reference.amount).to_integral_value(ROUND_HALF_UP))
            )
            known = count > 0 and coverage >= intakes.MIN_COVERAGE
            out.append(
                NutrientIntake(
                    nutrient=name,
                    label=intakes.LABELS[name],
                    group=group,
                    unit=reference.unit,
                    amount=eaten,
                    reference=reference.amount,
                    kind=reference.kind,
                    basis=reference.basis,
                    source=reference.source,
                    upper=reference.upper,
                    percent=percent,
                    coverage=round(coverage, 2),
                    known=known,
                    status=_status(reference, eaten, known),
                    days_logged=len(days),
                )
            )
    return out


def _status(reference: intakes.Reference, eaten: Decimal | None, known: bool) -> str:
    if not known or eaten is None:
        return "unknown"
    if reference.kind == intakes.CEILING:
        return "high" if eaten > reference.amount else "ok"
    if reference.upper is not None and eaten > reference.upper:
        return "high"
    return "ok" if eaten >= reference.amount else "low"
