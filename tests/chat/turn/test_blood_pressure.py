"""Blood pressure through the chat with no AI service: said as people say it, logged as one
check-in, refused with the reason when implausible, and answered when asked about."""

import datetime as dt

import pytest

from chat.turn.coach import handle_turn
from measurements.models import CheckInMeasurement, CustomMeasurement
from measurements.services import checkin_upsert
from sparky.dates import today_for

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("text", "systolic", "diastolic"),
    [
        ("bp 120/80", 120, 80),
        ("blood pressure 118 over 76", 118, 76),
        ("my bp was 135/85 this morning", 135, 85),
    ],
)
def test_a_blood_pressure_is_logged_as_the_days_check_in(alice, text, systolic, diastolic):
    response = handle_turn(alice, text)

    row = CheckInMeasurement.objects.for_user(alice).get()
    assert (row.systolic, row.diastolic) == (systolic, diastolic)
    assert row.entry_date == today_for(alice)
    assert f"Logged your blood pressure {systolic}/{diastolic} mmHg" in response.message
    assert not CustomMeasurement.objects.for_user(alice).exists()


def test_an_impossible_blood_pressure_is_refused_with_the_range(alice):
    response = handle_turn(alice, "bp 400/20")

    assert not CheckInMeasurement.objects.for_user(alice).exists()
    assert "Not saved" in response.message and "60-260 mmHg" in response.message


def test_a_systolic_below_the_diastolic_is_refused(alice):
    response = handle_turn(alice, "bp 70/110")

    assert not CheckInMeasurement.objects.for_user(alice).exists()
    assert "must be higher than the diastolic" in response.message


def test_the_weeks_blood_pressure_is_answered_from_the_diary(alice, bob):
    today = today_for(alice)
    earlier = today - dt.timedelta(days=3)
    checkin_upsert(user=alice, systolic=128, diastolic=84, entry_date=earlier)
    checkin_upsert(user=alice, systolic=121, diastolic=79)
    checkin_upsert(user=bob, systolic=150, diastolic=95)

    response = handle_turn(alice, "what was my blood pressure this week?")

    assert response.message == (
        f"This week ({today - dt.timedelta(days=6):%-d %b} to {today:%-d %b}): blood pressure "
        f"128/84 mmHg on {earlier:%a %-d %b}, 121/79 mmHg on {today:%a %-d %b}."
    )
    assert CheckInMeasurement.objects.for_user(alice).count() == 2


def test_half_a_blood_pressure_is_asked_for_in_full(alice):
    response = handle_turn(alice, "bp 120")

    assert not CheckInMeasurement.objects.for_user(alice).exists()
    assert "A blood pressure is 2 numbers (systolic, diastolic)" in response.message
    assert "'bp 120/80'" in response.message
