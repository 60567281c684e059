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
