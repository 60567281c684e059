"""MyFitnessPal's "Measurement Summary" CSV (beside the Nutrition Summary in its export).

    Date,Weight
    2026-11-02,178.4

Weight, Neck, Waist and Hips become the day's check-in. The file does not say its units:
they are taken as the user's own (Settings, Preferences), and a weight that is plainly in the
other unit (a last weigh-in of 81 kg, then "178") as that one. Any other column is a custom
measurement of that name ("Body Fat %").
"""

from __future__ import annotations

from diary.imports import rows as cells_of
from diary.imports.myfitnesspal import DATE_FORMATS
from diary.imports.rows import CHECKIN, CUSTOM_MEASUREMENT, Parsed, Row, plain
from measurements.fields import CHECKIN as CHECKIN_FIELDS

SOURCE = "myfitnesspal"
DATE_COLUMN = "Date"


def _checkin_field(column: str) -> str | None:
    name = column.strip().lower()
    return name if name in CHECKIN_FIELDS else None


def recognises(header: list[str]) -> bool:
    return (
        "Date" in header
        and any(_checkin_field(c) == "weight" for c in header)
        and ("Meal" not in header)
    )


def parse(text: str) -> Parsed:
    parsed = Parsed(source=SOURCE)
    header, lines = cells_of.csv_rows(text)
    columns = [c for c in header if c and c not in ("Date", "Note")]
    for line, cells in lines:
        with parsed.row(line):
            day = cells_of.day(cells, "Date", DATE_FORMATS)
            checkin = {}
            for column in columns:
                value = cells_of.number(cells, column)
                if value is None:
                    continue
                field = _checkin_field(column)
                if field is not None:
                    checkin[field] = value
                    continue
                name = cells_of.text({column: column}, column, longest=50)
                parsed.add(
                    Row(
                        kind=CUSTOM_MEASUREMENT,
                        line=line,
                        key=parsed.key("measurement", day, name, value),
                        values={"name": name, "value": value, "entry_date": day},
                        summary=f"{day.isoformat()} · {name} {plain(value)}",
                    )
                )
            if checkin:
                said = ", ".join(f"{n} {plain(v)}" for n, v in checkin.items())
                parsed.add(
                    Row(
                        kind=CHECKIN,
                        line=line,
                        key=parsed.key("checkin", day, *sorted(checkin.items())),
                        values={"entry_date": day, **checkin},
                        summary=f"{day.isoformat()} · {said}",
                    )
                )
    return parsed
