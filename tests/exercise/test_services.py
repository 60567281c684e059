import datetime as dt
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from diary.services import preferences_update
from exercise.models import Exercise, ExerciseEntry
from exercise.services import (
    exercise_create_custom,
    exercise_entry_create,
    exercise_entry_delete,
    exercise_entry_update,
    exercise_option_add,
)
from measurements.services import checkin_upsert
from sparky.dates import today_for
from tests.exercise.conftest import public_exercise


@pytest.fixture
def running(db):
    return public_exercise(
        "Running, 6 mph (10 min/mile)", met=9.8, source="compendium_2011", source_id="12050"
    )


def days_ago(user, n: int) -> dt.date:
    return today_for(user) - dt.timedelta(days=n)


# --- General Exercise ------------------------------------------------------------------------


def test_it_logs_general_exercise_when_neither_exercise_nor_name_is_given(alice):
    entry = exercise_entry_create(user=alice, duration_minutes=30)

    assert entry.exercise.name == "General Exercise"
    assert (entry.exercise.source, entry.exercise.source_id) == ("sparky", "general")
    assert entry.exercise.met == Decimal("4.0")
    assert not entry.exercise.is_custom
    # No weight on record: a 70 kg reference adult, 4.0 MET x 70 kg x 0.5 h.
    assert entry.calories_burned == 140


def test_a_blank_name_also_falls_back_to_general_exercise(alice):
    assert exercise_entry_create(user=alice, exercise_name="  ").exercise.name == (
        "General Exercise"
    )


def test_general_exercise_is_one_shared_row(alice, bob):
    first = exercise_entry_create(user=alice)
    second = exercise_entry_create(user=bob)

    assert first.exercise_id == second.exercise_id
    assert Exercise.objects.filter(source="sparky", source_id="general").count() == 1


def test_general_exercise_uses_the_users_weight(alice):
    checkin_upsert(user=alice, weight=80)

    assert exercise_entry_create(user=alice, duration_minutes=60).calories_burned == 320


# --- duration and calories -------------------------------------------------------------------


def test_duration_defaults_to_the_exercises_default(alice):
    stretch = public_exercise("Stretching, mild", met=2.3, default_duration_minutes=15)

    assert exercise_entry_create(user=alice, exercise=stretch).duration_minutes == 15


def test_calories_are_met_times_latest_weight_times_hours(alice, running):
    checkin_upsert(user=alice, weight=80)

    entry = exercise_entry_create(user=alice, exercise_name="running", duration_minutes=30)

    assert entry.exercise == running
    assert entry.calories_burned == 392  # 9.8 x 80 x 0.5


def test_a_weight_logged_in_pounds_is_converted_to_kg(alice, running):
    preferences_update(user=alice, default_weight_unit="lb")
    checkin_upsert(user=alice, weight=176.37)  # 80 kg

    entry = exercise_entry_create(user=alice, exercise=running, duration_minutes=30)

    assert entry.calories_burned == 392


def test_the_weight_on_or_before_the_entry_date_is_used(alice, running):
    checkin_upsert(user=alice, weight=90, entry_date=days_ago(alice, 10))
    checkin_upsert(user=alice, weight=80, entry_date=days_ago(alice, 1))

    then = exercise_entry_create(
        user=alice, exercise=running, duration_minutes=60, entry_date=days_ago(alice, 5)
    )
    now = exercise_entry_create(user=alice, exercise=running, duration_minutes=60)

    assert then.calories_burned == 882  # 9.8 x 90
    assert now.calories_burned == 784  # 9.8 x 80


def test_calories_per_hour_is_used_when_there_is_no_met(alice):
    checkin_upsert(user=alice, weight=80)
    padel = exercise_create_custom(user=alice, name="Padel", calories_per_hour=600)

    assert exercise_entry_create(
        user=alice, exercise=padel, duration_minutes=45
    ).calories_burned == (450)


def test_calories_per_hour_is_used_when_the_weight_is_unknown(alice):
    rowing = public_exercise("Rowing, moderate", met=4.8, calories_per_hour=336)

    assert exercise_entry_create(
        user=alice, exercise=rowing, duration_minutes=30
    ).calories_burned == (168)


def test_calories_given_by_the_caller_win(alice, running):
    checkin_upsert(user=alice, weight=80)

    entry = exercise_entry_create(
        user=alice, exercise=running, duration_minutes=30, calories_burned=410.6
    )

    assert entry.calories_burned == 411


@pytest.mark.parametrize("minutes", [0, -5, 0.2, 24 * 60 + 1, "an hour"])
def test_impossible_durations_are_refused_and_nothing_is_written(alice, running, minutes):
    with pytest.raises(ValidationError) as caught:
        exercise_entry_create(user=alice, exercise=running, duration_minutes=minutes)

    assert caught.value.code in {"invalid_duration", "not_a_number"}
    assert not ExerciseEntry.objects.exists()


def test_a_full_day_is_the_longest_duration(alice, running):
    assert exercise_entry_create(
        user=alice, exercise=running, duration_minutes=1440
    ).duration_minutes == (1440)


def test_implausible_calories_are_refused(alice, running):
    with pytest.raises(ValidationError) as caught:
        exercise_entry_create(user=alice, exercise=running, calories_burned=-10)

    assert caught.value.code == "implausible_calories"


# --- names, visibility, dates ----------------------------------------------------------------


def test_a_name_that_matches_nothing_is_refused_with_exercise_not_found(alice, running):
    with pytest.raises(ValidationError) as caught:
        exercise_entry_create(user=alice, exercise_name="underwater basket weaving")

    assert caught.value.code == "exercise_not_found"
    assert "underwater basket weaving" in caught.value.messages[0]
    assert not ExerciseEntry.objects.exists()


def test_future_dates_are_refused_and_nothing_is_written(alice, running):
    tomorrow = today_for(alice) + dt.timedelta(days=1)

    with pytest.raises(ValidationError) as caught:
        exercise_entry_create(user=alice, exercise=running, entry_date=tomorrow)

    assert caught.value.code == "future_date"
    assert not ExerciseEntry.objects.exists()


def test_relative_dates_are_understood(alice, running):
    entry = exercise_entry_create(user=alice, exercise=running, entry_date="yesterday")

    assert entry.entry_date == days_ago(alice, 1)


def test_bob_cannot_log_alices_private_exercise(alice, bob):
    secret = exercise_create_custom(user=alice, name="Secret drills", calories_per_hour=500)

    with pytest.raises(ValidationError) as caught:
        exercise_entry_create(user=bob, exercise=secret)
    with pytest.raises(ValidationError):
        exercise_entry_create(user=bob, exercise=str(secret.pk))

    assert caught.value.code == "exercise_not_found"
    assert not ExerciseEntry.objects.exists()


# --- distance --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("given", "unit", "stored"),
    [(5, "km", "km"), (3.1, "miles", "mi"), (400, "m", "m"), (10, "Kilometers", "km")],
)
def test_distances_are_kept_with_a_known_unit(alice, running, given, unit, stored):
    entry = exercise_entry_create(user=alice, exercise=running, distance=given, distance_unit=unit)

    assert entry.distance == Decimal(str(given))
    assert entry.distance_unit == stored


def test_a_distance_without_unit_is_in_the_users_usual_unit(alice, bob, running):
    preferences_update(user=bob, default_weight_unit="lb")

    assert exercise_entry_create(user=alice, exercise=running, distance=5).distance_unit == "km"
    assert exercise_entry_create(user=bob, exercise=running, distance=3).distance_unit == "mi"


def test_a_distance_without_a_time_takes_as_long_as_the_exercises_speed_says(alice, running):
    walking = public_exercise("Walking, 3.5 mph, brisk", met=4.3)
    cycling = public_exercise("Cycling, general", met=7.5)
    stretch = public_exercise("Stretching, mild", met=2.3, default_duration_minutes=15)

    ten_k = exercise_entry_create(user=alice, exercise=running, distance=10, distance_unit="km")
    three_miles = exercise_entry_create(
        user=alice, exercise=walking, distance=3.5, distance_unit="mi"
    )
    ride = exercise_entry_create(user=alice, exercise=cycling, distance=19, distance_unit="km")
    timed = exercise_entry_create(
        user=alice, exercise=running, distance=10, distance_unit="km", duration_minutes=50
    )
    no_speed = exercise_entry_create(user=alice, exercise=stretch, distance=1, distance_unit="km")

    assert ten_k.duration_minutes == 62  # 6 mph, as the catalog name says; was the default 30
    assert three_miles.duration_minutes == 60
    assert ride.duration_minutes == 60  # no speed in the name: a typical 19 km/h
    assert timed.duration_minutes == 50  # a time given is kept
    assert no_speed.duration_minutes == 15  # no speed to go by: the default
    # the same 10 km run faster burns about as much: the pace counts when a time is given
    assert abs(ten_k.calories_burned - timed.calories_burned) <= 0.05 * ten_k.calories_burned


def test_a_distance_in_a_time_burns_by_the_pace_not_by_the_minutes_alone(alice, running):
    fast = exercise_entry_create(
        user=alice, exercise=running, distance=5, distance_unit="km", duration_minutes=20
    )
    easy = exercise_entry_create(
        user=alice, exercise=running, duration_minutes=20
    )  # no distance: the catalog's 6 mph

    assert fast.calories_burned > easy.calories_burned * 1.3  # 15 km/h, not 9.7


@pytest.mark.parametrize(("given", "unit"), [(5, "furlongs"), (0, "km"), (-2, "mi"), (2000, "km")])
def test_bad_distances_are_refused(alice, running, given, unit):
    with pytest.raises(ValidationError) as caught:
        exercise_entry_create(user=alice, exercise=running, distance=given, distance_unit=unit)

    assert caught.value.code in {"invalid_distance", "invalid_distance_unit"}
    assert not ExerciseEntry.objects.exists()


# --- options and custom exercises ------------------------------------------------------------


def test_choosing_an_option_creates_a_custom_exercise_and_logs_it(alice):
    option = {"name": "Padel", "calories_per_hour": 480, "category": "sports"}

    entry = exercise_option_add(user=alice, option=option, duration_minutes=90)

    assert entry.exercise.is_custom and entry.exercise.user == alice
    assert entry.exercise.category == "sports"
    assert entry.duration_minutes == 90
    assert entry.calories_burned == 720


def test_choosing_the_same_option_again_reuses_the_exercise(alice):
    option = {"name": "Padel", "calories_per_hour": 480, "category": "sports"}

    first = exercise_option_add(user=alice, option=option)
    second = exercise_option_add(user=alice, option={**option, "name": "padel"})

    assert first.exercise_id == second.exercise_id
    assert Exercise.objects.filter(user=alice).count() == 1


def test_an_option_with_a_future_date_writes_nothing(alice):
    option = {"name": "Padel", "calories_per_hour": 480}

    with pytest.raises(ValidationError):
        exercise_option_add(user=alice, option=option, entry_date="2999-01-01")

    assert not Exercise.objects.filter(user=alice).exists()
    assert not ExerciseEntry.objects.exists()


def test_an_option_with_a_met_uses_the_users_weight(alice):
    checkin_upsert(user=alice, weight=60)
    option = {"name": "Climbing gym", "calories_per_hour": 500, "met": 5.8}

    entry = exercise_option_add(user=alice, option=option, duration_minutes=60)

    assert entry.calories_burned == 348  # 5.8 x 60 kg


def test_custom_exercise_names_are_unique_per_user(alice, bob):
    exercise_create_custom(user=alice, name="Padel", calories_per_hour=480)

    with pytest.raises(ValidationError) as caught:
        exercise_create_custom(user=alice, name="PADEL", calories_per_hour=500)
    exercise_create_custom(user=bob, name="Padel", calories_per_hour=500)

    assert caught.value.code == "duplicate_exercise"


@pytest.mark.parametrize(
    "fields", [{"calories_per_hour": 0}, {"calories_per_hour": 9000}, {"met": 80}, {"name": " "}]
)
def test_implausible_custom_exercises_are_refused(alice, fields):
    with pytest.raises(ValidationError):
        exercise_create_custom(user=alice, **{"name": "Padel", **fields})

    assert not Exercise.objects.filter(user=alice).exists()


# --- updates and deletes ---------------------------------------------------------------------


def test_a_longer_duration_scales_the_calories(alice, running):
    entry = exercise_entry_create(
        user=alice, exercise=running, duration_minutes=30, calories_burned=300
    )

    updated = exercise_entry_update(user=alice, entry_id=entry.id, duration_minutes=45)

    assert (updated.duration_minutes, updated.calories_burned) == (45, 450)


def test_changing_the_exercise_recomputes_the_calories(alice, running):
    checkin_upsert(user=alice, weight=80)
    entry = exercise_entry_create(user=alice, duration_minutes=60)  # General Exercise, 320

    updated = exercise_entry_update(user=alice, entry_id=entry.id, exercise_name="running")

    assert updated.exercise == running
    assert updated.calories_burned == 784


def test_an_entry_can_move_to_another_past_day_but_not_the_future(alice, running):
    entry = exercise_entry_create(user=alice, exercise=running)

    moved = exercise_entry_update(user=alice, entry_id=entry.id, entry_date="yesterday")
    with pytest.raises(ValidationError):
        exercise_entry_update(user=alice, entry_id=entry.id, entry_date="2999-01-01")

    assert moved.entry_date == days_ago(alice, 1)
    entry.refresh_from_db()
    assert entry.entry_date == days_ago(alice, 1)


def test_bob_cannot_update_or_delete_alices_entries(alice, bob, running):
    entry = exercise_entry_create(user=alice, exercise=running, duration_minutes=30)

    with pytest.raises(ExerciseEntry.DoesNotExist):
        exercise_entry_update(user=bob, entry_id=entry.id, duration_minutes=90)
    with pytest.raises(ExerciseEntry.DoesNotExist):
        exercise_entry_delete(user=bob, entry_id=entry.id)

    entry.refresh_from_db()
    assert entry.duration_minutes == 30


def test_a_malformed_entry_id_is_simply_not_found(alice):
    with pytest.raises(ExerciseEntry.DoesNotExist):
        exercise_entry_delete(user=alice, entry_id="not-an-id")


def test_alice_can_delete_her_entry(alice, running):
    entry = exercise_entry_create(user=alice, exercise=running)

    exercise_entry_delete(user=alice, entry_id=str(entry.id))

    assert not ExerciseEntry.objects.filter(pk=entry.pk).exists()


@pytest.mark.parametrize("text", ["bad\x00name", "bad\ud800name"])
def test_text_the_database_cannot_store_is_refused_with_a_message(alice, text):
    with pytest.raises(ValidationError) as named:
        exercise_create_custom(user=alice, name=text, calories_per_hour=300)
    with pytest.raises(ValidationError) as noted:
        exercise_entry_create(user=alice, notes=text)

    assert named.value.code == noted.value.code == "invalid_characters"
    assert not ExerciseEntry.objects.exists()


# --- what a session and a day can hold -----------------------------------------------------


@pytest.mark.parametrize(
    ("distance", "minutes"),
    [(999, 1), (5, 1), (30, 60)],  # 59,940 km/h; 300 km/h; 30 km/h is no run either
)
def test_a_distance_faster_than_anyone_goes_is_refused_in_plain_words(
    alice, running, distance, minutes
):
    with pytest.raises(ValidationError) as caught:
        exercise_entry_create(
            user=alice,
            exercise=running,
            distance=distance,
            distance_unit="km",
            duration_minutes=minutes,
        )

    assert caught.value.code == "implausible_speed"
    assert "km/h" in caught.value.message and "Decimal" not in caught.value.message
    assert not ExerciseEntry.objects.exists()


def test_each_activity_has_its_own_top_speed(alice, running):
    cycling = public_exercise("Cycling, general", met=7.5)

    ride = exercise_entry_create(
        user=alice, exercise=cycling, distance=30, distance_unit="km", duration_minutes=60
    )
    assert ride.distance == 30  # 30 km/h is a brisk ride, though no one runs it
    with pytest.raises(ValidationError, match="no one keeps up more than 60 km/h"):
        exercise_entry_create(
            user=alice, exercise=cycling, distance=100, distance_unit="km", duration_minutes=60
        )


def test_a_distance_with_no_time_that_no_session_holds_is_refused(alice):
    walking = public_exercise("Walking, 3.5 mph, brisk", met=4.3)

    with pytest.raises(ValidationError) as caught:
        exercise_entry_create(user=alice, exercise=walking, distance=1000, distance_unit="km")

    assert caught.value.code == "implausible_distance"
    assert "1,000 km of walking would take about" in caught.value.message
    assert not ExerciseEntry.objects.exists()


def test_a_session_longer_than_its_activity_allows_is_refused(alice):
    yoga = public_exercise("Yoga, Hatha", met=2.5)

    assert exercise_entry_create(user=alice, exercise=yoga, duration_minutes=90)
    with pytest.raises(ValidationError) as caught:
        exercise_entry_create(user=alice, exercise=yoga, duration_minutes=600)

    assert caught.value.code == "implausible_duration"
    assert caught.value.message.startswith("10 hours of yoga")


def test_a_day_holds_at_most_24_hours_of_exercise(alice, running):
    walking = public_exercise("Walking, 3.5 mph, brisk", met=4.3)
    first = exercise_entry_create(user=alice, exercise=walking, duration_minutes=14 * 60)
    yesterday = exercise_entry_create(
        user=alice, exercise=walking, duration_minutes=12 * 60, entry_date=days_ago(alice, 1)
    )

    with pytest.raises(ValidationError) as caught:
        exercise_entry_create(user=alice, exercise=walking, duration_minutes=12 * 60)
    assert caught.value.code == "implausible_day"
    assert "26 hours of exercise" in caught.value.message
    with pytest.raises(ValidationError):  # moving yesterday's onto today is the same
        exercise_entry_update(user=alice, entry_id=yesterday.pk, entry_date=today_for(alice))
    # changing the day's one entry counts it once
    exercise_entry_update(user=alice, entry_id=first.pk, duration_minutes=20 * 60)
    assert ExerciseEntry.objects.for_user(alice).count() == 2


def test_an_update_to_an_impossible_pace_is_refused(alice, running):
    entry = exercise_entry_create(
        user=alice, exercise=running, distance=5, distance_unit="km", duration_minutes=30
    )

    with pytest.raises(ValidationError, match="would be 300 km/h"):
        exercise_entry_update(user=alice, entry_id=entry.pk, duration_minutes=1)
    entry.refresh_from_db()
    assert entry.duration_minutes == 30
