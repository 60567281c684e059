"""Foods for nutrition tests: a few public catalog rows in SR28's shape (per 100 g, household
servings with gram weights) and helpers to make more."""

from decimal import Decimal

import pytest

from nutrition.models import Food, FoodVariant

PER_100_G = {"serving_size": Decimal(100), "serving_unit": "g"}


def catalog_food(name: str, calories, protein=0, carbs=0, fat=0, servings=(), **fields) -> Food:
    """A public food per 100 g with (amount, unit, grams) household servings."""
    food = Food.objects.create(
        name=name,
        calories=Decimal(str(calories)),
        protein=Decimal(str(protein)),
        carbs=Decimal(str(carbs)),
        fat=Decimal(str(fat)),
        is_custom=False,
        **{"source": "test", **PER_100_G, **fields},
    )
    for sequence, (amount, unit, grams) in enumerate(servings, start=1):
        FoodVariant.objects.create(
            food=food,
            sequence=sequence,
            serving_size=Decimal(str(amount)),
            serving_unit=unit,
            gram_weight=Decimal(str(grams)),
            calories=(food.calories * Decimal(str(grams)) / 100).quantize(Decimal("0.001")),
        )
    return food


@pytest.fixture
def egg(db):
    return catalog_food(
        "Egg, whole, raw, fresh",
        143,
        protein="12.56",
        carbs="0.72",
        fat="9.51",
        servings=[
            (1, "large", 50),
            (1, "extra large", 56),
            (1, "jumbo", 63),
            (1, "cup (4.86 large eggs)", 243),
            (1, "medium", 44),
            (1, "small", 38),
        ],
    )


@pytest.fixture
def banana(db):
    return catalog_food(
        "Bananas, raw",
        89,
        protein="1.09",
        carbs="22.84",
        fat="0.33",
        servings=[
            (1, "cup, mashed", 225),
            (1, "cup, sliced", 150),
            (1, 'extra small (less than 6" long)', 81),
            (1, 'small (6" to 6-7/8" long)', 101),
            (1, 'medium (7" to 7-7/8" long)', 118),
            (1, 'large (8" to 8-7/8" long)', 136),
            (1, "NLEA serving", 126),
        ],
    )


@pytest.fixture
def oats(db):
    return catalog_food(
        "Cereals, oats, regular and quick, not fortified, dry",
        379,
        protein="13.15",
        carbs="67.7",
        fat="6.52",
        servings=[(1, "cup", 81), (0.333, "cup", 27)],
    )


@pytest.fixture
def milk(db):
    return catalog_food(
        "Milk, whole, 3.25% milkfat, with added vitamin D",
        61,
        protein="3.15",
        carbs="4.80",
        fat="3.25",
        servings=[(1, "cup", 244), (1, "fl oz", "30.5")],
    )


@pytest.fixture
def chicken_breast(db):
    return catalog_food(
        "Chicken, broilers or fryers, breast, meat only, cooked, roasted",
        165,
        protein="31.02",
        fat="3.57",
        servings=[(1, "cup, chopped or diced", 140), (0.5, "breast, bone and skin removed", 86)],
    )
