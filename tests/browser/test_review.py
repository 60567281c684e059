"""The review card in a real browser: a reply that asks before it logs shows its items, whose
amount can be changed before Log all; Cancel logs nothing."""

import pytest
from playwright.sync_api import Page, expect

from aiservices.services import ai_service_create
from nutrition.models import FoodEntry
from tests.browser.conftest import last_reply, log_in, png_file, send, shoot

pytestmark = pytest.mark.browser


def test_an_amount_edited_on_the_review_card_is_what_gets_logged(
    page: Page, live_server, carol, catalog
):
    log_in(page, live_server)
    send(page, "0.01 eggs for breakfast")
    reply = last_reply(page)
    card = reply.get_by_role("form", name="Check before logging")
    expect(card).to_be_visible()
    assert FoodEntry.objects.for_user(carol).count() == 0

    card.get_by_label("Amount").fill("2")
    card.get_by_role("button", name="Log all").click()

    expect(reply.get_by_role("status")).to_contain_text("Logged 2")
    expect(reply.get_by_role("form", name="Check before logging")).to_have_count(0)
    expect(page.locator("#diary")).to_contain_text("Egg")
    [entry] = FoodEntry.objects.for_user(carol)
    assert entry.quantity == 2 and entry.meal_type == "breakfast"
    reply.get_by_role("button", name="Undo").click()  # undo takes back what the card logged
    expect(page.locator("#diary")).not_to_contain_text("Egg")
    assert FoodEntry.objects.for_user(carol).count() == 0


def test_cancel_on_the_review_card_logs_nothing(page: Page, live_server, carol, catalog):
    log_in(page, live_server)
    send(page, "0.01 eggs for breakfast")
    reply = last_reply(page)
    card = reply.get_by_role("form", name="Check before logging")

    card.get_by_role("button", name="Cancel").click()

    expect(reply.get_by_role("status")).to_have_text("Cancelled: nothing was logged.")
    expect(reply.get_by_role("button", name="Log all")).to_have_count(0)
    assert FoodEntry.objects.for_user(carol).count() == 0
    page.reload()
    expect(last_reply(page).get_by_role("status")).to_have_text("Cancelled: nothing was logged.")


def test_a_photo_is_reviewed_then_logged(
    page: Page, live_server, carol, catalog, fake_llm, settings, media, tmp_path
):
    settings.SPARKY_ALLOW_PRIVATE_AI_URLS = True  # the fake model lives on loopback
    ai_service_create(
        user=carol,
        service_name="Loopback vision",
        service_type="custom",
        api_key="sk-browser-0002",
        model_name="fake-vision",
        custom_url=fake_llm.openai_base,
        is_active=True,
    )
    fake_llm.reply_tool_call("log_food", {"food_name": "egg", "quantity": 3, "meal_type": "lunch"})
    fake_llm.reply_text("That looks like three eggs for lunch. Shall I log them?")
    log_in(page, live_server)
    page.locator("#image").set_input_files(str(png_file(tmp_path)))
    page.get_by_label("Message to Sparky").fill("my lunch")
    page.get_by_role("button", name="Send").click()

    reply = last_reply(page)
    card = reply.get_by_role("form", name="Check before logging")
    expect(card).to_be_visible(timeout=20_000)  # photos are checked first unless turned off
    expect(card.get_by_label("Amount")).to_have_value("3")
    expect(card.get_by_label("Meal")).to_have_value("lunch")
    assert FoodEntry.objects.for_user(carol).count() == 0

    card.get_by_label("Amount").fill("2")
    shoot(page, "review.png")
    card.get_by_role("button", name="Log all").click()

    expect(reply.get_by_role("status")).to_contain_text("Logged 2")
    expect(page.locator("#diary")).to_contain_text("Egg")
    [entry] = FoodEntry.objects.for_user(carol)
    assert entry.quantity == 2 and entry.meal_type == "lunch"
