"""The chat page in a real browser: what a person does, and what they see."""

import datetime as dt
from decimal import Decimal

import pytest
from playwright.sync_api import Page, expect

from aiservices.services import ai_service_create
from measurements.services import checkin_upsert
from nutrition.services import goal_set, water_add
from sparky.dates import today_for
from sparky.services import preferences_update
from tests.browser.conftest import last_reply, log_in, png_file, send, shoot

pytestmark = pytest.mark.browser


def seed_history(user):
    """Goals and a month of weigh-ins, so the diary has something to draw."""
    goal_set(user=user, calories=2000, protein=120, carbs=220, fat=70, water_goal=8)
    today = today_for(user)
    for days_ago, kg in ((27, "82.4"), (20, "81.9"), (13, "81.5"), (6, "81.0"), (1, "80.6")):
        checkin_upsert(
            user=user, entry_date=today - dt.timedelta(days=days_ago), weight=Decimal(kg)
        )
    water_add(user=user, glasses=3)


def test_logging_breakfast_shows_the_reply_the_summary_and_the_diary(
    page: Page, live_server, carol, catalog
):
    seed_history(carol)
    log_in(page, live_server)
    diary = page.locator("#diary")
    expect(diary).to_contain_text("Nothing logged yet")

    send(page, "2 eggs for breakfast")

    reply = last_reply(page)
    expect(reply).to_contain_text("Egg")
    expect(reply.locator(".chip")).to_have_text(["Egg · 143 kcal"])
    expect(reply.locator(".tag--mode")).to_have_text("Auto")
    expect(page.locator("#thread .msg--user").last).to_have_text("2 eggs for breakfast")
    expect(page.get_by_label("Message to Sparky")).to_have_value("")
    # the diary refreshed itself from the HX-Trigger event, without a page load
    expect(diary.locator(".meal")).to_contain_text("Breakfast")
    expect(diary).to_contain_text("Egg")
    expect(diary.locator(".ring__label strong")).to_have_text("143")
    expect(page.locator("#thread .msg--summary")).to_contain_text("so far")

    send(page, "walked 45 min")
    expect(last_reply(page)).to_contain_text("Walking")
    expect(diary).to_contain_text("45 min")
    diary.get_by_role("button", name="+1 glass").click()
    expect(diary.locator(".water__count")).to_contain_text("4 of 8 glasses")

    shoot(page, "chat.png")
    page.set_viewport_size({"width": 600, "height": 900})
    page.goto(f"{live_server.url}/diary/")  # the diary on its own page, for the whole of it
    expect(page.locator("#diary .chart__svg")).to_be_visible()
    shoot(page, "diary.png", full_page=True)


def test_options_for_an_unknown_food_are_picked_by_clicking(
    page: Page, live_server, carol, catalog
):
    log_in(page, live_server)

    send(page, "a greek yoghurt pot for a snack")

    options = page.get_by_role("group", name="Pick one of the options").first
    expect(options.get_by_role("button")).not_to_have_count(0)
    options.get_by_role("button").first.click()

    expect(last_reply(page)).to_contain_text("Logged")
    expect(page.locator("#diary")).to_contain_text("Greek yogurt, nonfat")
    expect(options.get_by_role("button").first).to_be_disabled()  # used options close


def test_a_photo_is_checked_previewed_sent_and_logged(
    page: Page, live_server, carol, catalog, fake_llm, settings, media, tmp_path
):
    settings.SPARKY_ALLOW_PRIVATE_AI_URLS = True  # the fake model lives on loopback
    ai_service_create(
        user=carol,
        service_name="Loopback vision",
        service_type="custom",
        api_key="sk-browser-0001",
        model_name="fake-vision",
        custom_url=fake_llm.openai_base,
        is_active=True,
    )
    preferences_update(user=carol, review_photos=False)  # logged at once, as asked
    fake_llm.reply_tool_call("log_food", {"food_name": "egg", "quantity": 2, "meal_type": "lunch"})
    # a slow model: the page must stay usable and say that Sparky is thinking
    fake_llm.reply_text("That looks like two eggs; I logged them for lunch.", delay=1.5)
    log_in(page, live_server)

    not_a_photo = tmp_path / "notes.txt"
    not_a_photo.write_text("not a photo")
    page.locator("#image").set_input_files(str(not_a_photo))
    expect(page.locator("#attach-error")).to_contain_text("not a JPEG, PNG, WebP or GIF")
    expect(page.locator("#attachment")).to_be_hidden()

    page.locator("#image").set_input_files(str(png_file(tmp_path)))
    expect(page.locator("#attachment")).to_be_visible()
    expect(page.locator("#attachment-name")).to_contain_text("lunch.png")
    expect(page.locator("#attach-error")).to_be_hidden()
    page.get_by_label("Message to Sparky").fill("my lunch")
    page.get_by_role("button", name="Send").click()

    # the reply being written names the step it is on
    live = page.locator("#thread .msg--live")
    expect(live.get_by_role("status")).to_have_text("Writing the reply…")
    expect(page.get_by_role("button", name="Send")).to_be_disabled()
    expect(last_reply(page)).to_contain_text("two eggs", timeout=20_000)
    expect(live).to_have_count(0)
    expect(page.get_by_role("button", name="Send")).to_be_enabled()
    expect(page.locator("#attachment")).to_be_hidden()
    photo = page.locator("#thread .msg--user img.msg__photo").last
    expect(photo).to_be_visible()
    assert photo.evaluate("img => img.complete && img.naturalWidth > 0")
    expect(last_reply(page).locator(".tag", has_text="Photos")).to_be_visible()
    expect(page.locator("#diary")).to_contain_text("Egg")
    sent = fake_llm.completion_requests[0].messages[-1]["content"]
    assert any(part.get("type") == "image_url" for part in sent)


def test_a_failed_send_keeps_the_typed_text(page: Page, live_server, carol, catalog):
    log_in(page, live_server)
    page.route("**/chat/send/", lambda route: route.abort())

    send(page, "2 eggs for breakfast")

    expect(page.locator("#thread .msg--rejected")).to_contain_text("can't be reached")
    expect(page.get_by_label("Message to Sparky")).to_have_value("2 eggs for breakfast")
    expect(page.get_by_role("button", name="Send")).to_be_enabled()


def test_manual_categories_are_remembered_and_shown_on_the_reply(
    page: Page, live_server, carol, catalog
):
    log_in(page, live_server)

    page.get_by_label("Manual").check()
    water = page.get_by_label("Check-ins")
    expect(water).to_be_checked()  # a fresh manual pick starts from the core set
    page.get_by_label("Exercise").uncheck()
    expect(page.get_by_label("Exercise")).not_to_be_checked()
    send(page, "3 glasses of water")

    reply = last_reply(page)
    expect(reply.locator(".tag--mode")).to_have_text("Manual")
    expect(reply).to_contain_text("Check-ins")
    expect(reply).not_to_contain_text("Exercise")

    page.reload()
    expect(page.get_by_label("Manual")).to_be_checked()
    expect(page.get_by_label("Exercise")).not_to_be_checked()
    expect(page.get_by_label("Food")).to_be_checked()


def test_settings_add_a_service_and_test_the_connection(
    page: Page, live_server, carol, fake_llm, settings
):
    settings.SPARKY_ALLOW_PRIVATE_AI_URLS = True
    fake_llm.set_default("ok")  # the test on adding, then the one asked for
    log_in(page, live_server)

    page.get_by_role("link", name="Settings", exact=True).click()
    page.get_by_role("link", name="Add a service").click()
    page.get_by_role("textbox", name="Name", exact=True).fill("Home server")
    page.get_by_role("combobox", name="Provider").select_option("custom")
    page.get_by_role("textbox", name="Model", exact=True).fill("llama3.2")
    page.locator("#id_api_key").fill("sk-secret-browser-42")
    page.get_by_role("textbox", name="Server URL", exact=True).fill(fake_llm.openai_base)
    page.get_by_label("Core (essential logging tools, for small local models)").check()
    page.get_by_role("button", name="Add and test").click()

    expect(page.locator(".flash")).to_contain_text("passed the connection test")
    service = page.locator(".service").first
    expect(service).to_contain_text("Home server")
    expect(service.locator(".badge--active")).to_have_text("Active")
    expect(service).to_contain_text("key set")
    service.get_by_role("button", name="Test connection").click()
    expect(service.locator(".test-result")).to_contain_text("Works.")
    assert "sk-secret-browser-42" not in page.content()
    shoot(page, "settings.png")


def test_the_phone_layout_has_tabs_and_no_sideways_scrolling(
    page: Page, live_server, carol, catalog
):
    seed_history(carol)
    page.set_viewport_size({"width": 360, "height": 740})
    log_in(page, live_server)

    send(page, "2 eggs for breakfast")
    expect(last_reply(page)).to_contain_text("Egg")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    shoot(page, "phone-chat.png")

    page.get_by_role("tab", name="Diary").click()
    expect(page.locator("#diary")).to_be_visible()
    expect(page.locator("#chat-panel")).to_be_hidden()
    expect(page.locator("#diary")).to_contain_text("Egg")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    shoot(page, "phone-diary.png")

    page.get_by_role("tab", name="Chat").press("ArrowRight")
    expect(page.get_by_role("tab", name="Diary")).to_be_focused()
