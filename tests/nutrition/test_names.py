"""Short food names: what the diary, replies and options call a catalog food."""

import importlib

import pytest

from nutrition.models import Food
from nutrition.names import CURATED, MAX_LENGTH, catalog_display_name, short_food_name

CASES = [
    # the issue's own examples
    ("Bread, white, commercially prepared, toasted", "White bread, toasted"),
    ("Egg, whole, raw, fresh", "Egg"),
    # a kind of food takes its variety as an adjective
    ("Cheese, cheddar", "Cheddar cheese"),
    ("Yogurt, Greek, plain, nonfat", "Greek yogurt, plain, nonfat"),
    ("Bread, whole-wheat, commercially prepared, toasted", "Whole-wheat bread, toasted"),
    ("Ice creams, vanilla", "Vanilla ice cream"),
    ("Muffins, blueberry, commercially prepared (Includes mini-muffins)", "Blueberry muffin"),
    ("Oil, olive, salad or cooking", "Olive oil"),
    # milk by its fat, as people say it
    ("Milk, reduced fat, fluid, 2% milkfat, with added vitamin A and vitamin D", "2% milk"),
    ("Milk, lowfat, fluid, 1% milkfat, with added vitamin A and vitamin D", "1% milk"),
    ("Milk, whole, 3.25% milkfat, with added vitamin D", "Whole milk"),
    # a low-calorie soda is a diet one; "regular" and "contains caffeine" say nothing
    (
        "Beverages, carbonated, low calorie, cola or pepper-type, with aspartame, "
        "contains caffeine",
        "Diet cola",
    ),
    ("Beverages, carbonated, cola, regular", "Cola"),
    ("Alcoholic beverage, beer, regular, all", "Beer"),
    ("Beverages, tea, black, brewed, prepared with tap water", "Black tea, brewed"),
    # labels and filler go; "cooked" goes before the way it was cooked
    ("Beverages, coffee, brewed, prepared with tap water", "Coffee, brewed"),
    ("Nuts, almonds", "Almonds"),
    ("Beans, black, mature seeds, cooked, boiled, without salt", "Black beans, boiled"),
    ("Egg, whole, cooked, hard-boiled", "Egg, hard-boiled"),
    ("Egg, white, raw, fresh", "Egg white, raw"),
    ("Egg, whole, cooked, scrambled", "Egg, scrambled"),
    ("Pasta, cooked, enriched, without added salt", "Pasta, cooked"),
    # cuts join their animal; cured products are the food
    ("Chicken, broilers or fryers, breast, meat only, cooked, roasted", "Chicken breast, roasted"),
    (
        "Chicken, broilers or fryers, dark meat, drumstick, meat only, cooked, roasted",
        "Chicken drumstick, roasted",
    ),
    ("Pork, cured, bacon, pre-sliced, cooked, pan-fried", "Bacon, pan-fried"),
    (
        "Beef, ground, 85% lean meat / 15% fat, patty, cooked, broiled",
        "Ground beef, 85% lean meat / 15% fat, patty, broiled",
    ),
    # brands read as words; a maker before its product goes
    ("Candies, MARS SNACKFOOD US, SNICKERS Bar", "Snickers Bar"),
    ("Cereals ready-to-eat, GENERAL MILLS, CHEERIOS", "Cheerios"),
    ("McDONALD'S, Side Salad", "McDonald's, Side Salad"),
    ("Beverages, carbonated, orange", "Orange soda"),
    # short asides stay, long ones go
    ("Plums, dried (prunes), uncooked", "Plums, dried (prunes), uncooked"),
    (
        "Grapes, red or green (European type, such as Thompson seedless), raw",
        "Grapes, red or green, raw",
    ),
    # already short: unchanged (without its food group, a fruit keeps its "raw")
    ("Bananas, raw", "Bananas, raw"),
    ("Broccoli, raw", "Broccoli, raw"),
]


@pytest.mark.parametrize(("description", "expected"), CASES)
def test_a_description_reads_as_people_say_it(description, expected):
    assert short_food_name(description) == expected


FRUIT, NUTS = "Fruits and Fruit Juices", "Nut and Seed Products"


@pytest.mark.parametrize(
    ("description", "group", "expected"),
    [
        ("Bananas, raw", FRUIT, "Banana"),
        ("Apples, raw, with skin", FRUIT, "Apple"),
        ("Pears, raw", FRUIT, "Pear"),
        ("Oranges, raw, all commercial varieties", FRUIT, "Orange"),
        # eaten by the handful: plural
        ("Strawberries, raw", FRUIT, "Strawberries"),
        ("Blueberries, raw", FRUIT, "Blueberries"),
        # not raw: the state stays
        ("Apples, dried, sulfured, uncooked", FRUIT, "Apples, dried, sulfured, uncooked"),
        ("Nuts, cashew nuts, raw", NUTS, "Cashew nuts"),
        # a vegetable's "raw" tells it from the cooked one
        ("Broccoli, raw", "Vegetables and Vegetable Products", "Broccoli, raw"),
        # FNDDS's categories count too
        ("Banana, raw", "Bananas", "Banana"),
    ],
)
def test_a_fruit_or_a_nut_is_named_without_raw(description, group, expected):
    assert short_food_name(description, food_group=group) == expected


@pytest.mark.parametrize(
    ("description", "expected"),
    [
        ("Bananas, raw", "Banana"),
        ("Egg, whole, raw, fresh", "Egg"),
        ("Egg, whole, cooked, scrambled", "Scrambled eggs"),
        ("Beverages, coffee, brewed, prepared with tap water", "Coffee"),
        ("Snacks, potato chips, plain, salted", "Potato chips"),
        ("Big Mac (McDonalds)", "McDonald's Big Mac"),
        ("Sugars, granulated", "Sugar"),
    ],
)
def test_the_most_logged_foods_have_curated_names(description, expected):
    assert catalog_display_name(description) == expected


def test_every_curated_name_is_a_short_name():
    for description, name in CURATED.items():
        assert name.strip() == name and 0 < len(name) <= MAX_LENGTH, description


def test_a_long_name_keeps_its_first_and_last_details():
    name = short_food_name(
        'Beef, top sirloin, steak, separable lean and fat, trimmed to 1/8" fat, choice, cooked, '
        "broiled"
    )

    assert name == "Beef top sirloin, steak, broiled"


def test_a_description_with_nothing_to_shorten_is_given_back():
    assert short_food_name("Hummus") == "Hummus"
    assert short_food_name("  ") == ""


@pytest.mark.django_db
def test_the_migration_fills_catalog_rows_and_leaves_custom_foods_alone(alice):
    migration = importlib.import_module("nutrition.migrations.0006_food_display_name")
    egg = Food.objects.create(
        name="Egg, whole, raw, fresh",
        original_name="Egg, whole, raw, fresh",
        source="usda_sr28",
        source_id="01123",
    )
    mine = Food.objects.create(name="Granola, my own", is_custom=True, user=alice)

    from django.apps import apps

    migration.fill_display_names(apps, None)

    egg.refresh_from_db()
    mine.refresh_from_db()
    assert egg.display_name == "Egg" and egg.readable_name == "Egg"
    assert mine.display_name == "" and mine.readable_name == "Granola, my own"


@pytest.mark.django_db
def test_the_curated_names_migration_renames_catalog_rows_only(alice):
    migration = importlib.import_module("nutrition.migrations.0009_curated_display_names")
    banana = Food.objects.create(
        name="Bananas, raw", original_name="Bananas, raw", display_name="Bananas, raw",
        source="usda_sr28", source_id="09040", food_group="Fruits and Fruit Juices",
    )  # fmt: skip
    chili = Food.objects.create(
        name="Chili", original_name="Chili, NFS", display_name="Chili, NFS",
        source="usda_fndds", source_id="abc", food_group="Meat mixed dishes",
    )  # fmt: skip
    mine = Food.objects.create(name="Bananas, raw", is_custom=True, user=alice)

    from django.apps import apps

    migration.fill_display_names(apps, None)

    for food in (banana, chili, mine):
        food.refresh_from_db()
    assert banana.readable_name == "Banana"
    assert chili.readable_name == "Chili"
    assert mine.display_name == "" and mine.readable_name == "Bananas, raw"


@pytest.mark.django_db
def test_a_refusal_names_the_food_as_people_read_it(alice):
    from django.core.exceptions import ValidationError

    from nutrition.services import food_entry_create

    egg = Food.objects.create(
        name="Egg, whole, raw, fresh", display_name="Egg, raw", calories=143, serving_size=100,
        serving_unit="g", source="usda_sr28", source_id="01123",
    )  # fmt: skip

    with pytest.raises(ValidationError) as refused:
        food_entry_create(user=alice, food=egg, quantity=9000, unit="g")

    assert "9000 x g of Egg, raw would be 12,870 kcal" in refused.value.messages[0]
