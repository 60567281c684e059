"""The exercise diary: log, filter by dates, change, delete; alice's only."""

import datetime as dt

import pytest

from exercise import services
from exercise.models import Exercise, ExerciseEntry
from measurements.services import checkin_upsert
from sparky.dates import today_for

from .conftest import results

pytestmark = pytest.mark.django_db


@pytest.fixture
def walking(db):
    return Exercise.objects.create(
        name="Walking, 3.5 mph, brisk", met=4.3, source="compendium", source_id="17200"
    )


def test_logging_by_id_estimates_calories_from_weight(alice_api, alice, walking):
    checkin_upsert(user=alice, weight=80)
    response = alice_api.post(
        "/api/exercise-entries/",
        {"exercise": str(walking.pk), "duration_minutes": 60},
        format="json",
    )
    assert response.status_code == 201, response.content
    assert response.json()["calories_burned"] == 344  # 4.3 MET x 80 kg x 1 h
    assert response.json()["exercise_name"].startswith("Walking")


def test_logging_by_name_and_the_not_found_error(alice_api, alice, walking):
    ok = alice_api.post(
        "/api/exercise-entries/",
        {"exercise_name": "walking", "duration_minutes": 20},
        format="json",
    )
    assert ok.status_code == 201
    missing = alice_api.post(
        "/api/exercise-entries/", {"exercise_name": "zorbing xyz"}, format="json"
    )
    assert missing.status_code == 400 and missing.json()["error"] == "exercise_not_found"
    assert ExerciseEntry.objects.for_user(alice).count() == 1


def test_entries_filter_by_dates_and_change_and_delete(alice_api, alice, walking):
    today = today_for(alice)
    old = services.exercise_entry_create(
        user=alice, exercise=walking, duration_minutes=30, entry_date=today - dt.timedelta(3)
    )
    services.exercise_entry_create(user=alice, exercise=walking, duration_minutes=30)
    assert len(results(alice_api.get("/api/exercise-entries/", {"date": today.isoformat()}))) == 1
    assert (
        len(
            results(
                alice_api.get(
                    "/api/exercise-entries/", {"end": (today - dt.timedelta(1)).isoformat()}
                )
            )
        )
        == 1
    )
    changed = alice_api.patch(
        f"/api/exercise-entries/{old.pk}/", {"duration_minutes": 60}, format="json"
    )
    assert changed.status_code == 200
    assert changed.json()["calories_burned"] == old.calories_burned * 2
    assert alice_api.delete(f"/api/exercise-entries/{old.pk}/").status_code == 204
    assert not ExerciseEntry.objects.filter(pk=old.pk).exists()


def test_bob_gets_404_for_alices_entry_and_an_empty_list(alice, bob_api, walking):
    entry = services.exercise_entry_create(user=alice, exercise=walking, duration_minutes=30)
    assert bob_api.get(f"/api/exercise-entries/{entry.pk}/").status_code == 404
    assert bob_api.patch(f"/api/exercise-entries/{entry.pk}/", {"notes": "x"}).status_code == 404
    assert bob_api.delete(f"/api/exercise-entries/{entry.pk}/").status_code == 404
    assert results(bob_api.get("/api/exercise-entries/")) == []
    assert ExerciseEntry.objects.filter(pk=entry.pk).exists()


def test_999_km_in_one_minute_is_a_400_that_says_why(alice_api, alice, walking):
    response = alice_api.post(
        "/api/exercise-entries/",
        {
            "exercise": str(walking.pk),
            "duration_minutes": 1,
            "distance": 999,
            "distance_unit": "km",
        },
        format="json",
    )

    assert response.status_code == 400
    assert "59,940 km/h" in str(response.json())
    assert not ExerciseEntry.objects.for_user(alice).exists()


def test_an_unknown_exercise_id_is_a_404_even_with_a_name(alice_api, alice, walking):
    response = alice_api.post(
        "/api/exercise-entries/",
        {"exercise": "00000000-0000-4000-8000-000000000000", "exercise_name": "walking"},
        format="json",
    )

    assert response.status_code == 404, response.content
    assert not ExerciseEntry.objects.for_user(alice).exists()
