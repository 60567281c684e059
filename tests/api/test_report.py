"""GET /api/report/: the week and month report through the API."""

import datetime as dt
from decimal import Decimal

import pytest

from exercise.services import exercise_entry_create
from measurements.services import checkin_upsert
from nutrition import services
from sparky.dates import today_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def alices_days(alice):
    today = today_for(alice)
    services.goal_set(user=alice, calories=2000, protein=100)
    food = services.food_create_custom(
        user=alice, name="Pasta", calories=500, protein=20, serving_size=1, serving_unit="plate"
    )
    services.food_entry_create(user=alice, food=food, quantity=3, entry_date=today)
    services.food_entry_create(
        user=alice, food=food, quantity=4, entry_date=today - dt.timedelta(days=2)
    )
    checkin_upsert(user=alice, weight=Decimal("80.4"), entry_date=today - dt.timedelta(days=4))
    checkin_upsert(user=alice, weight=Decimal("80.0"), entry_date=today)
    exercise_entry_create(user=alice, duration_minutes=40, entry_date=today)
    return alice


def test_the_week_report_has_days_averages_workouts_and_the_weight_trend(alice_api, alices_days):
    body = alice_api.get("/api/report/").json()

    assert body["period"] == "week" and len(body["days"]) == 7
    assert body["days_logged"] == 2
    assert body["averages"]["calories"] == 1750  # (1500 + 2000) / 2 logged days
    assert body["goals"]["calories"] == 2000
    unlogged = body["days"][0]
    assert unlogged["logged"] is False and unlogged["calories"] is None
    assert body["days"][-1]["verdicts"]["calories"] == "low"  # 1500 of 2000
    assert body["exercise"] == {"workouts": 1, "minutes": 40, "active_days": 1}
    assert body["weeks"][0]["minutes"] == 40
    assert [p["weight"] for p in body["weight"]["points"]] == [80.4, 80]
    assert body["weight"]["change"] == -0.4
    assert body["weight"]["trend"]["per_week"] == pytest.approx(-0.7)


def test_the_month_is_four_weeks_ending_on_the_day_asked_for(alice_api, alices_days):
    end = today_for(alices_days) - dt.timedelta(days=1)

    body = alice_api.get("/api/report/", {"period": "month", "end": end.isoformat()}).json()

    assert body["end"] == end.isoformat() and len(body["days"]) == 28
    assert len(body["weeks"]) == 4
    assert body["days_logged"] == 1


@pytest.mark.parametrize("query", [{"period": "year"}, {"end": "someday"}, {"end": "2999-01-01"}])
def test_a_bad_period_or_date_is_a_400(alice_api, query):
    response = alice_api.get("/api/report/", query)

    assert response.status_code == 400


def test_bobs_report_holds_nothing_of_alices(bob_api, alices_days):
    body = bob_api.get("/api/report/").json()

    assert body["days_logged"] == 0 and body["averages"]["calories"] is None
    assert body["weight"]["points"] == [] and body["exercise"]["workouts"] == 0
    assert body["goals"]["calories"] is None


def test_the_report_needs_a_token(client):
    assert client.get("/api/report/").status_code == 401
