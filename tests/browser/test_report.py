"""The week report in a real browser: bars against the goal, averages, the weight's trend line,
and nothing wider than a phone."""

import datetime as dt
from decimal import Decimal

import pytest
from playwright.sync_api import Page, expect

from exercise.services import exercise_entry_create
from measurements.services import checkin_upsert
from nutrition.services import food_entry_create, goal_set
from sparky.dates import today_for
from tests.browser.conftest import log_in, shoot

pytestmark = pytest.mark.browser


@pytest.fixture
def carols_week(carol, catalog):
    today = today_for(carol)
    goal_set(user=carol, calories=2000, protein=100, carbs=250, fat=70)
    # eggs and 150 g of toast: 1317, 1460, 1889, 1603 and 1746 kcal
    for n, eggs in ((6, 600), (5, 700), (3, 1000), (2, 800), (0, 900)):
        for food, grams in ((catalog["egg"], eggs), (catalog["bread"], 150)):
            food_entry_create(
                user=carol,
                food=food,
                quantity=grams,
                unit="g",
                meal_type="lunch",
                entry_date=today - dt.timedelta(days=n),
            )
    for n, kg in ((6, "82.4"), (4, "82.0"), (2, "81.9"), (0, "81.5")):
        checkin_upsert(user=carol, weight=Decimal(kg), entry_date=today - dt.timedelta(days=n))
    for n, minutes in ((5, 30), (2, 45), (1, 20)):
        exercise_entry_create(
            user=carol,
            exercise=catalog["walking"],
            duration_minutes=minutes,
            entry_date=today - dt.timedelta(days=n),
        )
    return carol


def test_a_week_report_renders_with_data(page: Page, live_server, carols_week):
    log_in(page, live_server)
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Report").click()

    expect(page.get_by_role("heading", name="The last 7 days")).to_be_visible()
    calories = page.locator(".bars-chart--calories")
    expect(calories.locator(".bars-chart__bar")).to_have_count(5)
    expect(calories.locator(".bars-chart__missing")).to_have_count(2)  # unlogged, not zero
    expect(calories.locator(".bars-chart__goal")).to_have_count(7)
    averages = page.locator(".averages")
    expect(averages).to_contain_text("Calories")
    expect(averages).to_contain_text("of 2,000")
    expect(page.get_by_text("2 of 7 days not logged", exact=False)).to_be_visible()
    expect(page.locator(".weight-chart .chart__dot")).to_have_count(4)
    expect(page.locator(".weight-chart__trend")).to_be_visible()
    expect(page.get_by_text("-0.9 kg over the week")).to_be_visible()
    expect(page.locator(".bars-chart--minutes .bars-chart__bar")).to_have_count(7)
    expect(page.locator(".report__big")).to_contain_text("3 workouts")
    # every bar is tall enough to see
    heights = calories.locator(".bars-chart__bar").evaluate_all(
        "bars => bars.map(b => b.getBoundingClientRect().height)"
    )
    assert min(heights) > 10
    shoot(page, "report.png", full_page=True)

    page.get_by_role("link", name="Month").click()
    expect(page.get_by_role("heading", name="The last 4 weeks")).to_be_visible()
    expect(page.locator(".bars-chart--calories .bars-chart__day")).to_have_count(28)
    page.get_by_role("link", name="Previous month").click()
    expect(page.get_by_role("heading", name="Four weeks")).to_be_visible()
    expect(page.get_by_text("No food logged in these 28 days")).to_be_visible()


@pytest.mark.parametrize("period", ["week", "month"])
def test_the_report_fits_a_phone(page: Page, live_server, carols_week, period):
    page.set_viewport_size({"width": 390, "height": 844})
    log_in(page, live_server)
    page.goto(f"{live_server.url}/report/?period={period}")
    expect(page.locator(".bars-chart--calories")).to_be_visible()

    widths = page.evaluate(
        "() => ({scroll: document.documentElement.scrollWidth,"
        " client: document.documentElement.clientWidth,"
        " widest: Math.max(...[...document.querySelectorAll('.report *')]"
        ".map(e => e.getBoundingClientRect().right))})"
    )
    assert widths["scroll"] <= widths["client"], widths
    assert widths["widest"] <= widths["client"], widths
    if period == "week":
        shoot(page, "report-phone.png")
