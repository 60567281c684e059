"""Check-ins: one per day, upserted, in the user's units; alice's only."""

import datetime as dt

import pytest

from measurements.models import CheckInMeasurement
from measurements.services import checkin_upsert
from sparky.dates import today_for

from .conftest import results

pytestmark = pytest.mark.django_db


def test_posting_twice_on_a_day_merges_into_one_check_in(alice_api, alice):
    first = alice_api.post("/api/checkins/", {"weight": 80.4}, format="json")
    assert first.status_code == 200, first.content
    second = alice_api.post("/api/checkins/", {"waist": 34, "length_unit": "inches"}, format="json")
    body = second.json()
    assert body["weight"] == 80.4 and body["waist"] == pytest.approx(86.36)
    assert body["weight_unit"] == "kg" and body["length_unit"] == "cm"
    assert CheckInMeasurement.objects.for_user(alice).count() == 1


def test_a_date_is_read_patched_and_deleted(alice_api, alice):
    day = (today_for(alice) - dt.timedelta(days=2)).isoformat()
    patched = alice_api.patch(f"/api/checkins/{day}/", {"steps": 9000}, format="json")
    assert patched.status_code == 200 and patched.json()["entry_date"] == day
    assert alice_api.get(f"/api/checkins/{day}/").json()["steps"] == 9000
    assert alice_api.delete(f"/api/checkins/{day}/").status_code == 204
    assert alice_api.get(f"/api/checkins/{day}/").status_code == 404


def test_an_implausible_weight_is_a_400_with_the_reason(alice_api, alice):
    response = alice_api.post("/api/checkins/", {"weight": 8000}, format="json")
    assert response.status_code == 400 and response.json()["error"] == "implausible_weight"
    assert "plausible range" in response.json()["detail"]
    empty = alice_api.post("/api/checkins/", {}, format="json")
    assert empty.status_code == 400 and empty.json()["error"] == "nothing_to_log"


def test_the_list_filters_by_date_range(alice_api, alice):
    today = today_for(alice)
    for days_ago in (0, 3, 10):
        checkin_upsert(user=alice, steps=1000 + days_ago, entry_date=today - dt.timedelta(days_ago))
    rows = results(
        alice_api.get("/api/checkins/", {"start": (today - dt.timedelta(5)).isoformat()})
    )
    assert [r["steps"] for r in rows] == [1003, 1000]


def test_bob_gets_404_and_an_empty_list(alice, bob_api):
    row = checkin_upsert(user=alice, weight=70)
    day = row.entry_date.isoformat()
    assert results(bob_api.get("/api/checkins/")) == []
    assert bob_api.get(f"/api/checkins/{day}/").status_code == 404
    assert bob_api.delete(f"/api/checkins/{day}/").status_code == 404
    assert CheckInMeasurement.objects.filter(pk=row.pk).exists()


def test_a_blood_pressure_is_posted_read_and_refused_when_implausible(alice_api, alice):
    posted = alice_api.post("/api/checkins/", {"systolic": 118, "diastolic": 76}, format="json")
    assert posted.status_code == 200, posted.content
    assert (posted.json()["systolic"], posted.json()["diastolic"]) == (118, 76)

    refused = alice_api.post("/api/checkins/", {"systolic": 400, "diastolic": 20}, format="json")
    assert refused.status_code == 400 and refused.json()["error"] == "implausible_pressure"
    assert "60-260 mmHg" in refused.json()["detail"]
    today = today_for(alice).isoformat()
    assert (
        alice_api.get(f"/api/summary/?date={today}").json()["measurements"]["checkin"]["systolic"]
        == 118
    )
