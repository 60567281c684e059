"""The usual meals and quick-add in a real browser: a day's meal saved once, logged in one click."""

import datetime as dt

import pytest
from playwright.sync_api import Page, expect

from nutrition.models import FoodEntry, UsualMeal
from nutrition.services import food_entry_create
from sparky.dates import today_for
from tests.browser.conftest import last_reply, log_in, send, shoot

pytestmark = pytest.mark.browser


def test_a_usual_breakfast_is_saved_from_the_diary_and_logged_in_one_click(
    page: Page, live_server, carol, catalog
):
    yesterday = today_for(carol) - dt.timedelta(days=1)
    for food, quantity in ((catalog["egg"], 2), (catalog["bread"], 1)):
        food_entry_create(
            user=carol, food=food, quantity=quantity, meal_type="breakfast", entry_date=yesterday
        )
    log_in(page, live_server)
    diary = page.locator("#diary")
    diary.get_by_role("link", name="Previous day").click()
    diary.get_by_role("button", name="Save breakfast as my usual").click()
    expect(diary.get_by_role("button", name="Update my usual breakfast")).to_be_visible()
    assert UsualMeal.objects.for_user(carol).get().meal_type == "breakfast"

    diary.get_by_role("link", name="Next day").click()
    diary.get_by_role("button", name="Log my usual breakfast").click()

    expect(diary.locator(".meal")).to_contain_text("Breakfast")
    expect(diary).to_contain_text("Egg")
    assert FoodEntry.objects.for_user(carol).filter(entry_date=today_for(carol)).count() == 2
    # the foods logged most are one click away: the bread again, with its amount
    diary.get_by_role("button", name="+ Whole-wheat toast").click()
    expect(diary.locator(".entries li", has_text="Whole-wheat toast")).to_have_count(2)
    shoot(page, "usual-meals.png")


def test_the_chat_saves_and_logs_the_usual_lunch(page: Page, live_server, carol, catalog):
    log_in(page, live_server)
    send(page, "2 eggs for lunch")
    expect(last_reply(page).locator(".chip")).to_have_count(1)
    send(page, "save this as my usual lunch")
    expect(last_reply(page)).to_contain_text("as your usual lunch")
    FoodEntry.objects.for_user(carol).delete()

    send(page, "my usual lunch")

    expect(last_reply(page).locator(".chip")).to_have_count(1)
    expect(page.locator("#diary")).to_contain_text("Egg")
    # the last reply's progress note is in before the test ends (its task writes to the thread)
    expect(page.locator("#thread .msg--summary")).to_have_count(3)
