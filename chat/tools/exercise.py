"""Exercise tools: search, log, the exercise diary, edits and deletes, custom exercises."""

from __future__ import annotations

import dataclasses

from django.core.exceptions import ValidationError

from exercise import selectors as exercise_selectors
from exercise import services as exercise_services
from exercise import vocabulary as activities
from exercise.models import ExerciseEntry
from exercise.phrases import entry_phrase
from sparky.dates import parse_day
from sparky.rows import row_state
from sparky.words import counted

from .base import (
    CORE,
    ToolResult,
    Written,
    bounded,
    day_tool,
    logged_sentence,
    tool,
    undo_of,
    written_new,
)
from .entries import Entries
from .schema import DATE_ARG, integer, number, obj, string

# What edit_exercise_entry may change besides the day.
_EDITABLE = ("duration_minutes", "calories_burned", "distance", "distance_unit")
# What undo compares and restores of an exercise entry.
ENTRY_FIELDS = ("exercise_id", *_EDITABLE, "entry_date", "notes")

GENERAL_EXERCISE = "General Exercise"


def exercise_card(ex) -> dict:
    return {
        "exercise_id": str(ex.id),
        "name": ex.name,
        "category": ex.category,
        "met": float(ex.met) if ex.met is not None else None,
        "calories_per_hour": ex.calories_per_hour,
        "custom": bool(ex.is_custom),
    }


def entry_line(entry: ExerciseEntry) -> str:
    distance = ""
    if entry.distance is not None:
        distance = f", {float(entry.distance):g} {entry.distance_unit or 'km'}"
    return (
        f"{entry.exercise.name}, {entry.duration_minutes} min{distance}, "
        f"{entry.calories_burned} kcal ({entry.entry_date.isoformat() if entry.entry_date else ''})"
    )


def entry_chip(entry: ExerciseEntry) -> str:
    """The entry in a few words: 'Walking, 3.5 mph, brisk · 45 min'."""
    return f"{entry.exercise.name} · {entry.duration_minutes} min"


def written_exercise(entry, *, before: dict | None = None) -> Written:
    """An exercise entry the call created, or (`before` its earlier state) changed."""
    after = row_state(entry, ENTRY_FIELDS)
    return Written(
        kind="exercise_entry",
        id=str(entry.id),
        summary=entry_line(entry),
        date=entry.entry_date.isoformat() if entry.entry_date else None,
        chip=entry_chip(entry),
        phrase=entry_phrase(entry) if before is None else "",
        undo=undo_of(before, after),
    )


@tool(
    name="search_exercises",
    category="exercise",
    profiles=CORE,
    description="Search the exercise catalog and the user's own exercises by name.",
    parameters=obj(
        required=["query"],
        query=string("What to look for, e.g. 'rowing'."),
        limit=integer("How many results, 1 to 10 (default 5)."),
    ),
    example={"query": "running"},
)
def search_exercises(ctx, args) -> ToolResult:
    limit = bounded(args, "limit", 5, 1, 10)
    found = exercise_services.exercise_search(user=ctx.user, query=args["query"], limit=limit)
    return ToolResult(
        ok=True,
        message=f"{len(found)} exercises match {args['query']!r}.",
        data={"exercises": [exercise_card(e) for e in found]},
    )


@tool(
    name="log_exercise",
    category="exercise",
    profiles=CORE,
    writes=True,
    plans=True,
    description=(
        "Log a workout or activity. Give exercise_name (e.g. 'running') and the duration in "
        "minutes when known; calories are worked out from the user's weight."
    ),
    parameters=obj(
        exercise_name=string("The activity, e.g. 'walking', 'bench press'."),
        duration_minutes=number("How long, in minutes."),
        distance=number("Distance covered, if any."),
        distance_unit=string("Unit of the distance.", enum=list(activities.DISTANCE_UNITS)),
        calories_burned=number("Only if the user stated the calories burned."),
        date=DATE_ARG,
        notes=string("Anything else worth keeping, e.g. '3 sets of 10'."),
        exercise_id=string("An exercise_id from search_exercises, when you have one."),
    ),
    example={
        "exercise_name": "running",
        "duration_minutes": 28,
        "distance": 5,
        "distance_unit": "km",
    },
)
def log_exercise(ctx, args) -> ToolResult:
    exercise = None
    if args.get("exercise_id"):
        # An id names one exercise: an invented or foreign one is refused, never read as the name.
        exercise = exercise_services.exercise_get(user=ctx.user, exercise_id=args["exercise_id"])
    name = (args.get("exercise_name") or "").strip()
    if exercise is None and name:
        exercise = exercise_services.exercise_find_best(user=ctx.user, name=name)
        if exercise is None:
            parse_day(ctx.user, args.get("date"))
            return ToolResult(
                ok=False,
                message=(
                    f"{name!r} is not in the exercise catalog. Sparky will show the user three "
                    "options to pick from; do not log it another way."
                ),
                options={
                    "kind": "exercise",
                    "query": name,
                    "request": {
                        k: args.get(k)
                        for k in ("duration_minutes", "distance", "distance_unit", "date", "notes")
                    },
                },
            )
    entry = exercise_services.exercise_entry_prepare(
        user=ctx.user,
        exercise=exercise,
        exercise_name=None if exercise else (name or None),
        duration_minutes=args.get("duration_minutes"),
        distance=args.get("distance"),
        distance_unit=args.get("distance_unit"),
        calories_burned=args.get("calories_burned"),
        entry_date=args.get("date"),
        notes=args.get("notes"),
    )
    written = written_exercise(entry)
    result = ToolResult(
        ok=True,
        message=logged_sentence([written], ctx.user),
        data={"entry_id": str(entry.id), "exercise": exercise_card(entry.exercise)},
        written=[written],
        rows=[entry],
    )

    def save() -> ToolResult:
        exercise_services.exercise_entry_save(entry)
        return dataclasses.replace(result, plan=None, rows=[])

    result.plan = save
    return result


@day_tool(
    name="exercise_diary",
    category="exercise",
    profiles=CORE,
    description="Read the user's exercise diary for a day, with minutes and calories burned.",
)
def exercise_diary(ctx, day) -> ToolResult:
    rows = exercise_selectors.exercise_diary(user=ctx.user, day=day)
    totals = exercise_selectors.exercise_totals(user=ctx.user, day=day)
    return ToolResult(
        ok=True,
        message=f"{counted(len(rows), 'exercise entry')} on {day.isoformat()}.",
        data={"date": day, "entries": rows, "totals": totals},
    )


ENTRIES = Entries(
    kind="exercise",
    label="exercise_name",
    queryset=lambda user: ExerciseEntry.objects.for_user(user).select_related("exercise"),
    name_of=lambda entry: entry.exercise.name,
    chip_name=lambda entry: entry.exercise.name,
    fields=ENTRY_FIELDS,
    line=entry_line,
    written=written_exercise,
    update=exercise_services.exercise_entry_update,
    delete=exercise_services.exercise_entry_delete,
)


@tool(
    name="edit_exercise_entry",
    category="exercise",
    profiles=CORE,
    writes=True,
    description=(
        "Change a logged workout: duration, distance, calories or day. Identify it by entry_id, or "
        "by exercise_name and the date it was logged."
    ),
    parameters=obj(
        entry_id=string(None),
        exercise_name=string("Name of the logged exercise, when there is no id."),
        date=DATE_ARG,
        duration_minutes=number("New duration in minutes."),
        distance=number("New distance."),
        distance_unit=string("Unit of the distance.", enum=list(activities.DISTANCE_UNITS)),
        calories_burned=number("New calories burned, only if the user stated them."),
        new_date=string("Move the entry to this day."),
    ),
    example={"exercise_name": "running", "date": "today", "duration_minutes": 35},
)
def edit_exercise_entry(ctx, args) -> ToolResult:
    entry = ENTRIES.find(ctx, args)
    if isinstance(entry, ToolResult):
        return entry
    changes = {k: args[k] for k in _EDITABLE if k in args}
    if "new_date" in args:
        changes["entry_date"] = args["new_date"]
    if not changes:
        raise ValidationError(
            "Say what to change: duration_minutes, distance, calories or new_date."
        )
    return ENTRIES.change(ctx, entry, changes)


@tool(
    name="delete_exercise_entry",
    category="exercise",
    profiles=CORE,
    writes=True,
    description=(
        "Delete a logged workout, only when the user explicitly asks. Identify it by entry_id, or "
        "by exercise_name and date."
    ),
    parameters=obj(
        entry_id=string(None),
        exercise_name=string("Name of the logged exercise, when there is no id."),
        date=DATE_ARG,
    ),
    example={"exercise_name": "walking", "date": "yesterday"},
)
def delete_exercise_entry(ctx, args) -> ToolResult:
    return ENTRIES.remove(ctx, args)


@tool(
    name="create_custom_exercise",
    category="exercise",
    writes=True,
    description="Save a new exercise to the user's own exercises, with calories burned per hour.",
    parameters=obj(
        required=["name", "calories_per_hour"],
        name=string("Name of the exercise."),
        calories_per_hour=number("Estimated kcal burned per hour."),
        category=string(
            "Kind of exercise.", enum=["cardio", "strength", "sports", "flexibility", "general"]
        ),
    ),
    example={"name": "padel", "calories_per_hour": 450, "category": "sports"},
)
def create_custom_exercise(ctx, args) -> ToolResult:
    ex = exercise_services.exercise_create_custom(
        user=ctx.user,
        name=args["name"].strip(),
        calories_per_hour=args["calories_per_hour"],
        category=args.get("category", "general"),
    )
    return ToolResult(
        ok=True,
        message=f"Saved {ex.name} to your exercises.",
        data={"exercise": exercise_card(ex)},
        written=[written_new("exercise", ex, noun="exercise")],
    )
