"""MyFitnessPal's "Exercise Summary" CSV (beside the Nutrition Summary in its export).

    Date,Exercise,Type,Exercise Calories,Exercise Minutes,Sets,Reps Per Set,Pounds,Steps,Note
    2026-11-02,"Running (jogging), 5 mph (12 min mile)",Cardiovascular,410,40,,,,,

Each row becomes an entry of the user's own exercise of that name, with its minutes and
calories burned; a strength row without minutes takes the exercise's usual duration.
"""

from __future__ import annotations

from diary.imports import rows as cells_of
from diary.imports.myfitnesspal import DATE_FORMATS
from diary.imports.rows import EXERCISE_ENTRY, Parsed, Row

SOURCE = "myfitnesspal"
DATE_COLUMN = "Date"
REQUIRED = ("Date", "Exercise", "Exercise Calories", "Exercise Minutes")


def recognises(header: list[str]) -> bool:
    return set(REQUIRED) <= set(header)


def parse(text: str) -> Parsed:
    parsed = Parsed(source=SOURCE)
    _header, lines = cells_of.csv_rows(text)
    for line, cells in lines:
        with parsed.row(line):
            day = cells_of.day(cells, "Date", DATE_FORMATS)
            name = cells_of.text(cells, "Exercise", required=True)
            minutes = cells_of.number(cells, "Exercise Minutes")
            burned = cells_of.number(cells, "Exercise Calories")
            whole = None if minutes is None else int(minutes.to_integral_value())
            calories = None if burned is None else int(burned.to_integral_value())
            notes = cells_of.text(cells, "Note", longest=2000) or None
            parsed.add(
                Row(
                    kind=EXERCISE_ENTRY,
                    line=line,
                    key=parsed.key("exercise", day, name, whole, calories, notes),
                    values={
                        "exercise": {"name": name},
                        "duration_minutes": whole,
                        "calories_burned": calories,
                        "entry_date": day,
                        "notes": notes,
                    },
                    summary=f"{day.isoformat()} · {name}"
                    + ("" if whole is None else f" · {whole} min")
                    + ("" if calories is None else f" · {calories} kcal burned"),
                )
            )
    return parsed
