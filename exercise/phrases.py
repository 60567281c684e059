"""An exercise entry in the words a person would use: "45 minutes of walking, 4 km (180 kcal)".
The chip and the diary keep the catalog's name ("Walking, 3.5 mph, brisk")."""

from __future__ import annotations


def activity_words(name: str) -> str:
    """'Walking, 3.5 mph, brisk' -> 'walking'; 'Bench press' -> 'bench press'."""
    head = (name or "").split(",")[0].strip() or (name or "").strip()
    return head.lower()


def entry_phrase(entry) -> str:
    said = f"{_duration(entry.duration_minutes)} of {activity_words(entry.exercise.name)}"
    if entry.distance is not None:
        said += f", {float(entry.distance):g} {entry.distance_unit or 'km'}"
    if entry.calories_burned is not None:
        said += f" ({entry.calories_burned} kcal)"
    return said


def _duration(minutes: int) -> str:
    """'45 minutes', 'an hour', '1.5 hours', '2 hours'."""
    if minutes == 60:
        return "an hour"
    if minutes > 60 and minutes % 30 == 0:
        return f"{minutes / 60:g} hours"
    return f"{minutes} minute{'s' if minutes != 1 else ''}"
