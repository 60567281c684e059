"""Containers, sizes, crumbs and compounds: what "a bottle of", "large", "0.01" and "with milk"
come to, per food (nutrition.units, nutrition.services, nutrition.compound)."""

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from nutrition import compound, units
from nutrition.models import FNDDS_SOURCE
from nutrition.services import bulk_problem, entry_nutrients, food_entry_create, goal_set
from nutrition.units import amount_in_name, portion

from .conftest import catalog_food

pytestmark = pytest.mark.django_db


def kcal(food, quantity=1, unit=None):
    p = portion(food=food, quantity=quantity, unit=unit)
    return int((p.multiplier * Decimal(food.calories)).quantize(Decimal(1)))


@pytest.fixture
def cola():
    return catalog_food(
        "Beverages, carbonated, cola, regular",
        42,
        servings=[(1, "fl oz", "30.7"), (1, "can or bottle (12 fl oz)", 370)],
    )


@pytest.fixture
def beer():
    return catalog_food("Alcoholic beverage, beer, regular, all", 43, servings=[(1, "fl oz", 29.7)])


@pytest.fixture
def wine():
    return catalog_food("Alcoholic beverage, wine, table, red", 85, servings=[(1, "fl oz", 29.4)])


@pytest.fixture
def pretzels():
    return catalog_food(
        "Snacks, pretzels, hard, plain, salted",
        384,
        servings=[(1, "oz", 28.35), (10, "twists", 60)],
    )


@pytest.fixture
def chips():
    return catalog_food(
        "Snacks, potato chips, plain, salted", 532, servings=[(1, "oz", 28), (1, "bag (8 oz)", 227)]
    )


@pytest.fixture
def fries():
    return catalog_food(
        "Fast foods, potato, french fried in vegetable oil",
        312,
        servings=[(1, "serving small", 71), (1, "serving medium", 117), (1, "serving large", 154)],
    )


@pytest.fixture
def sweet_potato():
    return catalog_food(
        "Sweet potato, cooked, boiled, without skin",
        76,
        servings=[(1, "cup, mashed", 328), (1, "medium", 151)],
    )


@pytest.fixture
def chili():
    return catalog_food(
        "Chili with beans, canned", 103, servings=[(1, "cup", 256), (1, "tbsp", 16)]
    )


def test_a_bottle_or_a_can_is_the_foods_own_serving_of_that_name(cola):
    assert kcal(cola, 1, "can") == 155
    assert kcal(cola, 1, "bottle") == 155  # "can or bottle (12 fl oz)"


def test_without_a_serving_of_its_own_a_container_has_its_standard_size(beer, wine, pretzels):
    assert kcal(beer, 1, "bottle") == 153  # a 12 fl oz beer bottle
    assert 600 < kcal(wine, 1, "bottle") < 680  # 750 ml
    assert kcal(pretzels, 1, "bag") == 109  # a 1 oz snack bag, never one twist
    assert kcal(pretzels, 1, "small bag") == 109  # the snack bag is the small one already
    assert kcal(pretzels, 1, "large bag") == 272  # the 2.5 oz single-serve bag


def test_a_family_bag_is_not_what_a_bag_of_chips_means(chips):
    assert kcal(chips, 1, "bag") == 151  # the 1 oz snack bag, not the 8 oz one (1,208 kcal)


def test_a_sized_container_the_catalog_has_is_that_container_not_a_scaled_other(alice):
    raisins = catalog_food(
        "Raisins, seedless",
        299,
        servings=[(1, "miniature box (.5 oz)", 14), (1, "small box (1.5 oz)", 43)],
    )

    assert kcal(raisins, 1, "small box") == 129  # not three quarters of the miniature box
    assert kcal(raisins, 2, "small box") == 257
    entry = food_entry_create(user=alice, food=raisins, quantity=1, unit="small box")
    assert (entry.quantity, entry.unit) == (1, "small box")


def test_a_large_bag_of_chips_is_the_large_single_serve_bag_when_kept_in_the_diary(alice, chips):
    entry = food_entry_create(user=alice, food=chips, quantity=1, unit="large bag")

    assert (entry.quantity, entry.unit) == (1, "large bag")
    assert int(entry_nutrients(entry)["calories"]) == 377  # 2.5 oz, not 1.5 snack bags


def test_a_fillet_is_the_piece_a_person_eats_even_where_usda_weighs_half_a_side():
    salmon = catalog_food(
        "Fish, salmon, Atlantic, farmed, cooked, dry heat", 206, servings=[(0.5, "fillet", 178)]
    )
    tilapia = catalog_food("Fish, tilapia, cooked, dry heat", 128, servings=[(1, "fillet", 87)])

    assert kcal(salmon, 1, "fillet") == 367  # the 178 g half side, not the 356 g whole side
    assert kcal(tilapia, 2, "fillet") == 223
    assert amount_in_name("salmon fillet", None) == ("salmon", "fillet")
    assert amount_in_name("fillet of fried fish", None) == ("fried fish", "fillet")


def test_a_size_picks_the_foods_serving_of_that_size(fries):
    assert kcal(fries, 1, "small") == 222
    assert kcal(fries, 1, "medium") == 365
    assert kcal(fries, 1, "large") == 480


def test_a_size_the_food_lacks_is_scaled_from_the_one_it_has_never_swapped(sweet_potato):
    medium = kcal(sweet_potato, 1, "medium")
    assert abs(kcal(sweet_potato, 1, "large") - medium * 1.3) <= 1
    assert abs(kcal(sweet_potato, 1, "small") - medium * 0.7) <= 1


def test_a_bowl_is_a_cup_and_a_half_and_a_bare_chili_is_a_cup_not_a_tablespoon(chili):
    assert kcal(chili, 1, "bowl") == 396
    assert kcal(chili) == 264


def test_amount_words_left_in_a_name_move_to_the_unit():
    assert amount_in_name("jumbo egg", None) == ("egg", "jumbo")
    assert amount_in_name("glass of milk", "large") == ("milk", "large glass")
    assert amount_in_name("carton of orange juice", "small") == ("orange juice", "small carton")
    assert amount_in_name("slice of pizza", None) == ("pizza", "slice")
    assert amount_in_name("juice box", None) == ("juice", "juice box")
    assert amount_in_name("peanut butter", "tbsp") == ("peanut butter", "tbsp")


def test_every_standard_size_says_where_it_comes_from():
    sizes = [s for pair in units.STANDARD_SIZES.values() for s in pair if s is not None]
    sizes += list(units.STANDARD_SIZES_FOR.values())
    assert all(s.source and (s.unit in units.MASS_G or s.unit in units.VOLUME_ML) for s in sizes)


def test_a_crumb_of_a_food_eaten_by_the_piece_is_asked_about_not_logged(alice, egg):
    with pytest.raises(ValidationError) as refused:
        food_entry_create(user=alice, food=egg, quantity="0.01")

    assert refused.value.code == "implausible"
    assert "egg" in refused.value.messages[0].lower() and "kcal" in refused.value.messages[0]
    confirmed = food_entry_create(user=alice, food=egg, quantity="0.01", confirmed=True)
    assert confirmed.quantity == Decimal("0.010")


@pytest.mark.parametrize("amount", ["-3", "0", "nan", "-200"])
def test_a_negative_zero_or_nan_amount_is_refused_naming_the_amount(alice, egg, amount):
    with pytest.raises(ValidationError) as refused:
        food_entry_create(user=alice, food=egg, quantity=amount)

    assert refused.value.code == "invalid_quantity"
    assert amount in refused.value.messages[0]


def test_a_message_over_eight_entries_or_2500_kcal_needs_a_confirmation():
    assert bulk_problem(entries=8, kcal=900) is None
    assert "9 entries" in bulk_problem(entries=9, kcal=900)
    assert "3,700 kcal" in bulk_problem(entries=3, kcal=3700)


@pytest.mark.parametrize("calories", [100_000, 100, -500])
def test_a_calorie_goal_no_one_can_follow_is_refused_with_the_range(alice, calories):
    with pytest.raises(ValidationError) as refused:
        goal_set(user=alice, calories=calories)

    assert refused.value.code in ("out_of_range", "invalid_value")


def test_coffee_with_milk_is_coffee_and_a_splash_of_milk(alice):
    catalog_food("Beverages, coffee, brewed, prepared with tap water", 1)
    catalog_food("Milk, whole, 3.25% milkfat, with added vitamin D", 61, servings=[(1, "tbsp", 15)])

    items = compound.split_items(user=alice, name="coffee with milk")

    assert items == [
        compound.Item("coffee", None, None),
        compound.Item("milk", 2, "tbsp"),
    ]


def test_a_salad_the_catalog_weighs_undressed_comes_with_its_usual_dressing(alice):
    catalog_food("Greek Salad, no dressing", 48, servings=[(1, "bowl", 200)], source=FNDDS_SOURCE)
    catalog_food(
        "Caesar salad, with romaine, no dressing",
        77,
        servings=[(1, "bowl", 200)],
        source=FNDDS_SOURCE,
    )
    catalog_food("Salad dressing, italian dressing, commercial, regular", 240)
    catalog_food("Salad dressing, caesar dressing, regular", 542)

    assert compound.split_items(user=alice, name="a greek salad") == [
        compound.Item("a greek salad", None, None),
        compound.Item("italian dressing", 2, "tbsp"),
    ]
    assert compound.split_items(user=alice, name="caesar salad")[1].name == "caesar dressing"
    assert compound.split_items(user=alice, name="greek salad, no dressing") == [
        compound.Item("greek salad, no dressing", None, None)
    ]


def test_a_splash_of_milk_is_the_usual_splash_however_it_is_said(alice):
    catalog_food("Beverages, coffee, brewed, prepared with tap water", 1)
    catalog_food("Milk, whole, 3.25% milkfat, with added vitamin D", 61, servings=[(1, "tbsp", 15)])

    for said in ("coffee with a splash of milk", "coffee with splash of milk"):
        assert compound.split_items(user=alice, name=said)[1] == compound.Item("milk", 2, "tbsp")


def test_a_name_the_catalog_has_whole_stays_one_food(alice):
    catalog_food("Chili with beans, canned", 103)
    catalog_food("Beans, black, mature seeds, cooked", 132)

    assert compound.split_items(user=alice, name="chili with beans") == [
        compound.Item("chili with beans", None, None)
    ]


def test_nothing_is_logged_for_what_a_drink_is_without(alice):
    catalog_food("Beverages, coffee, brewed, prepared with tap water", 1)

    assert compound.split_items(user=alice, name="coffee with no sugar") == [
        compound.Item("coffee", None, None)
    ]


def test_a_mixed_drink_is_a_shot_and_a_glass_of_mixer(alice):
    assert compound.split_items(user=alice, name="rum and coke") == [
        compound.Item("rum", 1.5, "fl oz"),
        compound.Item("coke", 6, "fl oz"),
    ]
    assert compound.split_items(user=alice, name="vodka soda")[1].name == "club soda"


def test_a_latte_is_espresso_and_milk(alice):
    assert [i.name for i in compound.split_items(user=alice, name="latte")] == ["espresso", "milk"]


def test_a_steak_with_no_amount_is_a_steak_as_served_not_a_3_oz_serving():
    steak = catalog_food(
        "Beef, top sirloin, steak, cooked, broiled",
        257,
        servings=[(3, "oz", 85), (1, "piece, cooked (yield from 1 lb raw meat)", 306)],
    )

    p = portion(food=steak, quantity=1)

    assert (p.quantity, p.unit) == (Decimal("6.000"), "oz")
    assert kcal(steak, 5, "oz") == 364  # an amount said is kept


def test_rice_cakes_counted_with_no_piece_of_their_own_are_rice_cakes_not_servings():
    # the catalog keeps rice cakes by 100 g, with no cake of its own: 3 of them are 27 g, never
    # 3 x 100 g (1,100+ kcal)
    cakes = catalog_food("Rice cake, cracker", 392, servings=[])

    p = portion(food=cakes, quantity=3)

    assert (p.quantity, p.unit) == (Decimal("27.000"), "g")
