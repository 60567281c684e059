"""Questions by class through the chat API, offline: a muscle asked for lists the exercises that
work it, an exercise's form or muscles describe it, the user's own records are read for the
period said ("since monday", "yday", "last month", "this week", "history") even without a verb,
a reading is told in the unit asked for, and a day's guide or the foods rich in a nutrient come
from the nutrition domain. A question never writes anything."""

import datetime as dt
from decimal import Decimal

import pytest

from diary.selectors import daily_summary
from exercise.models import ExerciseEntry
from nutrition.models import FoodEntry, WaterIntake
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


def _wger(name: str, group: str, muscles: str, also: str = "") -> object:
    also = f" Also works: {also}." if also else ""
    return ExerciseFactory(
        name=name,
        category="strength",
        description=f"{name} done slowly.\n\nMuscle group: {group}. Muscles: {muscles}.{also}",
    )


@pytest.fixture
def gym(catalog):
    return {
        "thrust": _wger("Hip Thrust", "Legs", "Gluteus maximus (Glutes)"),
        "lunge": _wger(
            "Barbell Lunges", "Legs", "Quadriceps femoris (Quads)", "Gluteus maximus (Glutes)"
        ),
        "extension": _wger("Triceps Extension", "Arms", "Triceps brachii (Triceps)"),
        "curl": _wger("Biceps Curl", "Arms", "Biceps brachii (Biceps)"),
        "press": _wger("Bench Press", "Chest", "Pectoralis major (Chest)"),
        "rdl": _wger("Romanian Deadlift", "Legs", "Biceps femoris (Hamstrings)"),
    }


@pytest.mark.parametrize(
    ("question", "listed", "not_listed"),
    [
        ("any good glute exercises?", "Hip Thrust", "Bench Press"),
        ("what can i do for my triceps", "Triceps Extension", "Biceps Curl"),
        ("how do i build my hamstrings", "Romanian Deadlift", "Triceps Extension"),
    ],
)
def test_a_muscle_asked_for_lists_the_exercises_that_work_it(
    alice_api, alice, gym, question, listed, not_listed
):
    reply = ask(alice_api, question)

    assert listed in reply and not_listed not in reply
    assert "eaten" not in reply
    assert ExerciseEntry.objects.for_user(alice).count() == 0


def test_the_glutes_list_puts_what_works_them_most_first(alice_api, gym):
    reply = ask(alice_api, "glute exercises")

    assert reply.index("Hip Thrust") < reply.index("Barbell Lunges")


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("how do you do a romanian deadlift", "Romanian Deadlift"),
        ("what muscles do lunges work", "mostly the quads, and the glutes too"),
        ("proper form for hip thrusts", "Hip Thrust"),
    ],
)
def test_an_exercises_form_or_muscles_describe_it_and_log_nothing(
    alice_api, alice, gym, question, said
):
    reply = ask(alice_api, question)

    assert said in reply and "kcal in 30 min" in reply
    assert ExerciseEntry.objects.for_user(alice).count() == 0


def test_a_wish_to_train_a_muscle_stays_a_wish(alice_api, alice, gym):
    response = alice_api.post(
        "/api/chat/", {"message": "i wanna build some muscle in my arms"}, format="json"
    )

    assert response.json()["entries"] == []
    assert "Triceps Extension" not in response.json()["message"]


def test_what_was_trained_since_monday_is_the_users_own_since_monday(
    alice_api, alice, bob, catalog, day
):
    ExerciseEntryFactory(user=alice, exercise=catalog["running"], duration_minutes=30)
    ExerciseEntryFactory(
        user=alice, exercise=catalog["walking"], duration_minutes=45,
        entry_date=day - dt.timedelta(days=8),
    )  # fmt: skip
    ExerciseEntryFactory(user=bob, exercise=catalog["swimming"], duration_minutes=60)

    reply = ask(alice_api, "what did i train since monday")

    assert reply.startswith("Since Monday") and "running 30 min" in reply
    assert "walking" not in reply and "swimming" not in reply.lower()


@pytest.mark.parametrize(
    "question", ["water since monday", "water intake for the week", "water over the last 7 days"]
)
def test_water_asked_without_a_verb_is_read_never_logged(alice_api, alice, day, question):
    WaterIntake.objects.create(user=alice, entry_date=day, glasses_consumed=3)

    reply = ask(alice_api, question)

    assert "3 glasses of water in all" in reply
    assert WaterIntake.objects.for_user(alice).get().glasses_consumed == 3


def test_a_check_in_reading_asked_for_a_period_without_a_verb_is_its_history(alice_api, alice, day):
    CheckInFactory(user=alice, entry_date=day - dt.timedelta(days=2), steps=11200)
    CheckInFactory(user=alice, entry_date=day - dt.timedelta(days=20), waist=Decimal("91.4"))

    steps = ask(alice_api, "steps this week?")
    waist = ask(alice_api, "waist measurement history pls")

    assert "11,200 steps" in steps
    assert "waist 91.4 cm" in waist


def test_what_was_eaten_yday_is_yesterdays_food(alice_api, alice, catalog, day):
    FoodEntryFactory(user=alice, food=catalog["egg"], entry_date=day - dt.timedelta(days=1))
    FoodEntryFactory(user=alice, food=catalog["bananas"], entry_date=day)

    reply = ask(alice_api, "wat did i eat yday, cant remember")

    assert reply.startswith("Yesterday") and "Egg" in reply and "Banana" not in reply


def test_what_was_eaten_last_month_is_the_calendar_month_before(alice_api, alice, catalog, day):
    last_month = day.replace(day=1) - dt.timedelta(days=1)
    FoodEntryFactory(user=alice, food=catalog["egg"], entry_date=last_month)
    FoodEntryFactory(user=alice, food=catalog["bananas"], entry_date=day)

    reply = ask(alice_api, "what did i eat last month?")

    assert f"Last month ({last_month:%B %Y})" in reply
    assert "Egg" in reply and "Banana" not in reply
    assert FoodEntry.objects.for_user(alice).count() == 2


def test_a_weight_last_month_is_never_todays(alice_api, alice, day):
    CheckInFactory(user=alice, entry_date=day, weight=Decimal("73.1"))

    reply = ask(alice_api, "what did i weigh last month")

    assert "no weight recorded" in reply and "73.1" not in reply


def test_the_weight_is_told_in_the_unit_asked_for(alice_api, alice, day):
    CheckInFactory(user=alice, entry_date=day, weight=Decimal("59.8"))

    reply = ask(alice_api, "how much do i weigh in pounds")

    assert "131.8 lb" in reply and "59.8" not in reply


def test_the_share_of_the_calorie_goal_eaten_is_said(alice_api, alice, catalog, day):
    UserGoalFactory(user=alice, calories=2000)
    FoodEntryFactory(user=alice, food=catalog["egg"], quantity=2)
    eaten = float(daily_summary(user=alice, day=day)["calories"]["consumed"])

    reply = ask(alice_api, "what % of my calories have i eaten")

    assert f"({round(eaten * 100 / 2000)}% eaten)" in reply


def test_how_much_water_a_day_is_answered_offline_in_plain_words(alice_api):
    reply = ask(alice_api, "how much water should i drink a day")

    assert "litres" in reply and "glasses" in reply
    assert "AI service" not in reply and "eaten" not in reply


def test_how_much_of_a_nutrient_a_day_is_the_users_reference(alice_api, alice):
    reply = ask(alice_api, "how much protein do i need a day?")
    UserGoalFactory(user=alice, protein=140)
    left = ask(alice_api, "how much more protein do i need today")

    assert "50 g of protein a day" in reply and "Daily Value" in reply
    assert "140" in left and "to go" in left and "a day" not in left


def test_foods_rich_in_a_nutrient_are_foods_people_know(alice_api, alice):
    for n in range(10):  # spinach, as the catalog knows it in many forms
        spinach = FoodFactory(name=f"Spinach, cooked, way {n}", food_group="Vegetables")
        FoodVariantFactory(food=spinach, serving_unit="cup", calories=41, iron=Decimal("6.4"))
    rarity = FoodFactory(name="Chrysanthemum, garland, boiled", food_group="Vegetables")
    FoodVariantFactory(food=rarity, serving_unit="cup", calories=20, iron=Decimal("3.7"))

    reply = ask(alice_api, "foods high in iron?")
    said_otherwise = ask(alice_api, "high iron foods")

    # the rarity has more iron for its calories, but the food people know comes first
    assert reply.index("Spinach") < reply.index("Chrysanthemum")
    assert "Spinach" in said_otherwise
    assert FoodEntry.objects.for_user(alice).count() == 0


def test_a_total_asked_without_a_verb_is_the_days_never_an_option(alice_api, alice, catalog):
    FoodEntryFactory(user=alice, food=catalog["egg"], quantity=2)
    ExerciseEntryFactory(user=alice, exercise=catalog["running"], duration_minutes=20)

    carbs = ask(alice_api, "total carbs today")
    minutes = ask(alice_api, "total workout time today pls")

    assert carbs.startswith("Today") and "carbs" in carbs
    assert "20 min" in minutes
    assert FoodEntry.objects.for_user(alice).count() == 1
    assert ExerciseEntry.objects.for_user(alice).count() == 1


def test_a_nutrient_over_several_days_is_the_days_average_against_the_reference(
    alice_api, alice, catalog, day
):
    FoodEntryFactory(user=alice, food=catalog["egg"], quantity=2, entry_date=day)

    reply = ask(alice_api, "protein this week")

    assert reply.startswith("This week") and "g of protein a day on average" in reply
