"""MyFitnessPal's "Nutrition Summary" CSV (Reports, Export Data): one row per meal of a day.

    Date,Meal,Calories,Fat (g),Saturated Fat,Polyunsaturated Fat,Monounsaturated Fat,Trans Fat,
    Cholesterol,Sodium (mg),Potassium,Carbohydrates (g),Fiber,Sugar,Protein (g),Vitamin A,
    Vitamin C,Calcium,Iron,Note
    2024-03-01,Breakfast,412,14.2,4.1,1.2,5.3,0,210,480,390,48.5,6,12,22.4,8,15,10,12,

The file holds each meal's totals, not its foods: each row becomes one entry, "Breakfast
(MyFitnessPal)", of the user's own food with that meal's numbers. Vitamin A, Vitamin C, Calcium
and Iron are percentages of a daily value there, not amounts, so they are left out.
"""

from __future__ import annotations

from decimal import Decimal

from diary.imports import rows as cells_of
from diary.imports.rows import Parsed, RowProblem
from diary.imports.trackers import food_entry

SOURCE = "myfitnesspal"
DATE_COLUMN = "Date"
REQUIRED = ("Date", "Meal", "Calories")
NUTRIENTS = {
    "Calories": "calories",
    "Fat (g)": "fat",
    "Saturated Fat": "saturated_fat",
    "Polyunsaturated Fat": "polyunsaturated_fat",
    "Monounsaturated Fat": "monounsaturated_unsaturated",
    "Trans Fat": "trans_fat",
    "Cholesterol": "cholesterol",
    "Sodium (mg)": "sodium",
    "Potassium": "potassium",
    "Carbohydrates (g)": "carbs",
    "Fiber": "dietary_fiber",
    "Sugar": "sugars",
    "Protein (g)": "protein",
}
DATE_FORMATS = ("%Y-%m-%d", "%m/%d/%Y")


def recognises(header: list[str]) -> bool:
    return set(REQUIRED) <= set(header) and "Protein (g)" in header and "Food Name" not in header


def parse(text: str) -> Parsed:
    parsed = Parsed(source=SOURCE)
    _header, lines = cells_of.csv_rows(text)
    for line, cells in lines:
        with parsed.row(line):
            day = cells_of.day(cells, "Date", DATE_FORMATS)
            meal_name = cells_of.text(cells, "Meal", required=True, longest=100)
            nutrients = cells_of.nutrients_of(cells, NUTRIENTS)
            if nutrients.get("calories") is None:
                raise RowProblem("Calories", "is empty; the meal's calories are needed.")
            food_entry(
                parsed,
                line=line,
                entry_date=day,
                meal_type=cells_of.meal(cells, "Meal"),
                name=f"{meal_name} (MyFitnessPal)",
                quantity=Decimal(1),
                unit="meal",
                nutrients=nutrients,
                calories_column="Calories",
            )
    return parsed
