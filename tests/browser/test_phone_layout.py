"""The chat page on a phone (390 x 844): the page itself never scrolls; the thread and the diary
scroll inside it and end where their content ends, never in blank space."""

import datetime as dt
from decimal import Decimal

import pytest
from playwright.sync_api import Page, expect

from measurements.services import checkin_upsert
from nutrition.services import food_entry_create
from sparky.dates import today_for
from tests.browser.conftest import log_in

pytestmark = pytest.mark.browser

MEASURE = """() => {
  const doc = document.documentElement;
  const column = document.querySelector('#diary-column');
  const diary = document.querySelector('#diary');
  return {page: doc.scrollHeight, window: doc.clientHeight,
          column: column.scrollHeight, diary: diary.offsetHeight};
}"""


@pytest.fixture
def a_long_diary(carol, catalog):
    today = today_for(carol)
    for n in range(10):
        checkin_upsert(
            user=carol, weight=Decimal(80 + n / 10), entry_date=today - dt.timedelta(days=2 * n)
        )
    for meal in ("breakfast", "lunch", "dinner", "snack"):
        for food in ("egg", "bread", "bananas"):
            food_entry_create(user=carol, food=catalog[food], quantity=1, meal_type=meal)
    return carol


def test_the_diary_tab_ends_where_the_diary_ends(page: Page, live_server, a_long_diary):
    page.set_viewport_size({"width": 390, "height": 844})
    log_in(page, live_server)
    page.get_by_role("tab", name="Diary").click()
    expect(page.locator("#diary .meal")).to_have_count(4)

    sizes = page.evaluate(MEASURE)

    # The labels only screen readers get (position: absolute) once stretched the page to
    # about twice the window, all of it blank below the diary.
    assert sizes["page"] <= sizes["window"], sizes
    assert sizes["column"] <= sizes["diary"] + 1, sizes
    page.evaluate("window.scrollTo(0, 10000)")
    assert page.evaluate("window.scrollY") == 0
