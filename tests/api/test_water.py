"""Water: read a day, add glasses, set the total."""

import datetime as dt

import pytest

from nutrition import services
from sparky.dates import today_for

pytestmark = pytest.mark.django_db


def test_glasses_add_up_and_can_be_set(alice_api, alice):
    today = today_for(alice).isoformat()
    assert alice_api.get("/api/water/").json() == {"date": today, "glasses": 0}
    assert alice_api.post("/api/water/", {"glasses": 2}, format="json").json()["glasses"] == 2
    assert alice_api.post("/api/water/", {}, format="json").json()["glasses"] == 3
    assert alice_api.put("/api/water/", {"glasses": 6}, format="json").json()["glasses"] == 6
    assert alice_api.get("/api/water/", {"date": today}).json()["glasses"] == 6


def test_another_day_is_kept_apart(alice_api, alice):
    yesterday = (today_for(alice) - dt.timedelta(days=1)).isoformat()
    alice_api.post("/api/water/", {"glasses": 4, "date": yesterday}, format="json")
    assert alice_api.get("/api/water/", {"date": yesterday}).json()["glasses"] == 4
    assert alice_api.get("/api/water/").json()["glasses"] == 0


def test_a_negative_total_or_future_day_is_a_400(alice_api, alice):
    assert alice_api.put("/api/water/", {"glasses": -1}, format="json").status_code == 400
    tomorrow = (today_for(alice) + dt.timedelta(days=1)).isoformat()
    response = alice_api.post("/api/water/", {"glasses": 1, "date": tomorrow}, format="json")
    assert response.status_code == 400 and response.json()["error"] == "future_date"


def test_bob_sees_his_own_water_only(bob_api, alice):
    services.water_add(user=alice, glasses=5)
    assert bob_api.get("/api/water/").json()["glasses"] == 0
