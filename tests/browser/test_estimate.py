"""A food the catalog lacks, with a model configured: its estimate is offered, picked by a click
and marked as an estimate in the diary."""

import json

import pytest
from playwright.sync_api import Page, expect

from aiservices.services import ai_service_create
from tests.browser.conftest import last_reply, log_in, send

pytestmark = pytest.mark.browser

ESTIMATES = {
    "food_options": [
        {
            "name": "Dragonfruit smoothie",
            "serving_size": 300,
            "serving_unit": "ml",
            "calories": 180,
            "protein": 3,
            "carbs": 40,
            "fat": 1,
        }
    ]
}


def test_the_models_estimate_is_offered_and_marked_in_the_diary(
    page: Page, live_server, carol, catalog, fake_llm, settings
):
    settings.SPARKY_ALLOW_PRIVATE_AI_URLS = True
    ai_service_create(
        user=carol,
        service_name="Loopback",
        service_type="custom",
        api_key="sk-browser-estimate",
        model_name="fake-model",
        custom_url=fake_llm.openai_base,
        is_active=True,
    )
    fake_llm.reply_tool_call("log_food", {"food_name": "dragonfruit smoothie"})
    fake_llm.reply_text("I couldn't find that one.")
    fake_llm.reply_text(json.dumps(ESTIMATES))
    log_in(page, live_server)

    send(page, "had a dragonfruit smoothie for lunch")

    # three model requests in a row (the call, its answer, the estimates): a loaded CI machine
    expect(last_reply(page)).to_contain_text("Did you mean", timeout=45_000)
    options = page.get_by_role("group", name="Pick one of the options").last
    pick = options.get_by_role("button", name="Dragonfruit smoothie (estimate)")
    expect(pick).to_contain_text("300 ml: 180 kcal")
    pick.click()

    expect(last_reply(page)).to_contain_text("Logged")
    entry = page.locator("#diary .entries li", has_text="Dragonfruit smoothie")
    expect(entry.locator(".tag")).to_have_text("estimate")
