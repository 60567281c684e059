"""Undo of a reply in a real browser: one click takes back what it saved, the diary follows."""

import pytest
from playwright.sync_api import Page, expect

from nutrition.models import FoodEntry
from tests.browser.conftest import last_reply, log_in, send, shoot

pytestmark = pytest.mark.browser


def test_undo_takes_back_a_reply_and_the_diary_follows(page: Page, live_server, carol, catalog):
    log_in(page, live_server)
    diary = page.locator("#diary")
    send(page, "a banana for a snack")
    expect(last_reply(page).locator(".chip")).to_have_count(1)
    send(page, "2 eggs and toast for breakfast")
    mistaken = last_reply(page)
    expect(mistaken.locator(".chip")).to_have_count(2)
    summaries = page.locator("#thread .msg--summary")
    expect(summaries).to_have_count(2)  # each reply's progress note
    expect(diary).to_contain_text("Egg")

    mistaken.get_by_role("button", name="Undo").click()

    expect(mistaken.get_by_role("status")).to_have_text(
        "Undone: 2 large Egg; 1 slice Whole-wheat toast."
    )
    expect(mistaken.get_by_role("button", name="Undo")).to_have_count(0)
    expect(mistaken.locator(".chips--undone .chip")).to_have_count(2)
    expect(diary).not_to_contain_text("Egg")  # refreshed from the HX-Trigger event
    expect(diary).to_contain_text("Banana")
    expect(summaries).to_have_count(1)  # the undone reply's note counted what is gone
    assert FoodEntry.objects.for_user(carol).count() == 1
    shoot(page, "undo.png")

    page.reload()  # the thread drawn from the stored history says the same
    expect(page.locator("#thread .msg--reply").last.get_by_role("status")).to_contain_text("Undone")
