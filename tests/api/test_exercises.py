"""Exercises: search the catalog, create custom ones, read what you can see."""

import pytest

from exercise import services
from exercise.models import Exercise

from .conftest import results

pytestmark = pytest.mark.django_db


@pytest.fixture
def running(db):
    return Exercise.objects.create(
        name="Running, 6 mph (10 min/mile)", met=9.8, source="compendium", source_id="12050"
    )


def test_search_finds_running_with_a_score(alice_api, running):
    rows = results(alice_api.get("/api/exercises/", {"search": "running"}))
    assert rows[0]["id"] == str(running.pk) and rows[0]["score"] > 0.5
    assert rows[0]["met"] == 9.8


def test_a_custom_exercise_is_created_through_the_service(alice_api, alice):
    response = alice_api.post(
        "/api/exercises/", {"name": "Kettlebell flow", "calories_per_hour": 450}, format="json"
    )
    assert response.status_code == 201, response.content
    assert response.json()["is_own"] is True
    assert Exercise.objects.owned_by(alice).get().calories_per_hour == 450
    again = alice_api.post("/api/exercises/", {"name": "kettlebell flow"}, format="json")
    assert again.status_code == 400 and again.json()["error"] == "duplicate_exercise"


def test_an_implausible_met_is_a_400(alice_api):
    response = alice_api.post("/api/exercises/", {"name": "Warp", "met": 99}, format="json")
    assert response.status_code == 400 and response.json()["error"] == "implausible_met"


def test_bob_never_sees_alices_custom_exercise(alice, bob_api, running):
    mine = services.exercise_create_custom(user=alice, name="Alice's circuit")
    assert bob_api.get(f"/api/exercises/{mine.pk}/").status_code == 404
    assert all(r["id"] != str(mine.pk) for r in results(bob_api.get("/api/exercises/")))
    assert results(bob_api.get("/api/exercises/", {"mine": "1"})) == []
    assert bob_api.get(f"/api/exercises/{running.pk}/").status_code == 200
