"""Report tools: the week in numbers, trends of a nutrient or a measurement, the logging streak
and an exercise report. Read-only; every figure is the acting user's own."""

from __future__ import annotations

from diary import reports
from diary import selectors as summary_selectors
from measurements import selectors as measurement_selectors
from measurements.fields import CHECKIN
from nutrition import services as food_services
from nutrition.models import NUTRIENTS, nutrient_unit
from sparky.dates import parse_day, today_for
from sparky.services import preferences_for

from .base import ToolResult, bounded, day_tool, tool
from .lookup import name_score
from .schema import DATE_ARG, integer, obj, string

END_DATE_ARG = string(
    "Last day of the report: YYYY-MM-DD, 'today' or 'yesterday'. Leave out for today."
)
# How much a series may drift across its span (share of its mean) and still read as steady.
# (A check-in field's is its kind of unit's: measurements/words/checkins.toml.)
TREND_TOLERANCE = {"nutrient": 0.05, "custom": 0.03}
RECENT_VALUES = 14


def _r(value, places: int = 1):
    if value is None:
        return None
    number = round(float(value), places)
    return int(number) if places == 0 else number


def _kcal(value) -> str:
    return f"{round(float(value)):,}" if value is not None else "?"


@day_tool(
    name="weekly_report",
    category="reports",
    description=(
        "The user's week: for the 7 days ending on a date, each day's calories, protein, carbs, "
        "fat, exercise calories burned, water and weight, with averages and on how many days "
        "the goals were met. Use for 'how was my week?'."
    ),
    date=END_DATE_ARG,
)
def weekly_report(ctx, end) -> ToolResult:
    start, end = reports.span(end, 7)
    summary = summary_selectors.period_summary(user=ctx.user, start=start, end=end)
    unit = summary["weight_unit"]
    days = []
    for row in summary["days"]:
        day = {"date": row["date"], "logged": row["logged"]}
        if row["logged"]:  # an unlogged day's zeros are missing data; leave them out
            day.update(
                calories=_r(row["calories"], 0),
                protein=_r(row["protein"]),
                carbs=_r(row["carbs"]),
                fat=_r(row["fat"]),
            )
        day.update(
            burned=row["burned"], exercise_minutes=row["exercise_minutes"], water=row["water"]
        )
        if row["weight"] is not None:
            day["weight"] = _r(row["weight"])
        days.append(day)
    averages = {k: _r(v) for k, v in summary["averages"].items()}
    goal = food_services.goal_for(user=ctx.user, day=end)
    goals = {
        name: _r(summary_selectors.goal_value(goal, name))
        for name in ("calories", "protein", "carbs", "fat", "dietary_fiber")
        if summary_selectors.goal_value(goal, name) is not None
    }
    goals["water_glasses"] = summary["days"][-1]["water_goal"]
    met = {k: f"{v['met']} of {v['of']} days" for k, v in summary["goals_met"].items() if v["of"]}
    text = (
        f"{start} to {end}: food logged on {summary['days_logged']} of 7 days, "
        f"average {_kcal(averages['calories'])} kcal"
    )
    if summary["goals_met"]["calories"]["of"]:
        calories_met = summary["goals_met"]["calories"]
        text += (
            f" (goal {_kcal(goals.get('calories'))}, within it on {calories_met['met']} of "
            f"{calories_met['of']} logged days)"
        )
    weights = [d["weight"] for d in days if "weight" in d]
    if len(weights) > 1:
        text += f", weight {weights[0]:g} -> {weights[-1]:g} {unit}"
    elif weights:
        text += f", weight {weights[0]:g} {unit}"
    return ToolResult(
        ok=True,
        message=text + ".",
        data={
            "start": start,
            "end": end,
            "days_logged": summary["days_logged"],
            "days": days,
            "averages": averages,
            "goals": goals,
            "goals_met": met,
            "weight_unit": unit,
        },
    )


@tool(
    name="nutrition_trend",
    category="reports",
    description=(
        "How much of calories or one nutrient the user ate each day over the last N days, with "
        "the average and whether it is rising, falling or steady. Days with nothing logged are "
        "left out."
    ),
    parameters=obj(
        nutrient=string("What to follow (default calories).", enum=list(NUTRIENTS)),
        days=integer("How many days back, 3 to 90 (default 14)."),
        date=END_DATE_ARG,
    ),
    example={"nutrient": "protein", "days": 14},
)
def nutrition_trend(ctx, args) -> ToolResult:
    nutrient = args.get("nutrient", "calories")
    days = bounded(args, "days", 14, 3, 90)
    start, end = reports.span(parse_day(ctx.user, args.get("date")), days)
    daily = reports.daily_nutrients(user=ctx.user, start=start, end=end)
    points = [(day, totals[nutrient]) for day, totals in daily.items()]
    stats = reports.series_stats(points, tolerance=TREND_TOLERANCE["nutrient"])
    unit = nutrient_unit(nutrient)
    label = nutrient.replace("_", " ")
    goal = food_services.goal_for(user=ctx.user, day=end)
    goal_value = summary_selectors.goal_value(goal, nutrient)
    if not points:
        return ToolResult(
            ok=True,
            message=f"No food logged from {start} to {end}, so there is no {label} trend.",
            data={"nutrient": nutrient, "start": start, "end": end, "days_logged": 0},
        )
    text = (
        f"{label.capitalize()} from {start} to {end}: {len(points)} days logged, average "
        f"{stats['average']:,.0f} {unit}, {stats['direction']}"
    )
    if goal_value:
        text += f" (goal {float(goal_value):,.0f} {unit})"
    return ToolResult(
        ok=True,
        message=text + ".",
        data={
            "nutrient": nutrient,
            "unit": unit,
            "start": start,
            "end": end,
            "days_logged": len(points),
            "per_day": {day.isoformat(): _r(value) for day, value in points},
            "average": _r(stats["average"]),
            "min": _r(stats["min"]),
            "max": _r(stats["max"]),
            "direction": stats["direction"],
            "goal": _r(goal_value),
        },
    )


def _custom_category(user, name: str):
    """The user's own custom category that best fits `name`, or None."""
    best, best_score = None, 0.0
    for category in measurement_selectors.custom_categories(user=user):
        score = 1.0 if category.name.lower() == name.lower() else name_score(name, category.name)
        if score > best_score:
            best, best_score = category, score
    return best if best_score >= 0.6 else None


def _series(user, measurement: str, days: int):
    """(points oldest first, unit, tolerance, display name) or None when nothing is called that."""
    prefs = preferences_for(user)
    if measurement in CHECKIN:
        field = CHECKIN[measurement]
        points = measurement_selectors.checkin_trend(user=user, field=measurement, days=days)
        unit = measurement_selectors.kept_unit(measurement, prefs)
        return points, unit, field.kind.steady, field.label
    category = _custom_category(user, measurement)
    if category is None:
        return None
    rows = measurement_selectors.custom_trend(user=user, category_name=category.name, days=days)
    points = [(r["date"], r["value"]) for r in rows]
    return points, category.unit, TREND_TOLERANCE["custom"], category.name


_CHECKINS = ", ".join(CHECKIN)


@tool(
    name="measurement_trend",
    category="reports",
    description=(
        f"How a body measurement changed over the last N days: {_CHECKINS}, or any custom "
        "measurement the user tracks (e.g. 'Resting heart rate'). Returns first, last, change, "
        "min, max and the direction, in the user's units."
    ),
    parameters=obj(
        required=["measurement"],
        measurement=string(f"{_CHECKINS}, or the name of a custom measurement."),
        days=integer("How many days back, 2 to 365 (default 30)."),
    ),
    example={"measurement": "weight", "days": 30},
)
def measurement_trend(ctx, args) -> ToolResult:
    measurement = " ".join(args["measurement"].split())
    key = measurement.lower()
    if key in ("body weight", "weights"):
        key = "weight"
    days = bounded(args, "days", 30, 2, 365)
    found = _series(ctx.user, key if key in reports.CHECKIN_FIELDS else measurement, days)
    if found is None:
        names = [c.name for c in measurement_selectors.custom_categories(user=ctx.user)]
        tracked = ", ".join([*CHECKIN, *names])
        return ToolResult(
            ok=False, message=f"You track no measurement called {measurement!r}. Known: {tracked}."
        )
    points, unit, tolerance, label = found
    end = today_for(ctx.user)
    start, _ = reports.span(end, days)
    if not points:
        return ToolResult(
            ok=True,
            message=f"No {label.lower()} recorded from {start} to {end}.",
            data={"measurement": label, "start": start, "end": end, "count": 0},
        )
    stats = reports.series_stats(points, tolerance=tolerance)
    unit_text = f" {unit}" if unit else ""
    text = (
        f"{label} from {start} to {end}: {stats['count']} readings, {stats['first']['value']:g} "
        f"-> {stats['last']['value']:g}{unit_text} ({round(stats['change'], 2):+g}), "
        f"{stats['direction']}."
    )
    return ToolResult(
        ok=True,
        message=text,
        data={
            "measurement": label,
            "unit": unit,
            "start": start,
            "end": end,
            "count": stats["count"],
            "first": stats["first"],
            "last": stats["last"],
            "change": _r(stats["change"], 2),
            "min": _r(stats["min"], 2),
            "max": _r(stats["max"], 2),
            "average": _r(stats["average"], 2),
            "direction": stats["direction"],
            "recent": [[day, _r(value, 2)] for day, value in points[-RECENT_VALUES:]],
        },
    )


@tool(
    name="logging_streak",
    category="reports",
    description=(
        "The user's food logging streak: consecutive days with at least one food logged (current "
        "and longest) and on how many of the last 30 days they logged."
    ),
    parameters=obj(),
    example={},
)
def logging_streak(ctx, args) -> ToolResult:
    streak = reports.logging_streak(user=ctx.user, today=today_for(ctx.user))
    today = "" if streak["logged_today"] else " Nothing logged yet today."
    return ToolResult(
        ok=True,
        message=(
            f"Current streak {streak['current_streak']} days, longest {streak['longest_streak']}; "
            f"logged on {streak['days_logged_last_30']} of the last 30 days.{today}"
        ),
        data=streak,
    )


@tool(
    name="exercise_report",
    category="reports",
    description=(
        "The user's exercise over the last N days: sessions, minutes, calories burned, active "
        "days, and the same by activity."
    ),
    parameters=obj(
        days=integer("How many days back, 1 to 90 (default 7)."),
        date=DATE_ARG,
    ),
    example={"days": 7},
)
def exercise_report(ctx, args) -> ToolResult:
    days = bounded(args, "days", 7, 1, 90)
    start, end = reports.span(parse_day(ctx.user, args.get("date")), days)
    summary = reports.exercise_summary(user=ctx.user, start=start, end=end)
    if not summary["sessions"]:
        return ToolResult(
            ok=True, message=f"No exercise logged from {start} to {end}.", data=summary
        )
    top = summary["by_activity"][0]
    return ToolResult(
        ok=True,
        message=(
            f"{start} to {end}: {summary['sessions']} sessions on {summary['active_days']} days, "
            f"{summary['minutes']} min, {_kcal(summary['calories'])} kcal burned; most time on "
            f"{top['activity']} ({top['minutes']} min)."
        ),
        data=summary,
    )
