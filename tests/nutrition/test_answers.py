"""What Sparky says to "am I getting enough iron?": the amount, the reference and whose it is."""

import datetime as dt
from decimal import Decimal

import pytest

from diary.services import preferences_update
from nutrition.answers import intake_answer, intake_nutrient
from nutrition.services import food_create_custom, food_entry_create, goal_set
from sparky.dates import today_for
from tests.nutrition.conftest import catalog_food


@pytest.fixture
def lentils(db):
    return catalog_food(
        "Lentils, mature seeds, cooked, boiled",
        116,
        iron=Decimal("3.33"),
        sodium=Decimal("2"),
        micronutrients={"vitamin_b12": "0", "zinc": "1.27"},
    )


@pytest.mark.parametrize(
    ("question", "nutrient"),
    [
        ("am I getting enough iron?", "iron"),
        ("enough B12 this week?", "vitamin_b12"),
        ("how's my fibre", "dietary_fiber"),
        ("too much salt?", "sodium"),
        ("vitamin d", "vitamin_d"),
        ("folic acid", "folate"),
        ("how was my run", None),
    ],
)
def test_a_question_names_its_nutrient(question, nutrient):
    assert intake_nutrient(question) == nutrient


def test_iron_for_a_woman_of_30_is_read_against_18_mg(alice, lentils):
    preferences_update(user=alice, sex="female", birth_year=today_for(alice).year - 30)
    food_entry_create(user=alice, food=lentils, quantity=200, unit="g")
    today = today_for(alice)

    answer = intake_answer(alice, "iron", start=today, end=today, when="Today")

    assert answer == (
        "Today: 6.7 mg of iron, 37% of the 18 mg recommended for a woman of 30 "
        "(US Dietary Reference Intakes): 11.3 mg short."
    )


def test_over_a_week_it_is_the_average_of_the_logged_days(alice, lentils):
    today = today_for(alice)
    food_entry_create(user=alice, food=lentils, quantity=300, unit="g")
    food_entry_create(
        user=alice, food=lentils, quantity=300, unit="g", entry_date=today - dt.timedelta(days=2)
    )

    answer = intake_answer(
        alice, "iron", start=today - dt.timedelta(days=6), end=today, when="This week"
    )

    assert answer.startswith("This week: 10 mg of iron a day on average (2 days logged)")
    assert "of the 18 mg Daily Value: 8 mg short" in answer


def test_a_goal_and_a_limit_are_said_as_such(alice, lentils):
    goal_set(user=alice, sodium=1)
    food_entry_create(user=alice, food=lentils, quantity=100, unit="g")
    today = today_for(alice)

    answer = intake_answer(alice, "sodium", start=today, end=today, when="Today")

    assert answer == "Today: 2 mg of sodium, over your 1 mg limit by 1 mg."


def test_what_the_foods_do_not_record_is_unknown_not_short(alice, lentils):
    shake = food_create_custom(user=alice, name="Shake", calories=200, protein=30)
    food_entry_create(user=alice, food=lentils, quantity=100, unit="g")
    food_entry_create(user=alice, food=shake, quantity=1)
    today = today_for(alice)

    answer = intake_answer(alice, "zinc", start=today, end=today, when="Today")

    assert answer == (
        "Today: I can't tell how much zinc you got: only 50% of the foods you logged record it."
    )
    assert "no food logged" in intake_answer(
        alice, "zinc", start=today - dt.timedelta(days=9), end=today - dt.timedelta(days=8),
        when="Last week",
    )  # fmt: skip
