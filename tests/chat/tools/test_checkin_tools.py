"""Check-in tools: what the model reads back is only the days that have data."""

import datetime as dt

import pytest

from chat.tools import ToolContext, run_tool
from measurements.services import checkin_upsert
from sparky.dates import today_for

pytestmark = pytest.mark.django_db


def test_get_checkins_lists_only_days_with_measurements(alice, bob):
    today = today_for(alice)
    checkin_upsert(user=alice, entry_date=today - dt.timedelta(days=3), weight=81)
    checkin_upsert(user=alice, entry_date=today, weight=80.4, steps=9500)
    checkin_upsert(user=bob, entry_date=today - dt.timedelta(days=1), weight=95)
    result = run_tool(ToolContext.for_user(alice), "get_checkins", {"days": 7})
    assert result.ok
    days = [row["date"] for row in result.data["checkins"]]
    assert days == [today, today - dt.timedelta(days=3)]
    assert result.message.startswith("2 days with check-ins")


def test_log_checkin_records_several_measurements_in_one_call(alice):
    result = run_tool(
        ToolContext.for_user(alice),
        "log_checkin",
        {"weight": 176, "weight_unit": "lb", "waist": 84, "length_unit": "cm"},
    )
    assert result.ok, result.message
    assert "weight 79.83 kg" in result.message and "waist 84 cm" in result.message


def test_the_models_log_checkin_records_a_blood_pressure(alice):
    result = run_tool(
        ToolContext.for_user(alice), "log_checkin", {"systolic": 124, "diastolic": 81}
    )

    assert result.ok, result.message
    assert result.message == "Logged your blood pressure 124/81 mmHg."


def test_a_refused_blood_pressure_keeps_neither_of_its_numbers(alice):
    ctx = ToolContext.for_user(alice)
    result = run_tool(ctx, "log_checkin", {"systolic": 70, "diastolic": 110})

    assert not result.ok and "must be higher than the diastolic" in result.message
    assert result.data == {"refused": ["blood_pressure"]}  # not split into its fields
    assert run_tool(ctx, "get_checkins", {}).data["checkins"] == []


def test_the_trend_of_a_blood_pressure_field_is_in_mmhg(alice):
    today = today_for(alice)
    for days_ago, systolic in ((6, 132), (3, 128), (0, 121)):
        checkin_upsert(
            user=alice,
            entry_date=today - dt.timedelta(days=days_ago),
            systolic=systolic,
            diastolic=80,
        )

    result = run_tool(ToolContext.for_user(alice), "measurement_trend", {"measurement": "systolic"})

    assert result.ok and result.data["unit"] == "mmHg" and result.data["measurement"] == "Systolic"
    assert result.data["first"]["value"] == 132 and result.data["direction"] == "falling"
