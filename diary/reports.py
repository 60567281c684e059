"""Reads over a span of days for the coach: per-day nutrients, logging streaks, exercise,
measurement series, nutrient gaps and the coaching snapshot.

Read-only. Every query is scoped to the user passed in; nothing here writes. Days without any food
entry are left out of nutrient figures rather than counted as zero: an unlogged day says nothing
about what was eaten, and counting it would make every average look like a deficit.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db.models import Count, Sum

from diary.selectors import goal_value, period_summary
from exercise.models import ExerciseEntry
from measurements.services import STANDARD_TYPES
from nutrition import intakes
from nutrition.models import NUTRIENTS, FoodEntry, nutrient_unit
from nutrition.selectors import frequent_foods, personal_reference_intakes
from nutrition.services import entry_nutrients, goal_for

ONE_DAY = dt.timedelta(days=1)
CHECKIN_FIELDS = STANDARD_TYPES
SNAPSHOT_DAYS = 7

# With a goal, calories, carbs and fat are targets: a day is off when it misses by more than this.
TARGET_TOLERANCE = Decimal("0.15")
# A floor counts as missed below 90% of it; a ceiling as exceeded above it.
FLOOR_SLACK = Decimal("0.9")
# "Consistently": on at least this share of the logged days.
CONSISTENT_SHARE = Decimal("0.6")
# Nutrients the foods eaten mostly do not record (custom foods often carry only macros) are
# reported as unknown instead of as a gap (nutrition.intakes says where the line is).
MIN_COVERAGE = intakes.MIN_COVERAGE
# A reference's kind as the gaps say it.
_KINDS = {intakes.FLOOR: "min", intakes.CEILING: "max"}


def span(end: dt.date, days: int) -> tuple[dt.date, dt.date]:
    """The `days` days ending on `end`, both ends included."""
    return end - dt.timedelta(days=days - 1), end


def _dec(value) -> Decimal:
    return value if isinstance(value, Decimal) else Decimal(str(value))


# --- food ------------------------------------------------------------------------------------


def _food_entries(user, start, end):
    return (
        FoodEntry.objects.for_user(user)
        .between(start, end)
        .select_related("food", "variant")
        .order_by("entry_date", "created_at")
    )


def _food_knows(entry, name: str) -> bool:
    # Nutrients of an entry are always the food's own values times the portion.
    return getattr(entry.food, name, None) is not None


def daily_nutrients(*, user, start: dt.date, end: dt.date) -> dict[dt.date, dict[str, Decimal]]:
    """Every nutrient eaten on each day from start to end that has a food entry, oldest first."""
    return _daily_nutrients(_food_entries(user, start, end))[0]


def _daily_nutrients(entries) -> tuple[dict, dict[str, float]]:
    """(per-day totals, share of entries whose food records each nutrient)."""
    days: dict[dt.date, dict[str, Decimal]] = {}
    known = dict.fromkeys(NUTRIENTS, 0)
    count = 0
    for entry in entries:
        try:
            nutrients = entry_nutrients(entry)
        except ValidationError:
            # An entry a later unit rule no longer converts; the diary counts it as nothing too.
            nutrients = {}
        count += 1
        totals = days.setdefault(entry.entry_date, dict.fromkeys(NUTRIENTS, Decimal(0)))
        for name, value in nutrients.items():
            if name in totals and value is not None:
                totals[name] += _dec(value)
        for name in NUTRIENTS:
            if _food_knows(entry, name):
                known[name] += 1
    coverage = {name: (known[name] / count if count else 0.0) for name in NUTRIENTS}
    return days, coverage


def logging_streak(*, user, today: dt.date) -> dict:
    """Runs of consecutive days with at least one food entry.

    The current streak counts back from today, or from yesterday while today has no entry yet (the
    day is not over, so an unlogged morning does not break the streak).
    """
    dates = (
        FoodEntry.objects.for_user(user)
        .filter(entry_date__lte=today)
        .order_by("entry_date")
        .values_list("entry_date", flat=True)
        .distinct()
    )
    longest = run = 0
    previous = None
    seen = set()
    for day in dates:
        run = run + 1 if previous is not None and day - previous == ONE_DAY else 1
        longest = max(longest, run)
        previous = day
        seen.add(day)
    cursor = today if today in seen else today - ONE_DAY
    current = 0
    while cursor in seen:
        current += 1
        cursor -= ONE_DAY
    month_start = today - dt.timedelta(days=29)
    return {
        "current_streak": current,
        "longest_streak": longest,
        "logged_today": today in seen,
        "days_logged_last_30": sum(1 for day in seen if day >= month_start),
        "last_logged": previous,
    }


def _goal_values(user, days) -> dict[dt.date, dict[str, Decimal]]:
    out = {}
    for day in days:
        goal = goal_for(user=user, day=day)
        values = {}
        if goal is not None:
            for name in NUTRIENTS:
                value = goal_value(goal, name)
                if value is not None and value > 0:
                    values[name] = _dec(value)
        out[day] = values
    return out


def _rule_for(
    name: str, goal: Decimal | None, references: dict[str, intakes.Reference]
) -> tuple[str, Decimal, str] | None:
    """(kind, amount, basis) of the target a nutrient is judged against, or None."""
    found = references.get(name)
    reference = None if found is None else (_KINDS[found.kind], found.amount)
    if goal is not None:
        if name in ("calories", "carbs", "fat"):
            return "target", goal, "goal"
        # A goal keeps the reference's direction (a sodium goal is a ceiling); other goals a floor.
        return (reference[0] if reference else "min"), goal, "goal"
    if reference is not None:
        return reference[0], reference[1], "reference"
    return None


def _misses(kind: str, amount: Decimal, eaten: Decimal) -> str | None:
    if kind == "min" and eaten < amount * FLOOR_SLACK:
        return "low"
    if kind == "max" and eaten > amount:
        return "high"
    if kind == "target" and abs(eaten - amount) > amount * TARGET_TOLERANCE:
        return "low" if eaten < amount else "high"
    return None


def nutrient_gaps(*, user, start: dt.date, end: dt.date) -> dict:
    """Nutrients consistently under their floor or over their ceiling on the logged days.

    Each nutrient is judged against the user's goal for that day (per-date goal, else the default
    goal) and, without one, against their reference intake (nutrition.intakes: the DRI of their
    sex and age, else the FDA Daily Values). A gap needs CONSISTENT_SHARE of the logged
    days on the same side; nutrients most logged foods do not record are listed as not tracked.
    """
    days, coverage = _daily_nutrients(_food_entries(user, start, end))
    goals = _goal_values(user, days)
    references = personal_reference_intakes(user)
    gaps, not_tracked = [], []
    logged = len(days)
    for name in NUTRIENTS:
        verdicts, rules, eaten_values = [], [], []
        for day, totals in days.items():
            rule = _rule_for(name, goals[day].get(name), references)
            if rule is None:
                continue
            rules.append(rule)
            eaten_values.append(totals[name])
            verdicts.append(_misses(rule[0], rule[1], totals[name]))
        if not rules:
            continue
        if coverage[name] < MIN_COVERAGE:
            not_tracked.append(name)
            continue
        for side in ("low", "high"):
            hits = verdicts.count(side)
            if hits and Decimal(hits) >= CONSISTENT_SHARE * len(verdicts):
                kind, amount, basis = rules[-1]
                gaps.append(
                    {
                        "nutrient": name,
                        "status": side,
                        "average": sum(eaten_values) / len(eaten_values),
                        "target": amount,
                        "target_kind": {"min": "at least", "max": "at most"}.get(kind, "about"),
                        "basis": basis,
                        "unit": nutrient_unit(name),
                        "days_off": hits,
                        "days_logged": len(verdicts),
                    }
                )
    return {
        "start": start,
        "end": end,
        "days_logged": logged,
        "gaps": gaps,
        "not_tracked": not_tracked,
    }


# --- exercise --------------------------------------------------------------------------------


def exercise_summary(*, user, start: dt.date, end: dt.date) -> dict:
    """Sessions, minutes and calories burned from start to end, overall and by activity."""
    entries = ExerciseEntry.objects.for_user(user).between(start, end)
    by_activity = list(
        entries.values("exercise__name")
        .annotate(
            sessions=Count("id"),
            minutes=Sum("duration_minutes"),
            calories=Sum("calories_burned"),
        )
        .order_by("-minutes", "exercise__name")
    )
    return {
        "start": start,
        "end": end,
        "sessions": sum(row["sessions"] for row in by_activity),
        "minutes": sum(row["minutes"] or 0 for row in by_activity),
        "calories": sum(row["calories"] or 0 for row in by_activity),
        "active_days": entries.values("entry_date").distinct().count(),
        "by_activity": [
            {
                "activity": row["exercise__name"],
                "sessions": row["sessions"],
                "minutes": row["minutes"] or 0,
                "calories": row["calories"] or 0,
            }
            for row in by_activity
        ],
    }


# --- measurements ----------------------------------------------------------------------------


def least_squares(points: list[tuple[dt.date, float]]) -> tuple[float, float] | None:
    """(slope per day, value at the first point's day) of the least-squares line through the
    points, or None with fewer than two days to fit."""
    if len(points) < 2:
        return None
    xs = [(day - points[0][0]).days for day, _ in points]
    ys = [float(value) for _, value in points]
    mean_x, mean_y = sum(xs) / len(xs), sum(ys) / len(ys)
    spread = sum((x - mean_x) ** 2 for x in xs)
    if spread == 0:
        return None
    slope = sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys, strict=True)) / spread
    return slope, mean_y - slope * mean_x


def direction(points: list[tuple[dt.date, float]], tolerance: float) -> str:
    """rising, falling or steady, from the least-squares slope over the points.

    Steady when the fitted change across the whole span is within `tolerance` (a share of the
    mean), so one noisy day does not flip the verdict the way first-vs-last would.
    """
    fit = least_squares(points)
    if fit is None:
        return "not enough data"
    slope, _ = fit
    change = slope * (points[-1][0] - points[0][0]).days
    mean_y = sum(float(value) for _, value in points) / len(points)
    if abs(change) <= tolerance * max(abs(mean_y), 1e-9):
        return "steady"
    return "rising" if change > 0 else "falling"


def series_stats(points: list[tuple[dt.date, float]], *, tolerance: float) -> dict:
    if not points:
        return {"count": 0}
    values = [float(value) for _, value in points]
    return {
        "count": len(points),
        "first": {"date": points[0][0], "value": values[0]},
        "last": {"date": points[-1][0], "value": values[-1]},
        "change": values[-1] - values[0],
        "min": min(values),
        "max": max(values),
        "average": sum(values) / len(values),
        "direction": direction(points, tolerance),
    }


# --- coaching --------------------------------------------------------------------------------


def coaching_snapshot(*, user, end: dt.date, days: int = SNAPSHOT_DAYS) -> dict:
    """The facts the coach advises from: the `days` days ending on `end` (the user's today, as
    frequent_foods counts back from today) against the goals.

    Food averages are over the days with food logged; exercise and water over every day.
    """
    start, end = span(end, days)
    period = period_summary(user=user, start=start, end=end)
    goal = goal_for(user=user, day=end)
    averages = period["averages"]
    met = period["goals_met"]

    def versus(name: str) -> dict:
        out = {"average": averages.get(name), "goal": goal_value(goal, name)}
        if name in met and met[name]["of"]:
            out["days_met"] = f"{met[name]['met']} of {met[name]['of']}"
        return out

    weights = [(d["date"], d["weight"]) for d in period["days"] if d["weight"] is not None]
    weight = None
    if weights:
        weight = {
            "first": weights[0][1],
            "last": weights[-1][1],
            "change": weights[-1][1] - weights[0][1],
            "weigh_ins": len(weights),
            "unit": period["weight_unit"],
        }
    exercise = exercise_summary(user=user, start=start, end=end)
    streak = logging_streak(user=user, today=end)
    foods = frequent_foods(user=user, days=days, limit=5)
    return {
        "start": start,
        "end": end,
        "days": days,
        "days_logged": period["days_logged"],
        "current_streak": streak["current_streak"],
        "calories": versus("calories"),
        "protein": versus("protein"),
        "carbs": versus("carbs"),
        "fat": versus("fat"),
        "exercise": {
            "sessions": exercise["sessions"],
            "minutes": exercise["minutes"],
            "calories": exercise["calories"],
            "active_days": exercise["active_days"],
        },
        "water": {
            "average_glasses": averages.get("water"),
            "goal_glasses": period["days"][-1]["water_goal"],
            "days_met": f"{met['water']['met']} of {met['water']['of']}",
        },
        "weight": weight,
        "top_foods": foods,
    }


# --- the week and month report ---------------------------------------------------------------

# A month is four whole weeks ending on the day asked for, so its weekly workout figures always
# compare seven days with seven days (a calendar month would end on a stub of a week).
REPORT_PERIODS = {"week": 7, "month": 28}
REPORT_NUTRIENTS = ("calories", "protein", "carbs", "fat")


def _verdict(name: str, goal: Decimal | None, eaten: Decimal, references: dict) -> str | None:
    """low, high or None: the coach's own rule (_rule_for, _misses) for a day against its goal."""
    rule = _rule_for(name, goal, references) if goal is not None else None
    return None if rule is None else _misses(rule[0], rule[1], eaten)


def period_report(*, user, period: str, end: dt.date) -> dict:
    """The report page's figures for the week (7 days) or month (28 days) ending on `end`.

    {
      "period", "start", "end", "days_logged",
      "days": [{"date", "logged", "calories", "protein", "carbs", "fat",   # None when unlogged
                "goals": {nutrient: Decimal | None}, "verdicts": {nutrient: "low"|"high"|None},
                "workouts", "minutes", "weight"}],
      "averages": {nutrient: Decimal | None},   # over logged days only, as period_summary
      "goals": {nutrient: Decimal | None},      # the goal on the last day, for the averages
      "weeks": [{"start", "end", "workouts", "minutes"}],   # seven days each, oldest first
      "exercise": {"workouts", "minutes", "active_days"},
      "weight": {"unit", "points": [(date, Decimal)], "change", "trend"},
          # change: last weigh-in minus first (None with fewer than two); trend: the
          # least-squares line through the weigh-ins, {"start", "end", "per_week"}, or None
    }
    """
    start, end = span(end, REPORT_PERIODS[period])
    summary = period_summary(user=user, start=start, end=end)
    workouts = dict(
        ExerciseEntry.objects.for_user(user)
        .between(start, end)
        .values("entry_date")
        .annotate(count=Count("id"))
        .values_list("entry_date", "count")
    )
    references = personal_reference_intakes(user)  # a goal's direction (floor or ceiling)
    days = []
    for row in summary["days"]:
        goal = goal_for(user=user, day=row["date"])
        goals = {name: goal_value(goal, name) for name in REPORT_NUTRIENTS}
        logged = row["logged"]
        days.append(
            {
                "date": row["date"],
                "logged": logged,
                **{name: row[name] if logged else None for name in REPORT_NUTRIENTS},
                "goals": goals,
                "verdicts": {
                    name: _verdict(name, goals[name], row[name], references) if logged else None
                    for name in REPORT_NUTRIENTS
                },
                "workouts": workouts.get(row["date"], 0),
                "minutes": row["exercise_minutes"],
                "weight": row["weight"],
            }
        )
    weeks = []
    for first in range(0, len(days), 7):
        chunk = days[first : first + 7]
        weeks.append(
            {
                "start": chunk[0]["date"],
                "end": chunk[-1]["date"],
                "workouts": sum(d["workouts"] for d in chunk),
                "minutes": sum(d["minutes"] for d in chunk),
            }
        )
    points = [(d["date"], d["weight"]) for d in days if d["weight"] is not None]
    fit = least_squares(points)
    trend = None
    if fit is not None:
        slope, at_first = fit
        span_days = (points[-1][0] - points[0][0]).days
        trend = {
            "start": at_first,
            "end": at_first + slope * span_days,
            "per_week": slope * 7,
        }
    return {
        "period": period,
        "start": start,
        "end": end,
        "days_logged": summary["days_logged"],
        "days": days,
        "averages": {name: summary["averages"][name] for name in REPORT_NUTRIENTS},
        "goals": days[-1]["goals"],
        "weeks": weeks,
        "exercise": {
            "workouts": sum(d["workouts"] for d in days),
            "minutes": sum(d["minutes"] for d in days),
            "active_days": sum(1 for d in days if d["workouts"]),
        },
        "weight": {
            "unit": summary["weight_unit"],
            "points": points,
            "change": points[-1][1] - points[0][1] if len(points) > 1 else None,
            "trend": trend,
        },
    }
