"""What the other trackers' food logs share: a row of a food eaten becomes a diary entry of the
user's own food with the file's numbers for that amount (nutrition.services.food_option_add makes
the food once and reuses it for the same food, amount and calories)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from diary.imports.rows import FOOD_ENTRY, Parsed, Row, RowProblem, plain


def food_entry(
    parsed: Parsed,
    *,
    line: int,
    entry_date: dt.date,
    meal_type: str,
    name: str,
    quantity: Decimal,
    unit: str,
    nutrients: dict[str, Decimal],
    calories_column: str,
) -> None:
    """Add the entry of `quantity` `unit` of a food whose `nutrients` are for that amount."""
    if "calories" not in nutrients:
        raise RowProblem(calories_column, "is empty; the calories of what was eaten are needed.")
    parsed.add(
        Row(
            kind=FOOD_ENTRY,
            line=line,
            key=parsed.key(entry_date, meal_type, name, quantity, unit, *sorted(nutrients.items())),
            values={
                "food": {
                    "name": name,
                    "serving_size": quantity,
                    "serving_unit": unit,
                    **nutrients,
                },
                "quantity": quantity,
                "unit": unit,
                "meal_type": meal_type,
                "entry_date": entry_date,
            },
            summary=(
                f"{entry_date.isoformat()} · {meal_type.capitalize()} · {name} · "
                f"{plain(quantity)} {unit} · {plain(nutrients['calories'])} kcal"
            ),
        )
    )
