"""The exercise diary: a workout logged, picked from options, changed or deleted, and the undo
of one chat reply's writes."""

from decimal import ROUND_HALF_UP, Decimal

from django.core.exceptions import ValidationError
from django.db import transaction

from exercise.models import Exercise, ExerciseEntry
from exercise.services.custom import _own_named, exercise_create_custom
from exercise.services.search import exercise_find_best, exercise_get
from exercise.services.values import (
    _KM_PER_UNIT,
    _calories,
    _distance,
    _minutes,
    _notes,
    check_burn,
    check_day_total,
    check_distance_alone,
    check_session,
    exercise_calories,
    general_exercise,
)
from sparky import rows
from sparky.dates import parse_day
from sparky.services import uuid_pk, visible_row


def _resolve(user, exercise, exercise_name) -> Exercise:
    """The exercise to log: the one given (if visible), the confident match of the name, or
    General Exercise when neither is given (small models often leave both out)."""
    if exercise is not None:
        return visible_row(
            lambda pk: exercise_get(user=user, exercise_id=pk),
            exercise,
            refused="That exercise does not exist or is not visible to you.",
            code="exercise_not_found",
        )
    if exercise_name is not None and not isinstance(exercise_name, str):
        raise ValidationError("The exercise name must be text.", code="invalid")
    name = (exercise_name or "").strip()
    if not name:
        return general_exercise()
    found = exercise_find_best(user=user, name=name)
    if found is None:
        raise ValidationError(
            f"No exercise matching {name[:100]!r} was found.",
            code="exercise_not_found",
            params={"name": name},
        )
    return found


# --- writes ----------------------------------------------------------------------------------


def exercise_entry_prepare(
    *,
    user,
    exercise=None,
    exercise_name: str | None = None,
    duration_minutes=None,
    distance=None,
    distance_unit: str | None = None,
    entry_date=None,
    notes: str | None = None,
    calories_burned=None,
) -> ExerciseEntry:
    """Log an exercise for the user.

    `exercise` is an Exercise (or its id) visible to the user; else `exercise_name` is matched
    against the catalog (no confident match: ValidationError code 'exercise_not_found'); with
    neither, General Exercise is logged. Duration defaults to the exercise's default; calories
    are estimated (exercise_calories) unless the caller gives them.

    The entry comes back checked and not saved (`exercise_entry_save` saves it): what
    `exercise_entry_create` would write.
    """
    day = parse_day(user, entry_date)
    chosen = _resolve(user, exercise, exercise_name)
    dist, dist_unit = _distance(user, distance, distance_unit)
    km = dist * _KM_PER_UNIT[dist_unit] if dist is not None else None
    pace_km = km
    if duration_minutes is None and dist is not None:
        duration_minutes = check_distance_alone(chosen, km)
        pace_km = None  # no time said: the typical pace, which the MET already is
    minutes = _minutes(
        duration_minutes if duration_minutes is not None else chosen.default_duration_minutes
    )
    check_session(chosen, minutes=minutes, km=km)
    check_day_total(user=user, day=day, minutes=minutes)
    estimate = exercise_calories(
        user=user, exercise=chosen, duration_minutes=minutes, day=day, km=pace_km
    )
    burned = estimate
    if calories_burned is not None:
        burned = _calories(calories_burned)
        check_burn(chosen, minutes=minutes, kcal=burned, estimate=estimate)
    entry = ExerciseEntry(
        user=user,
        exercise=chosen,
        duration_minutes=minutes,
        calories_burned=burned,
        entry_date=day,
        notes=_notes(notes),
        distance=dist,
        distance_unit=dist_unit,
    )
    entry.full_clean()
    return entry


def exercise_entry_save(entry: ExerciseEntry) -> ExerciseEntry:
    """Save an entry `exercise_entry_prepare` checked."""
    entry.save(force_insert=True)
    return entry


def exercise_entry_create(**kwargs) -> ExerciseEntry:
    """Log an exercise for the user at once (exercise_entry_prepare says how)."""
    return exercise_entry_save(exercise_entry_prepare(**kwargs))


@transaction.atomic
def exercise_option_add(*, user, option: dict, **entry) -> ExerciseEntry:
    """Log a suggested option ({name, calories_per_hour, category, met?, description?,
    duration_minutes?}): it becomes the user's custom exercise (reused if they already have one
    of that name), then is logged like any other, with what `entry` gives of
    exercise_entry_create's duration_minutes, distance, distance_unit, entry_date, notes and
    calories_burned; the option's duration stands in for one not given."""
    if not isinstance(option, dict) or not option.get("name"):
        raise ValidationError("The option needs at least a name.", code="invalid_option")
    parse_day(user, entry.get("entry_date"))  # refuse a bad date before creating anything
    exercise = _own_named(user, str(option["name"])).first()
    if exercise is None:
        exercise = exercise_create_custom(
            user=user,
            name=option["name"],
            calories_per_hour=option.get("calories_per_hour"),
            met=option.get("met"),
            category=option.get("category"),
            description=option.get("description"),
        )
    if entry.get("duration_minutes") is None:
        entry["duration_minutes"] = option.get("duration_minutes")
    return exercise_entry_create(user=user, exercise=exercise, **entry)


def _own_entry(user, entry_id) -> ExerciseEntry:
    pk = uuid_pk(entry_id, ExerciseEntry)
    return ExerciseEntry.objects.for_user(user).select_for_update().get(pk=pk)


@transaction.atomic
def exercise_entry_update(
    *,
    user,
    entry_id,
    exercise=None,
    exercise_name: str | None = None,
    duration_minutes=None,
    distance=None,
    distance_unit: str | None = None,
    entry_date=None,
    notes: str | None = None,
    calories_burned=None,
) -> ExerciseEntry:
    """Change the user's own entry (others' ids raise ExerciseEntry.DoesNotExist).

    Calories: given ones win; a new exercise is estimated afresh; a new duration scales the
    stored calories, which keeps whatever rate the entry was logged with.
    """
    entry = _own_entry(user, entry_id)
    day = parse_day(user, entry_date) if entry_date is not None else entry.entry_date
    changed_exercise = exercise is not None or bool((exercise_name or "").strip())
    if changed_exercise:
        entry.exercise = _resolve(user, exercise, exercise_name)
    old_minutes = entry.duration_minutes
    if duration_minutes is not None:
        entry.duration_minutes = _minutes(duration_minutes)
    if calories_burned is not None:
        entry.calories_burned = _calories(calories_burned)
        estimate = exercise_calories(
            user=user, exercise=entry.exercise, duration_minutes=entry.duration_minutes, day=day
        )
        check_burn(
            entry.exercise,
            minutes=entry.duration_minutes,
            kcal=entry.calories_burned,
            estimate=estimate,
        )
    elif changed_exercise:
        entry.calories_burned = exercise_calories(
            user=user, exercise=entry.exercise, duration_minutes=entry.duration_minutes, day=day
        )
    elif entry.duration_minutes != old_minutes and old_minutes:
        scaled = Decimal(entry.calories_burned) * entry.duration_minutes / old_minutes
        entry.calories_burned = int(scaled.quantize(Decimal(1), rounding=ROUND_HALF_UP))
    if distance is not None:
        entry.distance, entry.distance_unit = _distance(user, distance, distance_unit)
    elif distance_unit is not None and entry.distance is not None:
        entry.distance, entry.distance_unit = _distance(user, entry.distance, distance_unit)
    if notes is not None:
        entry.notes = _notes(notes)
    entry.entry_date = day
    km = entry.distance * _KM_PER_UNIT[entry.distance_unit] if entry.distance else None
    check_session(entry.exercise, minutes=entry.duration_minutes, km=km)
    check_day_total(user=user, day=day, minutes=entry.duration_minutes, excluding=entry.pk)
    entry.full_clean()
    entry.save()
    return entry


@transaction.atomic
def exercise_entry_delete(*, user, entry_id) -> None:
    """Delete the user's own entry (others' ids raise ExerciseEntry.DoesNotExist)."""
    _own_entry(user, entry_id).delete()


def undo_write(*, user, kind: str, row_id, undo: dict) -> str:
    """Take back one write of the exercise tables: sparky.rows' DONE, CHANGED or GONE."""
    op = undo.get("op")
    if kind in ("exercise_entry", "exercise_entry_deleted"):
        done = rows.undo_row(ExerciseEntry, user, row_id, undo)
        if done is not None:
            return done
    if kind == "exercise" and op == "delete":
        return rows.take_back_unused(Exercise, user, row_id, entries=ExerciseEntry, via="exercise")
    raise ValueError(f"no undo {op!r} for {kind!r}")
