"""Your data through the API: the export as JSON or CSV files, and an import from upload to
done (eager Celery: the run happens when the confirmation is committed)."""

import io
import json
import zipfile
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from nutrition.models import FoodEntry
from nutrition.services import food_create_custom, food_entry_create
from tests.api.conftest import client_for

pytestmark = pytest.mark.django_db(transaction=True)

FILES = Path(__file__).resolve().parents[1] / "diary" / "files"


def csv_file(name: str) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, (FILES / name).read_bytes(), content_type="text/csv")


def test_the_json_export_is_a_download_of_the_users_own_data(alice, bob):
    food_entry_create(user=alice, food=food_create_custom(user=alice, name="Pho", calories=450))
    food_entry_create(user=bob, food=food_create_custom(user=bob, name="Bob's chili", calories=9))

    response = client_for(alice).get("/api/export/json/")

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"].startswith('attachment; filename="sparky-export-')
    data = json.loads(response.content)
    assert [e["food_name"] for e in data["food_entries"]] == ["Pho"]
    assert "Bob's chili" not in response.content.decode()


def test_the_csv_export_is_a_zip_of_csv_files(alice):
    response = client_for(alice).get("/api/export/csv/")

    assert response.status_code == 200
    assert response["Content-Type"] == "application/zip"
    with zipfile.ZipFile(io.BytesIO(response.content)) as archive:
        assert "food_entries.csv" in archive.namelist()


def test_the_export_needs_a_login(db):
    from rest_framework.test import APIClient

    assert APIClient().get("/api/export/json/").status_code == 401


def test_an_import_is_previewed_confirmed_and_done(alice):
    api = client_for(alice)

    preview = api.post("/api/imports/", {"file": csv_file("cronometer-servings.csv")})

    assert preview.status_code == 201, preview.content
    job = preview.json()
    assert (job["source"], job["status"], job["total"]) == ("cronometer", "preview", 6)
    assert job["preview"]["labels"] == ["6 diary food entries"]
    assert not FoodEntry.objects.for_user(alice).exists()

    started = api.post(f"/api/imports/{job['id']}/confirm/")

    assert started.status_code == 202
    done = api.get(f"/api/imports/{job['id']}/").json()
    assert (done["status"], done["percent"], done["created"]) == ("done", 100, {"food_entry": 6})
    assert FoodEntry.objects.for_user(alice).count() == 6
    assert [j["id"] for j in api.get("/api/imports/").json()] == [job["id"]]


def test_an_import_with_a_bad_row_cannot_be_confirmed(alice):
    text = (FILES / "myfitnesspal-nutrition-summary.csv").read_text().replace("2026-11-03", "3/11")
    api = client_for(alice)
    job = api.post("/api/imports/", {"file": SimpleUploadedFile("mfp.csv", text.encode())}).json()

    assert [e["text"] for e in job["preview"]["errors"]] == [
        "Row 6, Date: '3/11' is not a date written YYYY-MM-DD or MM/DD/YYYY.",
        "Row 7, Date: '3/11' is not a date written YYYY-MM-DD or MM/DD/YYYY.",
    ]
    refused = api.post(f"/api/imports/{job['id']}/confirm/")
    assert refused.status_code == 400
    assert refused.json()["error"] == "rows_with_errors"
    assert not FoodEntry.objects.for_user(alice).exists()


def test_a_file_of_an_unknown_layout_is_a_400_saying_what_is_read(alice):
    response = client_for(alice).post(
        "/api/imports/", {"file": SimpleUploadedFile("x.csv", b"a,b\n1,2\n")}
    )

    assert response.status_code == 400
    assert response.json()["error"] == "unknown_format"
    assert "Cronometer servings export" in response.json()["detail"]


def test_an_upload_without_a_file_says_how_to_send_it(alice):
    response = client_for(alice).post("/api/imports/", {}, format="json")

    assert response.status_code == 400
    assert "multipart" in response.json()["detail"]


def test_bob_gets_404_for_alices_import(alice, bob):
    job = client_for(alice).post("/api/imports/", {"file": csv_file("loseit-food-log.csv")}).json()

    assert client_for(bob).get(f"/api/imports/{job['id']}/").status_code == 404
    assert client_for(bob).post(f"/api/imports/{job['id']}/confirm/").status_code == 404
    assert client_for(bob).get("/api/imports/").json() == []
