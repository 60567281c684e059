"""Playwright against pytest-django's live_server, driving Debian's chromium.

Run these in their own pytest invocation (`make test-browser`): Playwright's sync API runs an
event loop, which needs DJANGO_ALLOW_ASYNC_UNSAFE=true and upsets pytest-asyncio tests in the
same process. Never `playwright install`: the system chromium is used.

With SPARKY_SCREENSHOTS=1 the tests also refresh the README's pictures in docs/screenshots/.
"""

import io
import os
from pathlib import Path

import pytest
from PIL import Image
from playwright.sync_api import Page, expect

from sparky.models import User
from tests import fake_llm as fake_llm_module
from tests.sample_catalog import make_catalog

fake_llm = fake_llm_module.fake_llm

PASSWORD = "correct horse battery"
SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {
        **browser_type_launch_args,
        "executable_path": "/usr/bin/chromium",
        "args": CHROMIUM_FLAGS,
    }


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    return {**browser_context_args, "viewport": {"width": 1280, "height": 860}}


@pytest.fixture(autouse=True)
def _timeouts(page: Page):
    # Generous for a loaded CI machine; every wait is on a locator, never a sleep.
    page.set_default_timeout(15_000)
    expect.set_options(timeout=15_000)


@pytest.fixture
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


@pytest.fixture
def catalog(transactional_db):
    return make_catalog()


@pytest.fixture
def carol(transactional_db):
    return User.objects.create_user(email="carol@example.com", password=PASSWORD)


def log_in(page: Page, live_server, email="carol@example.com"):
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("log", name="Conversation")).to_be_visible()


def send(page: Page, text: str):
    box = page.get_by_label("Message to Sparky")
    box.fill(text)
    box.press("Enter")


def last_reply(page: Page):
    return page.locator("#thread .msg--reply").last


def shoot(page: Page, name: str, *, full_page: bool = False):
    """Save a README screenshot when asked to (SPARKY_SCREENSHOTS=1)."""
    if os.environ.get("SPARKY_SCREENSHOTS"):
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / name), full_page=full_page)


def png_file(tmp_path, name="lunch.png") -> Path:
    image = Image.new("RGB", (320, 240), (236, 196, 120))
    for x in range(90, 230):  # a plate-ish disc so the picture is not a flat colour
        for y in range(50, 190):
            if (x - 160) ** 2 + (y - 120) ** 2 < 70**2:
                image.putpixel((x, y), (250, 250, 245))
    out = io.BytesIO()
    image.save(out, format="PNG")
    path = tmp_path / name
    path.write_bytes(out.getvalue())
    return path
