"""The diary's Nutrients panel: the day's vitamins, minerals and limits against the references."""

from decimal import Decimal

import pytest
from django.urls import reverse

from diary.services import preferences_update
from nutrition.services import food_create_custom, food_entry_create, goal_set
from sparky.dates import today_for
from sparky.services import preferences_for
from tests.factories import FoodFactory
from tests.web.conftest import HTMX

pytestmark = pytest.mark.django_db


@pytest.fixture
def lentils(alice):
    food = FoodFactory(
        name="Lentils, mature seeds, cooked, boiled",
        calories=116,
        iron=Decimal("3.33"),
        sodium=Decimal("2"),
        micronutrients={"zinc": "1.27", "folate": "181"},
    )
    food_entry_create(user=alice, food=food, quantity=100, unit="g")
    return food


def _nutrient(html: str, name: str) -> str:
    start = html.index(f'id="nutrient-{name}"')
    return html[start : html.index("</li>", start)]


def test_the_panel_reads_the_day_against_the_daily_values(alice_client, lentils):
    html = alice_client.get(reverse("diary"), **HTMX).content.decode()

    assert "Daily Values on food labels" in html
    iron = _nutrient(html, "iron")
    assert "3.3 / 18 mg" in iron and "19%" in iron
    assert "181 / 400 µg" in _nutrient(html, "folate")
    assert "unknown" in _nutrient(html, "vitamin_d")  # lentils do not record it here
    sodium = _nutrient(html, "sodium")
    assert "2 / 2,300 mg" in sodium and "max" in sodium


def test_the_panel_uses_the_users_sex_age_and_goals(alice, alice_client, lentils):
    preferences_update(user=alice, sex="male", birth_year=today_for(alice).year - 40)
    goal_set(user=alice, calcium=900)

    html = alice_client.get(reverse("diary")).content.decode()

    assert "Reference intakes for a man of 40" in html
    assert "3.3 / 8 mg" in _nutrient(html, "iron")
    calcium = _nutrient(html, "calcium")  # lentils do not record it: unknown, but the goal shows
    assert "900 mg" in calcium and "your goal" in calcium


def test_a_custom_food_makes_the_micronutrients_unknown(alice, alice_client, lentils):
    shake = food_create_custom(user=alice, name="Shake", calories=200, protein=30)
    for _ in range(2):
        food_entry_create(user=alice, food=shake, quantity=1)

    html = alice_client.get(reverse("diary"), **HTMX).content.decode()

    assert "unknown" in _nutrient(html, "zinc")
    assert "%" in _nutrient(html, "protein")


def test_an_empty_day_asks_for_food(alice_client):
    html = alice_client.get(reverse("diary"), **HTMX).content.decode()

    assert "Log food to see its vitamins and minerals" in html


def test_sex_and_birth_year_are_saved_in_the_preferences(alice, alice_client):
    response = alice_client.post(
        reverse("settings_preferences"),
        {
            "date_format": "yyyy-MM-dd",
            "default_weight_unit": "kg",
            "default_measurement_unit": "cm",
            "time_zone": "UTC",
            "auto_clear_history": "never",
            "sex": "female",
            "birth_year": "1994",
        },
        follow=True,
    )

    assert "Preferences saved." in response.content.decode()
    prefs = preferences_for(alice)
    assert (prefs.sex, prefs.birth_year) == ("female", 1994)


def test_a_micronutrient_goal_is_set_on_the_goals_page(alice, alice_client, lentils):
    response = alice_client.post(reverse("settings_goals"), {"zinc": "9.5"}, follow=True)

    assert "Daily goals saved." in response.content.decode()
    assert 'value="9.5"' in response.content.decode()  # the form shows it again
    html = alice_client.get(reverse("diary"), **HTMX).content.decode()
    assert "1.3 / 9.5 mg" in _nutrient(html, "zinc") and "your goal" in _nutrient(html, "zinc")
