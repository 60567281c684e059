import pytest
from django.db import connection

from nutrition import search
from nutrition.models import FNDDS_SOURCE
from nutrition.services import (
    food_create_custom,
    food_find_best,
    food_search,
    food_update_custom,
)
from tests.factories import approve_share
from tests.nutrition.conftest import catalog_food

CATALOG = [
    ("Bananas, raw", 89),
    ("Banana chips", 519),
    ("Babyfood, fruit, bananas with tapioca, strained", 56),
    ("Bread, banana, prepared from recipe, made with margarine", 326),
    ("Pepper, banana, raw", 27),
    ("Chicken, broilers or fryers, breast, meat only, cooked, roasted", 165),
    ("Chicken, broilers or fryers, breast, meat and skin, cooked, fried, batter", 260),
    ("CHICK-FIL-A, chicken sandwich", 301),
    ("Fast foods, chicken breast sandwich, grilled, with lettuce and tomato", 196),
    ("Soup, chicken noodle, canned, condensed", 56),
    ("Cereals, oats, regular and quick, not fortified, dry", 379),
    ("Cereals, QUAKER, Instant Oatmeal, apples and cinnamon, dry", 363),
    ("Babyfood, cereal, oatmeal, dry fortified", 395),
    ("Cookies, oatmeal, commercially prepared, regular", 450),
    ("Egg, whole, raw, fresh", 143),
    ("Egg, white, raw, fresh", 52),
    ("Egg, whole, cooked, hard-boiled", 155),
    ("Eggnog", 88),
    ("Egg custards, dry mix, prepared with whole milk", 112),
    ("Yogurt, Greek, plain, nonfat", 59),
    ("Yogurt, Greek, strawberry, DANNON OIKOS", 107),
    ("Rice, brown, long-grain, cooked", 123),
    ("Rice, white, long-grain, regular, cooked", 130),
    ("Snacks, brown rice chips", 391),
    ("Milk, whole, 3.25% milkfat, with added vitamin D", 61),
    ("Crackers, milk", 446),
]


@pytest.fixture
def catalog(db):
    return {name: catalog_food(name, kcal) for name, kcal in CATALOG}


def names(user, query, limit=10) -> list[str]:
    return [food.name for food in food_search(user=user, query=query, limit=limit)]


def first(user, query) -> str:
    found = names(user, query, limit=1)
    return found[0] if found else ""


# --- whole foods first ---------------------------------------------------------------------------


@pytest.mark.parametrize("query", ["banana", "bananas", "Banana", "BANANAS ", "  banana  "])
def test_plain_bananas_come_first_whatever_the_case_or_plural(alice, catalog, query):
    assert first(alice, query) == "Bananas, raw"


def test_a_short_name_that_matches_beats_long_ones_that_contain_the_word(alice, catalog):
    found = names(alice, "banana")

    assert found.index("Banana chips") < found.index(
        "Babyfood, fruit, bananas with tapioca, strained"
    )
    assert found.index("Banana chips") < found.index(
        "Bread, banana, prepared from recipe, made with margarine"
    )


def test_a_plain_chicken_breast_comes_before_sandwiches_and_soup(alice, catalog):
    found = names(alice, "chicken breast")

    assert found[0] == "Chicken, broilers or fryers, breast, meat only, cooked, roasted"
    assert "Soup, chicken noodle, canned, condensed" not in found[:3]


def test_oatmeal_finds_plain_oats_before_cookies_baby_food_and_brands(alice, catalog):
    assert first(alice, "oatmeal") == "Cereals, oats, regular and quick, not fortified, dry"
    assert first(alice, "oats") == "Cereals, oats, regular and quick, not fortified, dry"


def test_egg_is_a_whole_egg(alice, catalog):
    found = names(alice, "egg")

    assert found[0] == "Egg, whole, raw, fresh"
    assert found.index("Egg, white, raw, fresh") < found.index(
        "Egg custards, dry mix, prepared with whole milk"
    )
    assert "Eggnog" not in found  # another word, not a kind of egg


def test_eggs_in_the_plural_are_the_same_search(alice, catalog):
    assert names(alice, "eggs") == names(alice, "egg")


def test_greek_yogurt_and_brown_rice(alice, catalog):
    assert first(alice, "greek yogurt") == "Yogurt, Greek, plain, nonfat"
    assert first(alice, "brown rice") == "Rice, brown, long-grain, cooked"


def test_milk_is_milk_not_crackers(alice, catalog):
    assert first(alice, "milk") == "Milk, whole, 3.25% milkfat, with added vitamin D"
    assert first(alice, "whole milk") == "Milk, whole, 3.25% milkfat, with added vitamin D"


# --- tolerance -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("bananna", "Bananas, raw"),
        ("chiken breast", "Chicken, broilers or fryers, breast, meat only, cooked, roasted"),
        ("chicken brest", "Chicken, broilers or fryers, breast, meat only, cooked, roasted"),
        ("yoghurt greek", "Yogurt, Greek, plain, nonfat"),
        ("brwn rice", "Rice, brown, long-grain, cooked"),
    ],
)
def test_small_typos_still_find_the_food(alice, catalog, query, expected):
    assert first(alice, query) == expected


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("raw egg", "Egg, whole, raw, fresh"),
        ("breast chicken", "Chicken, broilers or fryers, breast, meat only, cooked, roasted"),
        ("rice brown", "Rice, brown, long-grain, cooked"),
    ],
)
def test_word_order_does_not_matter(alice, catalog, query, expected):
    assert first(alice, query) == expected


def test_a_word_the_name_has_lifts_it_among_near_equals(alice, catalog):
    found = names(alice, "hard boiled egg")

    assert found[0] == "Egg, whole, cooked, hard-boiled"


def test_a_query_of_filler_words_falls_back_to_names_that_contain_it(alice, catalog):
    found = names(alice, "raw")

    assert "Bananas, raw" in found
    assert all("raw" in name.lower() for name in found)


def test_nothing_matches_nonsense_or_an_empty_query(alice, catalog):
    assert names(alice, "xqzvw") == []
    assert names(alice, "   ") == []


# --- scores and confidence -----------------------------------------------------------------------


def test_results_carry_a_score_from_0_to_1_best_first(alice, catalog):
    found = food_search(user=alice, query="banana", limit=10)

    scores = [food.score for food in found]
    assert all(0 <= s <= 1 for s in scores)
    assert scores == sorted(scores, reverse=True)
    assert found[0].score == 1.0


def test_the_limit_is_respected(alice, catalog):
    assert len(food_search(user=alice, query="banana", limit=2)) == 2


def test_the_confident_best_match_is_returned_for_logging(alice, catalog):
    assert food_find_best(user=alice, name="bananna").name == "Bananas, raw"
    assert food_find_best(user=alice, name="egg").name == "Egg, whole, raw, fresh"


def test_no_confident_match_gives_none_so_options_can_be_offered(alice, catalog):
    assert food_find_best(user=alice, name="dragon fruit smoothie bowl") is None
    assert food_find_best(user=alice, name="pad thai") is None


# --- whose foods ---------------------------------------------------------------------------------


def test_the_users_own_food_comes_first_among_similar_matches(alice, catalog):
    mine = food_create_custom(user=alice, name="Banana", serving_size=1, serving_unit="piece")

    found = food_search(user=alice, query="banana", limit=3)

    assert found[0] == mine
    assert found[1].name == "Bananas, raw"


def test_an_own_food_that_only_contains_the_word_does_not_push_out_the_plain_food(alice, catalog):
    food_create_custom(user=alice, name="Boiled egg and cauliflower bake", calories=150)

    assert food_find_best(user=alice, name="egg").name == "Egg, whole, raw, fresh"


def test_others_private_foods_are_never_found_but_shared_ones_are(alice, bob, catalog):
    secret = food_create_custom(user=alice, name="Grandma's banana loaf", calories=300)

    assert "Grandma's banana loaf" not in names(bob, "banana loaf")
    assert "Grandma's banana loaf" in names(alice, "banana loaf")

    food_update_custom(user=alice, food_id=secret.id, shared_with_public=True)
    assert "Grandma's banana loaf" not in names(bob, "banana loaf")  # until staff approve
    approve_share(secret)
    assert "Grandma's banana loaf" in names(bob, "banana loaf")


def test_an_unapproved_share_ranks_only_for_its_owner(alice, bob, catalog):
    # "zebra cake" and a 1 kcal "banana", shared by bob and not yet approved
    zebra = food_create_custom(user=bob, name="Zebra cake", calories=1, shared_with_public=True)
    fake = food_create_custom(user=bob, name="Banana", calories=1, shared_with_public=True)

    assert "Banana" not in names(alice, "banana") and names(bob, "banana")[0] == "Banana"
    assert "Zebra cake" not in names(alice, "zebra cake")
    assert food_find_best(user=alice, name="banana") != fake
    approve_share(zebra)
    assert "Zebra cake" in names(alice, "zebra cake")
    food_update_custom(user=bob, food_id=zebra.id, calories=2)  # changed: approved again first
    assert "Zebra cake" not in names(alice, "zebra cake")


def test_a_new_custom_food_is_found_by_a_typo_of_its_new_word(alice):
    food_create_custom(user=alice, name="Zorblax crunch", calories=120)

    assert first(alice, "zorblaxx") == "Zorblax crunch"


# --- barcodes ------------------------------------------------------------------------------------


def test_a_barcode_finds_exactly_that_product(alice, bob, catalog):
    product = catalog_food("Peanut butter, smooth", 588, barcode="0123456789012")
    food_create_custom(user=bob, name="Bob's peanut butter", calories=600, barcode="5000112637922")

    assert food_search(user=alice, query="0123456789012") == [product]
    assert food_search(user=alice, query=" 0123456789012 ")[0].score == 1.0
    assert food_search(user=alice, query="5000112637922") == []  # bob's own, not shared
    assert food_search(user=alice, query="99999999") == []


# --- the database side ---------------------------------------------------------------------------


def sql(query: str, *params):
    with connection.cursor() as cursor:
        cursor.execute(query, params)
        return cursor.fetchone()[0]


@pytest.mark.parametrize(
    ("name", "key"),
    [
        ("Egg, whole, raw, fresh", "egg"),
        ("Bananas, raw", "banana"),
        (
            "Chicken, broilers or fryers, breast, meat only, cooked, roasted",
            "breast chicken meat roast",
        ),
        ("Egg, whole, cooked, hard-boiled", "boil egg hard"),
    ],
)
def test_the_search_key_keeps_what_the_food_is(db, name, key):
    assert sql("SELECT food_search_key(%s)", name) == key


def test_the_length_tag_ignores_numbers_letters_and_fortification(db):
    # Kept in step with nutrition.search.TRIVIAL_STEMS.
    trivial = sorted(search.TRIVIAL_STEMS)
    assert sql("SELECT food_search_length(%s::text[])", trivial) == 0
    assert sql("SELECT food_search_length(%s::text[])", ["25", "3", "d", "milk"]) == 1


def test_the_vocabulary_learns_words_from_every_way_foods_are_written(alice):
    catalog_food("Kohlrabi, raw", 27)
    food = food_create_custom(user=alice, name="Quokka bites", calories=1)
    food_update_custom(user=alice, food_id=food.id, name="Wombat bites")

    words = {
        w
        for (w,) in connection.cursor().execute(
            "SELECT word FROM food_search_words WHERE word = ANY(%s)",
            [["kohlrabi", "quokka", "wombat", "bite"]],
        )
    }
    assert words == {"kohlrabi", "quokka", "wombat", "bite"}


# --- the form a food is eaten in -----------------------------------------------------------------

FORMS = [
    ("Pasta, dry, enriched", "Cereal Grains and Pasta"),
    ("Pasta, cooked, enriched, without added salt", "Cereal Grains and Pasta"),
    ("Pasta mix, Italian lasagna, unprepared", "Meals, Entrees, and Side Dishes"),
    ("Snacks, shrimp cracker", "Snacks"),
    ("Crustaceans, shrimp, raw (not previously frozen)", "Finfish and Shellfish Products"),
    ("Crustaceans, shrimp, cooked (not previously frozen)", "Finfish and Shellfish Products"),
    ("Potatoes, raw, skin", "Vegetables and Vegetable Products"),
    ("Potato flour", "Vegetables and Vegetable Products"),
    ("Potatoes, baked, flesh and skin, without salt", "Vegetables and Vegetable Products"),
    ("Fish, salmon, chum, cooked, dry heat", "Finfish and Shellfish Products"),
    ("Fish, salmon, Atlantic, farmed, cooked, dry heat", "Finfish and Shellfish Products"),
    ("Fish, salmon, Atlantic, farmed, raw", "Finfish and Shellfish Products"),
    ("Beverages, coffee, brewed, prepared with tap water", "Beverages"),
    ("Beverages, coffee substitute, cereal grain beverage, powder, prepared with whole milk", ""),
    ("Beverages, coffee, ready to drink, milk based, sweetened", "Beverages"),
    ("Candies, milk chocolate coated coffee beans", "Sweets"),
    ("Alcoholic beverage, wine, table, white, late harvest", "Beverages"),
    ("Beverages, carbonated, cola, regular", "Beverages"),
    ("Nuts, almonds", "Nut and Seed Products"),
    ("Nuts, almond paste", "Nut and Seed Products"),
    ("Babyfood, cereal, oatmeal, dry fortified", "Baby Foods"),
    ("Turkey, heart, all classes, cooked, simmered", "Poultry Products"),
    ("Turkey, whole, meat only, cooked, roasted", "Poultry Products"),
]


@pytest.fixture
def forms(db):
    return {name: catalog_food(name, 100, food_group=group) for name, group in FORMS}


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("pasta", "Pasta, cooked, enriched, without added salt"),
        ("shrimp", "Crustaceans, shrimp, cooked (not previously frozen)"),
        ("potato", "Potatoes, baked, flesh and skin, without salt"),
        ("turkey", "Turkey, whole, meat only, cooked, roasted"),
    ],
)
def test_a_food_people_eat_cooked_is_found_cooked_not_raw_dry_or_as_a_snack(
    alice, forms, query, expected
):
    assert food_find_best(user=alice, name=query).name == expected


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("raw shrimp", "Crustaceans, shrimp, raw (not previously frozen)"),
        ("dry pasta", "Pasta, dry, enriched"),
        ("raw salmon", "Fish, salmon, Atlantic, farmed, raw"),
        ("shrimp crackers", "Snacks, shrimp cracker"),
    ],
)
def test_words_that_ask_for_a_form_or_a_snack_get_it(alice, forms, query, expected):
    assert first(alice, query) == expected


def test_an_everyday_word_logs_the_common_food_of_its_kind(alice, forms):
    # Chum and farmed Atlantic salmon read alike; the everyday table knows which one is usual.
    assert first(alice, "salmon") == "Fish, salmon, Atlantic, farmed, cooked, dry heat"
    assert first(alice, "coffee") == "Beverages, coffee, brewed, prepared with tap water"


def test_the_users_own_food_comes_before_the_everyday_choice(alice, forms):
    mine = food_create_custom(user=alice, name="Salmon", serving_size=1, serving_unit="fillet")

    assert food_find_best(user=alice, name="salmon") == mine


def test_what_comes_with_a_food_does_not_replace_it(alice, forms):
    assert first(alice, "coffee with milk") == "Beverages, coffee, brewed, prepared with tap water"


def test_a_drink_the_catalog_lacks_is_offered_from_what_it_is_made_of_but_not_logged(alice, forms):
    found = names(alice, "latte")

    assert found[0] == "Beverages, coffee, ready to drink, milk based, sweetened"
    assert "Alcoholic beverage, wine, table, white, late harvest" not in found
    assert food_find_best(user=alice, name="latte") is None


def test_a_name_for_a_food_is_not_taken_for_a_typo_of_another(alice, forms):
    assert first(alice, "coke") == "Beverages, carbonated, cola, regular"


def test_a_label_before_the_food_and_organs_after_it_are_read_as_such(alice, forms):
    assert first(alice, "almonds") == "Nuts, almonds"
    assert names(alice, "turkey")[-1] == "Turkey, heart, all classes, cooked, simmered"


def test_two_kinds_of_food_said_together_name_one_dish_that_is_logged(alice, db):
    catalog_food("Fish sandwich", 240, servings=[(1, "sandwich", 210)], source=FNDDS_SOURCE)
    catalog_food(
        "Fish sandwich, grilled", 190, servings=[(1, "sandwich", 210)], source=FNDDS_SOURCE
    )
    catalog_food("Fish, cod, cooked, dry heat", 105)

    assert food_find_best(user=alice, name="fish sandwich").name == "Fish sandwich"
    assert food_find_best(user=alice, name="fish") is None  # a kind of food: options


def test_a_survey_dish_without_its_usual_part_comes_after_its_twin_with_it(alice, db):
    bowls = [(1, "cup", 245), (1, "bowl", 370)]
    survey = {"source": FNDDS_SOURCE, "food_group": "Ramen and Asian broth-based soups"}
    catalog_food("Soup, pho, no meat", 37, servings=bowls, **survey)
    catalog_food("Soup, pho, with meat", 77, servings=bowls, **survey)

    assert food_find_best(user=alice, name="pho").name == "Soup, pho, with meat"
    assert food_search(user=alice, query="pho no meat")[0].name == "Soup, pho, no meat"


def test_a_brand_the_survey_names_in_brackets_is_that_product(alice, db):
    snack = {"source": FNDDS_SOURCE, "servings": [(1, "bag", 28)]}
    catalog_food("Cheese flavored corn snacks (Cheetos)", 536, **snack)
    catalog_food("Corn chips, plain (Fritos)", 547, **snack)
    catalog_food("Big Mac (McDonalds)", 257, source=FNDDS_SOURCE, servings=[(1, "sandwich", 219)])

    assert food_find_best(user=alice, name="cheetos").name.endswith("(Cheetos)")
    assert food_find_best(user=alice, name="mcdonalds") is None  # a restaurant, not one dish
