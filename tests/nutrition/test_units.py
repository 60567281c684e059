from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from nutrition.models import FoodVariant
from nutrition.services import food_create_custom
from nutrition.units import available_units, normalize_unit, portion
from tests.nutrition.conftest import catalog_food


def multiplier(food, quantity, unit=None, **kwargs) -> Decimal:
    return portion(food=food, quantity=quantity, unit=unit, **kwargs).multiplier


@pytest.fixture
def protein_bar(alice):
    return food_create_custom(
        user=alice, name="Protein bar", serving_size=1, serving_unit="bar", calories=210
    )


# --- spelling ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("written", "unit"),
    [
        ("g", "g"),
        ("gram", "g"),
        ("Grams", "g"),
        ("kg", "kg"),
        ("kilograms", "kg"),
        ("oz", "oz"),
        ("ounce", "oz"),
        ("oz.", "oz"),
        ("lb", "lb"),
        ("lbs", "lb"),
        ("pounds", "lb"),
        ("ml", "ml"),
        ("millilitres", "ml"),
        ("l", "l"),
        ("litre", "l"),
        ("cup", "cup"),
        ("Cups", "cup"),
        ("tbsp", "tbsp"),
        ("tablespoons", "tbsp"),
        ("tsp", "tsp"),
        ("teaspoon", "tsp"),
        ("fl oz", "fl oz"),
        ("piece", "piece"),
        ("pieces", "piece"),
        ("each", "piece"),
        ("whole", "piece"),
        ("serving", "serving"),
        ("servings", "serving"),
        ("slice", "slice"),
        ("slices", "slice"),
        ("Large", "large"),
        ("med", "medium"),
        ("small", "small"),
        ("extra large", "extra large"),
        ("XL", "extra large"),
    ],
)
def test_unit_spellings_come_down_to_one_name(written, unit):
    assert normalize_unit(written) == unit


def test_no_unit_normalises_to_none():
    assert normalize_unit(None) is None
    assert normalize_unit("  ") is None


# --- mass and the food's own unit ----------------------------------------------------------------


def test_grams_of_a_food_stored_per_100_g_scale_its_values(banana):
    assert multiplier(banana, 150, "g") == Decimal("1.5")
    assert multiplier(banana, 150, "grams") == Decimal("1.5")


def test_other_masses_convert_to_grams(banana):
    assert multiplier(banana, Decimal("0.25"), "kg") == Decimal("2.5")
    assert multiplier(banana, 1, "oz").quantize(Decimal("0.0001")) == Decimal("0.2835")
    assert multiplier(banana, 1, "lb").quantize(Decimal("0.001")) == Decimal("4.536")


def test_a_unit_with_a_number_in_it_counts_that_many(banana):
    # "75 x 100 g" is 7,500 g.
    assert multiplier(banana, 3, "100 g") == Decimal(3)


def test_quantity_in_the_foods_own_serving_unit(protein_bar):
    assert multiplier(protein_bar, 2, "bars") == Decimal(2)


def test_servings_are_servings_whatever_the_serving_is(banana, protein_bar):
    assert multiplier(banana, 2, "servings") == Decimal(2)
    assert multiplier(protein_bar, 1, "serving") == Decimal(1)


def test_grams_of_a_food_counted_in_slices_go_through_the_weight_of_a_slice(alice):
    bread = food_create_custom(
        user=alice, name="Rye bread", serving_size=1, serving_unit="slice", calories=80
    )
    FoodVariant.objects.create(
        food=bread, sequence=1, serving_size=1, serving_unit="slice", gram_weight=32
    )

    assert multiplier(bread, 64, "g") == Decimal(2)


# --- pieces --------------------------------------------------------------------------------------


def test_a_size_picks_that_household_serving(egg):
    result = portion(food=egg, quantity=2, unit="large")

    assert result.multiplier == Decimal(1)  # 2 x 50 g of a food per 100 g
    assert result.variant.serving_unit == "large"
    assert result.grams == Decimal(100)


def test_a_piece_is_the_typical_piece_the_middle_size(egg, banana):
    assert portion(food=egg, quantity=1, unit="piece").variant.serving_unit == "large"
    assert portion(food=banana, quantity=1, unit="each").variant.serving_unit.startswith("medium")


def test_no_unit_means_pieces_for_a_countable_food(egg):
    result = portion(food=egg, quantity=2)

    assert result.multiplier == Decimal(1)
    assert result.unit == "large"


def test_the_foods_own_name_as_unit_means_pieces(banana):
    assert portion(food=banana, quantity=2, unit="bananas").grams == Decimal(236)


def test_a_piece_of_a_food_with_no_piece_serving_is_one_serving(protein_bar):
    assert multiplier(protein_bar, 3, "pieces") == Decimal(3)


def test_a_serving_of_half_a_piece_counts_whole_pieces(chicken_breast):
    # SR28 stores "0.5 breast, bone and skin removed" = 86 g: one breast is 172 g.
    assert portion(food=chicken_breast, quantity=1, unit="piece").grams == Decimal(172)


# --- household servings and volumes --------------------------------------------------------------


def test_a_household_unit_matches_the_serving_of_that_name(oats):
    assert multiplier(oats, 2, "cups") == Decimal("1.62")
    assert multiplier(oats, Decimal("0.5"), "cup") == Decimal("0.405")


def test_volume_of_a_food_kept_per_ml_converts_directly(alice):
    juice = food_create_custom(
        user=alice, name="Orange juice", serving_size=250, serving_unit="ml", calories=110
    )

    assert multiplier(juice, 500, "ml") == Decimal(2)
    assert multiplier(juice, 1, "l") == Decimal(4)
    assert multiplier(juice, 1, "cup").quantize(Decimal("0.001")) == Decimal("0.946")


def test_a_volume_goes_through_the_weight_of_a_household_volume(milk):
    # The fl oz serving weighs 30.5 g: a tablespoon (half a fl oz) weighs 15.25 g.
    assert multiplier(milk, 2, "tbsp").quantize(Decimal("0.0001")) == Decimal("0.3050")


# --- refusals ------------------------------------------------------------------------------------


def test_an_unknown_unit_is_refused_naming_the_units_that_work(banana):
    with pytest.raises(ValidationError) as refused:
        portion(food=banana, quantity=2, unit="wheelbarrows")

    assert refused.value.code == "unknown_unit"
    message = refused.value.messages[0]
    assert "'wheelbarrow'" in message
    for unit in ("g", "oz", "cup", "medium", "large", "piece"):
        assert unit in message


def test_grams_of_a_food_with_no_known_weight_are_refused(protein_bar):
    with pytest.raises(ValidationError) as refused:
        portion(food=protein_bar, quantity=50, unit="g")

    assert refused.value.code == "unknown_unit"
    assert "bar" in refused.value.messages[0]
    assert available_units(protein_bar) == ["serving", "bar", "piece"]


@pytest.mark.parametrize(
    "quantity", [0, -1, "-2", float("nan"), float("inf"), "NaN", "lots", None, True, "0.0001"]
)
def test_quantities_that_are_not_positive_finite_numbers_are_refused(banana, quantity):
    with pytest.raises(ValidationError) as refused:
        portion(food=banana, quantity=quantity, unit="g")

    assert refused.value.code == "invalid_quantity"


@pytest.mark.parametrize(
    ("quantity", "unit"),
    [(20_000, "g"), (11, "kg"), (101, "pieces"), (150, "large"), (30, "l"), (1_000_000, "g")],
)
def test_absurd_amounts_are_refused(egg, quantity, unit):
    with pytest.raises(ValidationError) as refused:
        portion(food=egg, quantity=quantity, unit=unit)

    assert refused.value.code == "invalid_quantity"


def test_a_big_bare_number_asks_whether_grams_were_meant(oats):
    with pytest.raises(ValidationError) as refused:
        portion(food=oats, quantity=150)

    assert refused.value.code == "invalid_quantity"
    assert "Did you mean 150 g?" in refused.value.messages[0]


def test_a_serving_of_another_food_is_refused(egg, banana):
    with pytest.raises(ValidationError) as refused:
        portion(food=banana, quantity=1, variant=egg.variants.first())

    assert refused.value.code == "unknown_unit"


# --- no unit: a household measure, not 100 g ------------------------------------------------------


def sr28_food(name, kcal_per_100g, *servings):
    """A food kept per 100 g with SR28-style household servings (size, unit, grams), in order."""
    return catalog_food(name, kcal_per_100g, servings=servings)


def logged(food, quantity=1, unit=None):
    p = portion(food=food, quantity=quantity, unit=unit)
    kcal = (p.multiplier * Decimal(food.calories)).quantize(Decimal(1))
    return f"{p.quantity.normalize():f} {p.unit}", int(kcal)


@pytest.mark.django_db
def test_a_bare_amount_is_the_first_household_measure_sr28_lists():
    peanut_butter = sr28_food("Peanut butter", 588, (2, "tbsp", 32), (1, "cup", 258))
    rice = sr28_food("Rice, cooked", 130, (1, "cup", 158))

    assert logged(peanut_butter) == ("2 tbsp", 188)  # was 1 serving = 100 g = 588 kcal
    assert logged(peanut_butter, 2) == ("4 tbsp", 376)
    assert logged(rice) == ("1 cup", 205)
    assert logged(rice, 200, "g") == ("200 g", 260)  # a unit given is kept


@pytest.mark.django_db
def test_a_first_measure_bigger_than_a_helping_gives_way_to_a_smaller_one():
    honey = sr28_food("Honey", 304, (1, "cup", 339), (1, "tbsp", 21), (1, "packet (0.5 oz)", 14))

    assert logged(honey) == ("1 tbsp", 64)


@pytest.mark.django_db
def test_a_drink_is_a_can_or_a_cup_not_one_fluid_ounce():
    beer = sr28_food("Beer", 43, (1, "fl oz", 29.7), (1, "can", 356))
    coffee = sr28_food(
        "Coffee", 1, (1, "fl oz", 29.6), (6, "fl oz", 178), (1, "cup (8 fl oz)", 237)
    )

    assert logged(beer) == ("1 can", 153)
    assert logged(coffee)[0] == "1 cup"


@pytest.mark.django_db
def test_a_glass_of_wine_is_its_labelled_serving_and_a_glass_of_milk_a_cup():
    wine = sr28_food("Wine, red", 85, (1, "fl oz", 29.4), (1, "serving (5 fl oz)", 147))
    milk = sr28_food("Milk", 61, (1, "cup", 244), (1, "fl oz", 30.5))

    assert logged(wine) == ("1 serving", 125)
    assert logged(wine, 2, "glass") == ("2 glass", 250)  # was 2 cups, 400 kcal
    assert logged(milk, 1, "glass") == ("1 cup", 149)


@pytest.mark.django_db
def test_the_juice_of_one_fruit_is_not_a_piece_of_juice():
    juice = sr28_food("Orange juice", 45, (1, "cup", 248), (1, "fruit yields", 86))

    assert logged(juice) == ("1 cup", 112)


def logged_unsized(food):
    p = portion(food=food, quantity=1, unsized=True)
    kcal = (p.multiplier * Decimal(food.calories)).quantize(Decimal(1))
    return f"{p.quantity.normalize():f} {p.unit}", int(kcal)


@pytest.mark.django_db
def test_almonds_with_no_count_are_an_ounce_not_one_almond():
    almonds = sr28_food("Nuts, almonds", 579, (1, "cup, whole", 143), (1, "oz", 28.35))
    FoodVariant.objects.create(
        food=almonds, serving_size=1, serving_unit="almond", gram_weight=1.2, sequence=9
    )

    assert logged_unsized(almonds) == ("1 oz", 164)  # was 1 almond, 7 kcal
    assert logged(almonds) == ("1 almond", 7)  # "an almond"
    assert logged(almonds, 12) == ("12 almond", 83)  # a count is a count


@pytest.mark.django_db
def test_a_piece_that_is_a_helping_stays_a_piece_with_no_count():
    egg = sr28_food("Egg, whole", 143, (1, "large", 50), (1, "cup", 243))

    assert logged_unsized(egg) == ("1 large", 72)


@pytest.mark.django_db
def test_a_tiny_piece_with_no_measure_to_give_way_to_is_a_serving_when_no_count_was_said():
    grape = sr28_food("Grapes, raw", 69)
    FoodVariant.objects.create(
        food=grape, serving_size=1, serving_unit="grape", gram_weight=5, sequence=1
    )

    assert logged_unsized(grape) == ("1 serving", 69)  # 100 g rather than one grape
    assert logged(grape, 10) == ("10 grape", 34)  # a count is still a count


@pytest.mark.django_db
def test_a_handful_weighs_about_an_ounce():
    almonds = sr28_food("Nuts, almonds", 579, (1, "oz", 28.35))

    assert logged(almonds, 1, "handful") == ("1 handful", 174)
    assert logged(almonds, 2, "handfuls") == ("2 handful", 347)


@pytest.mark.django_db
def test_a_food_kept_only_by_the_pot_is_one_pot_not_100_g():
    greek = sr28_food("Yogurt, Greek, plain, lowfat", 73, (1, "container (7 oz)", 200))
    family_tub = sr28_food("Yogurt, tub", 73, (1, "container (32 oz)", 907))

    assert logged(greek) == ("1 container", 146)  # was 1 serving = 100 g = 73 kcal
    assert logged(family_tub) == ("1 serving", 73)  # a 32 oz tub is not one helping


@pytest.mark.parametrize(
    ("quantity", "unit", "text"),
    [
        (1, "cup", "cup"),
        (1.5, "cup", "cups"),
        (0.5, "cup", "cup"),
        (12, "almond", "almonds"),
        (2, "slice", "slices"),
        (2, "glass", "glasses"),
        (3, "patty", "patties"),
        (2, "tbsp", "tbsp"),
        (200, "g", "g"),
        (2, "large", "large"),
        (2, "fl oz", "fl oz"),
        (2, "handful", "handfuls"),
        (2, "shot", "shots"),
        (0.5, "", ""),
    ],
)
def test_a_unit_reads_in_the_plural_after_more_than_one(quantity, unit, text):
    from nutrition.units import unit_text

    assert unit_text(quantity, unit) == text


@pytest.mark.django_db
def test_a_share_of_a_pound_is_not_a_piece_when_the_food_names_its_piece():
    breast = sr28_food(
        "Chicken, breast, roasted",
        165,
        (1, "cup, chopped or diced", 140),
        (1, "unit (yield from 1 lb ready-to-cook chicken)", 52),
        (0.5, "breast, bone and skin removed", 86),
    )
    wing = sr28_food("Chicken, wing", 290, (1, "unit (yield from 1 lb ready-to-cook chicken)", 30))

    assert logged(breast) == ("1 breast", 284)  # was 1 "unit" of 52 g, 86 kcal
    assert logged(wing) == ("1 piece", 87)  # nothing else: the yield is the piece


@pytest.mark.django_db
def test_a_whole_roast_is_not_what_its_name_means():
    roast = sr28_food("Beef, rib eye roast, cooked", 290, (3, "oz", 85), (1, "roast", 2050))
    turkey = sr28_food("Turkey, whole, roasted", 170, (1, "bird", 4200))
    broccoli = sr28_food("Broccoli, raw", 34, (1, "cup chopped", 91), (1, "bunch", 608))

    assert logged(roast) == ("3 oz", 246)  # was 1 roast, 5,945 kcal
    assert logged(turkey) == ("1 serving", 170)  # no measure: 100 g, not the bird
    assert logged(broccoli) == ("1 cup", 31)  # was the bunch


@pytest.mark.django_db
def test_a_slice_of_a_food_with_only_pieces_is_a_piece_and_a_strip_of_bacon_a_slice():
    cheesecake = sr28_food("Cheesecake", 321, (1, "piece (1/6 of 17 oz cake)", 80))
    bacon = sr28_food("Bacon, cooked", 468, (1, "slice", 11.5))

    assert logged(cheesecake, 1, "slice") == ("1 piece", 257)
    assert logged(bacon, 2, "strips") == ("2 slice", 108)
    with pytest.raises(ValidationError):
        logged(bacon, 1, "wedge")  # stand-ins go one way only


@pytest.mark.django_db
def test_pints_shots_and_scoops_are_volumes():
    beer = sr28_food("Beer", 43, (1, "fl oz", 29.7), (1, "can", 356))
    vodka = sr28_food("Vodka", 231, (1, "fl oz", 27.8))
    ice_cream = sr28_food("Ice cream, vanilla", 207, (1, "serving 1/2 cup", 66))
    powder = sr28_food("Protein powder", 400, (1, "scoop", 30))

    assert logged(beer, 1, "pint") == ("1 pint", 204)
    assert logged(vodka, 1, "shot") == ("1 shot", 96)  # 1.5 fl oz
    assert logged(ice_cream, 3, "scoops") == ("3 scoop", 410)  # half a cup each, by the label
    assert logged(ice_cream, 1, "cup") == ("1 cup", 273)
    assert logged(powder, 2, "scoops") == ("2 scoop", 240)  # its own scoop wins


@pytest.mark.django_db
def test_a_sized_drink_is_a_coffee_shop_size_and_a_sized_food_still_needs_its_size():
    coffee = sr28_food("Coffee, brewed", 1, (1, "fl oz", 29.6), (1, "cup (8 fl oz)", 237))
    rice = sr28_food("Rice, cooked", 130, (1, "cup", 158))

    large = portion(food=coffee, quantity=1, unit="large")
    small = portion(food=coffee, quantity=1, unit="small")
    assert large.grams.quantize(Decimal(1)) == 474  # 16 fl oz
    assert small.grams.quantize(Decimal(1)) == 237  # 8 fl oz
    with pytest.raises(ValidationError):
        portion(food=rice, quantity=1, unit="large")  # not a drink: no size to guess


@pytest.mark.django_db
def test_a_drink_first_listed_by_the_glass_is_that_glass_even_when_it_weighs_over_250_g():
    acai = sr28_food("Acai berry drink", 62, (8, "fl oz", 266), (2, "fl oz", 60))

    assert logged(acai) == ("8 fl oz", 165)  # was 2 fl oz, 37 kcal


@pytest.mark.django_db
def test_a_serving_of_cookies_is_counted_in_cookies():
    cookies = sr28_food("Cookies, chocolate chip", 488, (1, "serving 3 cookies", 30))
    FoodVariant.objects.create(
        food=cookies, serving_size=1, serving_unit="cookies", gram_weight=13, sequence=2
    )

    assert logged(cookies, 2) == ("2 cookie", 127)  # was "2 cooky"
    assert logged(cookies, 1, "cookie") == ("1 cookie", 63)


@pytest.mark.django_db
def test_a_bare_piece_is_the_medium_one_or_the_foods_own_plain_piece():
    muffin = sr28_food(
        "Muffins, blueberry",
        375,
        (1, 'small (2-3/4" dia)', 66),
        (1, "medium", 113),
        (1, 'large (3-1/4" dia)', 139),
        (1, "extra large", 168),
    )
    doughnut = sr28_food(
        "Doughnuts, glazed",
        421,
        (1, "doughnut hole", 13),
        (1, 'extra large (approx 5" dia)', 122),
        (1, 'jumbo (approx 6" dia)', 157),
        (1, "doughnut", 63),
    )

    assert logged(muffin) == ("1 medium", 424)  # of four sizes, the medium (was the large)
    assert logged(doughnut) == ("1 doughnut", 265)  # not the jumbo, not the hole


@pytest.mark.django_db
def test_a_piece_bigger_than_a_meal_gives_way_to_the_measure_the_food_has():
    steak = sr28_food(
        "Beef, top sirloin, steak, cooked",
        257,
        (3, "oz", 85),
        (1, "piece, cooked, excluding refuse (yield from 1 lb raw meat with refuse)", 306),
    )
    margarine = sr28_food(
        "Margarine, hard", 717, (1, "stick", 113), (1, "tbsp", 14.2), (1, "tsp", 4.7)
    )
    burger = sr28_food("Fast foods, hamburger, double", 250, (1, "piece", 376))

    # a steak as served (6 oz cooked): neither the pound's yield (786 kcal) nor USDA's 3 oz serving
    assert logged(steak) == ("6 oz", 437)
    assert logged(margarine) == ("1 tbsp", 102)  # was the stick, 810 kcal
    assert logged(burger) == ("1 piece", 940)  # nothing smaller to give way to


@pytest.mark.django_db
def test_a_measure_named_with_a_packet_is_still_a_measure():
    mustard = sr28_food("Mustard, prepared, yellow", 60, (1, "tsp or 1 packet", 5), (1, "cup", 249))

    assert logged(mustard) == ("1 tsp", 3)  # was 1 cup


@pytest.mark.django_db
def test_crackers_with_no_count_are_the_count_sr28_serves():
    crackers = sr28_food(
        "Crackers, standard snack-type", 510, (5, "crackers", 16), (1, "cup crushed", 52)
    )

    assert logged_unsized(crackers) == ("5 cracker", 82)  # was 100 g, 510 kcal
    assert logged(crackers, 2) == ("2 cracker", 33)


@pytest.mark.django_db
def test_half_a_pizza_is_half_the_pizza_not_half_a_slice():
    pizza = sr28_food("Pizza, cheese, 14 inch", 275, (1, "slice", 105), (1, "pizza", 841))

    assert logged(pizza, 0.5) == ("0.5 pizza", 1156)  # was half a slice, 144 kcal
    assert logged(pizza) == ("1 slice", 289)
    assert logged(pizza, 0.5, "slice") == ("0.5 slice", 144)  # said so: half a slice


@pytest.mark.django_db
def test_a_bare_vegetable_is_a_cup_not_one_leaf_or_spear_and_a_said_part_is_that_part():
    spinach = sr28_food("Spinach, raw", 23, (1, "cup", 30), (1, "leaf", 10))
    broccoli = sr28_food("Broccoli, raw", 34, (1, "cup chopped", 91), (1, "spear", 31))
    garlic = sr28_food("Garlic, raw", 149, (1, "cup", 136), (1, "clove", 3))
    chocolate = sr28_food(
        "Candies, milk chocolate", 535, (1, "bar, miniature", 7), (1, "bar (1.55 oz)", 44)
    )

    assert logged(spinach) == ("1 cup", 7)  # was 1 leaf, 2 kcal
    assert logged(broccoli) == ("1 cup", 31)  # was 1 spear
    assert logged(spinach, 3, "leaves") == ("3 leaf", 7)
    assert logged(garlic) == ("1 clove", 4)  # a clove is what garlic is counted in
    assert logged(chocolate) == ("1 bar", 235)  # not the miniature


@pytest.mark.django_db
def test_calories_of_a_food_are_as_much_of_it_as_has_them():
    almonds = sr28_food("Nuts, almonds", 579, (1, "oz", 28.35))

    p = portion(food=almonds, quantity=100, unit="calories")
    assert (p.unit, p.quantity, p.grams.quantize(Decimal("0.1"))) == ("kcal", 100, Decimal("17.3"))
    assert logged(almonds, 250, "kcal") == ("250 kcal", 250)


@pytest.mark.django_db
def test_a_bare_piece_is_named_by_the_foods_own_noun():
    tortilla = sr28_food("Tortillas, corn", 218, (1, "enchilada", 19), (1, "tortilla, medium", 24))

    assert logged(tortilla) == ("1 tortilla", 52)  # not "1 enchilada"
