"""Everything of a user's own, out: one JSON document, or the same sections as CSV files in a zip.

    data = export_data(user=alice)          # {"format": "sparky-export", "version": 1, ...}
    export_json(user=alice)                 # bytes of that document
    export_zip(user=alice)                  # bytes of a zip: food_entries.csv, goals.csv, ...

Each section is a list of flat rows (the same keys in JSON and as CSV columns): diary food
entries (with the nutrients of the amount logged, and which food they are, so they can be
imported again), custom foods, custom exercises, exercise entries, check-ins (with the units they
are kept in), custom measurements, goals, water, preferences and, registered by the chat app,
the chat history. Only the user's own rows are read, through each domain's per-user QuerySets.

A CSV file is opened in a spreadsheet, which runs a cell beginning with `=`, `+`, `-`, `@`, a tab
or a carriage return as a formula. So a text cell that begins so is written with a single quote
before it ("'=HYPERLINK(...)"), the OWASP rule; a number (a Decimal or an int, "-2.5") is never
quoted, so a negative value stays a number. The JSON document is written exactly as the data is,
and it is the file the importer reads back, so an export imported again is the same diary.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import zipfile
from collections.abc import Callable
from decimal import Decimal

from django.utils import timezone

from exercise.models import Exercise, ExerciseEntry
from measurements.fields import CHECKIN, unit_arguments
from measurements.models import CheckInMeasurement, CustomMeasurement
from nutrition.models import MICRONUTRIENTS, NUTRIENTS, Food, FoodEntry, UserGoal, WaterIntake
from nutrition.services import GOAL_FIELDS, entry_nutrients
from sparky.services import preferences_for

FORMAT = "sparky-export"
VERSION = 1

# Sections other apps add (the chat app: its history); name -> rows of a user.
_EXTRA_SECTIONS: dict[str, Callable] = {}


def register_section(name: str, rows: Callable) -> None:
    """Add a section to every export: `rows(user=...)` gives its flat rows. An app above diary
    (chat) registers its own data this way, so diary never imports it."""
    _EXTRA_SECTIONS[name] = rows


class _Number(str):
    """A number written as text ("80.4"): the same string in JSON, never quoted in a CSV."""


def _plain(value):
    if isinstance(value, Decimal):
        return _Number(format(value.normalize(), "f"))  # 80.400 -> "80.4", 200.000 -> "200"
    if isinstance(value, dt.datetime | dt.date):
        return value.isoformat()
    if hasattr(value, "hex") and not isinstance(value, str | bytes):  # a UUID
        return str(value)
    return value


def _row(**values) -> dict:
    return {key: _plain(value) for key, value in values.items()}


def _food_values(food: Food) -> dict:
    return {name: getattr(food, name) for name in NUTRIENTS}


def food_entry_rows(*, user) -> list[dict]:
    entries = (
        FoodEntry.objects.for_user(user)
        .select_related("food", "variant")
        .order_by("entry_date", "created_at", "id")
    )
    rows = []
    for entry in entries:
        food = entry.food
        rows.append(
            _row(
                id=entry.id,
                entry_date=entry.entry_date,
                meal_type=entry.meal_type,
                food_name=food.readable_name,
                quantity=entry.quantity,
                unit=entry.unit or "",
                **entry_nutrients(entry),
                food_id=food.id,
                food_custom=bool(food.is_custom and food.user_id == user.pk),
                food_source=food.source,
                food_source_id=food.source_id,
                serving_sequence="" if entry.variant is None else entry.variant.sequence,
            )
        )
    return rows


def custom_food_rows(*, user) -> list[dict]:
    foods = Food.objects.owned_by(user).filter(is_custom=True).order_by("name", "created_at")
    return [
        _row(
            id=food.id,
            name=food.name,
            serving_size=food.serving_size,
            serving_unit=food.serving_unit or "",
            **_food_values(food),
            barcode=food.barcode or "",
            estimate=food.is_estimate,
        )
        for food in foods
    ]


# The columns of custom_exercises.csv, written as its header even when it has no rows (an
# importer reads an empty file with its header as "none", a headerless one as broken).
CUSTOM_EXERCISE_COLUMNS = (
    "id",
    "name",
    "category",
    "calories_per_hour",
    "met",
    "default_duration_minutes",
    "description",
)


def custom_exercise_rows(*, user) -> list[dict]:
    exercises = Exercise.objects.owned_by(user).filter(is_custom=True).order_by("name")
    return [
        _row(
            id=exercise.id,
            name=exercise.name,
            category=exercise.category or "",
            calories_per_hour=exercise.calories_per_hour,
            met=exercise.met,
            default_duration_minutes=exercise.default_duration_minutes,
            description=exercise.description or "",
        )
        for exercise in exercises
    ]


def exercise_entry_rows(*, user) -> list[dict]:
    entries = (
        ExerciseEntry.objects.for_user(user)
        .select_related("exercise")
        .order_by("entry_date", "created_at", "id")
    )
    return [
        _row(
            id=entry.id,
            entry_date=entry.entry_date,
            exercise_name=entry.exercise.name,
            duration_minutes=entry.duration_minutes,
            calories_burned=entry.calories_burned,
            distance=entry.distance,
            distance_unit=entry.distance_unit or "",
            notes=entry.notes or "",
            exercise_id=entry.exercise_id,
            exercise_custom=bool(entry.exercise.is_custom and entry.exercise.user_id == user.pk),
            exercise_source=entry.exercise.source,
            exercise_source_id=entry.exercise.source_id,
        )
        for entry in entries
    ]


def checkin_rows(*, user) -> list[dict]:
    prefs = preferences_for(user)
    units = {argument: kind.kept(prefs) for argument, kind in unit_arguments().items()}
    rows = CheckInMeasurement.objects.for_user(user).order_by("entry_date")
    return [
        _row(
            id=row.id,
            entry_date=row.entry_date,
            **{name: getattr(row, name) for name in CHECKIN},
            **units,
        )
        for row in rows
    ]


def custom_measurement_rows(*, user) -> list[dict]:
    rows = (
        CustomMeasurement.objects.for_user(user)
        .select_related("category")
        .order_by("entry_date", "entry_hour", "entry_timestamp")
    )
    return [
        _row(
            id=row.id,
            entry_date=row.entry_date,
            entry_hour=row.entry_hour,
            name=row.category.name,
            value=row.value,
            unit=row.category.unit,
            frequency=row.category.frequency,
        )
        for row in rows
    ]


def goal_rows(*, user) -> list[dict]:
    goals = UserGoal.objects.for_user(user).order_by("goal_date")
    return [
        _row(
            id=goal.id,
            goal_date=goal.goal_date or "",
            **{name: getattr(goal, name) for name in GOAL_FIELDS},
            water_goal=goal.water_goal,
            # the micronutrients' goals as columns of their own, empty where none is set
            **{name: goal.micronutrients.get(name) for name in MICRONUTRIENTS},
        )
        for goal in goals
    ]


def water_rows(*, user) -> list[dict]:
    days = WaterIntake.objects.for_user(user).order_by("entry_date")
    return [
        _row(id=day.id, entry_date=day.entry_date, glasses=day.glasses_consumed) for day in days
    ]


def preference_rows(*, user) -> list[dict]:
    prefs = preferences_for(user)
    return [
        _row(
            time_zone=user.time_zone,
            date_format=prefs.date_format,
            default_weight_unit=prefs.default_weight_unit,
            default_measurement_unit=prefs.default_measurement_unit,
            auto_clear_history=prefs.auto_clear_history or "never",
            system_prompt=prefs.system_prompt or "",
            dietary_notes=prefs.dietary_notes or "",
            review_before_logging=prefs.review_before_logging,
            review_photos=prefs.review_photos,
            sex=prefs.sex,
            birth_year=prefs.birth_year,
        )
    ]


SECTIONS: dict[str, Callable] = {
    "food_entries": food_entry_rows,
    "custom_foods": custom_food_rows,
    "custom_exercises": custom_exercise_rows,
    "exercise_entries": exercise_entry_rows,
    "checkins": checkin_rows,
    "custom_measurements": custom_measurement_rows,
    "goals": goal_rows,
    "water": water_rows,
    "preferences": preference_rows,
}


def export_data(*, user) -> dict:
    """Every section of the user's data as flat rows, with what the file is."""
    data = {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.now().isoformat(),
        "email": user.email,
    }
    for name, rows in {**SECTIONS, **_EXTRA_SECTIONS}.items():
        data[name] = rows(user=user)
    return data


def export_json(*, user) -> bytes:
    return json.dumps(export_data(user=user), indent=2, ensure_ascii=False).encode()


# What a spreadsheet reads as the start of a formula (OWASP, CSV injection).
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _cell(value):
    """A CSV cell: text that a spreadsheet would run as a formula gets a leading quote."""
    if value is None:
        return ""
    text = isinstance(value, str) and not isinstance(value, _Number)
    if text and value.startswith(_FORMULA_STARTS):
        return "'" + value
    return value


# The header of a section with no rows, where the section declares its columns.
_EMPTY_HEADERS = {"custom_exercises": CUSTOM_EXERCISE_COLUMNS}


def _csv(rows: list[dict], columns: tuple[str, ...] = ()) -> str:
    if not rows and not columns:
        return ""
    out = io.StringIO()
    columns = list(dict.fromkeys([*columns, *(key for row in rows for key in row)]))
    writer = csv.DictWriter(out, fieldnames=columns, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: _cell(v) for k, v in row.items()})
    return out.getvalue()


def export_zip(*, user) -> bytes:
    """One CSV file per section (a header line, then one line per row), in a zip."""
    data = export_data(user=user)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, rows in data.items():
            if isinstance(rows, list):
                archive.writestr(f"{name}.csv", _csv(rows, _EMPTY_HEADERS.get(name, ())))
    return out.getvalue()


def export_filename(*, user, extension: str) -> str:
    return f"sparky-export-{timezone.localdate(timezone=user.tz).isoformat()}.{extension}"
