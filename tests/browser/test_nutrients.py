"""The Nutrients panel in a real browser: a logged food's iron against the Daily Value, then,
once the user gives their sex and birth year, against the reference intake for them."""

import os
from decimal import Decimal

import pytest
from playwright.sync_api import Page, expect

from nutrition.services import food_entry_create
from sparky.dates import today_for
from tests.browser.conftest import SCREENSHOTS, log_in
from tests.factories import FoodFactory

pytestmark = pytest.mark.browser

# Boiled lentils per 100 g, about as SR28 gives them.
LENTILS = {
    "vitamin_e": "0.11",
    "vitamin_k": "1.7",
    "thiamin": "0.169",
    "riboflavin": "0.073",
    "niacin": "1.06",
    "pantothenic_acid": "0.638",
    "vitamin_b6": "0.178",
    "folate": "181",
    "vitamin_b12": "0",
    "choline": "32.7",
    "magnesium": "36",
    "phosphorus": "180",
    "zinc": "1.27",
    "copper": "0.251",
    "manganese": "0.494",
    "selenium": "2.8",
}


def test_the_nutrients_panel_shows_iron_against_the_reference_intake(
    page: Page, live_server, carol
):
    lentils = FoodFactory(
        name="Lentils, mature seeds, cooked, boiled",
        calories=116,
        protein=Decimal("9.02"),
        dietary_fiber=Decimal("7.9"),
        sodium=Decimal("2"),
        potassium=Decimal("369"),
        calcium=Decimal("19"),
        iron=Decimal("3.33"),
        vitamin_c=Decimal("1.5"),
        saturated_fat=Decimal("0.05"),
        sugars=Decimal("1.8"),
        cholesterol=Decimal("0"),
        micronutrients=LENTILS,  # no vitamin A, trans fat or vitamin D here: unknown
    )
    food_entry_create(user=carol, food=lentils, quantity=200, unit="g", meal_type="lunch")
    log_in(page, live_server)

    panel = page.locator("#diary").get_by_role("region", name="Nutrients")
    iron = panel.locator("#nutrient-iron")
    expect(panel).to_contain_text("Daily Values on food labels")
    expect(iron).to_contain_text("6.7 / 18 mg")  # the Daily Value, with no sex or age given
    expect(iron).to_contain_text("37%")
    expect(panel.locator("#nutrient-vitamin_d")).to_contain_text("unknown")

    page.goto(f"{live_server.url}/settings/preferences/")
    page.get_by_label("Sex").select_option("male")
    page.get_by_label("Birth year").fill(str(today_for(carol).year - 40))
    page.get_by_role("button", name="Save preferences").click()
    expect(page.get_by_text("Preferences saved.")).to_be_visible()
    page.goto(f"{live_server.url}/")

    expect(panel).to_contain_text("Reference intakes for a man of 40")
    expect(iron).to_contain_text("6.7 / 8 mg")  # the RDA for a man of 40
    expect(iron).to_contain_text("83%")
    expect(panel.locator("#nutrient-zinc")).to_contain_text("2.5 / 11 mg")

    # On a phone, the diary's own page: the panel reads in one column.
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server.url}/diary/")
    phone = page.get_by_role("region", name="Nutrients")
    expect(phone.locator("#nutrient-iron")).to_contain_text("83%")
    if os.environ.get("SPARKY_SCREENSHOTS"):
        phone.screenshot(path=str(SCREENSHOTS / "nutrients.png"))
