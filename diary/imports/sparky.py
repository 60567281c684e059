"""Sparky's own JSON export (diary.exports), read back: the diary as it was.

    {"format": "sparky-export", "version": 1, "custom_foods": [...], "food_entries": [...], ...}

Custom foods and exercises come back as the user's own; an entry of a catalog food is the same
catalog food again (found by its catalog source, else its id), or, where this Sparky lacks it,
the user's own food with the entry's numbers. Check-ins keep the units they were exported in
(converted to the user's). Each row's key is its id in the file, so the same file imported twice
adds nothing; a row that is already the user's own (a file exported from this account) is left.
Preferences and the chat history are in the export for the user to keep; they are not imported.
"""

from __future__ import annotations

from decimal import Decimal

from django.core.exceptions import ValidationError

from diary.imports import rows as cells_of
from diary.imports.rows import (
    CHECKIN,
    CUSTOM_EXERCISE,
    CUSTOM_FOOD,
    CUSTOM_MEASUREMENT,
    EXERCISE_ENTRY,
    FOOD_ENTRY,
    GOAL,
    WATER,
    Parsed,
    Row,
    RowProblem,
    load_json,
    plain,
)
from measurements.fields import CHECKIN as CHECKIN_FIELDS
from measurements.fields import unit_arguments
from nutrition.models import MICRONUTRIENTS, NUTRIENTS
from nutrition.services import GOAL_FIELDS
from nutrition.vocabulary import MEALS

SOURCE = "sparky"
DATE_COLUMN = "entry_date"
FORMAT = "sparky-export"  # diary.exports.FORMAT (the exporter sits above the importer's reach)


def recognises_json(document) -> bool:
    return isinstance(document, dict) and document.get("format") == FORMAT


def _id(item: dict) -> str:
    value = str(item.get("id") or "").strip()
    if not value or len(value) > 64:
        raise RowProblem("id", "is missing; every row of a Sparky export has its id.")
    return cells_of.visible(value, "id")


def _flag(item: dict, name: str) -> bool:
    value = item.get(name)
    return value is True or str(value).strip().lower() in {"true", "1", "yes"}


def _nutrients(item: dict, names=NUTRIENTS) -> dict[str, Decimal]:
    return {n: v for n in names if (v := cells_of.number(item, n)) is not None}


def _custom_food(parsed: Parsed, line: int, item: dict) -> None:
    file_id = _id(item)
    name = cells_of.text(item, "name", required=True)
    size = cells_of.number(item, "serving_size") or Decimal(100)
    unit = cells_of.text(item, "serving_unit", longest=50) or "g"
    parsed.add(
        Row(
            kind=CUSTOM_FOOD,
            line=line,
            file_id=file_id,
            key=f"sparky:{CUSTOM_FOOD}:{file_id}",
            values={
                "name": name,
                "serving_size": size,
                "serving_unit": unit,
                "nutrients": _nutrients(item),
                "barcode": cells_of.text(item, "barcode", longest=14) or None,
                "estimate": _flag(item, "estimate"),
            },
            summary=f"{name} · {plain(size)} {unit}",
        )
    )


def _food_entry(parsed: Parsed, line: int, item: dict) -> None:
    file_id = _id(item)
    day = cells_of.day(item, "entry_date")
    name = cells_of.text(item, "food_name", required=True)
    quantity = cells_of.number(item, "quantity", required=True)
    unit = cells_of.text(item, "unit", longest=50)
    meal = cells_of.text(item, "meal_type", required=True)
    if meal not in MEALS:
        raise RowProblem("meal_type", f"{meal!r} is not one of {', '.join(MEALS)}.")
    nutrients = _nutrients(item)
    sequence = cells_of.number(item, "serving_sequence")
    parsed.add(
        Row(
            kind=FOOD_ENTRY,
            line=line,
            file_id=file_id,
            key=f"sparky:{FOOD_ENTRY}:{file_id}",
            values={
                "food_ref": {
                    "file_id": str(item.get("food_id") or ""),
                    "custom": _flag(item, "food_custom"),
                    "source": cells_of.text(item, "food_source", longest=32),
                    "source_id": cells_of.text(item, "food_source_id", longest=64),
                    "serving_sequence": None if sequence is None else int(sequence),
                },
                # Where this Sparky lacks the food: the user's own, with the entry's numbers.
                "food": {
                    "name": name,
                    "serving_size": quantity,
                    "serving_unit": unit or "serving",
                    **nutrients,
                },
                "quantity": quantity,
                "unit": unit or None,
                "meal_type": meal,
                "entry_date": day,
            },
            summary=(
                f"{day.isoformat()} · {meal.capitalize()} · {name} · {plain(quantity)} {unit}"
                + (f" · {plain(nutrients['calories'])} kcal" if "calories" in nutrients else "")
            ),
        )
    )


def _custom_exercise(parsed: Parsed, line: int, item: dict) -> None:
    file_id = _id(item)
    name = cells_of.text(item, "name", required=True)
    parsed.add(
        Row(
            kind=CUSTOM_EXERCISE,
            line=line,
            file_id=file_id,
            key=f"sparky:{CUSTOM_EXERCISE}:{file_id}",
            values={
                "name": name,
                "category": cells_of.text(item, "category", longest=50) or None,
                "calories_per_hour": cells_of.number(item, "calories_per_hour"),
                "met": cells_of.number(item, "met"),
                "default_duration_minutes": cells_of.number(item, "default_duration_minutes"),
                "description": cells_of.text(item, "description", longest=2000) or None,
            },
            summary=name,
        )
    )


def _exercise_entry(parsed: Parsed, line: int, item: dict) -> None:
    file_id = _id(item)
    day = cells_of.day(item, "entry_date")
    name = cells_of.text(item, "exercise_name", required=True)
    minutes = cells_of.number(item, "duration_minutes", required=True)
    burned = cells_of.number(item, "calories_burned")
    parsed.add(
        Row(
            kind=EXERCISE_ENTRY,
            line=line,
            file_id=file_id,
            key=f"sparky:{EXERCISE_ENTRY}:{file_id}",
            values={
                "exercise_ref": {
                    "file_id": str(item.get("exercise_id") or ""),
                    "custom": _flag(item, "exercise_custom"),
                    "source": cells_of.text(item, "exercise_source", longest=32),
                    "source_id": cells_of.text(item, "exercise_source_id", longest=64),
                },
                "exercise": {"name": name},
                "duration_minutes": int(minutes),
                "calories_burned": None if burned is None else int(burned),
                "distance": cells_of.number(item, "distance"),
                "distance_unit": cells_of.text(item, "distance_unit", longest=10) or None,
                "notes": cells_of.text(item, "notes", longest=2000) or None,
                "entry_date": day,
            },
            summary=f"{day.isoformat()} · {name} · {plain(minutes)} min",
        )
    )


def _checkin(parsed: Parsed, line: int, item: dict) -> None:
    file_id = _id(item)
    day = cells_of.day(item, "entry_date")
    values = {n: v for n in CHECKIN_FIELDS if (v := cells_of.number(item, n)) is not None}
    if not values:
        raise RowProblem("", "has no check-in value.")
    units = {a: str(item[a]) for a in unit_arguments() if item.get(a)}
    said = ", ".join(f"{n} {plain(v)}" for n, v in values.items())
    parsed.add(
        Row(
            kind=CHECKIN,
            line=line,
            file_id=file_id,
            key=f"sparky:{CHECKIN}:{file_id}",
            values={"entry_date": day, **values, **units},
            summary=f"{day.isoformat()} · {said}",
        )
    )


def _custom_measurement(parsed: Parsed, line: int, item: dict) -> None:
    file_id = _id(item)
    day = cells_of.day(item, "entry_date")
    name = cells_of.text(item, "name", required=True, longest=50)
    raw = item.get("value")  # a custom value may be negative (a temperature)
    value = cells_of.number({"value": str(raw or "").lstrip("-")}, "value", required=True)
    if str(raw or "").startswith("-"):
        value = -value
    hour = cells_of.number(item, "entry_hour")
    parsed.add(
        Row(
            kind=CUSTOM_MEASUREMENT,
            line=line,
            file_id=file_id,
            key=f"sparky:{CUSTOM_MEASUREMENT}:{file_id}",
            values={
                "name": name,
                "value": value,
                "unit": cells_of.text(item, "unit", longest=20) or None,
                "entry_date": day,
                "entry_hour": None if hour is None else int(hour),
                "frequency": cells_of.text(item, "frequency", longest=10) or None,
            },
            summary=f"{day.isoformat()} · {name} {plain(value)}",
        )
    )


def _goal(parsed: Parsed, line: int, item: dict) -> None:
    file_id = _id(item)
    goal_date = cells_of.day(item, "goal_date") if item.get("goal_date") else None
    values = {n: cells_of.number(item, n) for n in (*GOAL_FIELDS, *MICRONUTRIENTS)}
    water = cells_of.number(item, "water_goal")
    values["water_goal"] = None if water is None else int(water)
    parsed.add(
        Row(
            kind=GOAL,
            line=line,
            file_id=file_id,
            key=f"sparky:{GOAL}:{file_id}",
            values={"goal_date": goal_date, **values},
            summary=f"{'every day' if goal_date is None else goal_date.isoformat()}"
            + (f" · {plain(values['calories'])} kcal" if values["calories"] is not None else ""),
        )
    )


def _water(parsed: Parsed, line: int, item: dict) -> None:
    file_id = _id(item)
    day = cells_of.day(item, "entry_date")
    glasses = cells_of.number(item, "glasses", required=True)
    parsed.add(
        Row(
            kind=WATER,
            line=line,
            file_id=file_id,
            key=f"sparky:{WATER}:{file_id}",
            values={"entry_date": day, "glasses": int(glasses)},
            summary=f"{day.isoformat()} · {plain(glasses)} glasses",
        )
    )


# The sections read, in the order their rows are written (foods before their entries).
SECTIONS = {
    "custom_foods": _custom_food,
    "food_entries": _food_entry,
    "custom_exercises": _custom_exercise,
    "exercise_entries": _exercise_entry,
    "checkins": _checkin,
    "custom_measurements": _custom_measurement,
    "goals": _goal,
    "water": _water,
}

SECTION_OF = {
    CUSTOM_FOOD: "custom_foods",
    FOOD_ENTRY: "food_entries",
    CUSTOM_EXERCISE: "custom_exercises",
    EXERCISE_ENTRY: "exercise_entries",
    CHECKIN: "checkins",
    CUSTOM_MEASUREMENT: "custom_measurements",
    GOAL: "goals",
    WATER: "water",
}


def parse(text: str) -> Parsed:
    parsed = Parsed(source=SOURCE)
    try:
        document = load_json(text)
    except ValidationError as exc:
        parsed.refuse(0, "", exc.messages[0].removeprefix("The file "))
        return parsed
    if not recognises_json(document):
        parsed.refuse(0, "", f'is not a Sparky export (no "format": "{FORMAT}").')
        return parsed
    for section, read in SECTIONS.items():
        items = document.get(section) or []
        if not isinstance(items, list):
            parsed.refuse(0, section, "is not a list of rows.")
            continue
        for number, item in enumerate(items, start=1):
            with parsed.row(number, section):
                if not isinstance(item, dict):
                    raise RowProblem("", "is not an object of named values.")
                read(parsed, number, item)
    return parsed
