"""What every app's ViewSet has from sparky.api.DomainViewSet: a user's rows are theirs alone."""

import pytest

from tests.api.conftest import client_for

pytestmark = pytest.mark.django_db


def _food(api) -> str:
    response = api.post("/api/foods/", {"name": "Stew", "calories": 300}, format="json")
    assert response.status_code == 201, response.content
    return response.json()["id"]


def _exercise(api) -> str:
    response = api.post("/api/exercises/", {"name": "Rowing laps", "met": 7}, format="json")
    assert response.status_code == 201, response.content
    return response.json()["id"]


# Each endpoint, the body of a new row, and a change to it that is not valid.
ENDPOINTS = [
    ("/api/foods/", lambda api: {"name": "Oat bar", "calories": 200}, {"calories": "lots"}),
    ("/api/exercises/", lambda api: {"name": "Stairs", "met": 8}, {"met": "high"}),
    (
        "/api/food-entries/",
        lambda api: {"food": _food(api), "quantity": 1, "meal_type": "lunch"},
        {"quantity": "some"},
    ),
    (
        "/api/exercise-entries/",
        lambda api: {"exercise": _exercise(api), "duration_minutes": 30},
        {"duration_minutes": "long"},
    ),
    ("/api/custom-categories/", lambda api: {"name": "Sleep"}, {"frequency": "Often"}),
    ("/api/custom-measurements/", lambda api: {"name": "Mood", "value": 7}, {"value": "good"}),
    (
        "/api/ai-services/",
        lambda api: {
            "service_name": "Mine",
            "service_type": "openai",
            "model_name": "gpt-4o-mini",
            "api_key": "sk-test-0",
        },
        {"service_type": "telepathy"},
    ),
]


@pytest.mark.parametrize(("url", "body", "bad_change"), ENDPOINTS, ids=[e[0] for e in ENDPOINTS])
def test_another_users_row_is_not_found_however_it_is_asked_for(alice, bob, url, body, bad_change):
    alice_api, bob_api = client_for(alice), client_for(bob)
    created = alice_api.post(url, body(alice_api), format="json")
    assert created.status_code == 201, created.content
    row = f"{url}{created.json()['id']}/"

    assert bob_api.get(row).status_code == 404
    # Not found comes before a bad body: a 400 would tell bob the row exists.
    assert bob_api.patch(row, bad_change, format="json").status_code == 404
    assert bob_api.delete(row).status_code == 404
    assert created.json()["id"] not in [r["id"] for r in bob_api.get(url).json()["results"]]

    assert alice_api.patch(row, bad_change, format="json").status_code == 400
    assert alice_api.get(row).json() == created.json()
