"""Custom categories and their values; alice's only."""

import pytest

from measurements.models import CustomMeasurement
from measurements.services import custom_measurement_log

from .conftest import results

pytestmark = pytest.mark.django_db


def test_a_first_value_creates_its_category(alice_api, alice):
    response = alice_api.post(
        "/api/custom-measurements/", {"name": "Sleep", "value": 7.5, "unit": "hours"}, format="json"
    )
    assert response.status_code == 201, response.content
    assert response.json()["category_name"] == "Sleep" and response.json()["unit"] == "hours"
    categories = results(alice_api.get("/api/custom-categories/"))
    assert [(c["name"], c["frequency"]) for c in categories] == [("Sleep", "Daily")]
    again = alice_api.post(
        "/api/custom-measurements/", {"name": "sleep", "value": 8}, format="json"
    )
    assert again.json()["id"] == response.json()["id"]  # daily: the day's value is replaced
    assert CustomMeasurement.objects.for_user(alice).get().value == 8


def test_values_filter_by_category_and_are_deleted(alice_api, alice):
    sleep = custom_measurement_log(user=alice, name="Sleep", value=7)
    custom_measurement_log(user=alice, name="Resting HR", value=58)
    rows = results(alice_api.get("/api/custom-measurements/", {"category": str(sleep.category_id)}))
    assert [r["value"] for r in rows] == [7]
    assert alice_api.get("/api/custom-measurements/", {"category": "x"}).status_code == 400
    assert alice_api.delete(f"/api/custom-measurements/{sleep.pk}/").status_code == 204
    assert not CustomMeasurement.objects.filter(pk=sleep.pk).exists()


def test_a_standard_check_in_name_is_refused(alice_api):
    response = alice_api.post("/api/custom-measurements/", {"name": "weight", "value": 80})
    assert response.status_code == 400 and response.json()["error"] == "standard_measurement"


def test_bob_gets_404_and_empty_lists(alice, bob_api):
    row = custom_measurement_log(user=alice, name="Sleep", value=7)
    assert results(bob_api.get("/api/custom-measurements/")) == []
    assert results(bob_api.get("/api/custom-categories/")) == []
    assert bob_api.get(f"/api/custom-measurements/{row.pk}/").status_code == 404
    assert bob_api.delete(f"/api/custom-measurements/{row.pk}/").status_code == 404
    assert bob_api.get(f"/api/custom-categories/{row.category_id}/").status_code == 404
    assert CustomMeasurement.objects.filter(pk=row.pk).exists()
