"""The first ten minutes of a new Sparky, in a real browser, from an empty database: the owner
account, a first meal, an AI service that fails its test, and logging that goes on offline.
Also the layout at desktop and phone sizes: notes beside the diary, the calorie ring."""

import re
import socket

import pytest
from playwright.sync_api import Page, expect

from aiservices.services import active_ai_service
from nutrition.services import goal_set
from sparky.models import User
from tests.browser.conftest import PASSWORD, last_reply, log_in, send, shoot

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 860}
PHONE = {"width": 360, "height": 740}


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]  # nothing listens there once the socket is closed


def boxes_overlap(a: dict, b: dict) -> bool:
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


@pytest.fixture
def berlin_page(browser, live_server):
    """A browser set to Berlin time, as a person in Germany would open Sparky."""
    context = browser.new_context(viewport=DESKTOP, timezone_id="Europe/Berlin")
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


def test_from_an_empty_database_to_logging_offline_after_a_failed_ai_service(
    berlin_page: Page, live_server, catalog
):
    page = berlin_page
    assert not User.objects.exists()

    # open the site: a fresh instance asks for its owner
    page.goto(live_server.url)
    expect(page.get_by_role("heading", name="Create the owner account")).to_be_visible()
    expect(page.get_by_text("The first one owns it")).to_be_visible()
    expect(page.get_by_role("link", name="Log in")).to_have_count(0)
    shoot(page, "first-run.png")

    # create the owner account
    page.get_by_label("Email").fill("owner@example.com")
    page.locator("#id_password1").fill(PASSWORD)
    page.locator("#id_password2").fill(PASSWORD)
    page.get_by_role("button", name="Create the owner account").click()
    expect(page.get_by_role("log", name="Conversation")).to_be_visible()
    welcome = page.locator(".flash")
    expect(welcome).to_contain_text("Welcome to Sparky!")
    owner = User.objects.get(email="owner@example.com")
    assert owner.is_staff and owner.time_zone == "Europe/Berlin"  # the browser's zone
    expect(page.locator(".chat__engine")).to_contain_text("Using the built-in offline parser")

    # log a meal
    send(page, "2 eggs for breakfast")
    reply = last_reply(page)
    expect(reply).to_contain_text("Egg")
    expect(reply.locator(".chip")).to_have_text(["Egg · 143 kcal"])
    expect(page.locator("#diary .meal")).to_contain_text("Egg")
    expect(page.locator("#diary .ring__label strong")).to_have_text("143")

    # add a service that fails its test: an Ollama that is not running
    port = closed_port()
    page.get_by_role("link", name="AI settings").click()
    page.get_by_role("link", name="Add a service").click()
    page.get_by_role("textbox", name="Name", exact=True).fill("Home Ollama")
    page.get_by_role("combobox", name="Provider").select_option("ollama")
    page.get_by_role("textbox", name="Model", exact=True).fill("llama3.2")
    page.get_by_role("textbox", name="Server URL", exact=True).fill(f"http://127.0.0.1:{port}")
    page.get_by_role("button", name="Add and test").click()

    # see the cause
    expect(page.locator(".flash")).to_contain_text(
        "Home Ollama did not pass the connection test, so Sparky keeps using the built-in "
        "offline parser."
    )
    service = page.locator(".service", has_text="Home Ollama")
    expect(service.locator(".badge")).to_have_text("Not in use")
    cause = service.locator(".test-result")
    expect(cause).to_contain_text(
        f"Nothing is listening at http://127.0.0.1:{port} (connection refused)"
    )
    expect(cause).to_contain_text("Start it with: ollama serve")
    expect(service.get_by_role("button", name="Use it anyway")).to_be_visible()
    assert active_ai_service(owner) is None
    shoot(page, "settings-failed-test.png")

    # keep logging offline
    page.get_by_role("link", name="Chat", exact=True).click()
    expect(page.locator(".chat__engine")).to_contain_text("Using the built-in offline parser")
    send(page, "walked 30 min")
    reply = last_reply(page)
    expect(reply).to_contain_text("Walking")
    expect(reply.locator(".tag--quiet")).to_have_text("offline parser")
    expect(reply.locator(".chip")).to_have_text([re.compile(r"^Walking.* · 30 min$")])
    expect(page.locator("#diary")).to_contain_text("30 min")


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_welcome_note_never_covers_the_diarys_day_arrow(
    page: Page, live_server, transactional_db, size
):
    page.set_viewport_size(size)
    page.goto(f"{live_server.url}/accounts/signup/")
    page.get_by_label("Email").fill("owner@example.com")
    page.locator("#id_password1").fill(PASSWORD)
    page.locator("#id_password2").fill(PASSWORD)
    page.get_by_role("button", name="Create the owner account").click()
    note = page.locator(".flash")
    expect(note).to_contain_text("Welcome to Sparky!")
    if size is PHONE:
        page.get_by_role("tab", name="Diary").click()

    arrow = page.get_by_role("link", name=re.compile("^Previous day"))
    arrow.click(trial=True, timeout=2_000)  # nothing lies over it: it could be clicked now
    assert not boxes_overlap(note.bounding_box(), arrow.bounding_box())
    arrow.click()
    expect(page.locator("#diary-title")).not_to_have_text("Today")

    page.get_by_role("button", name="Dismiss this note").click()
    expect(note).to_have_count(0)


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_rings_goal_stays_inside_the_ring(page: Page, live_server, carol, size):
    goal_set(user=carol, calories=2000)
    page.set_viewport_size(size)
    log_in(page, live_server)
    if size is PHONE:
        page.get_by_role("tab", name="Diary").click()

    ring = page.locator("#diary .ring svg").bounding_box()
    goal = page.locator("#diary .ring__label span")
    expect(goal).to_have_text("of 2000 kcal")
    text = goal.evaluate(
        """span => { const r = document.createRange(); r.selectNodeContents(span);
        return Array.from(r.getClientRects()).map(b => ({x: b.x, y: b.y, width: b.width,
        height: b.height})); }"""
    )
    # The ring's hole: radius 42 - half the 10-wide stroke, of a 100-unit view box.
    cx, cy = ring["x"] + ring["width"] / 2, ring["y"] + ring["height"] / 2
    hole = ring["width"] * 37 / 100
    for line in text:
        for x in (line["x"], line["x"] + line["width"]):
            for y in (line["y"], line["y"] + line["height"]):
                assert ((x - cx) ** 2 + (y - cy) ** 2) ** 0.5 < hole - 2, (size, line)
    if size is PHONE:
        shoot(page, "phone-ring.png")


def test_the_browsers_time_zone_is_proposed_first(browser, live_server, carol):
    context = browser.new_context(viewport=DESKTOP, timezone_id="America/Sao_Paulo")
    page = context.new_page()
    try:
        log_in(page, live_server)
        page.goto(f"{live_server.url}/settings/preferences/")

        select = page.get_by_label("Time zone")
        first = select.locator("optgroup").first
        expect(first).to_have_attribute("label", "Your browser's time zone")
        expect(first.locator("option")).to_have_text(["America/Sao Paulo (UTC-03:00)"])
        expect(select.locator("optgroup").nth(1)).to_have_attribute("label", "Common time zones")
        expect(select.locator('option[value="Factory"]')).to_have_count(0)
        expect(select).to_have_value("UTC")  # proposed, not chosen behind the user's back

        select.select_option("America/Sao_Paulo")
        page.get_by_role("button", name="Save preferences").click()
        expect(page.locator(".flash")).to_contain_text("Preferences saved.")
        carol.refresh_from_db()
        assert carol.time_zone == "America/Sao_Paulo"
    finally:
        context.close()
