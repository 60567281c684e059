"""Changing and removing what a client made: custom exercises, custom categories and values,
goals; and list pages that cannot ask for every row at once."""

import datetime as dt

import pytest

from exercise.models import Exercise, ExerciseEntry
from exercise.services import exercise_create_custom, exercise_entry_create
from measurements.models import CustomCategory, CustomMeasurement
from measurements.services import custom_measurement_log
from nutrition.models import UserGoal
from nutrition.services import goal_set
from sparky.dates import today_for
from sparky.pagination import MAX_LIMIT

from .conftest import results

pytestmark = pytest.mark.django_db


@pytest.fixture
def padel(alice):
    return exercise_create_custom(user=alice, name="Padel", calories_per_hour=500)


def test_a_custom_exercise_is_changed_and_then_deleted(alice_api, padel):
    changed = alice_api.patch(
        f"/api/exercises/{padel.pk}/", {"calories_per_hour": 620, "category": None}, format="json"
    )
    assert changed.status_code == 200, changed.content
    assert changed.json()["calories_per_hour"] == 620 and changed.json()["name"] == "Padel"

    assert alice_api.delete(f"/api/exercises/{padel.pk}/").status_code == 204
    assert not Exercise.objects.filter(pk=padel.pk).exists()


def test_an_exercise_in_the_diary_is_not_deleted_and_the_error_says_why(alice_api, alice, padel):
    exercise_entry_create(user=alice, exercise=padel, duration_minutes=45)

    refused = alice_api.delete(f"/api/exercises/{padel.pk}/")

    assert refused.status_code == 400 and refused.json()["error"] == "in_use"
    assert "Delete those entries first" in refused.json()["detail"]
    assert ExerciseEntry.objects.for_user(alice).get().exercise_id == padel.pk


def test_catalog_exercises_are_read_only_and_others_custom_ones_invisible(
    alice_api, bob_api, padel
):
    catalog = Exercise.objects.create(name="Rowing, moderate", met=7.0, source="compendium")

    assert alice_api.get(f"/api/exercises/{catalog.pk}/").status_code == 200
    assert alice_api.patch(f"/api/exercises/{catalog.pk}/", {"met": 1}).status_code == 403
    assert alice_api.delete(f"/api/exercises/{catalog.pk}/").status_code == 403
    assert bob_api.patch(f"/api/exercises/{padel.pk}/", {"name": "Mine"}).status_code == 404
    assert bob_api.delete(f"/api/exercises/{padel.pk}/").status_code == 404
    catalog.refresh_from_db()
    padel.refresh_from_db()
    assert catalog.met == 7.0 and padel.name == "Padel"


def test_a_category_is_created_renamed_and_deleted_with_its_values(alice_api, alice):
    created = alice_api.post(
        "/api/custom-categories/", {"name": "Sleep", "unit": "hours"}, format="json"
    )
    assert created.status_code == 201, created.content
    assert created.json()["frequency"] == "Daily"
    duplicate = alice_api.post("/api/custom-categories/", {"name": "sleep"}, format="json")
    assert duplicate.status_code == 400 and duplicate.json()["error"] == "duplicate_category"

    custom_measurement_log(user=alice, name="Sleep", value=7.5)
    category_id = created.json()["id"]
    renamed = alice_api.patch(
        f"/api/custom-categories/{category_id}/", {"name": "Sleep time"}, format="json"
    )
    assert renamed.status_code == 200 and renamed.json()["name"] == "Sleep time"
    assert CustomMeasurement.objects.for_user(alice).get().category.name == "Sleep time"

    assert alice_api.delete(f"/api/custom-categories/{category_id}/").status_code == 204
    assert not CustomCategory.objects.for_user(alice).exists()
    assert not CustomMeasurement.objects.for_user(alice).exists()


def test_a_frequency_the_values_do_not_fit_is_refused(alice_api, alice):
    today = today_for(alice)
    custom_measurement_log(user=alice, name="Glucose", value=5.1, frequency="All")
    row = custom_measurement_log(user=alice, name="Glucose", value=6.3, frequency="All")
    assert CustomMeasurement.objects.for_user(alice).filter(entry_date=today).count() == 2

    refused = alice_api.patch(
        f"/api/custom-categories/{row.category_id}/", {"frequency": "Daily"}, format="json"
    )

    assert refused.status_code == 400 and refused.json()["error"] == "frequency_conflict"
    assert CustomCategory.objects.get(pk=row.category_id).frequency == "All"


def test_a_value_is_corrected_but_not_moved_onto_a_taken_day(alice_api, alice):
    yesterday = today_for(alice) - dt.timedelta(days=1)
    custom_measurement_log(user=alice, name="Sleep", value=6, entry_date=yesterday.isoformat())
    today_row = custom_measurement_log(user=alice, name="Sleep", value=7)

    corrected = alice_api.patch(
        f"/api/custom-measurements/{today_row.pk}/", {"value": 7.25}, format="json"
    )
    assert corrected.status_code == 200 and corrected.json()["value"] == 7.25

    moved = alice_api.patch(
        f"/api/custom-measurements/{today_row.pk}/",
        {"entry_date": yesterday.isoformat()},
        format="json",
    )
    assert moved.status_code == 400 and moved.json()["error"] == "duplicate_entry"
    assert sorted(CustomMeasurement.objects.for_user(alice).values_list("value", flat=True)) == [
        6,
        7.25,
    ]


def test_bob_cannot_touch_alices_categories_or_values(alice, bob_api):
    row = custom_measurement_log(user=alice, name="Sleep", value=7)

    assert (
        bob_api.patch(f"/api/custom-categories/{row.category_id}/", {"name": "x"}).status_code
        == 404
    )
    assert bob_api.delete(f"/api/custom-categories/{row.category_id}/").status_code == 404
    assert bob_api.patch(f"/api/custom-measurements/{row.pk}/", {"value": 1}).status_code == 404
    row.refresh_from_db()
    assert row.value == 7 and row.category.name == "Sleep"


def test_deleting_a_days_goal_brings_the_default_back_on_that_day(alice_api, alice):
    today = today_for(alice).isoformat()
    goal_set(user=alice, calories=2000)
    goal_set(user=alice, goal_date=today, calories=2600)

    assert alice_api.delete(f"/api/goals/{today}/").status_code == 204

    effective = alice_api.get("/api/goals/effective/", {"date": today}).json()
    assert effective["source"] == "default" and effective["goal"]["calories"] == 2000
    again = alice_api.delete(f"/api/goals/{today}/")
    assert again.status_code == 404 and "No goal for" in again.json()["detail"]
    assert alice_api.delete("/api/goals/default/").status_code == 204
    assert not UserGoal.objects.for_user(alice).exists()


def test_an_impossible_goal_date_is_a_bad_request_that_says_why(alice_api):
    response = alice_api.get("/api/goals/2024-02-30/")

    assert response.status_code == 400 and response.json()["error"] == "invalid_date"
    assert "February 2024 has 29 days" in response.json()["detail"]
    assert alice_api.delete("/api/goals/2023-13-01/").json()["detail"].count("no month 13") == 1


def test_a_list_page_is_capped_however_large_a_limit_is_asked(alice_api, alice):
    CustomCategory.objects.bulk_create(
        CustomCategory(user=alice, name=f"Thing {n:03}") for n in range(MAX_LIMIT + 5)
    )

    page = alice_api.get("/api/custom-categories/", {"limit": 100_000})

    assert len(results(page)) == MAX_LIMIT
    assert page.json()["count"] == MAX_LIMIT + 5 and page.json()["next"]
