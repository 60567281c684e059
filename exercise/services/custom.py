"""The user's own exercises: created, changed and deleted."""

from decimal import ROUND_HALF_UP, Decimal

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Value
from django.db.models.functions import Lower

from exercise.models import Exercise, ExerciseEntry
from exercise.services.values import MAX_KCAL_PER_MINUTE, MAX_MINUTES, _minutes
from measurements.units import to_decimal
from sparky.services import (
    own_custom_row,
    refuse_while_used,
    storable_name,
    storable_text,
    uuid_pk,
)
from sparky.words import as_written


def _exercise_name(name) -> str:
    if not isinstance(name, str) or not " ".join(name.split()):
        raise ValidationError("A custom exercise needs a name.", code="name_required")
    name = storable_name(" ".join(name.split()), field="The exercise name")
    if len(name) > 255:
        raise ValidationError("Exercise names are at most 255 characters.", code="too_long")
    return name


def _calories_per_hour(value) -> int:
    cph = to_decimal(value, field="calories_per_hour")
    if not 1 <= cph <= MAX_KCAL_PER_MINUTE * 60:
        raise ValidationError(
            f"{as_written(cph)} kcal per hour is not plausible; give a number from 1 to "
            f"{MAX_KCAL_PER_MINUTE * 60:,} (no one burns more than {MAX_KCAL_PER_MINUTE} kcal a "
            "minute for long).",
            code="implausible_calories",
        )
    return int(cph.quantize(Decimal(1), rounding=ROUND_HALF_UP))


def _met(value) -> Decimal:
    met = to_decimal(value, field="met")
    if not Decimal("0.9") <= met <= 30:
        raise ValidationError(
            f"A MET of {met} is not plausible; values run from 1 (resting) to about 23.",
            code="implausible_met",
        )
    return met.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def _category(value) -> str | None:
    return storable_text(str(value).strip().lower()[:50], field="category") or None


def _description(value) -> str | None:
    return storable_text(str(value).strip()[:2000], field="description") or None


# The optional fields of a custom exercise, each with its check; None leaves one out of a new
# exercise and clears it on an update.
_CLEARABLE = {
    "calories_per_hour": _calories_per_hour,
    "met": _met,
    "category": _category,
    "description": _description,
}


def _own_named(user, name: str):
    return (
        Exercise.objects.owned_by(user)
        .alias(lname=Lower("name"))
        .filter(lname=Lower(Value(" ".join(name.split()))))
    )


@transaction.atomic
def exercise_create_custom(
    *,
    user,
    name: str,
    calories_per_hour=None,
    met=None,
    category: str | None = None,
    description: str | None = None,
    default_duration_minutes=30,
    shared_with_public: bool = False,
) -> Exercise:
    """A custom exercise owned by the user (refused if they already have one of that name)."""
    optional = {
        "calories_per_hour": calories_per_hour,
        "met": met,
        "category": category,
        "description": description,
    }
    fields = {"name": _exercise_name(name)}
    fields.update((k, _CLEARABLE[k](v)) for k, v in optional.items() if v is not None)
    if default_duration_minutes is not None:
        fields["default_duration_minutes"] = _minutes(default_duration_minutes)
    if _own_named(user, fields["name"]).exists():
        raise ValidationError(
            f"You already have an exercise called {fields['name']!r}.", code="duplicate_exercise"
        )
    exercise = Exercise(
        user=user, is_custom=True, shared_with_public=bool(shared_with_public), **fields
    )
    exercise.full_clean()
    exercise.save()
    return exercise


# What exercise_update_custom may change; None clears the optional ones.
CUSTOM_FIELDS = (
    "name",
    "calories_per_hour",
    "met",
    "category",
    "description",
    "default_duration_minutes",
    "shared_with_public",
)


def _own_exercise(user, exercise_id) -> Exercise:
    """One of the user's own custom exercises, locked. An exercise they can see but do not own
    (the catalog, one shared by someone else) is read-only; any other id does not exist."""
    return own_custom_row(Exercise, user, uuid_pk(exercise_id, Exercise), noun="exercise")


@transaction.atomic
def exercise_update_custom(*, user, exercise_id, **fields) -> Exercise:
    """Change one of the user's own exercises; what is not given stays, None clears
    calories_per_hour, met, category or description.

    Entries already logged keep their calories: those were worked out, from the weight of their
    day, when they were logged, and the diary of a past day does not change behind the user.
    """
    exercise = _own_exercise(user, exercise_id)
    unknown = sorted(set(fields) - set(CUSTOM_FIELDS))
    if unknown:
        raise ValidationError(
            f"Unknown exercise field(s) {', '.join(unknown)}; you can change "
            f"{', '.join(CUSTOM_FIELDS)}.",
            code="unknown_field",
        )
    if not fields:
        raise ValidationError(
            f"Say what to change on {exercise.name}: {', '.join(CUSTOM_FIELDS)}.",
            code="no_changes",
        )
    for name, value in fields.items():
        if name == "name":
            exercise.name = _exercise_name(value)
        elif name == "default_duration_minutes":
            if value is None:
                raise ValidationError(
                    "The usual duration cannot be cleared; give a number of minutes from "
                    f"1 to {MAX_MINUTES}.",
                    code="invalid_duration",
                )
            exercise.default_duration_minutes = _minutes(value)
        elif name == "shared_with_public":
            if not isinstance(value, bool):
                raise ValidationError(
                    f"Sharing is either on (true) or off (false), not {value!r}.", code="invalid"
                )
            exercise.shared_with_public = value
        else:
            setattr(exercise, name, None if value is None else _CLEARABLE[name](value))
    if "name" in fields and _own_named(user, exercise.name).exclude(pk=exercise.pk).exists():
        raise ValidationError(
            f"You already have an exercise called {exercise.name!r}; pick another name.",
            code="duplicate_exercise",
        )
    # Staff approved the share as it was: a changed exercise waits for their approval again.
    exercise.share_approved = False
    exercise.full_clean()
    exercise.save()
    return exercise


@transaction.atomic
def exercise_delete_custom(*, user, exercise_id) -> None:
    """Delete one of the user's own exercises, refused while diary entries use it.

    An entry keeps pointing at its exercise (a past day's diary must keep its names), so an
    exercise in use stays; the message says what to do instead.
    """
    exercise = _own_exercise(user, exercise_id)
    entries = ExerciseEntry.objects.filter(exercise=exercise)
    refuse_while_used(exercise, entries, user=user, yours="exercise entries")
    exercise.delete()
