"""Goal tools: read and set goals, and the day's and week's progress against them."""

from __future__ import annotations

import datetime as dt

from django.core.exceptions import ValidationError

from diary import selectors as summary_selectors
from nutrition import services as food_services
from nutrition.models import UserGoal
from sparky.dates import parse_day
from sparky.rows import row_state

from .base import CORE, ToolResult, Written, bounded, day_tool, tool, undo_of
from .schema import DATE_ARG, boolean, integer, number, obj

_GOAL_FIELDS = {
    "calories": number("Daily calories, kcal."),
    "protein": number("Protein, g."),
    "carbs": number("Carbohydrates, g."),
    "fat": number("Fat, g."),
    "water_goal": integer("Water, glasses per day."),
    "dietary_fiber": number("Fiber, g."),
    "sugars": number("Sugars, g (a ceiling)."),
    "sodium": number("Sodium, mg (a ceiling)."),
    "saturated_fat": number("Saturated fat, g (a ceiling)."),
}


def goal_dict(goal) -> dict:
    if goal is None:
        return {}
    out = {k: getattr(goal, k) for k in _GOAL_FIELDS if getattr(goal, k) is not None}
    out["applies_to"] = goal.goal_date.isoformat() if goal.goal_date else "every day (default)"
    return out


@day_tool(
    name="get_goals",
    category="goals",
    profiles=CORE,
    description="Read the user's nutrition and water goals that apply on a day.",
)
def get_goals(ctx, day) -> ToolResult:
    goal = food_services.goal_for(user=ctx.user, day=day)
    if goal is None:
        return ToolResult(ok=True, message="No goals are set yet.", data={"goals": {}})
    return ToolResult(ok=True, message=f"Goals for {day}.", data={"goals": goal_dict(goal)})


@tool(
    name="set_goals",
    category="goals",
    profiles=CORE,
    writes=True,
    description=(
        "Set the user's daily goals. By default this changes the goals for every day; with "
        "only_for_date it sets a goal for that one day."
    ),
    parameters=obj(
        **_GOAL_FIELDS,
        only_for_date=boolean("True to set the goal for one day (date) only."),
        date=DATE_ARG,
    ),
    example={"calories": 2200, "protein": 140},
)
def set_goals(ctx, args) -> ToolResult:
    values = {k: args[k] for k in _GOAL_FIELDS if k in args}
    if not values:
        raise ValidationError("Give at least one goal value, e.g. calories.", code="nothing_to_set")
    goal_date = parse_day(ctx.user, args.get("date")) if args.get("only_for_date") else None
    fields = [*food_services.GOAL_FIELDS, "water_goal"]
    earlier = UserGoal.objects.for_user(ctx.user).filter(goal_date=goal_date).first()
    goal = food_services.goal_set(user=ctx.user, goal_date=goal_date, **values)
    after = row_state(goal, fields)
    undo = undo_of(row_state(earlier, fields) if earlier else None, after)
    described = ", ".join(f"{k} {v:g}" for k, v in values.items())
    scope = f"on {goal_date}" if goal_date else "for every day"
    return ToolResult(
        ok=True,
        message=f"Goals set {scope}: {described}.",
        data={"goals": goal_dict(goal)},
        written=[
            Written(
                kind="goal",
                id=str(goal.id),
                summary=f"goals {scope}: {described}",
                chip="Daily goals set" if goal_date is None else f"Goals for {goal_date}",
                undo=undo,
            )
        ],
    )


@day_tool(
    name="daily_summary",
    category="goals",
    profiles=CORE,
    description=(
        "The day at a glance: calories and nutrients eaten against goals, exercise burned, water "
        "and measurements. Use it for 'how am I doing today?'."
    ),
)
def daily_summary(ctx, day) -> ToolResult:
    summary = summary_selectors.daily_summary(user=ctx.user, day=day)
    return ToolResult(ok=True, message=f"Summary of {day}.", data=summary)


@tool(
    name="goal_progress",
    category="goals",
    profiles=CORE,
    description=(
        "How the last days went against the goals: daily calories and macros, averages, and on "
        "how many days each goal was met."
    ),
    parameters=obj(days=integer("How many days, 2 to 31 (default 7)."), date=DATE_ARG),
    example={"days": 7},
)
def goal_progress(ctx, args) -> ToolResult:
    end = parse_day(ctx.user, args.get("date"))
    days = bounded(args, "days", 7, 2, 31)
    report = summary_selectors.period_summary(
        user=ctx.user, start=end - dt.timedelta(days=days - 1), end=end
    )
    return ToolResult(ok=True, message=f"Progress over {days} days to {end}.", data=report)
