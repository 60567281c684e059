"""The summary's nutrient_intakes: each vitamin, mineral and limit against the user's reference."""

from decimal import Decimal

import pytest

from diary.services import preferences_update
from nutrition import services
from sparky.dates import today_for
from tests.factories import FoodFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def lentils(db):
    return FoodFactory(
        name="Lentils, mature seeds, cooked, boiled",
        calories=116,
        iron=Decimal("3.33"),
        micronutrients={"zinc": "1.27"},
    )


def _intakes(client, **params) -> dict:
    body = client.get("/api/summary/", params).json()
    return {row["nutrient"]: row for row in body["nutrient_intakes"]}


def test_the_summary_lists_nutrients_against_the_users_reference(alice_api, alice, lentils):
    preferences_update(user=alice, sex="female", birth_year=today_for(alice).year - 30)
    services.food_entry_create(user=alice, food=lentils, quantity=300, unit="g")

    rows = _intakes(alice_api)

    assert rows["iron"] == {
        "nutrient": "iron",
        "label": "Iron",
        "group": "minerals",
        "unit": "mg",
        "amount": 9.99,
        "reference": 18.0,
        "kind": "floor",
        "basis": "dri",
        "source": "US National Academies Dietary Reference Intakes (RDA or AI)",
        "upper": 45.0,
        "percent": 56,
        "coverage": 1.0,
        "known": True,
        "status": "low",
        "days_logged": 1,
    }
    assert rows["zinc"]["reference"] == 8.0 and rows["zinc"]["amount"] == 3.81
    assert rows["vitamin_d"]["known"] is False and rows["vitamin_d"]["amount"] is None
    assert rows["sodium"]["kind"] == "ceiling"


def test_the_summary_keeps_its_nutrients_and_follows_the_date(alice_api, alice, lentils):
    services.food_entry_create(user=alice, food=lentils, quantity=100, unit="g")
    body = alice_api.get("/api/summary/").json()

    assert body["nutrients"]["iron"]["consumed"] == 3.3  # unchanged beside the new list
    rows = _intakes(alice_api, date="2020-01-01")
    assert rows["iron"]["amount"] is None and rows["iron"]["basis"] == "daily_value"


def test_bob_sees_none_of_alices_nutrients(bob_api, alice, lentils):
    services.food_entry_create(user=alice, food=lentils, quantity=300, unit="g")

    assert _intakes(bob_api)["iron"]["amount"] is None


def test_sex_and_birth_year_are_preferences(alice_api):
    response = alice_api.patch(
        "/api/preferences/", {"sex": "male", "birth_year": 1986}, format="json"
    )

    assert response.status_code == 200
    assert (response.json()["sex"], response.json()["birth_year"]) == ("male", 1986)
    assert alice_api.patch("/api/preferences/", {"birth_year": 1066}).status_code == 400


def test_foods_and_entries_show_their_micronutrients(alice_api, alice, lentils):
    food = alice_api.get(f"/api/foods/{lentils.id}/").json()
    assert food["micronutrients"]["zinc"] == 1.27
    assert food["micronutrients"]["vitamin_d"] is None  # not recorded: unknown
    found = alice_api.get("/api/foods/", {"search": "lentils"}).json()["results"]
    assert found[0]["micronutrients"]["zinc"] == 1.27

    entry = alice_api.post(
        "/api/food-entries/", {"food": str(lentils.id), "quantity": 200, "unit": "g"}
    ).json()
    assert entry["micronutrients"]["zinc"] == 2.54
    assert entry["nutrients"]["iron"] == 6.66
