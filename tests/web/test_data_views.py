"""Settings, Your data: the download buttons, and an import's preview, confirmation and
progress as the page shows them."""

import json
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from diary.imports import import_preview
from diary.models import ImportJob
from nutrition.models import FoodEntry
from tests.web.conftest import HTMX

pytestmark = pytest.mark.django_db

FILES = Path(__file__).resolve().parents[1] / "diary" / "files"


def test_settings_has_a_your_data_section_with_download_buttons(alice_client):
    page = alice_client.get("/settings/data/").content.decode()

    assert 'href="/settings/data/"' in page and "Your data" in page
    assert 'href="/settings/data/export.json"' in page and "Download as JSON" in page
    assert 'href="/settings/data/export.zip"' in page and "Download as CSV files (zip)" in page


def test_the_download_buttons_give_the_users_own_files(alice_client):
    response = alice_client.get("/settings/data/export.json")

    assert response.status_code == 200
    assert response["Content-Disposition"].endswith('.json"')
    assert json.loads(response.content)["email"] == "alice@example.com"
    assert alice_client.get("/settings/data/export.zip")["Content-Type"] == "application/zip"


def test_an_upload_shows_what_will_be_added_before_anything_is(alice, alice_client):
    upload = SimpleUploadedFile("servings.csv", (FILES / "cronometer-servings.csv").read_bytes())

    response = alice_client.post("/settings/data/import/", {"file": upload}, follow=True)

    page = response.content.decode()
    assert "Read as a Cronometer export." in page
    assert "Importing this file will add <strong>6 diary food entries</strong>." in page
    assert "2026-11-02 · Lunch · Grilled Chicken Breast · 150 g · 248 kcal" in page
    assert "Import 6 rows" in page
    assert not FoodEntry.objects.for_user(alice).exists()


def test_confirming_starts_the_import_once_saved(
    alice, alice_client, django_capture_on_commit_callbacks
):
    job = import_preview(
        user=alice,
        filename="mfp.csv",
        content=(FILES / "myfitnesspal-nutrition-summary.csv").read_bytes(),
    )

    with django_capture_on_commit_callbacks(execute=True):
        response = alice_client.post(f"/settings/data/import/{job.pk}/confirm/")

    assert response["Location"] == f"/settings/data/import/{job.pk}/"
    page = alice_client.get(response["Location"]).content.decode()
    assert "Import finished." in page and "Added 6 diary food entries." in page
    assert FoodEntry.objects.for_user(alice).count() == 6


def test_the_progress_fragment_polls_while_the_import_runs(alice, alice_client):
    job = import_preview(
        user=alice,
        filename="mfp.csv",
        content=(FILES / "myfitnesspal-nutrition-summary.csv").read_bytes(),
    )
    ImportJob.objects.for_user(alice).filter(pk=job.pk).update(status="running", done=3)

    fragment = alice_client.get(f"/settings/data/import/{job.pk}/", **HTMX).content.decode()

    assert 'hx-trigger="load delay:1s"' in fragment
    assert "Importing… 3 of 6 rows" in fragment
    assert '<progress max="6" value="3"' in fragment
    assert "<html" not in fragment


def test_a_finished_import_stops_polling_and_says_what_it_added(alice, alice_client):
    job = import_preview(
        user=alice, filename="lose.csv", content=(FILES / "loseit-food-log.csv").read_bytes()
    )
    ImportJob.objects.for_user(alice).filter(pk=job.pk).update(
        status="done", done=5, created={"food_entry": 4, "exercise_entry": 1}
    )

    fragment = alice_client.get(f"/settings/data/import/{job.pk}/", **HTMX).content.decode()

    assert "hx-trigger" not in fragment
    assert "Added 4 diary food entries, 1 exercise entry." in fragment


def test_a_bad_row_is_listed_and_there_is_nothing_to_confirm(alice, alice_client):
    text = (FILES / "loseit-food-log.csv").read_text().replace(",105,", ",-105,")
    upload = SimpleUploadedFile("lose.csv", text.encode())

    page = alice_client.post("/settings/data/import/", {"file": upload}, follow=True)

    html = page.content.decode()
    assert "1 row cannot be imported." in html
    assert "Row 2, Calories: -105 is negative; a number of 0 or more is expected." in html
    assert "Nothing has been imported." in html
    assert "Import 5 rows" not in html


def test_a_file_sparky_cannot_read_is_refused_on_the_settings_page(alice_client):
    upload = SimpleUploadedFile("notes.txt", b"hello\n")

    page = alice_client.post("/settings/data/import/", {"file": upload}, follow=True)

    assert "notes.txt: Sparky does not know this file&#x27;s layout" in page.content.decode()


def test_a_failed_import_says_why_in_plain_words(alice, alice_client):
    job = import_preview(
        user=alice, filename="lose.csv", content=(FILES / "loseit-food-log.csv").read_bytes()
    )
    ImportJob.objects.for_user(alice).filter(pk=job.pk).update(
        status="failed", error="Nothing was imported: row 6 (Running) was refused: too long."
    )

    page = alice_client.get(f"/settings/data/import/{job.pk}/").content.decode()

    assert '<div class="form-errors" role="alert"><p>Nothing was imported: row 6' in page
    assert "hx-trigger" not in page
