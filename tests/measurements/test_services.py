import datetime as dt
import threading
import zoneinfo
from decimal import Decimal

import pytest
import time_machine
from django.core.exceptions import ValidationError
from django.db import connection

from diary.services import preferences_update
from measurements.models import CheckInMeasurement, CustomCategory, CustomMeasurement
from measurements.services import (
    checkin_clear,
    checkin_delete,
    checkin_upsert,
    custom_measurement_delete,
    custom_measurement_log,
    latest_weight_kg,
)
from sparky.dates import today_for
from tests.conftest import make_user


def days_ago(user, n: int) -> dt.date:
    return today_for(user) - dt.timedelta(days=n)


# --- check-ins: upsert semantics -------------------------------------------------------------


def test_two_check_ins_on_one_day_make_one_row_with_the_fields_merged(alice):
    checkin_upsert(user=alice, weight=81.4)
    row = checkin_upsert(user=alice, waist=84, steps=9500)

    assert CheckInMeasurement.objects.filter(user=alice).count() == 1
    assert (row.weight, row.waist, row.steps) == (Decimal("81.40"), Decimal("84.00"), 9500)
    assert row.entry_date == today_for(alice)


def test_a_later_value_for_the_same_field_replaces_the_earlier_one(alice):
    checkin_upsert(user=alice, weight=81.4, steps=4000)
    row = checkin_upsert(user=alice, steps=10200)

    assert (row.weight, row.steps) == (Decimal("81.40"), 10200)


def test_each_day_and_each_user_has_its_own_row(alice, bob):
    checkin_upsert(user=alice, weight=80, entry_date=days_ago(alice, 1))
    checkin_upsert(user=alice, weight=79.5)
    checkin_upsert(user=bob, weight=95)

    assert CheckInMeasurement.objects.filter(user=alice).count() == 2
    assert CheckInMeasurement.objects.get(user=bob).weight == Decimal("95.00")


def test_nothing_to_record_is_refused(alice):
    with pytest.raises(ValidationError) as caught:
        checkin_upsert(user=alice)

    assert caught.value.code == "nothing_to_log"
    assert not CheckInMeasurement.objects.exists()


def test_future_dates_are_refused_and_nothing_is_written(alice):
    with pytest.raises(ValidationError) as caught:
        checkin_upsert(user=alice, weight=80, entry_date=today_for(alice) + dt.timedelta(days=1))

    assert caught.value.code == "future_date"
    assert not CheckInMeasurement.objects.exists()


def test_one_bad_value_writes_none_of_the_others(alice):
    checkin_upsert(user=alice, weight=80)

    with pytest.raises(ValidationError):
        checkin_upsert(user=alice, weight=82, waist=84, steps=-3)

    row = CheckInMeasurement.objects.get(user=alice)
    assert (row.weight, row.waist, row.steps) == (Decimal("80.00"), None, None)


def test_a_check_in_can_be_deleted(alice):
    checkin_upsert(user=alice, weight=80)

    assert checkin_delete(user=alice, entry_date="today") is True
    assert checkin_delete(user=alice, entry_date="today") is False


def test_one_check_in_value_can_be_cleared_keeping_the_others(alice):
    checkin_upsert(user=alice, weight=80, steps=9000)

    assert checkin_clear(user=alice, entry_date="today", field="steps") is True
    assert checkin_clear(user=alice, entry_date="today", field="steps") is False

    row = CheckInMeasurement.objects.for_user(alice).get()
    assert (row.weight, row.steps) == (Decimal("80.00"), None)
    assert checkin_clear(user=alice, entry_date="today", field="weight") is True
    assert not CheckInMeasurement.objects.for_user(alice).exists()


def test_clearing_a_value_that_is_not_a_check_in_field_is_refused(alice):
    with pytest.raises(ValidationError) as refused:
        checkin_clear(user=alice, entry_date="today", field="user_id")

    assert refused.value.code == "invalid_field"


def test_clearing_never_touches_another_users_check_in(alice, bob):
    checkin_upsert(user=alice, weight=80)

    assert checkin_clear(user=bob, entry_date="today", field="weight") is False
    assert CheckInMeasurement.objects.for_user(alice).get().weight == Decimal("80.00")


# --- check-ins: units ------------------------------------------------------------------------


def test_pounds_are_stored_as_kg_for_a_kg_user(alice):
    row = checkin_upsert(user=alice, weight=176.37, weight_unit="lbs")

    assert row.weight == Decimal("80.00")


def test_kg_are_stored_as_pounds_for_a_pound_user(alice):
    preferences_update(user=alice, default_weight_unit="lb")

    assert checkin_upsert(user=alice, weight=80, weight_unit="kg").weight == Decimal("176.37")
    assert checkin_upsert(user=alice, weight=176).weight == Decimal("176.00")


def test_inches_are_stored_as_cm_for_a_cm_user(alice):
    row = checkin_upsert(user=alice, waist=34, hips="40", neck=15.5, length_unit="in")

    assert (row.waist, row.hips, row.neck) == (
        Decimal("86.36"),
        Decimal("101.60"),
        Decimal("39.37"),
    )


def test_cm_are_stored_as_inches_for_an_inches_user(alice):
    preferences_update(user=alice, default_measurement_unit="inches")

    assert checkin_upsert(user=alice, waist=86.36, length_unit="cm").waist == Decimal("34.00")


def test_an_unknown_unit_is_refused(alice):
    with pytest.raises(ValidationError) as caught:
        checkin_upsert(user=alice, weight=12, weight_unit="stone")

    assert caught.value.code == "invalid_unit"


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"weight": 2000}, "implausible_weight"),
        ({"weight": 15}, "implausible_weight"),
        ({"weight": 900, "weight_unit": "lb"}, "implausible_weight"),
        ({"waist": 5}, "implausible_length"),
        ({"hips": 150, "length_unit": "inches"}, "implausible_length"),
        ({"steps": -1}, "implausible_steps"),
        ({"steps": 250_000}, "implausible_steps"),
        ({"steps": 12.5}, "invalid_steps"),
        ({"weight": "heavy"}, "not_a_number"),
        ({"weight": float("nan")}, "not_a_number"),
        ({"steps": True}, "not_a_number"),
    ],
)
def test_implausible_values_are_refused_with_a_specific_error(alice, fields, code):
    with pytest.raises(ValidationError) as caught:
        checkin_upsert(user=alice, **fields)

    assert caught.value.code == code
    assert not CheckInMeasurement.objects.exists()


def test_steps_given_as_a_whole_float_are_accepted(alice):
    assert checkin_upsert(user=alice, steps=8000.0).steps == 8000


# --- check-ins: concurrency ------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_concurrent_check_ins_for_one_day_all_succeed_and_merge():
    user = make_user("carol@example.com")
    fields = [
        {"weight": 80},
        {"neck": 38},
        {"waist": 84},
        {"hips": 99},
        {"steps": 12000},
        {"weight": 80},
        {"waist": 84},
        {"steps": 12000},
    ]
    barrier = threading.Barrier(len(fields))
    errors: list[Exception] = []

    def record(values):
        try:
            barrier.wait()
            checkin_upsert(user=user, **values)
        except Exception as exc:  # collected and asserted on below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=record, args=(values,)) for values in fields]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    row = CheckInMeasurement.objects.get(user=user)
    assert (row.weight, row.neck, row.waist, row.hips, row.steps) == (
        Decimal("80.00"),
        Decimal("38.00"),
        Decimal("84.00"),
        Decimal("99.00"),
        12000,
    )


# --- latest weight ---------------------------------------------------------------------------


def test_latest_weight_is_in_kg_whatever_the_users_unit(alice, bob):
    preferences_update(user=bob, default_weight_unit="lb")
    checkin_upsert(user=alice, weight=80)
    checkin_upsert(user=bob, weight=176.37)

    assert latest_weight_kg(user=alice) == Decimal("80.00")
    assert latest_weight_kg(user=bob) == Decimal("80.00")


def test_latest_weight_looks_only_on_or_before_the_day(alice):
    checkin_upsert(user=alice, weight=90, entry_date=days_ago(alice, 10))
    checkin_upsert(user=alice, steps=5000, entry_date=days_ago(alice, 3))  # no weight that day
    checkin_upsert(user=alice, weight=80, entry_date=days_ago(alice, 1))

    assert latest_weight_kg(user=alice, on_or_before=days_ago(alice, 3)) == Decimal("90.00")
    assert latest_weight_kg(user=alice, on_or_before=days_ago(alice, 11)) is None
    assert latest_weight_kg(user=alice) == Decimal("80.00")


def test_changing_the_weight_unit_converts_stored_check_ins(alice):
    checkin_upsert(user=alice, weight=80, waist=86.36)

    preferences_update(user=alice, default_weight_unit="lb", default_measurement_unit="inches")

    row = CheckInMeasurement.objects.get(user=alice)
    assert (row.weight, row.waist) == (Decimal("176.37"), Decimal("34.00"))
    assert latest_weight_kg(user=alice) == Decimal("80.00")


# --- custom measurements ---------------------------------------------------------------------


def test_a_new_name_creates_a_daily_numeric_category(alice):
    row = custom_measurement_log(user=alice, name="Resting heart rate", value=58, unit="bpm")

    category = row.category
    assert (category.name, category.frequency, category.measurement_type, category.unit) == (
        "Resting heart rate",
        "Daily",
        "numeric",
        "bpm",
    )
    assert row.value == Decimal("58")
    assert row.entry_date == today_for(alice)
    assert row.entry_hour is None


def test_the_category_is_found_whatever_the_case(alice):
    first = custom_measurement_log(user=alice, name="Blood Sugar", value=5.4)
    second = custom_measurement_log(
        user=alice, name="  blood   sugar ", value=6.1, entry_date="yesterday"
    )

    assert first.category_id == second.category_id
    assert CustomCategory.objects.filter(user=alice).count() == 1
    assert CustomCategory.objects.get(user=alice).name == "Blood Sugar"


def test_categories_are_per_user(alice, bob):
    mine = custom_measurement_log(user=alice, name="Sleep", value=7.5)
    theirs = custom_measurement_log(user=bob, name="sleep", value=6)

    assert mine.category_id != theirs.category_id


def test_a_daily_category_keeps_one_value_per_day(alice):
    custom_measurement_log(user=alice, name="Sleep", value=6)
    row = custom_measurement_log(user=alice, name="Sleep", value=7.5, entry_hour=9)

    assert CustomMeasurement.objects.filter(user=alice).count() == 1
    assert row.value == Decimal("7.5")
    assert row.entry_hour is None


@pytest.mark.parametrize("frequency", ["Weekly", "monthly"])
def test_weekly_and_monthly_categories_keep_one_value_per_date(alice, frequency):
    custom_measurement_log(user=alice, name="Body fat", value=21, frequency=frequency)
    custom_measurement_log(user=alice, name="Body fat", value=20.5)
    custom_measurement_log(user=alice, name="Body fat", value=22, entry_date="yesterday")

    assert CustomMeasurement.objects.filter(user=alice).count() == 2
    assert CustomCategory.objects.get(user=alice).frequency == frequency.capitalize()


def test_an_hourly_category_keeps_the_hour_and_one_value_per_hour(alice):
    custom_measurement_log(user=alice, name="Glucose", value=5.1, entry_hour=8, frequency="Hourly")
    custom_measurement_log(user=alice, name="Glucose", value=7.9, entry_hour=13)
    custom_measurement_log(user=alice, name="Glucose", value=5.3, entry_hour=8)

    rows = CustomMeasurement.objects.filter(user=alice).order_by("entry_hour")
    assert [(r.entry_hour, r.value) for r in rows] == [(8, Decimal("5.3")), (13, Decimal("7.9"))]


def test_an_hourly_value_without_hour_gets_the_users_local_hour(db):
    tokyo = make_user("kenji@example.com", time_zone="Asia/Tokyo")
    moment = dt.datetime(2026, 6, 1, 22, 30, tzinfo=zoneinfo.ZoneInfo("UTC"))  # 07:30 in Tokyo

    with time_machine.travel(moment, tick=False):
        row = custom_measurement_log(user=tokyo, name="Glucose", value=5.0, frequency="Hourly")

    assert (row.entry_date, row.entry_hour) == (dt.date(2026, 6, 2), 7)


def test_an_all_category_keeps_every_value(alice):
    for value in (120, 118, 125):
        custom_measurement_log(user=alice, name="Heart rate", value=value, frequency="All")

    assert CustomMeasurement.objects.filter(user=alice).count() == 3


def test_the_frequency_of_an_existing_category_is_kept(alice):
    custom_measurement_log(user=alice, name="Sleep", value=7)
    custom_measurement_log(user=alice, name="Sleep", value=8, frequency="All")

    assert CustomCategory.objects.get(user=alice).frequency == "Daily"
    assert CustomMeasurement.objects.filter(user=alice).count() == 1


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"name": "Sleep", "value": "lots"}, "not_a_number"),
        ({"name": "Sleep", "value": float("inf")}, "not_a_number"),
        ({"name": "Sleep", "value": None}, "not_a_number"),
        ({"name": "", "value": 7}, "name_required"),
        ({"name": "x" * 51, "value": 7}, "too_long"),
        ({"name": "Weight", "value": 80}, "standard_measurement"),
        ({"name": "weigh-in", "value": 80}, "standard_measurement"),
        ({"name": "Sleep", "value": 7, "frequency": "yearly"}, "invalid_frequency"),
        ({"name": "Sleep", "value": 7, "entry_hour": 24}, "invalid_hour"),
        ({"name": "Sleep", "value": 7, "entry_date": "2999-01-01"}, "future_date"),
    ],
)
def test_bad_custom_measurements_are_refused_and_nothing_is_written(alice, fields, code):
    with pytest.raises(ValidationError) as caught:
        custom_measurement_log(user=alice, **fields)

    assert caught.value.code == code
    assert not CustomCategory.objects.exists()
    assert not CustomMeasurement.objects.exists()


def test_bob_cannot_delete_alices_custom_value(alice, bob):
    row = custom_measurement_log(user=alice, name="Sleep", value=7)

    with pytest.raises(CustomMeasurement.DoesNotExist):
        custom_measurement_delete(user=bob, measurement_id=row.id)
    custom_measurement_delete(user=alice, measurement_id=row.id)

    assert not CustomMeasurement.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_concurrent_first_logs_of_a_new_category_make_one_category():
    user = make_user("dana@example.com")
    barrier = threading.Barrier(6)
    errors: list[Exception] = []

    def record(value):
        try:
            barrier.wait()
            custom_measurement_log(user=user, name="Mood", value=value)
        except Exception as exc:  # collected and asserted on below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=record, args=(v,)) for v in range(1, 7)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    assert CustomCategory.objects.filter(user=user).count() == 1
    assert CustomMeasurement.objects.filter(user=user).count() == 1


def test_a_name_the_database_cannot_store_is_refused(alice):
    with pytest.raises(ValidationError) as caught:
        custom_measurement_log(user=alice, name="Sle\x00ep", value=7)

    assert caught.value.code == "invalid_characters"
    assert not CustomCategory.objects.exists()


def test_a_weight_without_a_unit_that_is_the_last_weight_in_the_other_unit_is_read_so(alice, bob):
    yesterday = today_for(alice) - dt.timedelta(days=1)
    checkin_upsert(user=alice, entry_date=yesterday, weight=81.5)  # kg, alice's unit
    preferences_update(user=bob, default_weight_unit="lb")
    checkin_upsert(user=bob, entry_date=yesterday, weight=180)

    in_pounds = checkin_upsert(user=alice, weight=180)  # "I weigh 180": pounds
    said_kg = checkin_upsert(user=alice, entry_date=yesterday, weight=180, weight_unit="kg")
    in_kilos = checkin_upsert(user=bob, weight=82)  # bob at 180 lb says 82: kilograms

    assert in_pounds.weight == Decimal("81.65")
    assert said_kg.weight == Decimal("180.00")  # a unit said is a unit kept
    assert in_kilos.weight == Decimal("180.78")


def test_a_weight_without_a_unit_and_no_history_is_in_the_usual_unit(alice):
    assert checkin_upsert(user=alice, weight=180).weight == Decimal("180.00")


@pytest.mark.parametrize(
    ("name", "value", "unit", "said"),
    [
        ("Mood", "1e9", "out of 10", "A mood of 1,000,000,000 out of 10 is not a score"),
        ("Stress", 11, None, "A stress of 11 out of 10 is not a score"),
        ("Sleep", "1e9", "hours", "1,000,000,000 hours of sleep is outside what a day can hold"),
    ],
)
def test_a_score_or_a_sleep_no_one_has_is_refused_in_plain_numbers(alice, name, value, unit, said):
    with pytest.raises(ValidationError) as caught:
        custom_measurement_log(user=alice, name=name, value=value, unit=unit)

    assert caught.value.code == "out_of_range" and caught.value.message.startswith(said)
    assert not CustomMeasurement.objects.for_user(alice).exists()


def test_a_score_from_0_to_10_is_kept(alice):
    assert custom_measurement_log(user=alice, name="Mood", value=7, unit="out of 10").value == 7
