"""Sparky as production runs it: `make serve` (manage.py sparky_serve) with DEBUG=false, started
from a database that has no account yet, opened in the browser. Every page answers, with its
stylesheet, script and logo served by WhiteNoise from the collected static files."""

import os
import queue
import signal
import subprocess
import sys
import threading
import time
from urllib.parse import urljoin

import httpx
import pytest
from cryptography.fernet import Fernet
from django.conf import settings
from django.db import connection
from playwright.sync_api import Page, expect

from tests.browser.conftest import PASSWORD
from tests.config.test_sparky_run import free_port
from tests.worker import database_url

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

START_SECONDS = 90


def production_env(static_root) -> dict[str, str]:
    return {
        **os.environ,
        "DATABASE_URL": database_url(connection.settings_dict),
        "DEBUG": "false",
        "SECRET_KEY": "production-test-" + Fernet.generate_key().decode(),
        "SPARKY_ENCRYPTION_KEYS": Fernet.generate_key().decode(),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "STATIC_ROOT": str(static_root),
        # Plain HTTP on loopback: no TLS in front of it here.
        "SECURE_SSL_REDIRECT": "false",
        "SESSION_COOKIE_SECURE": "false",
        "CSRF_COOKIE_SECURE": "false",
        "PYTHONUNBUFFERED": "1",
    }


@pytest.fixture
def production_server(tmp_path):
    port = free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            "manage.py",
            "sparky_serve",
            "--port",
            str(port),
            "--workers",
            "1",
            "--skip-catalog",
        ],
        cwd=settings.BASE_DIR,
        env=production_env(tmp_path / "static"),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    output: queue.Queue = queue.Queue()
    threading.Thread(target=lambda: [output.put(line) for line in proc.stdout], daemon=True).start()
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + START_SECONDS
    try:
        while True:
            if proc.poll() is not None or time.monotonic() > deadline:
                lines = []
                while not output.empty():
                    lines.append(output.get())
                raise AssertionError("make serve did not start:\n" + "".join(lines))
            try:
                httpx.get(f"{base}/accounts/login/", timeout=2)
                break
            except httpx.TransportError:
                time.sleep(0.3)
        yield base
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def assert_styled(page: Page):
    """The page has its stylesheet, script and logo, under their hashed names."""
    for selector, attribute in (
        ("link[rel=stylesheet]", "href"),
        ("script[src*=sparky]", "src"),
        ("link[rel=icon]", "href"),
    ):
        url = page.locator(selector).first.get_attribute(attribute)
        assert url and url.count(".") >= 2, url  # sparky.<hash>.css: the manifest's name
        assert page.request.get(urljoin(page.url, url)).status == 200, url


def test_make_serve_with_debug_off_serves_every_page_with_its_static_files(
    page: Page, production_server
):
    failed: list[str] = []
    page.on("response", lambda r: r.status >= 400 and failed.append(f"{r.status} {r.url}"))

    page.goto(production_server)
    expect(page.get_by_role("heading", name="Create the owner account")).to_be_visible()
    assert_styled(page)
    page.get_by_label("Email").fill("owner@example.com")
    page.locator("#id_password1").fill(PASSWORD)
    page.locator("#id_password2").fill(PASSWORD)
    page.get_by_role("button", name="Create the owner account").click()
    expect(page.get_by_role("log", name="Conversation")).to_be_visible()
    assert_styled(page)
    logo = page.locator("header img").first
    expect(logo).to_be_visible()
    assert page.evaluate("img => img.naturalWidth", logo.element_handle()) > 0

    page.get_by_label("Message to Sparky").fill("a glass of water")
    page.get_by_label("Message to Sparky").press("Enter")
    expect(page.locator("#thread .msg--reply").last).to_contain_text("water", ignore_case=True)

    page.goto(f"{production_server}/settings/")
    expect(page.locator("main")).to_be_visible()
    page.goto(f"{production_server}/admin/")
    expect(page.get_by_text("Catalog, diaries and accounts")).to_be_visible()
    page.goto(f"{production_server}/api/docs/")
    expect(page.locator(".swagger-ui").first).to_be_visible()

    assert failed == []
