"""Replies name what was logged the way a person says it; the diary keeps the catalog's name."""

import pytest

from nutrition.models import Food, FoodEntry
from nutrition.phrases import amount_phrase, entry_phrase, food_words


@pytest.mark.parametrize(
    ("quantity", "unit", "name", "said"),
    [
        (2, "large", "Egg, raw", "2 large eggs"),
        (1, None, "Apples, raw", "an apple"),
        (0.5, "avocado", "Avocados, raw", "half an avocado"),
        (1, "slice", "Whole-wheat bread, toasted", "a slice of whole-wheat bread"),
        (0.75, "cup", "Oats, cooked", "three quarters of a cup of oats"),
        (1.5, "cup", "Rice, white, cooked", "1.5 cups of rice"),
        (150, "g", "Chicken breast, roasted", "150 g of chicken breast"),
        (2, "tbsp", "Peanut butter, smooth", "2 tbsp of peanut butter"),
        (1, "large bag", "Potato chips, plain", "a large bag of potato chips"),
        (2, "sandwich", "Big Mac (McDonalds)", "2 big macs"),
        (1, "small", "French fries", "small french fries"),
        (12, "almonds", "Nuts, almonds", "12 almonds"),
        (6, "piece", "McDonald's, Chicken McNuggets", "6 McDonald's chicken McNuggets"),
        # a count of a fruit is the fruit itself, never "a fruit of kiwi"
        (1, "fruit", "Kiwi, raw", "a kiwi"),
        (1, "fruit", "Oranges, raw", "an orange"),
        (2, "fruit", "Kiwi, raw", "2 kiwis"),
        (0.5, "fruit", "Orange, raw", "half an orange"),
    ],
)
def test_an_amount_of_a_food_reads_as_said(quantity, unit, name, said):
    assert amount_phrase(quantity, unit, name) == said


def test_a_brand_keeps_its_capitals_and_a_catalog_label_is_dropped():
    assert food_words("Cereals ready-to-eat, CHEERIOS") == "CHEERIOS"
    assert food_words("Beverages, coffee, brewed") == "coffee"


def test_a_restaurant_dish_is_named_with_its_maker_not_as_the_maker_alone():
    sub = Food(
        name="SUBWAY, turkey breast sub on white bread with lettuce and tomato",
        display_name="Subway, turkey breast sub on white bread with lettuce and tomato",
    )
    entry = FoodEntry(food=sub, quantity=1, unit="serving")

    assert entry_phrase(entry, 147) == "a serving of SUBWAY turkey breast sub (147 kcal)"
