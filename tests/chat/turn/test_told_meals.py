"""Meals told in sentences, as people describe them, against the real catalog (SR28 and the survey
foods): each food named is logged, what only frames the meal never is, and a survey food takes
the amount said (grams, a can, a medium one) rather than a blind 100 g."""

from decimal import Decimal

import pytest

from chat.turn.coach import handle_turn
from exercise.models import ExerciseEntry
from measurements.models import CheckInMeasurement
from nutrition.models import FoodEntry
from nutrition.services import entry_nutrients
from tests.nutrition.test_search_catalog import sr28  # noqa: F401  (the real catalog, once)


@pytest.fixture
def catalog(sr28, db):  # noqa: F811
    return sr28


def logged(user) -> list[tuple[str, Decimal, str]]:
    """(food name, kcal, meal) of every entry the user has."""
    return sorted(
        (entry.food.name, entry_nutrients(entry)["calories"], entry.meal_type)
        for entry in FoodEntry.objects.for_user(user).select_related("food")
    )


def test_a_fruit_told_in_a_sentence_is_logged_and_the_framing_is_not(alice, catalog):
    handle_turn(alice, "As a refreshing snack, I savored a single raw orange.")

    [(name, kcal, meal)] = logged(alice)
    assert name.startswith("Orange")
    assert 40 <= kcal <= 110
    assert meal == "snack"


def test_words_that_describe_a_meal_are_never_foods(alice, catalog):
    handle_turn(
        alice,
        "I treated myself to a can of ginger ale for a quick snack, savoring its sweet and "
        "spicy flavor.",
    )

    [(name, kcal, _)] = logged(alice)
    assert "ginger ale" in name.lower()  # no oats for "quick", no chocolate for "sweet"
    assert 100 <= kcal <= 180


def test_each_food_of_a_told_breakfast_is_logged(alice, catalog):
    handle_turn(
        alice, "For breakfast, I savored a large croissant paired with a cup of brewed coffee."
    )

    names = [name for name, _, meal in logged(alice) if meal == "breakfast"]
    assert len(names) == 2
    assert any(name.startswith("Croissant") for name in names)
    assert any("coffee" in name.lower() for name in names)


def test_a_sentence_that_names_no_food_saves_nothing(alice, catalog):
    handle_turn(
        alice, "I had a really satisfying lunch today and it kept me full for the whole afternoon."
    )

    assert logged(alice) == []


def test_a_survey_food_takes_the_grams_said(alice, catalog):
    handle_turn(alice, "For my snack, I indulged in a delicious 75g vanilla ice cream bar.")

    [(name, kcal, _)] = logged(alice)
    assert "ice cream bar" in name.lower()
    assert 150 <= kcal <= 300  # 75 g, not a blind 100 g serving or a whole box


def test_a_survey_food_by_the_piece_weighs_what_its_kin_do(alice, catalog):
    handle_turn(alice, "This morning I grabbed a medium fruit muffin on my way out the door.")

    [(name, kcal, _)] = logged(alice)
    assert name.lower().startswith("muffin")
    assert 300 <= kcal <= 520  # a medium muffin is about 113 g, not 100 g


def test_a_dish_the_catalog_names_whole_is_one_entry(alice, catalog):
    handle_turn(alice, "Supper was a 300 g plate of chicken or turkey with rice, nothing else.")

    [(name, kcal, meal)] = logged(alice)  # not rice, chicken and turkey apart
    assert "rice" in name.lower() and "chicken" in name.lower()
    assert 300 <= kcal <= 700
    assert meal == "dinner"


def test_a_word_describing_a_food_before_its_grams_is_no_food(alice, catalog):
    handle_turn(alice, "I grabbed a crisp 180g raw apple on my way out the door.")

    [(name, kcal, _)] = logged(alice)
    assert name.lower().startswith("apple")  # no apple crisp, the dessert
    assert 70 <= kcal <= 130


def test_cola_told_in_a_sentence_is_the_soft_drink(alice, catalog):
    handle_turn(alice, "Lunch came with a 355 ml can of cola that I drank ice cold.")

    [(name, kcal, _)] = logged(alice)
    assert "cola" in name.lower()
    assert "whiskey" not in name.lower() and "vodka" not in name.lower()
    assert 120 <= kcal <= 180


def test_words_that_only_describe_name_no_food(alice, catalog):
    handle_turn(
        alice, "We stopped at the bakery and I finished a sweet and crunchy treat on the way home."
    )

    assert logged(alice) == []  # no sweet potato, no chocolate


def test_a_hamburger_with_its_patty_on_a_bun_is_one_burger(alice, catalog):
    handle_turn(alice, "I ate a hamburger with a small patty on a white bun for lunch today.")

    [(name, kcal, meal)] = logged(alice)
    assert name.lower().startswith("hamburger")
    assert 200 <= kcal <= 550  # one burger, not a burger, a patty and a bun
    assert meal == "lunch"


def test_a_dish_is_not_chosen_for_words_it_leaves_out(alice, catalog):
    handle_turn(alice, "Dinner was a bowl of rice with some grilled chicken on the side.")

    names = [name.lower() for name, _, _ in logged(alice)]
    assert len(names) == 2  # no "Rice, fried, with chicken": the chicken was grilled
    assert any(name.startswith("rice") for name in names)
    assert any("chicken" in name and "grilled" in name for name in names)


def test_a_frankfurter_on_a_bun_is_one_hot_dog_sandwich(alice, catalog):
    handle_turn(alice, "For lunch I had a frankfurter on a white bun with a packet of mustard.")

    names = [name for name, _, _ in logged(alice)]
    assert len(names) == 2
    assert any(name.startswith("Hot dog sandwich") for name in names)  # no hamburger for the bun
    [(_, kcal, _)] = [row for row in logged(alice) if row[0].startswith("Hot dog")]
    assert 200 <= kcal <= 330  # a bun and a frankfurter, about 100 g


def test_what_a_food_weighs_is_no_body_weight(alice, catalog):
    response = handle_turn(alice, "During dinner I enjoyed a lollipop, weighing half an ounce.")

    assert not CheckInMeasurement.objects.for_user(alice).exists()
    assert "plausible" not in response.message  # never "0.5 kg is outside the range"


def test_a_burst_of_flavor_is_no_food(alice, catalog):
    handle_turn(
        alice, "For a quick snack, I had a cup of juicy raw blueberries for a burst of flavor."
    )

    [(name, kcal, _)] = logged(alice)
    assert name.startswith("Blueberries")  # no "Flavored pasta"
    assert 60 <= kcal <= 110


def test_what_a_sandwich_is_filled_with_chooses_the_sandwich(alice, catalog):
    handle_turn(alice, "For lunch I had a sandwich loaded with ham, cheese, and fresh lettuce.")

    [(name, _, meal)] = logged(alice)
    assert name.startswith("Ham sandwich") and "cheese" in name  # not a plain cheese sandwich
    assert meal == "lunch"


def test_a_meal_word_that_names_the_food_is_part_of_it(alice, catalog):
    handle_turn(alice, "I grabbed a chocolate snack cake and a breakfast bar on my way to class.")

    names = [name for name, _, _ in logged(alice)]
    assert len(names) == 2
    assert any(name.startswith("Snack cake") or "snack cake" in name.lower() for name in names)
    assert any(name.startswith("Breakfast bar") for name in names)


def test_two_words_the_catalog_writes_as_one_name_its_food(alice, catalog):
    handle_turn(alice, "With breakfast I drank a tall glass of soy milk and ate a banana.")

    names = [name for name, _, _ in logged(alice)]
    assert len(names) == 2
    assert any(name.startswith("Soymilk") for name in names)  # not cow's milk


def test_the_roll_a_sub_is_served_on_is_the_subs_own(alice, catalog):
    handle_turn(
        alice,
        "For lunch I enjoyed a steak and cheese submarine sandwich with fried onions, served "
        "on a soft roll.",
    )

    [(name, _, _)] = logged(alice)
    assert "submarine sandwich, steak and cheese" in name  # and no dinner roll beside it


def test_a_root_beer_is_no_beer(alice, catalog):
    handle_turn(alice, "With my burger I drank a refreshing root beer in a can, nice and cold.")

    names = [name for name, _, _ in logged(alice)]
    assert any("root beer" in name.lower() for name in names)
    assert not any("alcoholic" in name.lower() for name in names)


def test_a_bag_of_chips_with_a_meal_is_a_single_serve_bag(alice, catalog):
    handle_turn(alice, "For my snack I munched through a medium bag of barbecue potato chips.")

    [(name, kcal, _)] = logged(alice)
    assert "potato chips" in name.lower()
    assert 150 <= kcal <= 300  # 1.5 oz, never SR28's 7 oz family bag (970 kcal)


def test_an_activity_that_says_when_a_food_was_eaten_is_no_workout(alice, catalog):
    handle_turn(alice, "I drank a tall glass of chocolate milk after soccer practice.")

    [(name, _, _)] = logged(alice)
    assert "chocolate" in name.lower()
    assert not ExerciseEntry.objects.for_user(alice).exists()  # no "soccer, 30 minutes"


def test_a_time_of_day_is_no_amount(alice, catalog):
    handle_turn(alice, "I ate a banana and a tablespoon of peanut butter before my 6am spin class.")

    names = sorted(name for name, _, _ in logged(alice))
    assert len(names) == 2  # no six of anything for "6am"
    assert names[0].startswith("Bananas") and names[1].startswith("Peanut butter")


def test_a_food_eaten_somewhere_is_the_food_not_the_place(alice, catalog):
    handle_turn(alice, "My breakfast was a hard boiled egg and a medium orange eaten in the car.")

    names = sorted(name for name, _, _ in logged(alice))
    assert len(names) == 2
    assert names[0].startswith("Egg") and names[1].startswith("Orange")


def test_what_a_food_comes_without_is_never_the_food(alice, catalog):
    handle_turn(alice, "For dinner I had 120g of baked chicken breast without the skin.")

    [(name, kcal, _)] = logged(alice)
    assert name.lower().startswith("chicken") and name != "Chicken skin"
    assert 150 <= kcal <= 260  # 120 g of breast meat, not 540 kcal of skin
