"""The user's own measurement categories, created, renamed, re-timed and deleted, and their
values corrected: names stay unique per user whatever the case, and a frequency change never
leaves values the new frequency could not have logged."""

import datetime as dt
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from measurements.models import CustomCategory, CustomMeasurement
from measurements.services import (
    custom_category_create,
    custom_category_delete,
    custom_category_update,
    custom_measurement_log,
    custom_measurement_update,
)
from sparky.dates import today_for

pytestmark = pytest.mark.django_db


def days_ago(user, n: int) -> dt.date:
    return today_for(user) - dt.timedelta(days=n)


def values_of(category) -> list[tuple]:
    rows = CustomMeasurement.objects.filter(category=category)
    return sorted(rows.values_list("entry_date", "entry_hour", "value"), key=str)


def hourly_glucose(user, *readings) -> CustomCategory:
    """(days ago, hour, value) readings in an hourly category."""
    for ago, hour, value in readings:
        row = custom_measurement_log(
            user=user,
            name="Glucose",
            value=value,
            entry_date=days_ago(user, ago),
            entry_hour=hour,
            frequency="Hourly",
        )
    return row.category


# --- create ----------------------------------------------------------------------------------


def test_an_empty_category_is_created_and_later_values_go_into_it(alice):
    category = custom_category_create(
        user=alice, name="  Blood   glucose ", frequency="hourly", unit="mg/dL"
    )

    assert (category.name, category.frequency, category.unit) == (
        "Blood glucose",
        "Hourly",
        "mg/dL",
    )
    assert category.measurement_type == "numeric"
    assert not CustomMeasurement.objects.filter(category=category).exists()
    row = custom_measurement_log(user=alice, name="blood glucose", value=97, entry_hour=7)
    assert row.category_id == category.pk and row.entry_hour == 7


def test_a_name_already_used_in_any_case_is_refused_but_other_users_may_use_it(alice, bob):
    custom_category_create(user=alice, name="Sleep")

    with pytest.raises(ValidationError) as caught:
        custom_category_create(user=alice, name="SLEEP", frequency="All")

    assert caught.value.code == "duplicate_category"
    assert "SLEEP" in caught.value.messages[0]
    assert CustomCategory.objects.filter(user=alice).count() == 1
    custom_category_create(user=bob, name="sleep")


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"name": "weight"}, "standard_measurement"),
        ({"name": " "}, "name_required"),
        ({"name": "x" * 51}, "too_long"),
        ({"name": "Mood", "frequency": "Fortnightly"}, "invalid_frequency"),
        ({"name": "Mood", "measurement_type": "text"}, "invalid_measurement_type"),
        ({"name": "Mood", "unit": "u" * 21}, "too_long"),
        ({"name": "Mood\x00"}, "invalid_characters"),
    ],
)
def test_a_bad_new_category_is_refused_and_nothing_is_written(alice, fields, code):
    with pytest.raises(ValidationError) as caught:
        custom_category_create(user=alice, **fields)

    assert caught.value.code == code
    assert not CustomCategory.objects.filter(user=alice).exists()


# --- rename and unit -------------------------------------------------------------------------


def test_a_renamed_category_keeps_its_values_and_answers_to_its_new_name(alice):
    row = custom_measurement_log(user=alice, name="Sleep", value=7, unit="h")

    category = custom_category_update(user=alice, category_id=row.category_id, name="Sleep time")

    assert category.name == "Sleep time"
    assert values_of(category) == [(today_for(alice), None, Decimal(7))]
    again = custom_measurement_log(user=alice, name="sleep TIME", value=8)
    assert again.pk == row.pk and CustomCategory.objects.filter(user=alice).count() == 1


def test_a_rename_onto_another_category_is_refused(alice, bob):
    sleep = custom_category_create(user=alice, name="Sleep")
    naps = custom_category_create(user=alice, name="Naps")
    custom_category_create(user=bob, name="Mood")

    with pytest.raises(ValidationError) as caught:
        custom_category_update(user=alice, category_id=naps.pk, name="sleep")

    assert caught.value.code == "duplicate_category"
    naps.refresh_from_db()
    assert naps.name == "Naps"
    # Its own name in another case, and bob's names, are free.
    assert custom_category_update(user=alice, category_id=sleep.pk, name="SLEEP").name == "SLEEP"
    assert custom_category_update(user=alice, category_id=naps.pk, name="Mood").name == "Mood"


def test_a_new_unit_is_a_label_and_does_not_convert_the_values(alice):
    row = custom_measurement_log(user=alice, name="Glucose", value=5.4, unit="mmol/L")

    category = custom_category_update(user=alice, category_id=row.category_id, unit="mmol per L")

    assert category.unit == "mmol per L"
    row.refresh_from_db()
    assert row.value == Decimal("5.4")
    assert custom_category_update(user=alice, category_id=category.pk, unit="").unit == ""


def test_nothing_to_change_is_refused(alice):
    category = custom_category_create(user=alice, name="Sleep")

    with pytest.raises(ValidationError) as caught:
        custom_category_update(user=alice, category_id=category.pk)

    assert caught.value.code == "no_changes"


# --- frequency -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("old", "new"), [("Daily", "Weekly"), ("Monthly", "Daily"), ("Daily", "All")]
)
def test_between_one_value_per_date_frequencies_and_to_all_nothing_moves(alice, old, new):
    for ago in (0, 1):
        row = custom_measurement_log(
            user=alice,
            name="Body fat",
            value=20 + ago,
            entry_date=days_ago(alice, ago),
            frequency=old,
        )
    before = values_of(row.category)

    category = custom_category_update(user=alice, category_id=row.category_id, frequency=new)

    assert category.frequency == new
    assert values_of(category) == before


def test_all_to_daily_is_refused_while_a_date_holds_several_values(alice):
    for value in (120, 118):
        row = custom_measurement_log(user=alice, name="Heart rate", value=value, frequency="All")

    with pytest.raises(ValidationError) as caught:
        custom_category_update(user=alice, category_id=row.category_id, frequency="Daily")

    assert caught.value.code == "frequency_conflict"
    assert today_for(alice).isoformat() in caught.value.messages[0]
    assert CustomCategory.objects.get(pk=row.category_id).frequency == "All"
    assert CustomMeasurement.objects.filter(category_id=row.category_id).count() == 2


def test_hourly_to_daily_is_refused_while_a_day_has_several_hourly_values(alice):
    category = hourly_glucose(alice, (1, 8, 5.1), (1, 13, 7.9), (0, 8, 5.0))
    before = values_of(category)

    with pytest.raises(ValidationError) as caught:
        custom_category_update(user=alice, category_id=category.pk, frequency="Daily", unit="x")

    assert caught.value.code == "frequency_conflict"
    assert days_ago(alice, 1).isoformat() in caught.value.messages[0]
    category.refresh_from_db()
    assert (category.frequency, category.unit) == ("Hourly", "")  # the unit did not change either
    assert values_of(category) == before


def test_hourly_to_daily_with_one_value_a_day_drops_the_hours(alice):
    category = hourly_glucose(alice, (1, 8, 5.1), (0, 9, 5.0))

    custom_category_update(user=alice, category_id=category.pk, frequency="daily")

    assert values_of(category) == [
        (days_ago(alice, 1), None, Decimal("5.1")),
        (today_for(alice), None, Decimal("5.0")),
    ]
    # And the category now behaves as daily: today's value is replaced, not joined.
    custom_measurement_log(user=alice, name="Glucose", value=6.2)
    assert CustomMeasurement.objects.filter(category=category).count() == 2


def test_hourly_to_all_keeps_every_value_without_its_hour(alice):
    category = hourly_glucose(alice, (0, 8, 5.1), (0, 13, 7.9))

    custom_category_update(user=alice, category_id=category.pk, frequency="All")

    assert [hour for _, hour, _ in values_of(category)] == [None, None]


def test_a_category_with_values_cannot_become_hourly_but_an_empty_one_can(alice):
    row = custom_measurement_log(user=alice, name="Sleep", value=7)
    empty = custom_category_create(user=alice, name="Glucose")

    with pytest.raises(ValidationError) as caught:
        custom_category_update(user=alice, category_id=row.category_id, frequency="Hourly")

    assert caught.value.code == "frequency_conflict"
    assert CustomCategory.objects.get(pk=row.category_id).frequency == "Daily"
    assert custom_category_update(
        user=alice, category_id=empty.pk, frequency="Hourly"
    ).frequency == ("Hourly")


# --- delete ----------------------------------------------------------------------------------


def test_deleting_a_category_deletes_its_values_and_nothing_else(alice):
    for ago in (0, 1, 2):
        row = custom_measurement_log(
            user=alice, name="Sleep", value=7, entry_date=days_ago(alice, ago)
        )
    other = custom_measurement_log(user=alice, name="Mood", value=4)

    deleted = custom_category_delete(user=alice, category_id=str(row.category_id))

    assert deleted == 3
    assert not CustomCategory.objects.filter(pk=row.category_id).exists()
    assert list(CustomMeasurement.objects.filter(user=alice)) == [other]


def test_bob_cannot_change_or_delete_alices_category(alice, bob):
    row = custom_measurement_log(user=alice, name="Sleep", value=7)
    before = CustomCategory.objects.filter(pk=row.category_id).values().get()

    with pytest.raises(CustomCategory.DoesNotExist):
        custom_category_update(user=bob, category_id=row.category_id, name="Bob's", frequency="All")
    with pytest.raises(CustomCategory.DoesNotExist):
        custom_category_delete(user=bob, category_id=row.category_id)
    with pytest.raises(CustomCategory.DoesNotExist):
        custom_category_delete(user=bob, category_id="not-a-uuid")

    assert CustomCategory.objects.filter(pk=row.category_id).values().get() == before
    assert CustomMeasurement.objects.filter(pk=row.pk).exists()


# --- correcting a value ----------------------------------------------------------------------


def test_a_value_is_corrected_and_moved_to_another_day(alice):
    row = custom_measurement_log(user=alice, name="Sleep", value=7)

    changed = custom_measurement_update(
        user=alice, measurement_id=row.pk, value="7,25", entry_date="yesterday"
    )

    row.refresh_from_db()
    assert (row.value, row.entry_date, row.entry_hour) == (
        Decimal("7.25"),
        days_ago(alice, 1),
        None,
    )
    assert changed.pk == row.pk


def test_a_value_cannot_move_onto_a_date_that_has_one(alice):
    custom_measurement_log(user=alice, name="Sleep", value=6, entry_date=days_ago(alice, 1))
    row = custom_measurement_log(user=alice, name="Sleep", value=7)

    with pytest.raises(ValidationError) as caught:
        custom_measurement_update(user=alice, measurement_id=row.pk, entry_date=days_ago(alice, 1))

    assert caught.value.code == "duplicate_entry"
    row.refresh_from_db()
    assert row.entry_date == today_for(alice)


def test_an_all_category_takes_a_second_value_on_the_same_date(alice):
    custom_measurement_log(user=alice, name="Heart rate", value=120, frequency="All")
    row = custom_measurement_log(
        user=alice, name="Heart rate", value=118, entry_date=days_ago(alice, 1)
    )

    custom_measurement_update(user=alice, measurement_id=row.pk, entry_date=today_for(alice))

    assert CustomMeasurement.objects.filter(user=alice, entry_date=today_for(alice)).count() == 2


def test_an_hourly_value_moves_to_a_free_hour_only(alice):
    category = hourly_glucose(alice, (0, 8, 5.1), (0, 13, 7.9))
    eight = CustomMeasurement.objects.get(category=category, entry_hour=8)

    custom_measurement_update(user=alice, measurement_id=eight.pk, entry_hour=9)
    with pytest.raises(ValidationError) as caught:
        custom_measurement_update(user=alice, measurement_id=eight.pk, entry_hour=13, value=1)

    assert caught.value.code == "duplicate_entry"
    assert "13:00" in caught.value.messages[0]
    eight.refresh_from_db()
    assert (eight.entry_hour, eight.value) == (9, Decimal("5.1"))


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({}, "no_changes"),
        ({"value": "a lot"}, "not_a_number"),
        ({"value": 10**12}, "out_of_range"),
        ({"entry_hour": 7}, "invalid_hour"),
        ({"entry_date": "2999-01-01"}, "future_date"),
    ],
)
def test_bad_corrections_are_refused_and_nothing_changes(alice, fields, code):
    row = custom_measurement_log(user=alice, name="Sleep", value=7)
    before = CustomMeasurement.objects.filter(pk=row.pk).values().get()

    with pytest.raises(ValidationError) as caught:
        custom_measurement_update(user=alice, measurement_id=row.pk, **fields)

    assert caught.value.code == code
    assert CustomMeasurement.objects.filter(pk=row.pk).values().get() == before


def test_an_hour_outside_the_day_is_refused(alice):
    category = hourly_glucose(alice, (0, 8, 5.1))
    row = CustomMeasurement.objects.get(category=category)

    with pytest.raises(ValidationError) as caught:
        custom_measurement_update(user=alice, measurement_id=row.pk, entry_hour=24)

    assert caught.value.code == "invalid_hour"


def test_bob_cannot_correct_alices_value(alice, bob):
    row = custom_measurement_log(user=alice, name="Sleep", value=7)

    with pytest.raises(CustomMeasurement.DoesNotExist):
        custom_measurement_update(user=bob, measurement_id=row.pk, value=1)
    with pytest.raises(CustomMeasurement.DoesNotExist):
        custom_measurement_update(user=bob, measurement_id="nope", value=1)

    row.refresh_from_db()
    assert row.value == 7
