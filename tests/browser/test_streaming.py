"""The reply as it is written, in a real browser: the scripted model sends its words slowly, and the
page shows the step being run, the words and each saved entry's chip before the turn ends; then
the finished reply takes their place and the diary follows."""

import time

import pytest
from playwright.sync_api import Page, expect

from aiservices.services import ai_service_create
from chat.models import ChatMessage
from nutrition.models import FoodEntry
from tests.browser.conftest import last_reply, log_in, send, shoot
from tests.fake_llm import Reply, ToolCall

pytestmark = pytest.mark.browser

ANSWER = (
    "Logged a medium banana for your snack. A good choice before a run, and easy on the stomach."
)


@pytest.fixture
def model(carol, fake_llm, settings):
    settings.SPARKY_ALLOW_PRIVATE_AI_URLS = True  # the fake lives on loopback
    settings.SPARKY_LLM_TIMEOUT = 30
    return ai_service_create(
        user=carol,
        service_name="Loopback",
        service_type="custom",
        api_key="sk-test-carol",
        model_name="fake-model",
        custom_url=fake_llm.openai_base,
        is_active=True,
    )


def test_the_reply_appears_word_by_word_before_the_turn_ends(
    page: Page, live_server, carol, catalog, model, fake_llm
):
    fake_llm.reply_tool_call("log_food", {"food_name": "banana", "quantity": 1})
    fake_llm.reply_text(ANSWER, token_delay=0.25)  # 17 words: about 4 s
    log_in(page, live_server)

    send(page, "a banana")

    live = page.locator("#thread .msg--live")
    expect(live.locator(".msg__draft")).to_contain_text("Logged a medium")
    expect(live.get_by_role("status")).to_have_text("Writing the reply…")
    assert live.is_visible()  # still being written: the draft is not the whole answer yet
    assert not live.locator(".msg__draft").inner_text().endswith("stomach.")
    expect(live.locator(".chip")).to_have_count(1)
    expect(page.get_by_label("Message to Sparky")).to_have_value("")  # delivered
    shoot(page, "streaming.png")

    expect(live).to_have_count(0, timeout=20_000)  # the finished reply took its place
    reply = last_reply(page)
    expect(reply.locator(".msg__text")).to_have_text(ANSWER)
    expect(reply.locator(".chip")).to_have_count(1)
    expect(reply.get_by_role("button", name="Undo")).to_be_visible()
    expect(page.locator("#diary")).to_contain_text("Banana")  # the diary followed
    assert FoodEntry.objects.for_user(carol).count() == 1

    page.reload()  # the stored turn, as the thread draws it
    expect(last_reply(page).locator(".msg__text")).to_have_text(ANSWER)


def test_each_chip_appears_as_its_entry_is_saved(
    page: Page, live_server, carol, catalog, model, fake_llm
):
    fake_llm.reply_tool_call("log_food", {"food_name": "banana", "quantity": 1})
    egg = ToolCall("log_food", {"food_name": "egg", "quantity": 2})
    fake_llm.enqueue(Reply.message(None, [egg]).delayed(3))  # the model takes its time
    log_in(page, live_server)

    send(page, "a banana and 2 eggs")

    live = page.locator("#thread .msg--live")
    expect(live.locator(".chip")).to_have_count(1)
    expect(live.locator(".chip")).to_contain_text("Banana")
    expect(page.locator("#diary")).to_contain_text("Banana")  # the diary follows each entry
    assert FoodEntry.objects.for_user(carol).count() == 1  # the egg is not saved yet
    # both saved, the turn ends with Sparky's own sentence (no third request) and its chips
    expect(live).to_have_count(0)
    expect(last_reply(page).locator(".chip")).to_have_count(2)
    expect(last_reply(page).locator(".msg__text")).to_contain_text("Logged a medium banana")
    expect(page.locator("#diary")).to_contain_text("Egg")


def test_leaving_the_page_mid_reply_loses_nothing(
    page: Page, live_server, carol, catalog, model, fake_llm
):
    fake_llm.reply_tool_call("log_food", {"food_name": "banana", "quantity": 1})
    fake_llm.reply_text(ANSWER, token_delay=0.25)
    log_in(page, live_server)
    send(page, "a banana")
    expect(page.locator("#thread .msg--live .msg__draft")).to_contain_text("Logged")

    page.goto(f"{live_server.url}/settings/")  # away while the reply is being written

    deadline = time.monotonic() + 20
    while not ChatMessage.objects.for_user(carol).filter(content=ANSWER).exists():
        assert time.monotonic() < deadline, "the turn did not finish without its reader"
        time.sleep(0.2)
    page.goto(live_server.url)
    expect(last_reply(page).locator(".msg__text")).to_have_text(ANSWER)
    expect(page.locator("#thread .msg--user")).to_have_count(1)
    assert FoodEntry.objects.for_user(carol).count() == 1


def test_the_offline_parser_answers_at_once_through_the_same_stream(
    page: Page, live_server, carol, catalog
):
    log_in(page, live_server)

    send(page, "2 eggs and toast for breakfast")

    reply = last_reply(page)
    expect(reply.locator(".chip")).to_have_count(2)
    expect(reply.locator(".msg__text")).to_contain_text("Logged")
    expect(page.locator("#thread .msg--live")).to_have_count(0)
    expect(page.locator("#diary")).to_contain_text("Egg")
