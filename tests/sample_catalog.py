"""A few public catalog foods and activities, shaped like the real SR28/Compendium rows.

The one small catalog of the suite: the `catalog` fixture (tests/conftest.py) and the browser
tests' transactional one both build it here, so the coach finds "eggs" or "a run" without the
whole catalog being loaded. The keys are each name's first word, lower-cased ("egg", "bananas",
"bread", "cereals", "chicken", "yogurt"), and the activities' ("running", "walking", "swimming").
"""

from __future__ import annotations

from decimal import Decimal

from tests.factories import ExerciseFactory, FoodFactory

FOODS = [
    # name, kcal, protein, carbs, fat per 100 g, (household unit, grams)
    ("Egg, whole, raw, fresh", 143, "12.56", "0.72", "9.51", ("large", 50)),
    ("Bananas, raw", 89, "1.09", "22.84", "0.33", ('medium (7" to 7-7/8" long)', 118)),
    (
        "Bread, whole-wheat, commercially prepared, toasted",
        306,
        "16.27",
        "51.16",
        "4.27",
        ("slice", 28),
    ),
    (
        "Cereals, oats, regular and quick, not fortified, dry",
        379,
        "13.15",
        "67.7",
        "6.52",
        ("cup", 81),
    ),
    (
        "Chicken, broilers or fryers, breast, meat only, cooked, roasted",
        165,
        "31.02",
        "0",
        "3.57",
        ("cup, chopped or diced", 140),
    ),
    ("Yogurt, Greek, plain, nonfat", 59, "10.19", "3.6", "0.39", ("container (6 oz)", 170)),
]
ACTIVITIES = [
    # Compendium 2011: name, MET, code
    ("Running, 6 mph (10 min/mile)", "9.8", "12050"),
    ("Walking, 3.5 mph, brisk", "4.3", "17200"),
    ("Swimming laps, freestyle, slow", "5.8", "18240"),
]


def key(name: str) -> str:
    """A row's key: the first word of its name, lower-cased."""
    return name.split(",")[0].split()[0].lower()


def make_catalog() -> dict:
    """Write the sample catalog; returns its foods and activities by key."""
    rows = {}
    for i, (name, kcal, protein, carbs, fat, (unit, grams)) in enumerate(FOODS):
        rows[key(name)] = FoodFactory(
            name=name,
            calories=Decimal(kcal),
            protein=Decimal(protein),
            carbs=Decimal(carbs),
            fat=Decimal(fat),
            source="usda_sr28",
            source_id=f"8{i:04d}",
            servings=[(1, unit, grams)],
        )
    for name, met, code in ACTIVITIES:
        rows[key(name)] = ExerciseFactory(name=name, met=Decimal(met), source_id=code)
    return rows
