"""Lose It!'s food log export (Settings, Export data): one row per food eaten or exercise done.

    Date,Name,Icon,Type,Quantity,Units,Calories,Deleted,Fat (g),Protein (g),Carbohydrates (g),
    Saturated Fat (g),Sugars (g),Fiber (g),Cholesterol (mg),Sodium (mg)
    03/01/2024,Banana,Banana,Breakfast,1,Each,105,false,0.4,1.3,27,0.1,14.4,3.1,0,1

A food row becomes an entry of the user's own food of that name whose serving is the row's
Quantity and Units ("1 Each"), with the row's numbers; an Exercise row (Quantity in minutes,
Calories burned) an entry of the user's own exercise of that name. Rows marked Deleted are left
out, as Lose It! does.
"""

from __future__ import annotations

from diary.imports import rows as cells_of
from diary.imports.rows import EXERCISE_ENTRY, Parsed, Row, RowProblem, plain
from diary.imports.trackers import food_entry
from measurements import vocabulary

SOURCE = "loseit"
DATE_COLUMN = "Date"
REQUIRED = ("Date", "Name", "Type", "Quantity", "Units", "Calories")
NUTRIENTS = {
    "Calories": "calories",
    "Fat (g)": "fat",
    "Protein (g)": "protein",
    "Carbohydrates (g)": "carbs",
    "Saturated Fat (g)": "saturated_fat",
    "Sugars (g)": "sugars",
    "Fiber (g)": "dietary_fiber",
    "Cholesterol (mg)": "cholesterol",
    "Sodium (mg)": "sodium",
}
DATE_FORMATS = ("%m/%d/%Y", "%Y-%m-%d")


def recognises(header: list[str]) -> bool:
    return set(REQUIRED) <= set(header)


def parse(text: str) -> Parsed:
    parsed = Parsed(source=SOURCE)
    _header, lines = cells_of.csv_rows(text)
    for line, cells in lines:
        if (cells.get("Deleted") or "").strip().lower() in {"true", "yes", "1"}:
            parsed.ignored.append((line, "deleted in Lose It!"))
            continue
        with parsed.row(line):
            day = cells_of.day(cells, "Date", DATE_FORMATS)
            name = cells_of.text(cells, "Name", required=True)
            if (cells.get("Type") or "").strip().lower() == "exercise":
                _exercise(parsed, line, cells, day, name)
                continue
            quantity = cells_of.number(cells, "Quantity", required=True)
            if quantity == 0:
                raise RowProblem("Quantity", "is 0; a positive amount is expected.")
            food_entry(
                parsed,
                line=line,
                entry_date=day,
                meal_type=cells_of.meal(cells, "Type"),
                name=name,
                quantity=quantity,
                unit=cells_of.text(cells, "Units", longest=50) or "serving",
                nutrients=cells_of.nutrients_of(cells, NUTRIENTS),
                calories_column="Calories",
            )
    return parsed


def _exercise(parsed: Parsed, line: int, cells: dict, day, name: str) -> None:
    quantity = cells_of.number(cells, "Quantity", required=True)
    units = (cells.get("Units") or "minutes").strip().lower()
    if units in vocabulary.HOURS:
        quantity *= 60
    elif units not in vocabulary.MINUTES:
        raise RowProblem("Units", f"{units!r} is not a duration; minutes or hours are expected.")
    minutes = int(quantity.to_integral_value())
    if minutes < 1:
        raise RowProblem("Quantity", f"{plain(quantity)} minutes is no exercise session.")
    burned = cells_of.number({"Calories": (cells.get("Calories") or "").lstrip("-")}, "Calories")
    calories = None if burned is None else int(burned.to_integral_value())
    parsed.add(
        Row(
            kind=EXERCISE_ENTRY,
            line=line,
            key=parsed.key("exercise", day, name, minutes, calories),
            values={
                "exercise": {"name": name},
                "duration_minutes": minutes,
                "calories_burned": calories,
                "entry_date": day,
            },
            summary=f"{day.isoformat()} · {name} · {minutes} min"
            + ("" if calories is None else f" · {calories} kcal burned"),
        )
    )
