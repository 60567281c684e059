"""Cronometer's "Food & Recipe Entries" export (servings.csv): one row per food eaten.

    Day,Time,Group,Food Name,Amount,Category,Energy (kcal),...,Cholesterol (mg),Fat (g),
    Monounsaturated (g),Polyunsaturated (g),Saturated (g),Trans-Fats (g),Fiber (g),
    Net Carbs (g),Carbs (g),Sugars (g),Protein (g),...
    2024-03-01,08:10,Breakfast,"Oatmeal, Cooked",1.00 cup,Cereals,166,...

Each row becomes an entry of the user's own food of that name whose serving is the row's Amount
("1.00 cup") with the row's numbers. Columns Sparky does not keep (B vitamins, zinc...) are left
out. A food of group "Uncategorized" is a snack.
"""

from __future__ import annotations

from diary.imports import rows as cells_of
from diary.imports.rows import Parsed
from diary.imports.trackers import food_entry

SOURCE = "cronometer"
DATE_COLUMN = "Day"
REQUIRED = ("Day", "Group", "Food Name", "Amount", "Energy (kcal)")
NUTRIENTS = {
    "Energy (kcal)": "calories",
    "Protein (g)": "protein",
    "Carbs (g)": "carbs",
    "Fat (g)": "fat",
    "Saturated (g)": "saturated_fat",
    "Polyunsaturated (g)": "polyunsaturated_fat",
    "Monounsaturated (g)": "monounsaturated_unsaturated",
    "Trans-Fats (g)": "trans_fat",
    "Cholesterol (mg)": "cholesterol",
    "Sodium (mg)": "sodium",
    "Potassium (mg)": "potassium",
    "Fiber (g)": "dietary_fiber",
    "Sugars (g)": "sugars",
    "Vitamin A (µg)": "vitamin_a",
    "Vitamin C (mg)": "vitamin_c",
    "Calcium (mg)": "calcium",
    "Iron (mg)": "iron",
}


def recognises(header: list[str]) -> bool:
    return set(REQUIRED) <= set(header)


def parse(text: str) -> Parsed:
    parsed = Parsed(source=SOURCE)
    _header, lines = cells_of.csv_rows(text)
    for line, cells in lines:
        with parsed.row(line):
            day = cells_of.day(cells, "Day", ("%Y-%m-%d",))
            name = cells_of.text(cells, "Food Name", required=True)
            quantity, unit = cells_of.amount(cells, "Amount")
            food_entry(
                parsed,
                line=line,
                entry_date=day,
                meal_type=cells_of.meal(cells, "Group"),
                name=name,
                quantity=quantity,
                unit=unit,
                nutrients=cells_of.nutrients_of(cells, NUTRIENTS),
                calories_column="Energy (kcal)",
            )
    return parsed
