"""Preferences: read and change through preferences_update."""

import pytest

from measurements.services import checkin_upsert
from sparky.services import preferences_for

pytestmark = pytest.mark.django_db


def test_defaults_are_shown(alice_api):
    body = alice_api.get("/api/preferences/").json()
    assert body["default_weight_unit"] == "kg" and body["time_zone"] == "UTC"
    assert body["chat_categories"] == []


def test_only_the_given_preferences_change(alice_api, alice):
    checkin_upsert(user=alice, weight=80)
    response = alice_api.patch(
        "/api/preferences/",
        {"default_weight_unit": "lb", "time_zone": "Europe/Berlin", "chat_categories": ["food"]},
        format="json",
    )
    assert response.status_code == 200, response.content
    assert response.json()["time_zone"] == "Europe/Berlin"
    alice.refresh_from_db()
    assert alice.time_zone == "Europe/Berlin"
    assert preferences_for(alice).chat_categories == ["food"]
    assert preferences_for(alice).date_format == "yyyy-MM-dd"
    weight = alice_api.get("/api/checkins/").json()["results"][0]["weight"]
    assert weight == pytest.approx(176.37, abs=0.01)  # stored check-ins follow the unit


def test_an_unknown_time_zone_is_a_400_with_the_reason(alice_api, alice):
    response = alice_api.patch("/api/preferences/", {"time_zone": "Mars/Olympus"}, format="json")
    assert response.status_code == 400 and response.json()["error"] == "invalid_time_zone"
    alice.refresh_from_db()
    assert alice.time_zone == "UTC"


def test_bobs_change_leaves_alice_alone(bob_api, alice):
    bob_api.patch("/api/preferences/", {"default_weight_unit": "lb"}, format="json")
    assert preferences_for(alice).default_weight_unit == "kg"
