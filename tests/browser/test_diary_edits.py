"""Editing the diary by hand on a phone (390 x 844): a weight corrected, a food entry moved to
another unit and the day before, each in place of its row."""

import datetime as dt
from decimal import Decimal

import pytest
from playwright.sync_api import Page, expect

from measurements.services import checkin_upsert
from nutrition.models import FoodEntry
from nutrition.services import food_entry_create
from sparky.dates import today_for
from tests.browser.conftest import log_in

pytestmark = pytest.mark.browser

# How far the diary is wider than the phone (0 or less: nothing sticks out sideways).
OVERFLOW = """() => {
  const diary = document.querySelector("#diary");
  return diary.scrollWidth - diary.clientWidth;
}"""


def test_a_weight_and_a_food_entrys_unit_and_day_are_edited_in_the_diary(
    page: Page, live_server, carol, catalog
):
    checkin_upsert(user=carol, weight=Decimal("81.4"))
    eggs = food_entry_create(
        user=carol, food=catalog["egg"], quantity=100, unit="g", meal_type="breakfast"
    )
    yesterday = today_for(carol) - dt.timedelta(days=1)
    page.set_viewport_size({"width": 390, "height": 844})
    log_in(page, live_server)
    page.get_by_role("tab", name="Diary").click()
    diary = page.locator("#diary")

    diary.get_by_role("link", name="Edit Weight").click()
    weight = diary.locator("#checkin-weight")
    weight.get_by_label("Value").fill("80.9")
    assert page.evaluate(OVERFLOW) <= 0  # the form fits the phone's width
    weight.get_by_role("button", name="Save").click()
    expect(diary.locator("#checkin-weight")).to_contain_text("80.9 kg")

    diary.get_by_role("link", name="Edit Egg").click()
    row = diary.locator(f"#food-{eggs.id}")
    expect(row.get_by_label("Unit")).to_have_value("g")
    row.get_by_label("Amount").fill("2")
    row.get_by_label("Unit").fill("large")
    row.get_by_label("Date").fill(yesterday.isoformat())
    assert page.evaluate(OVERFLOW) <= 0
    row.get_by_role("button", name="Save").click()

    # the diary follows the entry to the day before
    expect(diary.locator("time")).to_have_attribute("datetime", yesterday.isoformat())
    expect(diary.locator(f"#food-{eggs.id}")).to_contain_text("2 large")
    eggs = FoodEntry.objects.for_user(carol).get()
    assert (eggs.quantity, eggs.unit, eggs.entry_date) == (2, "large", yesterday)
