"""Nutrients eaten against reference intakes: the DRI of the user's sex and age, the Daily Values
without them, goals over both, and what the foods do not record counted as unknown."""

import datetime as dt
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from diary.reports import nutrient_gaps
from diary.services import preferences_update
from nutrition.intakes import GROUPS, reference_intakes
from nutrition.selectors import nutrient_intakes
from nutrition.services import (
    entry_micronutrients,
    food_create_custom,
    food_entry_create,
    goal_set,
)
from sparky.dates import today_for
from tests.nutrition.conftest import catalog_food

# Lentils, boiled, per 100 g (SR28 16070, rounded): iron-rich, no vitamin D.
LENTILS = {"iron": "3.33", "zinc": "1.27", "folate": "181", "magnesium": "36"}


@pytest.fixture
def lentils(db):
    return catalog_food(
        "Lentils, mature seeds, cooked, boiled",
        116,
        protein="9.02",
        carbs="20.13",
        fat="0.38",
        iron=Decimal(LENTILS["iron"]),
        servings=[(1, "cup", 198)],
        micronutrients={k: v for k, v in LENTILS.items() if k != "iron"},
    )


def _by_name(rows):
    return {row.nutrient: row for row in rows}


def _born(user, age: int) -> int:
    return today_for(user).year - age


def test_a_man_of_40_needs_8_mg_of_iron_and_a_woman_of_30_18(alice, bob, lentils):
    preferences_update(user=alice, sex="female", birth_year=_born(alice, 30))
    preferences_update(user=bob, sex="male", birth_year=_born(bob, 40))
    for user in (alice, bob):
        food_entry_create(user=user, food=lentils, quantity=2, unit="cup")  # 396 g: 13.2 mg

    day = today_for(alice)
    hers = _by_name(nutrient_intakes(user=alice, start=day))["iron"]
    his = _by_name(nutrient_intakes(user=bob, start=day))["iron"]

    assert (hers.reference, his.reference) == (Decimal(18), Decimal(8))
    assert hers.basis == his.basis == "dri"
    assert hers.amount == his.amount == Decimal("13.187")
    assert (hers.percent, hers.status) == (73, "low")
    assert (his.percent, his.status) == (165, "ok")
    assert his.upper == Decimal(45) and his.unit == "mg"


def test_without_sex_and_age_the_daily_values_are_the_reference(alice, lentils):
    food_entry_create(user=alice, food=lentils, quantity=100, unit="g")

    rows = _by_name(nutrient_intakes(user=alice, start=today_for(alice)))

    assert rows["iron"].reference == Decimal(18) and rows["iron"].basis == "daily_value"
    assert rows["vitamin_d"].reference == Decimal(20)
    assert "FDA" in rows["iron"].source
    assert [row.nutrient for row in rows.values()] == [n for g in GROUPS.values() for n in g]


def test_the_reference_follows_the_life_stage():
    assert reference_intakes(sex="female", age=55)["iron"].amount == 8
    assert reference_intakes(sex="male", age=75)["vitamin_d"].amount == 20
    assert reference_intakes(sex="male", age=25)["magnesium"].amount == 400
    assert reference_intakes(sex="male", age=35)["magnesium"].amount == 420
    assert reference_intakes(sex="female", age=60)["calcium"].upper == 2000
    # under 19 the adult DRI do not apply: the Daily Values do
    assert reference_intakes(sex="female", age=16)["iron"].basis == "daily_value"


def test_a_goal_overrides_the_reference_and_keeps_its_direction(alice, lentils):
    preferences_update(user=alice, sex="male", birth_year=_born(alice, 40))
    goal_set(user=alice, iron=12, sodium=1500)
    food_entry_create(user=alice, food=lentils, quantity=100, unit="g")

    rows = _by_name(nutrient_intakes(user=alice, start=today_for(alice)))

    assert (rows["iron"].reference, rows["iron"].basis) == (Decimal(12), "goal")
    assert (rows["sodium"].reference, rows["sodium"].kind) == (Decimal(1500), "ceiling")
    assert rows["zinc"].basis == "dri"


def test_an_entry_sums_the_micronutrients_of_the_amount_logged(alice, lentils):
    entry = food_entry_create(user=alice, food=lentils, quantity=1, unit="cup")  # 198 g

    values = entry_micronutrients(entry)

    assert values["zinc"] == Decimal("2.515")
    assert values["folate"] == Decimal("358.380")
    assert values["vitamin_d"] is None  # not recorded: unknown, not zero


def test_a_custom_food_without_micronutrients_makes_them_unknown_not_low(alice, lentils):
    shake = food_create_custom(user=alice, name="Protein shake", calories=200, protein=30)
    food_entry_create(user=alice, food=lentils, quantity=100, unit="g")
    for _ in range(2):
        food_entry_create(user=alice, food=shake, quantity=1)

    rows = _by_name(nutrient_intakes(user=alice, start=today_for(alice)))

    zinc = rows["zinc"]
    assert zinc.known is False and zinc.status == "unknown"
    assert zinc.amount == Decimal("1.270") and zinc.coverage == 0.33
    assert rows["protein"].known is True  # every food records protein
    assert rows["vitamin_d"].amount is None and rows["vitamin_d"].status == "unknown"


def test_a_span_averages_the_days_with_food_logged(alice, lentils):
    today = today_for(alice)
    food_entry_create(user=alice, food=lentils, quantity=200, unit="g")
    food_entry_create(
        user=alice, food=lentils, quantity=100, unit="g", entry_date=today - dt.timedelta(days=3)
    )

    rows = _by_name(nutrient_intakes(user=alice, start=today - dt.timedelta(days=6), end=today))

    # 6.66 + 3.33 mg over the 2 logged days, not the 7 of the span
    assert rows["iron"].amount == Decimal("4.995") and rows["iron"].days_logged == 2


def test_nobody_elses_food_counts(alice, bob, lentils):
    food_entry_create(user=bob, food=lentils, quantity=500, unit="g")

    rows = _by_name(nutrient_intakes(user=alice, start=today_for(alice)))

    assert rows["iron"].amount is None and rows["iron"].days_logged == 0


def test_the_coachs_gaps_read_the_same_reference(alice, lentils):
    preferences_update(user=alice, sex="male", birth_year=_born(alice, 40))
    food_entry_create(user=alice, food=lentils, quantity=100, unit="g")  # 3.3 mg of 8

    day = today_for(alice)
    gaps = {gap["nutrient"]: gap for gap in nutrient_gaps(user=alice, start=day, end=day)["gaps"]}

    assert gaps["iron"]["target"] == Decimal(8) and gaps["iron"]["basis"] == "reference"


def test_a_birth_year_must_be_a_year_people_are_born_in(alice):
    with pytest.raises(ValidationError) as refused:
        preferences_update(user=alice, birth_year=198)
    assert "age from 13 to 120" in refused.value.messages[0]
    with pytest.raises(ValidationError):
        preferences_update(user=alice, sex="robot")


def test_a_micronutrient_goal_overrides_its_reference_and_can_be_cleared(alice, lentils):
    food_entry_create(user=alice, food=lentils, quantity=100, unit="g")
    goal_set(user=alice, zinc="15.50", vitamin_d=25)
    goal_set(user=alice, vitamin_d=None)

    rows = _by_name(nutrient_intakes(user=alice, start=today_for(alice)))

    assert (rows["zinc"].reference, rows["zinc"].basis) == (Decimal("15.5"), "goal")
    assert rows["vitamin_d"].basis == "daily_value"


def test_an_unknown_goal_names_the_goals_there_are(alice):
    with pytest.raises(ValidationError) as refused:
        goal_set(user=alice, vitamin_q=3)
    assert "vitamin_d" in refused.value.messages[0]
