"""chat.turn.answers: the offline engine's answers about the user's own day, week and foods, read
from their own diary in Postgres, and which questions it leaves to a model."""

import datetime as dt
from decimal import Decimal

import pytest

from chat.turn.answers import (
    NO_COACHING,
    answer_question,
    data_answer,
    food_fact,
    search_answer,
    wants_advice,
)
from chat.turn.coach import handle_turn
from nutrition.models import FoodEntry, WaterIntake
from nutrition.services import water_add
from sparky.dates import today_for
from tests.factories import CheckInFactory, ExerciseEntryFactory, FoodEntryFactory, UserGoalFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def day(alice):
    return today_for(alice)


def test_the_days_calories_are_the_users_own_against_their_goal(alice, bob, catalog, day):
    UserGoalFactory(user=alice, calories=2000)
    FoodEntryFactory(user=alice, food=catalog["egg"], quantity=2)  # 2 large: 143 kcal
    FoodEntryFactory(user=bob, food=catalog["bread"], quantity=500, unit="g")

    answer = answer_question(user=alice, text="How many calories did I eat today?")

    assert (
        answer == f"Today ({day.isoformat()}): 143 kcal eaten; goal 2,000 (7% eaten), 1,857 left."
    )


def test_burned_calories_are_counted_in_what_is_left(alice, catalog, day):
    UserGoalFactory(user=alice, calories=2000)
    FoodEntryFactory(user=alice, food=catalog["egg"], quantity=2)
    ExerciseEntryFactory(user=alice, exercise=catalog["running"], calories_burned=300)

    answer = answer_question(user=alice, text="how many calories today?")

    assert "143 kcal eaten, 300 burned; goal 2,000 (7% eaten), 2,157 left" in answer


def test_a_day_over_its_goal_says_over_by_never_a_negative_left(alice, catalog, day):
    UserGoalFactory(user=alice, calories=100)
    FoodEntryFactory(user=alice, food=catalog["egg"], quantity=2)

    answer = answer_question(user=alice, text="how many calories today?")

    assert "goal 100 (143% eaten), over by 43" in answer
    assert "-43" not in answer


def test_yesterday_is_read_when_the_question_says_yesterday(alice, catalog, day):
    FoodEntryFactory(user=alice, food=catalog["bananas"], entry_date=day - dt.timedelta(days=1))

    answer = answer_question(user=alice, text="how much protein did I have yesterday?")

    yesterday = (day - dt.timedelta(days=1)).isoformat()
    assert answer == f"Yesterday ({yesterday}): protein 1.3 g."  # one medium banana, 118 g


def test_what_was_eaten_is_listed_meal_by_meal(alice, catalog, day):
    FoodEntryFactory(user=alice, food=catalog["egg"], quantity=2, meal_type="breakfast")
    FoodEntryFactory(user=alice, food=catalog["bananas"], quantity=1, meal_type="snack")

    everything = answer_question(user=alice, text="what did I eat today?")
    breakfast = answer_question(user=alice, text="what did I have for breakfast?")

    assert everything.startswith(f"Today ({day.isoformat()}): breakfast: 2 ")
    assert "snack: 1 " in everything and "In all: 248 kcal eaten." in everything
    assert "breakfast:" in breakfast and "snack:" not in breakfast
    assert "(143 kcal)" in breakfast


def test_an_empty_day_says_nothing_is_logged(alice, bob, catalog, day):
    FoodEntryFactory(user=bob, food=catalog["egg"], entry_date=day - dt.timedelta(days=1))

    assert answer_question(user=alice, text="what did I eat today") == (
        f"Today ({day.isoformat()}): nothing logged yet."
    )
    assert answer_question(user=alice, text="what did I eat yesterday").endswith(
        ": nothing logged."
    )
    assert answer_question(user=alice, text="what did I have for dinner?").endswith(
        "nothing logged for dinner."
    )


def test_water_exercise_and_weight_are_read_from_the_diary(alice, catalog, day):
    water_add(user=alice, glasses=3)
    ExerciseEntryFactory(user=alice, exercise=catalog["walking"], duration_minutes=40)
    CheckInFactory(user=alice, weight="72.40")

    water = answer_question(user=alice, text="did I drink enough water today?")
    workouts = answer_question(user=alice, text="how much exercise today?")
    weight = answer_question(user=alice, text="what's my weight today?")

    assert water == f"Today ({day.isoformat()}): 3 glasses of water (your goal is 8, 5 to go)."
    assert "1 workouts, 40 min, 201 kcal" in workouts
    assert weight == f"Today ({day.isoformat()}): weight 72.4 kg."


def test_what_is_left_of_a_goal_and_how_the_weight_moved_are_said(alice, catalog, day):
    CheckInFactory(user=alice, weight="90.50", entry_date=day - dt.timedelta(days=1))
    CheckInFactory(user=alice, weight="90.10", entry_date=day)
    water_add(user=alice, glasses=5)

    lost = answer_question(user=alice, text="how much weight have i lost")
    water = answer_question(user=alice, text="how many more glasses of water to hit my goal")

    assert "weight 90.1 kg, down 0.4 kg from 90.5 kg on" in lost
    assert "3 to go" in water


def test_a_meal_asked_about_is_answered_with_its_items_and_calories(alice, catalog, day):
    handle_turn(alice, "2 eggs for breakfast")
    handle_turn(alice, "a banana for lunch")

    breakfast = answer_question(user=alice, text="how many calories was my breakfast")
    last = answer_question(user=alice, text="what was my last meal")

    assert "143 kcal for breakfast" in breakfast and "anana" not in breakfast
    assert "105 kcal for lunch" in last


def test_no_weigh_in_is_said_plainly(alice, day):
    assert answer_question(user=alice, text="what is my weight?").endswith("no weigh-in recorded.")


def test_a_question_about_a_food_gives_its_helping_and_logs_nothing(alice, catalog):
    answer = data_answer(user=alice, text="how many calories in a banana?")

    assert answer.startswith("1 medium")
    assert "Banana has about 105 kcal" in answer
    assert "Nothing was logged" in answer
    assert not FoodEntry.objects.exists()


def test_a_food_question_with_an_amount_answers_for_that_amount_and_the_nutrient_asked(
    alice, catalog
):
    one = food_fact(alice, "how many carbs in a banana?")
    three = food_fact(alice, "how many carbs are in 3 bananas?")

    assert one.startswith("1 medium Banana has about 27 g of carbs")
    assert three.startswith("3 medium Banana has about 81 g of carbs")
    assert not FoodEntry.objects.exists()


def test_a_food_the_catalog_lacks_is_said_plainly_never_a_neighbours_numbers(alice, catalog):
    answer = food_fact(alice, "calories in a zorblax pie?")

    assert "couldn't find 'a zorblax pie'" in answer and "kcal" not in answer


def test_a_catalog_search_lists_what_it_found_and_logs_nothing(alice, catalog):
    answer = search_answer(alice, "search for banana")

    assert "1. Banana: 89 kcal per 100 g" in answer
    assert not FoodEntry.objects.exists()


def test_advice_is_left_to_a_model(alice, catalog):
    assert wants_advice("should I eat more protein?")
    assert data_answer(user=alice, text="should I eat more protein?") is None
    # Asked of the offline engine anyway, it says it cannot coach and gives the day's numbers.
    answer = answer_question(user=alice, text="any tips for eating healthier?")
    assert answer.startswith(NO_COACHING)
    assert "0 kcal eaten" in answer


@pytest.mark.parametrize("text", ["hello there", "what's the capital of France?", "tell me a joke"])
def test_anything_but_the_users_numbers_is_not_answered_offline(alice, text):
    assert data_answer(user=alice, text=text) is None


def test_the_week_is_summed_from_the_weekly_report(alice, catalog, day):
    for days_ago in (0, 2):
        FoodEntryFactory(
            user=alice,
            food=catalog["bread"],
            quantity=100,
            unit="g",
            entry_date=day - dt.timedelta(days=days_ago),
        )
    ExerciseEntryFactory(
        user=alice, exercise=catalog["running"], duration_minutes=30, calories_burned=350
    )
    water_add(user=alice, glasses=4)

    answer = data_answer(user=alice, text="how did my week go?")

    assert answer.startswith("This week, ")
    assert "food logged on 2 of 7 days, average 306 kcal" in answer
    assert "30 min of exercise, 350 kcal burned" in answer
    assert answer.endswith("4 glasses of water in all.")


@pytest.mark.parametrize(
    ("text", "looked_for"),
    [
        ("serch for spinach", "spinach"),
        ("do u have almond milk", "almond"),
        ("what cereals do you have", "ereal"),
        ("which cheeses can i pick from", "heese"),
        ("is granola in there? search it", "ranola"),
    ],
)
def test_a_search_said_any_way_looks_in_the_catalog_for_what_it_names(
    alice, catalog, text, looked_for
):
    response = handle_turn(alice, text)

    assert response.action == "answered"  # what it found, or that nothing matches those words
    assert "food catalog" in response.message and looked_for in response.message
    assert not FoodEntry.objects.for_user(alice).exists()


@pytest.mark.parametrize(
    "text",
    [
        "banana calories",
        "a banana macros",
        "how many calroies in a banana",  # a slip of the keyboard
        "hw many calories in a banana?",  # chat shorthand
    ],
)
def test_a_food_named_then_what_is_asked_of_it_is_a_question_not_a_meal(alice, catalog, text):
    response = handle_turn(alice, text)

    assert response.action == "answered"
    assert "1 medium Banana" in response.message and "105 kcal" in response.message
    assert not FoodEntry.objects.for_user(alice).exists()


def test_a_wish_with_an_amount_writes_nothing(alice, catalog):
    response = handle_turn(alice, "i'd like to drink 3 liters of water a day")

    assert not WaterIntake.objects.for_user(alice).exists()
    assert response.action != "logged" and not response.entries


def test_an_amount_said_after_the_food_is_the_amount_asked_about(alice, catalog):
    answer = food_fact(alice, "how many carbs in a banana, like 2 bananas")

    assert answer.startswith("2 medium Banana has about 54 g of carbs")


def test_a_check_in_field_asked_about_this_week_is_read_day_by_day(alice, bob, day):
    CheckInFactory(user=alice, entry_date=day - dt.timedelta(days=2), waist=Decimal("85"))
    CheckInFactory(user=alice, entry_date=day, waist=Decimal("84.5"))
    CheckInFactory(user=alice, entry_date=day - dt.timedelta(days=9), waist=Decimal("90"))
    CheckInFactory(user=bob, entry_date=day, waist=Decimal("70"))

    answer = data_answer(user=alice, text="what was my waist this week?")

    earlier = day - dt.timedelta(days=2)
    assert answer == (
        f"This week ({day - dt.timedelta(days=6):%-d %b} to {day:%-d %b}): waist 85 cm on "
        f"{earlier:%a %-d %b}, 84.5 cm on {day:%a %-d %b} (down 0.5 cm)."
    )


def test_a_check_in_field_not_recorded_today_is_said_to_be_missing(alice, day):
    CheckInFactory(user=alice, entry_date=day - dt.timedelta(days=1), hips=Decimal("99"))

    answer = data_answer(user=alice, text="what are my hips today?")

    assert answer == f"Today ({day.isoformat()}): no hips recorded."
