"""Changing and deleting custom exercises: only the owner's own, never the catalog's, never one
that diary entries still use."""

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from exercise.models import Exercise, ExerciseEntry
from exercise.services import (
    exercise_create_custom,
    exercise_delete_custom,
    exercise_entry_create,
    exercise_update_custom,
)
from tests.exercise.conftest import public_exercise
from tests.factories import approve_share

pytestmark = pytest.mark.django_db


@pytest.fixture
def padel(alice):
    return exercise_create_custom(
        user=alice, name="Padel", calories_per_hour=480, category="sport", met=6
    )


@pytest.fixture
def running(db):
    return public_exercise(
        "Running, 6 mph (10 min/mile)", met=9.8, source="compendium_2011", source_id="12050"
    )


def row(exercise) -> dict:
    return Exercise.objects.filter(pk=exercise.pk).values().get()


def test_the_owner_changes_only_the_fields_given(alice, padel):
    changed = exercise_update_custom(
        user=alice, exercise_id=padel.pk, name="  Padel   doubles ", met="7.25"
    )

    padel.refresh_from_db()
    assert (padel.name, padel.met, padel.calories_per_hour) == (
        "Padel doubles",
        Decimal("7.25"),
        480,
    )
    assert (padel.category, padel.default_duration_minutes) == ("sport", 30)
    assert changed.pk == padel.pk


def test_none_clears_an_optional_value(alice, padel):
    exercise_update_custom(user=alice, exercise_id=padel.pk, met=None, description=None)

    padel.refresh_from_db()
    assert padel.met is None and padel.calories_per_hour == 480


def test_sharing_can_be_switched_on_and_off(alice, bob, padel):
    exercise_update_custom(user=alice, exercise_id=str(padel.pk), shared_with_public=True)
    assert not Exercise.objects.visible_to(bob).filter(pk=padel.pk).exists()  # waits for staff
    approve_share(padel)
    assert Exercise.objects.visible_to(bob).filter(pk=padel.pk).exists()

    exercise_update_custom(user=alice, exercise_id=padel.pk, shared_with_public=False)
    assert not Exercise.objects.visible_to(bob).filter(pk=padel.pk).exists()


def test_a_rename_onto_another_of_your_exercises_is_refused(alice, bob, padel):
    squash = exercise_create_custom(user=alice, name="Squash", calories_per_hour=500)
    exercise_create_custom(user=bob, name="Tennis")

    with pytest.raises(ValidationError) as caught:
        exercise_update_custom(user=alice, exercise_id=squash.pk, name="PADEL")

    assert caught.value.code == "duplicate_exercise"
    assert row(squash)["name"] == "Squash"
    # Bob's names are his own, and a change of case of its own name is no duplicate.
    exercise_update_custom(user=alice, exercise_id=squash.pk, name="Tennis")
    exercise_update_custom(user=alice, exercise_id=padel.pk, name="PADEL")
    assert row(padel)["name"] == "PADEL"


def test_entries_already_logged_keep_their_calories(alice, padel):
    entry = exercise_entry_create(user=alice, exercise=padel, duration_minutes=60)
    before = entry.calories_burned

    exercise_update_custom(user=alice, exercise_id=padel.pk, calories_per_hour=900, met=None)

    entry.refresh_from_db()
    assert entry.calories_burned == before
    later = exercise_entry_create(user=alice, exercise=padel, duration_minutes=60)
    assert later.calories_burned == 900


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"met": 80}, "implausible_met"),
        ({"calories_per_hour": 0}, "implausible_calories"),
        ({"name": " "}, "name_required"),
        ({"name": None}, "name_required"),
        ({"default_duration_minutes": None}, "invalid_duration"),
        ({"default_duration_minutes": 0}, "invalid_duration"),
        ({"shared_with_public": "yes"}, "invalid"),
        ({"owner": "someone"}, "unknown_field"),
        ({}, "no_changes"),
        ({"name": "Fine", "met": "lots"}, "not_a_number"),
    ],
)
def test_bad_changes_are_refused_and_nothing_is_written(alice, padel, fields, code):
    before = row(padel)

    with pytest.raises(ValidationError) as caught:
        exercise_update_custom(user=alice, exercise_id=padel.pk, **fields)

    assert caught.value.code == code
    assert row(padel) == before


def test_a_catalog_exercise_is_read_only(alice, running):
    before = row(running)

    for attempt in (
        lambda: exercise_update_custom(user=alice, exercise_id=running.pk, met=1),
        lambda: exercise_delete_custom(user=alice, exercise_id=running.pk),
    ):
        with pytest.raises(ValidationError) as caught:
            attempt()
        assert caught.value.code == "read_only"
        assert "Running" in caught.value.messages[0]

    assert row(running) == before


def test_bob_cannot_change_or_delete_alices_exercise(alice, bob, padel):
    before = row(padel)

    with pytest.raises(Exercise.DoesNotExist):
        exercise_update_custom(user=bob, exercise_id=padel.pk, name="Bob's now")
    with pytest.raises(Exercise.DoesNotExist):
        exercise_delete_custom(user=bob, exercise_id=padel.pk)

    assert row(padel) == before


def test_a_shared_exercise_is_read_only_to_others(alice, bob, padel):
    exercise_update_custom(user=alice, exercise_id=padel.pk, shared_with_public=True)
    approve_share(padel)
    before = row(padel)

    with pytest.raises(ValidationError) as caught:
        exercise_update_custom(user=bob, exercise_id=padel.pk, name="Bob's now")
    with pytest.raises(ValidationError):
        exercise_delete_custom(user=bob, exercise_id=padel.pk)

    assert caught.value.code == "read_only"
    assert row(padel) == before


def test_a_malformed_id_is_simply_not_found(alice):
    with pytest.raises(Exercise.DoesNotExist):
        exercise_update_custom(user=alice, exercise_id="not-a-uuid", name="x")
    with pytest.raises(Exercise.DoesNotExist):
        exercise_delete_custom(user=alice, exercise_id=12)


def test_an_exercise_nobody_logged_is_deleted(alice, padel):
    exercise_delete_custom(user=alice, exercise_id=padel.pk)

    assert not Exercise.objects.filter(pk=padel.pk).exists()


def test_an_exercise_in_use_is_not_deleted(alice, padel):
    exercise_entry_create(user=alice, exercise=padel, duration_minutes=45)

    with pytest.raises(ValidationError) as caught:
        exercise_delete_custom(user=alice, exercise_id=padel.pk)

    assert caught.value.code == "in_use"
    assert "1 of your exercise entries" in caught.value.messages[0]
    assert Exercise.objects.filter(pk=padel.pk).exists()


def test_a_shared_exercise_someone_else_logged_is_not_deleted(alice, bob, padel):
    exercise_update_custom(user=alice, exercise_id=padel.pk, shared_with_public=True)
    approve_share(padel)
    exercise_entry_create(user=bob, exercise=padel, duration_minutes=30)

    with pytest.raises(ValidationError) as caught:
        exercise_delete_custom(user=alice, exercise_id=padel.pk)

    assert caught.value.code == "in_use"
    assert "stop sharing" in caught.value.messages[0]
    assert ExerciseEntry.objects.filter(user=bob, exercise=padel).exists()
