"""Settings, Your data, in a real browser: the downloads, and imports from MyFitnessPal and
Cronometer with their preview, their progress and the diary afterwards."""

import io
import json
import zipfile
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from nutrition.models import FoodEntry
from nutrition.services import food_create_custom, food_entry_create
from sparky.models import User
from tests.browser.conftest import PASSWORD, log_in, shoot
from tests.worker import celery_worker, worker  # noqa: F401  (fixtures)

pytestmark = pytest.mark.browser

FILES = Path(__file__).resolve().parents[1] / "diary" / "files"


def open_your_data(page: Page, live_server):
    page.goto(f"{live_server.url}/settings/")
    page.get_by_role("link", name="Your data").click()
    expect(page.get_by_role("heading", name="Download your data")).to_be_visible()


def test_the_downloads_hold_my_diary_and_nobody_elses(page: Page, live_server, carol):
    food_entry_create(
        user=carol, food=food_create_custom(user=carol, name="Carol's dal", calories=310)
    )
    dave = User.objects.create_user(email="dave@example.com", password=PASSWORD)
    food_entry_create(user=dave, food=food_create_custom(user=dave, name="Dave's pie", calories=9))
    log_in(page, live_server)
    open_your_data(page, live_server)

    with page.expect_download() as json_download:
        page.get_by_role("link", name="Download as JSON").click()
    with page.expect_download() as zip_download:
        page.get_by_role("link", name="Download as CSV files (zip)").click()

    data = json.loads(Path(json_download.value.path()).read_text())
    assert [e["food_name"] for e in data["food_entries"]] == ["Carol's dal"]
    assert "Dave" not in json.dumps(data)
    assert json_download.value.suggested_filename.startswith("sparky-export-")
    with zipfile.ZipFile(io.BytesIO(Path(zip_download.value.path()).read_bytes())) as archive:
        assert "Carol's dal" in archive.read("food_entries.csv").decode()
    shoot(page, "your-data.png")


def test_a_myfitnesspal_import_previews_then_lands_in_the_diary(page: Page, live_server, carol):
    log_in(page, live_server)
    open_your_data(page, live_server)

    page.get_by_label("Export file").set_input_files(FILES / "myfitnesspal-nutrition-summary.csv")
    page.get_by_role("button", name="Preview import").click()

    expect(page.get_by_text("Read as a MyFitnessPal export.")).to_be_visible()
    expect(page.get_by_text("Importing this file will add 6 diary food entries.")).to_be_visible()
    expect(page.locator(".import__rows li").first).to_have_text(
        "2026-11-02 · Breakfast · Breakfast (MyFitnessPal) · 1 meal · 412 kcal"
    )
    assert not FoodEntry.objects.for_user(carol).exists()
    shoot(page, "import-preview.png")
    page.get_by_role("button", name="Import 6 rows").click()

    expect(page.get_by_role("status")).to_contain_text("Import finished.")
    expect(page.get_by_role("status")).to_contain_text("Added 6 diary food entries.")
    expect(page.get_by_label("Import progress")).to_have_attribute("value", "100")
    assert FoodEntry.objects.for_user(carol).count() == 6
    shoot(page, "import-done.png")
    page.goto(f"{live_server.url}/?date=2026-11-02")
    expect(page.locator("#diary")).to_contain_text("Lunch (MyFitnessPal)")


def test_a_cronometer_import_run_by_the_worker_shows_its_progress(
    page: Page,
    live_server,
    carol,
    worker,  # noqa: F811
):
    log_in(page, live_server)
    open_your_data(page, live_server)
    page.get_by_label("Export file").set_input_files(FILES / "cronometer-servings.csv")
    page.get_by_role("button", name="Preview import").click()
    expect(page.get_by_text("Read as a Cronometer export.")).to_be_visible()

    page.get_by_role("button", name="Import 6 rows").click()

    # The worker runs it: the page shows the progress bar, then, without a reload, the result.
    expect(page.get_by_label("Import progress")).to_be_visible()
    expect(page.get_by_role("status")).to_contain_text(
        "Added 6 diary food entries.", timeout=30_000
    )
    assert FoodEntry.objects.for_user(carol).count() == 6


def test_a_bad_row_is_named_and_nothing_is_imported(page: Page, live_server, carol, tmp_path):
    bad = tmp_path / "servings.csv"
    text = (FILES / "cronometer-servings.csv").read_text()
    bad.write_text(text.replace("2.00 large", "two large"))
    log_in(page, live_server)
    open_your_data(page, live_server)

    page.get_by_label("Export file").set_input_files(bad)
    page.get_by_role("button", name="Preview import").click()

    alert = page.get_by_role("alert")
    expect(alert).to_contain_text("1 row cannot be imported.")
    expect(alert).to_contain_text("Row 7, Amount: 'two' is not a number.")
    expect(page.get_by_role("button", name="Import 6 rows")).to_have_count(0)
    assert not FoodEntry.objects.for_user(carol).exists()


def test_the_same_file_twice_adds_nothing(page: Page, live_server, carol):
    log_in(page, live_server)
    for _ in range(2):
        open_your_data(page, live_server)
        page.get_by_label("Export file").set_input_files(FILES / "loseit-food-log.csv")
        page.get_by_role("button", name="Preview import").click()
        expect(page.get_by_text("Read as a Lose It! export.")).to_be_visible()
        if page.get_by_role("button", name="Import 5 rows").count():
            page.get_by_role("button", name="Import 5 rows").click()
            expect(page.get_by_role("status")).to_contain_text("Import finished.")

    expect(page.get_by_text("Everything in this file is in your diary already")).to_be_visible()
    expect(page.get_by_text("Already in your diary, skipped: 4 diary food entries")).to_be_visible()
    assert FoodEntry.objects.for_user(carol).count() == 4
