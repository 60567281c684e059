"""A few public catalog foods and activities, shaped like the real SR28/Compendium rows.

Shared by the web and browser tests, which need the coach to find "eggs" without loading the
whole catalog.
"""

from decimal import Decimal

from exercise.models import Exercise
from nutrition.models import Food, FoodVariant
from nutrition.names import short_food_name

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
    ("Yogurt, Greek, plain, nonfat", 59, "10.19", "3.6", "0.39", ("container (6 oz)", 170)),
]
ACTIVITIES = [
    ("Walking, 3.5 mph, brisk", "4.3", "17200"),
    ("Running, 6 mph (10 min/mile)", "9.8", "12050"),
]


def make_catalog() -> dict[str, Food]:
    foods = {}
    for i, (name, kcal, protein, carbs, fat, (unit, grams)) in enumerate(FOODS):
        food = Food.objects.create(
            name=name,
            original_name=name,
            display_name=short_food_name(name),
            calories=kcal,
            protein=Decimal(protein),
            carbs=Decimal(carbs),
            fat=Decimal(fat),
            serving_size=100,
            serving_unit="g",
            source="usda_sr28",
            source_id=f"8{i:04d}",
        )
        factor = Decimal(grams) / 100
        FoodVariant.objects.create(
            food=food,
            serving_size=1,
            serving_unit=unit,
            gram_weight=grams,
            sequence=1,
            calories=Decimal(kcal) * factor,
            protein=Decimal(protein) * factor,
            carbs=Decimal(carbs) * factor,
            fat=Decimal(fat) * factor,
        )
        foods[name.split(",")[0].lower()] = food
    for name, met, code in ACTIVITIES:
        Exercise.objects.create(
            name=name,
            met=Decimal(met),
            calories_per_hour=round(float(met) * 70),
            category="cardio",
            source="compendium_2011",
            source_id=code,
        )
    return foods
