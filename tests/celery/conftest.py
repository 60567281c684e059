from decimal import Decimal

import pytest

from nutrition.models import Food, FoodVariant
from tests.worker import celery_worker, worker  # noqa: F401  (fixtures)

_FOODS = [
    # name, kcal, protein, carbs, fat per 100 g, household serving (unit, grams)
    ("Egg, whole, raw, fresh", 143, "12.56", "0.72", "9.51", ("large", 50)),
    ("Bananas, raw", 89, "1.09", "22.84", "0.33", ('medium (7" to 7-7/8" long)', 118)),
]


@pytest.fixture
def breakfast_foods(db):
    foods = {}
    for i, (name, kcal, protein, carbs, fat, (unit, grams)) in enumerate(_FOODS):
        food = Food.objects.create(
            name=name,
            original_name=name,
            calories=kcal,
            protein=Decimal(protein),
            carbs=Decimal(carbs),
            fat=Decimal(fat),
            serving_size=100,
            serving_unit="g",
            source="usda_sr28",
            source_id=f"7{i:04d}",
        )
        factor = Decimal(grams) / 100
        FoodVariant.objects.create(
            food=food,
            serving_size=1,
            serving_unit=unit,
            gram_weight=grams,
            sequence=1,
            calories=kcal * factor,
            protein=Decimal(protein) * factor,
            carbs=Decimal(carbs) * factor,
            fat=Decimal(fat) * factor,
        )
        foods[name.split(",")[0].lower()] = food
    return foods
