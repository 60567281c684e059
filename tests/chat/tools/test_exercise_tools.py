"""Exercise tools as a model calls them: what lands in whose exercise diary, the calories worked
out from the user's own weight, and what is refused."""

import datetime as dt

import pytest

from chat.tools import ToolContext, run_tool
from exercise.models import Exercise, ExerciseEntry
from sparky.dates import today_for
from tests.factories import CheckInFactory, CustomExerciseFactory, ExerciseEntryFactory

pytestmark = pytest.mark.django_db


def call(user, name, args):
    return run_tool(ToolContext.for_user(user), name, args)


def test_a_run_lands_in_the_users_diary_with_calories_from_their_weight(alice, bob, catalog):
    CheckInFactory(user=alice, weight=80)
    CheckInFactory(user=bob, weight=120)  # bob's weight is never used for alice

    result = call(alice, "log_exercise", {"exercise_name": "running", "duration_minutes": 30})

    assert result.ok, result.message
    entry = ExerciseEntry.objects.get(user=alice)
    assert entry.exercise == catalog["running"]
    assert (entry.duration_minutes, entry.entry_date) == (30, today_for(alice))
    assert entry.calories_burned == 392  # 9.8 MET x 80 kg x 0.5 h
    assert result.written[0].kind == "exercise_entry"
    assert result.written[0].id == str(entry.id)
    assert "30 min" in result.message and "392 kcal" in result.message
    assert not ExerciseEntry.objects.filter(user=bob).exists()


def test_without_a_weight_the_catalogs_calories_per_hour_are_used(alice, catalog):
    result = call(alice, "log_exercise", {"exercise_name": "brisk walking", "duration_minutes": 60})

    assert result.ok, result.message
    entry = ExerciseEntry.objects.get(user=alice)
    assert entry.exercise == catalog["walking"]
    assert entry.calories_burned == catalog["walking"].calories_per_hour == 301


def test_calories_the_user_stated_are_kept(alice, catalog):
    result = call(
        alice,
        "log_exercise",
        {"exercise_name": "swimming", "duration_minutes": 45, "calories_burned": 410},
    )

    assert result.ok, result.message
    assert ExerciseEntry.objects.get(user=alice).calories_burned == 410


def test_an_activity_the_catalog_lacks_offers_options_and_writes_nothing(alice, catalog):
    result = call(
        alice, "log_exercise", {"exercise_name": "underwater hockey", "duration_minutes": 40}
    )

    assert not result.ok
    assert "not in the exercise catalog" in result.message
    assert result.options["kind"] == "exercise"
    assert result.options["request"]["duration_minutes"] == 40
    assert not ExerciseEntry.objects.exists()


@pytest.mark.parametrize("minutes", [0, -20, 100_000])
def test_an_impossible_duration_is_refused(alice, catalog, minutes):
    result = call(alice, "log_exercise", {"exercise_name": "running", "duration_minutes": minutes})

    assert not result.ok
    assert "is not possible" in result.message and "Nothing was saved" in result.message
    assert not ExerciseEntry.objects.exists()


def test_negative_calories_burned_are_refused(alice, catalog):
    result = call(
        alice,
        "log_exercise",
        {"exercise_name": "running", "duration_minutes": 30, "calories_burned": -300},
    )

    assert not result.ok
    assert "not plausible" in result.message
    assert not ExerciseEntry.objects.exists()


def test_the_exercise_diary_shows_only_the_users_own_workouts(alice, bob, catalog):
    ExerciseEntryFactory(user=alice, exercise=catalog["walking"], duration_minutes=20)
    ExerciseEntryFactory(user=bob, exercise=catalog["running"], duration_minutes=90)

    result = call(alice, "exercise_diary", {"date": "today"})

    assert result.ok
    assert result.message == f"1 exercise entry on {today_for(alice).isoformat()}."
    assert result.data["totals"]["minutes"] == 20


def test_a_custom_exercise_is_the_owners_alone(alice, bob):
    saved = call(alice, "create_custom_exercise", {"name": "Zorbing", "calories_per_hour": 450})
    assert saved.ok, saved.message
    assert Exercise.objects.get(name="Zorbing").user == alice

    mine = call(alice, "search_exercises", {"query": "zorbing"})
    theirs = call(bob, "search_exercises", {"query": "zorbing"})
    call(bob, "log_exercise", {"exercise_name": "zorbing", "duration_minutes": 30})

    assert [e["name"] for e in mine.data["exercises"]] == ["Zorbing"]
    assert "Zorbing" not in [e["name"] for e in theirs.data["exercises"]]
    assert not ExerciseEntry.objects.filter(user=bob, exercise__name="Zorbing").exists()


def test_another_users_private_exercise_id_is_not_logged(alice, bob, catalog):
    bobs = CustomExerciseFactory(user=bob, name="Bob's sword dance")

    result = call(alice, "log_exercise", {"exercise_id": str(bobs.id), "exercise_name": "walking"})

    assert not result.ok and "No exercise with id" in result.message  # not the name instead
    assert not ExerciseEntry.objects.exists()


def test_editing_by_name_changes_only_the_users_own_run(alice, bob, catalog):
    mine = ExerciseEntryFactory(user=alice, exercise=catalog["running"], duration_minutes=30)
    theirs = ExerciseEntryFactory(user=bob, exercise=catalog["running"], duration_minutes=30)

    result = call(
        alice, "edit_exercise_entry", {"exercise_name": "running", "duration_minutes": 45}
    )

    assert result.ok, result.message
    mine.refresh_from_db()
    theirs.refresh_from_db()
    assert (mine.duration_minutes, theirs.duration_minutes) == (45, 30)


def test_another_users_entry_id_is_neither_edited_nor_deleted(alice, bob, catalog):
    theirs = ExerciseEntryFactory(user=bob, exercise=catalog["running"], duration_minutes=30)

    edited = call(alice, "edit_exercise_entry", {"entry_id": str(theirs.id), "duration_minutes": 5})
    deleted = call(alice, "delete_exercise_entry", {"entry_id": str(theirs.id)})

    assert not edited.ok and not deleted.ok
    assert f"You have no exercise entry with id {theirs.id}" in deleted.message
    theirs.refresh_from_db()
    assert theirs.duration_minutes == 30


def test_an_edit_without_changes_or_with_a_bad_duration_is_refused(alice, catalog):
    entry = ExerciseEntryFactory(user=alice, exercise=catalog["running"], duration_minutes=30)

    nothing = call(alice, "edit_exercise_entry", {"entry_id": str(entry.id)})
    negative = call(
        alice, "edit_exercise_entry", {"entry_id": str(entry.id), "duration_minutes": -5}
    )

    assert not nothing.ok and "Say what to change" in nothing.message
    assert not negative.ok and "Nothing was saved" in negative.message
    entry.refresh_from_db()
    assert entry.duration_minutes == 30


def test_moving_a_workout_to_yesterday(alice, catalog):
    entry = ExerciseEntryFactory(user=alice, exercise=catalog["swimming"])
    yesterday = today_for(alice) - dt.timedelta(days=1)

    result = call(
        alice, "edit_exercise_entry", {"entry_id": str(entry.id), "new_date": yesterday.isoformat()}
    )

    assert result.ok, result.message
    entry.refresh_from_db()
    assert entry.entry_date == yesterday


def test_two_workouts_that_fit_the_name_are_asked_about_not_deleted(alice, catalog):
    first = ExerciseEntryFactory(user=alice, exercise=catalog["walking"], duration_minutes=20)
    second = ExerciseEntryFactory(user=alice, exercise=catalog["walking"], duration_minutes=40)

    result = call(alice, "delete_exercise_entry", {"exercise_name": "walking"})

    assert not result.ok
    assert "Several exercise entries match" in result.message
    assert str(first.id) in result.message and str(second.id) in result.message
    assert ExerciseEntry.objects.filter(user=alice).count() == 2


def test_deleting_a_workout_by_name_removes_it(alice, bob, catalog):
    ExerciseEntryFactory(user=alice, exercise=catalog["swimming"])
    theirs = ExerciseEntryFactory(user=bob, exercise=catalog["swimming"])

    result = call(alice, "delete_exercise_entry", {"exercise_name": "swimming", "date": "today"})

    assert result.ok, result.message
    assert result.written[0].kind == "exercise_entry_deleted"
    assert list(ExerciseEntry.objects.all()) == [theirs]
