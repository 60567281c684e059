"""Coaching tools: the facts the coach advises from, drawn from the user's own recent data.

They only read. The model turns the numbers into advice; the tools make sure the numbers are the
user's real ones rather than the model's guesses.
"""

from __future__ import annotations

from diary import reports
from sparky.dates import parse_day, today_for

from .base import ToolResult, bounded, tool
from .schema import integer, obj, string


def _r(value, places: int = 1):
    if value is None:
        return None
    number = round(float(value), places)
    return int(number) if places == 0 else number


def _versus(block: dict, unit: str) -> str:
    text = f"{_r(block['average'], 0):,} {unit}" if block["average"] is not None else "no data"
    if block.get("goal") is not None:
        text += f" (goal {_r(block['goal'], 0):,})"
    return text


@tool(
    name="coaching_snapshot",
    category="coaching",
    description=(
        "The user's recent picture, to base advice on: for the last 7 days, average calories, "
        "protein, carbs and fat against their goals, exercise minutes, water, weight change, how "
        "many days they logged and the foods they logged most. Call it before giving advice."
    ),
    parameters=obj(),
    example={},
)
def coaching_snapshot(ctx, args) -> ToolResult:
    end = today_for(ctx.user)
    snap = reports.coaching_snapshot(user=ctx.user, end=end)
    data = {
        "period": f"{snap['start']} to {snap['end']}",
        "days_logged": f"{snap['days_logged']} of {snap['days']}",
        "current_streak": snap["current_streak"],
    }
    for name in ("calories", "protein", "carbs", "fat"):
        block = snap[name]
        data[name] = {
            k: _r(v, 0 if name == "calories" else 1) if k != "days_met" else v
            for k, v in block.items()
            if v is not None
        }
    data["exercise"] = snap["exercise"]
    data["water"] = {k: (_r(v) if k == "average_glasses" else v) for k, v in snap["water"].items()}
    if snap["weight"]:
        weight = snap["weight"]
        data["weight"] = {
            "first": _r(weight["first"]),
            "last": _r(weight["last"]),
            "change": _r(weight["change"]),
            "weigh_ins": weight["weigh_ins"],
            "unit": weight["unit"],
        }
    data["top_foods"] = [{"name": row["name"], "times": row["times"]} for row in snap["top_foods"]]
    if not snap["days_logged"] and not snap["exercise"]["sessions"] and not snap["weight"]:
        return ToolResult(
            ok=True,
            message=(
                f"Nothing logged from {snap['start']} to {snap['end']}: no food, exercise or "
                "weight. Encourage the user to start logging before giving specific advice."
            ),
            data=data,
        )
    sessions = snap["exercise"]["sessions"]
    parts = [
        f"logged food on {data['days_logged']} days",
        f"average {_versus(snap['calories'], 'kcal')}",
        f"protein {_versus(snap['protein'], 'g')}",
        f"exercise {snap['exercise']['minutes']} min in {sessions} "
        f"session{'' if sessions == 1 else 's'}",
    ]
    if snap["weight"] and snap["weight"]["weigh_ins"] > 1:
        parts.append(f"weight {data['weight']['change']:+g} {data['weight']['unit']}")
    return ToolResult(ok=True, message=f"{data['period']}: " + ", ".join(parts) + ".", data=data)


@tool(
    name="nutrient_gaps",
    category="coaching",
    description=(
        "Which nutrients the user is consistently short of (e.g. fiber, protein, calcium) or over "
        "(e.g. sodium, sugars, saturated fat) across the last N days, judged against their goals "
        "or, without a goal, standard adult daily values. Days with nothing logged are skipped."
    ),
    parameters=obj(
        days=integer("How many days back, 3 to 30 (default 7)."),
        date=string("Last day to look at: YYYY-MM-DD or 'yesterday'. Leave out for today."),
    ),
    example={"days": 7},
)
def nutrient_gaps(ctx, args) -> ToolResult:
    days = bounded(args, "days", 7, 3, 30)
    start, end = reports.span(parse_day(ctx.user, args.get("date")), days)
    found = reports.nutrient_gaps(user=ctx.user, start=start, end=end)
    gaps = [
        {
            "nutrient": g["nutrient"],
            "status": g["status"],
            "average": _r(g["average"], 0 if g["average"] >= 100 else 1),
            "target": f"{g['target_kind']} {_r(g['target'], 0 if g['target'] >= 100 else 1):g}",
            "unit": g["unit"],
            "basis": g["basis"],
            "days_off": f"{g['days_off']} of {g['days_logged']}",
        }
        for g in found["gaps"]
    ]
    data = {
        "period": f"{start} to {end}",
        "days_logged": found["days_logged"],
        "gaps": gaps,
        "not_tracked": found["not_tracked"],
    }
    if not found["days_logged"]:
        return ToolResult(
            ok=True, message=f"No food logged from {start} to {end}; no gaps to judge.", data=data
        )
    if not gaps:
        message = (
            f"No consistent gaps over {found['days_logged']} logged days from {start} to {end}."
        )
    else:
        described = ", ".join(
            f"{g['nutrient'].replace('_', ' ')} {g['status']} (avg {g['average']:g} {g['unit']}, "
            f"{g['target']})"
            for g in gaps
        )
        message = f"Over {found['days_logged']} logged days: {described}."
    if found["not_tracked"]:
        message += " Some nutrients are not recorded for most logged foods; see not_tracked."
    return ToolResult(ok=True, message=message, data=data)
