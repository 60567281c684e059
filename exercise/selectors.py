"""Reads of the exercise diary."""

import datetime as dt

from django.db.models import Count, Sum

from exercise.models import ExerciseEntry


def exercise_totals(*, user, day: dt.date) -> dict[str, int]:
    """{"minutes", "calories_burned", "count"} of the user's exercise on `day`."""
    totals = (
        ExerciseEntry.objects.for_user(user)
        .on_date(day)
        .aggregate(
            minutes=Sum("duration_minutes"), calories=Sum("calories_burned"), count=Count("id")
        )
    )
    return {
        "minutes": totals["minutes"] or 0,
        "calories_burned": totals["calories"] or 0,
        "count": totals["count"],
    }


def exercise_diary(*, user, day: dt.date) -> list[dict]:
    """The user's exercise entries on `day`, in the order they were logged:
    [{"id", "exercise_id", "name", "category", "duration_minutes", "calories_burned",
      "distance", "distance_unit", "notes", "date", "is_custom"}]."""
    entries = (
        ExerciseEntry.objects.for_user(user)
        .on_date(day)
        .select_related("exercise")
        .order_by("created_at", "id")
    )
    return [
        {
            "id": entry.id,
            "exercise_id": entry.exercise_id,
            "name": entry.exercise.name,
            "category": entry.exercise.category,
            "duration_minutes": entry.duration_minutes,
            "calories_burned": entry.calories_burned,
            "distance": entry.distance,
            "distance_unit": entry.distance_unit,
            "notes": entry.notes,
            "date": entry.entry_date,
            "is_custom": bool(entry.exercise.is_custom),
        }
        for entry in entries
    ]
