import datetime as dt
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from diary.services import preferences_update
from measurements.selectors import checkin_history, custom_trend, measurements_for, weight_trend
from measurements.services import checkin_upsert, custom_measurement_log
from sparky.dates import today_for


def days_ago(user, n: int) -> dt.date:
    return today_for(user) - dt.timedelta(days=n)


def test_the_day_shows_its_check_in_and_custom_values(alice, bob):
    checkin_upsert(user=alice, weight=80, waist=84, steps=9000)
    custom_measurement_log(user=alice, name="Sleep", value=7.5, unit="hours")
    custom_measurement_log(user=alice, name="Glucose", value=5.2, entry_hour=8, frequency="Hourly")
    custom_measurement_log(user=bob, name="Sleep", value=4)

    day = measurements_for(user=alice, day=today_for(alice))

    assert (day["weight_unit"], day["length_unit"]) == ("kg", "cm")
    checkin = day["checkin"]
    assert (checkin["weight"], checkin["waist"], checkin["neck"], checkin["steps"]) == (
        Decimal("80.00"),
        Decimal("84.00"),
        None,
        9000,
    )
    assert [(c["category"], c["value"], c["unit"], c["entry_hour"]) for c in day["custom"]] == [
        ("Glucose", Decimal("5.2000"), "", 8),
        ("Sleep", Decimal("7.5000"), "hours", None),
    ]


def test_a_day_without_measurements_is_empty(alice):
    day = measurements_for(user=alice, day=today_for(alice))

    assert day["checkin"] is None
    assert day["custom"] == []


def test_the_weight_trend_is_oldest_first_in_the_users_unit_within_the_window(alice):
    checkin_upsert(user=alice, weight=82, entry_date=days_ago(alice, 40))
    checkin_upsert(user=alice, weight=81, entry_date=days_ago(alice, 20))
    checkin_upsert(user=alice, steps=3000, entry_date=days_ago(alice, 10))
    checkin_upsert(user=alice, weight=80)
    preferences_update(user=alice, default_weight_unit="lb")

    assert weight_trend(user=alice) == [
        (days_ago(alice, 20), Decimal("178.57")),
        (today_for(alice), Decimal("176.37")),
    ]
    assert len(weight_trend(user=alice, days=60)) == 3


def test_a_custom_trend_is_found_by_name_in_any_case(alice, bob):
    custom_measurement_log(user=alice, name="Sleep", value=6, entry_date=days_ago(alice, 2))
    custom_measurement_log(user=alice, name="Sleep", value=8)
    custom_measurement_log(user=bob, name="Sleep", value=3)

    trend = custom_trend(user=alice, category_name="SLEEP", days=7)

    assert [(p["date"], p["value"]) for p in trend] == [
        (days_ago(alice, 2), Decimal("6.0000")),
        (today_for(alice), Decimal("8.0000")),
    ]
    assert custom_trend(user=alice, category_name="Mood") == []


def test_check_in_history_is_newest_first(alice):
    checkin_upsert(user=alice, weight=81, entry_date=days_ago(alice, 3))
    checkin_upsert(user=alice, weight=80)

    assert [row["date"] for row in checkin_history(user=alice, days=7)] == [
        today_for(alice),
        days_ago(alice, 3),
    ]


@pytest.mark.parametrize("days", [0, -1, 100000, "7"])
def test_a_bad_window_is_refused(alice, days):
    with pytest.raises(ValidationError):
        weight_trend(user=alice, days=days)
