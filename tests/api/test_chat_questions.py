"""Questions through the chat API, offline: each domain answers a search, a detail and a history
question from its own data (the exercise catalog and the user's workouts, their body's readings,
their water, their goals, the food catalog and what they ate), never another domain's catalog
or today's food totals, and nothing is written."""

import datetime as dt
from decimal import Decimal

import pytest

from exercise.models import ExerciseEntry
from measurements.models import CheckInMeasurement
from nutrition.models import FoodEntry, WaterIntake
from sparky.dates import today_for
from tests.api.asking import ask
from tests.factories import (
    CheckInFactory,
    ExerciseEntryFactory,
    ExerciseFactory,
    FoodEntryFactory,
    FoodFactory,
    FoodVariantFactory,
    UserGoalFactory,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def gym(catalog):
    """Catalog exercises described as the public catalog describes them, by muscle group."""
    return {
        "press": ExerciseFactory(
            name="Bench Press", category="strength",
            description="Lie on a bench and press the bar up.\n\nMuscle group: Chest. 5.0 MET.",
        ),
        "squat": ExerciseFactory(
            name="Back Squat", category="strength",
            description="Sit back and stand up with the bar.\n\nMuscle group: Legs. 5.0 MET.",
        ),
        "burpee": ExerciseFactory(
            name="Burpees", met=Decimal("8.0"),
            description="Jump, drop to the floor, push up, jump again.\n\nMuscle group: Chest.",
        ),
    }  # fmt: skip


def test_an_exercise_search_lists_exercises_never_foods(alice_api, gym):
    reply = ask(alice_api, "search for chest exercises")

    assert "Bench Press" in reply and "Burpees" in reply
    assert "Back Squat" not in reply
    assert "kcal in 30 min" in reply
    assert "chestnut" not in reply.lower() and "food catalog" not in reply


def test_an_exercise_is_described_with_what_it_burns_for_the_user(alice_api, alice, gym, day):
    CheckInFactory(user=alice, entry_date=day, weight=Decimal("100"))

    reply = ask(alice_api, "what is a burpee?")

    # 8 MET x 100 kg x half an hour
    assert "Burpees" in reply and "chest" in reply and "about 400 kcal in 30 min" in reply


def test_how_much_an_activity_burns_is_answered_from_the_exercise_catalog(alice_api, catalog):
    reply = ask(alice_api, "how many calories does swimming burn?")

    assert "swimming" in reply.lower() and "kcal in 30 min" in reply
    assert "eaten" not in reply


def test_the_workouts_of_today_and_of_the_week_are_the_users_own(
    alice_api, alice, bob, catalog, day
):
    ExerciseEntryFactory(user=alice, exercise=catalog["running"], duration_minutes=30)
    ExerciseEntryFactory(
        user=alice, exercise=catalog["walking"], duration_minutes=45,
        entry_date=day - dt.timedelta(days=3),
    )  # fmt: skip
    ExerciseEntryFactory(user=bob, exercise=catalog["swimming"], duration_minutes=60)
    FoodEntryFactory(user=alice, food=catalog["chicken"])

    today = ask(alice_api, "which workouts did I do today?")
    week = ask(alice_api, "how many minutes did I exercise this week?")

    assert "running 30 min" in today and "walking" not in today
    assert "chicken" not in today.lower() and "swimming" not in today.lower()
    assert "running 30 min" in week and "walking 45 min" in week and "75 min" in week
    assert ExerciseEntry.objects.for_user(alice).count() == 2


def test_the_weight_history_and_the_latest_waist_come_from_the_check_ins(
    alice_api, alice, bob, day
):
    CheckInFactory(user=alice, entry_date=day - dt.timedelta(days=5), weight=Decimal("82.0"))
    CheckInFactory(user=alice, entry_date=day - dt.timedelta(days=1), weight=Decimal("81.4"))
    CheckInFactory(
        user=alice, entry_date=day - dt.timedelta(days=9), weight=None, waist=Decimal("84")
    )
    CheckInFactory(user=bob, entry_date=day, weight=Decimal("60"))

    history = ask(alice_api, "how has my weight changed this week?")
    waist = ask(alice_api, "what was my waist last time?")

    assert "82 kg" in history and "81.4 kg" in history and "down 0.6 kg" in history
    assert "60" not in history
    assert "waist 84 cm" in waist
    assert CheckInMeasurement.objects.for_user(alice).count() == 3


def test_the_water_of_the_week_is_summed_from_the_users_days(alice_api, alice, day):
    WaterIntake.objects.create(user=alice, entry_date=day, glasses_consumed=3)
    WaterIntake.objects.create(
        user=alice, entry_date=day - dt.timedelta(days=2), glasses_consumed=5
    )

    reply = ask(alice_api, "how much water have I had this week?")

    assert "8 glasses of water in all" in reply


def test_the_goals_are_listed_with_the_days_progress(alice_api, alice, catalog):
    UserGoalFactory(user=alice, calories=1800, protein=120)
    FoodEntryFactory(user=alice, food=catalog["egg"], quantity=2)

    reply = ask(alice_api, "what are my goals?")

    assert "goal 1,800" in reply and "protein" in reply and "of 120" in reply


def test_advice_is_never_answered_with_a_weigh_in_or_an_exercise(alice_api, catalog):
    reply = ask(alice_api, "what's a good breakfast for losing weight?")

    assert "weigh-in" not in reply and "kcal in 30 min" not in reply
    assert "Advice needs an AI service" in reply


def test_food_questions_still_answer_from_the_food_catalog(alice_api, alice, catalog):
    FoodEntryFactory(user=alice, food=catalog["bananas"], meal_type="breakfast")

    search = ask(alice_api, "find me some yogurt")
    fact = ask(alice_api, "how many calories in a banana?")
    eaten = ask(alice_api, "what did I eat for breakfast today?")

    assert "food catalog" in search and "yogurt" in search.lower()
    assert "kcal" in fact and "Nothing was logged" in fact
    assert "banana" in eaten.lower()
    assert FoodEntry.objects.for_user(alice).count() == 1


def test_a_burn_is_told_for_the_time_asked(alice_api, catalog):
    hour = ask(alice_api, "if i swim for an hour how much would i burn roughly")
    half = ask(alice_api, "how many cals does 30 min of swimming burn")

    assert "in an hour" in hour and "in 30 min" in half
    kcal = [int(next(w for w in r.split("about ")[1].split() if w.isdigit())) for r in (hour, half)]
    assert kcal[0] == 2 * kcal[1]


def test_foods_rich_in_a_nutrient_are_foods_with_the_most_of_it_for_their_calories(alice_api):
    lentils = FoodFactory(name="Lentils, mature seeds, cooked, boiled", food_group="Legumes")
    FoodVariantFactory(food=lentils, serving_unit="cup", calories=230, iron=Decimal("6.6"))
    steak = FoodFactory(name="Beef, steak, grilled", food_group="Beef Products")
    FoodVariantFactory(food=steak, serving_unit="steak", calories=540, iron=Decimal("4.8"))
    thyme = FoodFactory(name="Thyme, dried", food_group="Spices and Herbs")
    FoodVariantFactory(food=thyme, serving_unit="tbsp", calories=8, iron=Decimal("3.5"))

    reply = ask(alice_api, "what foods are high in iron?")

    assert reply.index("Lentils") < reply.index("steak")
    assert "Thyme" not in reply and "6.6 mg" in reply


def test_whether_the_user_gets_enough_of_a_nutrient_is_read_from_their_diary(alice_api, alice, day):
    liver = FoodFactory(name="Chicken liver, cooked", iron=Decimal("11.6"))
    FoodEntryFactory(user=alice, food=liver, quantity=1, unit="serving", entry_date=day)

    reply = ask(alice_api, "am I getting enough iron?")

    assert "iron" in reply and "mg" in reply and "Today" in reply


def test_exercises_are_searched_by_the_equipment_asked_for(alice_api, gym):
    ExerciseFactory(
        name="Dumbbell Fly", category="strength", description="With dumbbells. Muscle group: Chest."
    )

    reply = ask(alice_api, "any chest exercises i can do with just dumbbells")

    assert "Dumbbell Fly" in reply and "Bench Press" not in reply


def test_what_was_lost_since_yesterday_is_the_weights_change(alice_api, alice, day):
    CheckInFactory(user=alice, entry_date=day - dt.timedelta(days=1), weight=Decimal("90.4"))
    CheckInFactory(user=alice, entry_date=day, weight=Decimal("89.7"))

    reply = ask(alice_api, "did i lose anything since yesterday")

    assert "down 0.7 kg" in reply


@pytest.fixture
def kept(alice, catalog, gym, day):
    """A few days of one user's diary in every domain, and another user's beside it."""
    FoodEntryFactory(user=alice, food=catalog["egg"], quantity=2, meal_type="breakfast")
    ExerciseEntryFactory(user=alice, exercise=gym["squat"], duration_minutes=40)
    CheckInFactory(user=alice, weight=Decimal("80"), waist=Decimal("90"))
    CheckInFactory(
        user=alice, entry_date=day - dt.timedelta(days=3), weight=Decimal("81"), waist=None
    )
    WaterIntake.objects.create(user=alice, entry_date=day, glasses_consumed=3)
    WaterIntake.objects.create(
        user=alice, entry_date=day - dt.timedelta(days=1), glasses_consumed=4
    )
    UserGoalFactory(user=alice, calories=1900, protein=110)


# Each domain, asked a search, a detail and a history question: the words its reply must hold.
DOMAINS = [
    pytest.param("search for greek yogurt", ["yogurt"], id="food search"),
    pytest.param("how many calories in a banana", ["banana", "kcal"], id="food detail"),
    pytest.param("what did i eat today", ["egg"], id="food history"),
    pytest.param("exercises for legs", ["squat"], id="exercise search"),
    pytest.param("tell me about burpees", ["burpee"], id="exercise detail"),
    pytest.param("what workouts did i do this week", ["squat", "40"], id="exercise history"),
    pytest.param("show me my measurements", ["80", "90"], id="body search"),
    pytest.param("what's my waist", ["90"], id="body detail"),
    pytest.param("weight history", ["80", "81"], id="body history"),
    pytest.param("show my water", ["3"], id="water search"),
    pytest.param("how much water have i had today", ["3"], id="water detail"),
    pytest.param("water this week", ["7"], id="water history"),
    pytest.param("what goals do i have", ["1,900", "110"], id="goals search"),
    pytest.param("what's my protein goal", ["110"], id="goals detail"),
    pytest.param("how am i doing against my calorie goal this week", ["1,900"], id="goals history"),
]


@pytest.mark.parametrize(("question", "words"), DOMAINS)
def test_every_domain_answers_a_search_a_detail_and_a_history_from_its_own_data(
    alice_api, alice, bob, kept, question, words
):
    WaterIntake.objects.create(user=bob, entry_date=today_for(bob), glasses_consumed=9)

    reply = ask(alice_api, question).lower()

    assert all(word in reply for word in words), reply
    assert "9 glasses" not in reply  # never another user's
