"""The exercise app's shared values: limits, typical durations, distance units, the catalog
row every fallback uses, the checks of a workout's numbers, and its calories."""

import re
from decimal import ROUND_HALF_UP, Decimal

from django.core.exceptions import ValidationError
from django.db.models import Sum

from exercise import catalog, vocabulary
from exercise.models import Exercise, ExerciseEntry
from measurements.services import latest_weight_kg
from measurements.units import to_decimal
from sparky.services import preferences_for, storable_text
from sparky.words import as_written, counted

GENERAL_NAME = catalog.GENERAL_EXERCISE_NAME
# An exercise with neither MET nor calories per hour counts as General Exercise (4.0 MET).
DEFAULT_MET = catalog.GENERAL_MET
# When we know a MET but not the user's weight, a 70 kg reference adult stands in.
REFERENCE_WEIGHT_KG = Decimal(70)
MAX_MINUTES = 24 * 60
MAX_CALORIES = 20_000
MAX_DISTANCE_KM = Decimal(1000)
# The smallest distance an entry keeps (the column's three decimals): less rounds to nothing.
DISTANCE_STEP = Decimal("0.001")
# What a body burns at most, a minute, over a session: elite rowers and cross-country skiers
# reach about 20 kcal/min. Calories given above this for the time (or above the activity's own
# estimate for this user, when that is higher) are refused.
MAX_KCAL_PER_MINUTE = 30
# No one covers a distance faster than this on their own power, whatever the activity (downhill
# skiing included, averaged over a session).
FASTEST_KMH = Decimal(100)
MAX_NOTES_CHARS = 1000
# Among equally similar catalog names, the everyday variant of an activity ("running, 6 mph"
# rather than "running, marathon"): how Compendium descriptions of it begin.
_TYPICAL = {
    "aerobic": "aerobic, general",
    "bicycling": "bicycling, general",
    "boxing": "boxing, punching bag",
    "circuit training": "circuit training, including",
    "climbing": "rock or mountain climbing",
    "dancing": "general dancing",
    "hiking": "hiking, cross country",
    "jogging": "jogging, general",
    "rowing": "rowing, stationary, general, moderate",
    "running": "running, 6 mph",
    "swimming": "swimming, leisurely",
    "walking": "walking, 3.5 mph",
    "weight training": "weight training, moderate",
    "yoga": "yoga, hatha",
}
# Spelling -> km, mi or m, and each in km (exercise/words/distances.toml).
DISTANCE_UNITS = vocabulary.DISTANCE_SPELLINGS
_KM_PER_UNIT = vocabulary.KM_PER_UNIT


def distance_unit_of(word) -> str | None:
    """km, mi or m for a distance unit as people write it ("kms", "miles", "metres"), else None."""
    return DISTANCE_UNITS.get(str(word or "").strip().lower().rstrip("."))


# --- the catalog row every fallback uses -----------------------------------------------------


def general_exercise() -> Exercise:
    """The public "General Exercise" row, created on first use when no catalog is loaded
    (with the catalog loader's own definition, so a later load changes nothing)."""
    spec = catalog.general_exercise()
    lookup = {"source": spec.source, "source_id": spec.source_id}
    row = Exercise.objects.filter(**lookup).first()
    if row is None:
        Exercise.objects.bulk_create(
            [
                Exercise(
                    name=spec.name,
                    category=spec.category,
                    met=spec.met,
                    calories_per_hour=spec.calories_per_hour,
                    description=spec.description,
                    license=spec.license,
                    is_custom=False,
                    **lookup,
                )
            ],
            ignore_conflicts=True,  # a concurrent first use may have created it
        )
        row = Exercise.objects.get(**lookup)
    return row


# --- validation helpers ----------------------------------------------------------------------


def _minutes(value) -> int:
    number = to_decimal(value, field="duration_minutes")
    # Rounded only when in range: quantizing 1e308 overflows Decimal's precision.
    in_range = 0 < number <= MAX_MINUTES
    minutes = int(number.quantize(Decimal(1), rounding=ROUND_HALF_UP)) if in_range else 0
    if minutes < 1:
        raise ValidationError(
            f"A duration of {as_written(number)} minutes is not possible; give between 1 minute "
            "and 24 hours "
            f"({MAX_MINUTES} minutes).",
            code="invalid_duration",
        )
    return minutes


def _calories(value) -> int:
    number = to_decimal(value, field="calories_burned")
    if number < 0 or number > MAX_CALORIES:
        raise ValidationError(
            f"{as_written(number)} kcal burned is not plausible; give a number from 0 to "
            f"{MAX_CALORIES:,}.",
            code="implausible_calories",
        )
    return int(number.quantize(Decimal(1), rounding=ROUND_HALF_UP))


def _distance(user, value, unit) -> tuple[Decimal | None, str | None]:
    if value is None or value == "":
        return None, None
    number = to_decimal(value, field="distance")
    if unit is None or str(unit).strip() == "":
        # No unit said: assume the one the user thinks in (lb people mostly think in miles).
        unit = "mi" if preferences_for(user).default_weight_unit == "lb" else "km"
    code = DISTANCE_UNITS.get(str(unit).strip().lower().rstrip("."))
    if code is None:
        raise ValidationError(
            f"Unknown distance unit {unit!r}; use km, mi or m.", code="invalid_distance_unit"
        )
    if number <= 0 or number * _KM_PER_UNIT[code] > MAX_DISTANCE_KM:
        raise ValidationError(
            f"A distance of {as_written(number)} {code} is not plausible for one session; give "
            "more than 0 "
            "and at most 1,000 km.",
            code="invalid_distance",
        )
    if number >= 100_000:
        raise ValidationError(
            f"{as_written(number)} {code} is too long a number; give the distance in km.",
            code="invalid_distance",
        )
    kept = number.quantize(DISTANCE_STEP, rounding=ROUND_HALF_UP)
    if kept == 0:
        raise ValidationError(
            f"A distance of {as_written(number)} {code} is too small to keep; give at least "
            f"{DISTANCE_STEP} {code}.",
            code="invalid_distance",
        )
    return kept, code


def _notes(value) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise ValidationError("notes must be text.", code="invalid_notes")
    value = storable_text(value.strip(), field="notes")
    if len(value) > MAX_NOTES_CHARS:
        raise ValidationError(
            f"Notes are at most {MAX_NOTES_CHARS} characters; these are {len(value)}.",
            code="too_long",
        )
    return value or None


# --- plausibility: what a session and a day can hold ------------------------------------------


def check_session(exercise: Exercise, *, minutes: int, km: Decimal | None) -> None:
    """Refuse a session no one does: longer than its activity's longest session
    (vocabulary.LONGEST_HOURS), or covering its distance faster than anyone does it
    (vocabulary.FASTEST_KMH; FASTEST_KMH for any activity)."""
    activity = vocabulary.activity_of(exercise.name)
    what = activity.lower() if activity else "exercise"
    longest = vocabulary.LONGEST_HOURS.get(activity)
    if longest is not None and minutes > longest * 60:
        raise ValidationError(
            f"{_hours(minutes)} of {what} in one session is more than anyone does; at most "
            f"{as_written(longest)} hours.",
            code="implausible_duration",
        )
    if not km:
        return
    fastest = vocabulary.FASTEST_KMH.get(activity, FASTEST_KMH)
    speed = Decimal(km) * 60 / minutes
    if speed > fastest:
        raise ValidationError(
            f"{as_written(round(Decimal(km), 2))} km of {what} in {_hours(minutes)} would be "
            f"{as_written(round(speed))} km/h; no one keeps up more than {as_written(fastest)} "
            "km/h. Check the distance and the time.",
            code="implausible_speed",
        )


def check_burn(exercise: Exercise, *, minutes: int, kcal: int, estimate: int) -> None:
    """Refuse calories no one burns in the time: more than MAX_KCAL_PER_MINUTE a minute, unless
    the activity's own estimate for this user (`estimate`) is higher still."""
    most = max(MAX_KCAL_PER_MINUTE * minutes, estimate)
    if kcal > most:
        what = (vocabulary.activity_of(exercise.name) or "exercise").lower()
        raise ValidationError(
            f"{kcal:,} kcal burned in {_hours(minutes)} of {what} is more than a body burns; "
            f"at most {most:,} kcal in that time. Check the calories and the duration.",
            code="implausible_calories",
        )


def check_distance_alone(exercise: Exercise, km: Decimal) -> int | None:
    """The minutes a distance logged without a time takes at the activity's typical speed (None
    when it has none), refused when that is more than a session holds: "walked 1000 km" would
    be some 200 hours, not a day of walking."""
    minutes = _minutes_at_pace(exercise, km, cap=False)
    if minutes is None:
        return None
    activity = vocabulary.activity_of(exercise.name)
    longest = vocabulary.LONGEST_HOURS.get(activity, Decimal(MAX_MINUTES) / 60)
    if minutes > longest * 60:
        raise ValidationError(
            f"{as_written(round(km, 2))} km of {(activity or 'exercise').lower()} would take "
            f"about {_hours(minutes)}, more than one session holds; log what you did each day "
            "on its day.",
            code="implausible_distance",
        )
    return minutes


def check_day_total(*, user, day, minutes: int, excluding=None) -> None:
    """Refuse a workout that would make the day's exercise longer than the day."""
    entries = ExerciseEntry.objects.for_user(user).on_date(day)
    if excluding is not None:
        entries = entries.exclude(pk=excluding)
    logged = entries.aggregate(total=Sum("duration_minutes"))["total"] or 0
    if logged + minutes > MAX_MINUTES:
        raise ValidationError(
            f"That would make {_hours(logged + minutes)} of exercise on {day.isoformat()}, more "
            f"than the day has; {_hours(logged)} is logged already.",
            code="implausible_day",
        )


def _hours(minutes) -> str:
    """'45 minutes', '1 hour', '2.5 hours', '200 hours'."""
    minutes = int(minutes)
    if minutes < 60:
        return counted(minutes, "minute")
    hours = round(Decimal(minutes) / 60, 1).normalize()
    return f"{as_written(hours)} hour{'' if hours == 1 else 's'}"


# --- calories --------------------------------------------------------------------------------


def exercise_calories(
    *, user, exercise: Exercise, duration_minutes: int, day, km: Decimal | None = None
) -> int:
    """Estimated kcal for `duration_minutes` of `exercise` on `day`, in this order:

    1. MET x the user's latest weight in kg (on or before `day`) x hours;
    2. the exercise's calories_per_hour x hours;
    3. MET (or DEFAULT_MET, 4.0) x the latest weight, or a 70 kg reference adult, x hours.

    With the distance (`km`) covered in that time, the pace counts: running, walking, cycling or
    rowing burn about in proportion to speed over these ranges (the Compendium's running METs
    go from 8.3 at 8 km/h to 11.8 at 12 km/h and 14.5 at 16 km/h), so the estimate is scaled by
    the speed over the exercise's typical one (PACE_LIMITS bound the factor).
    """
    pace = _pace_factor(exercise, km, duration_minutes)
    hours = Decimal(duration_minutes) / 60 * pace
    weight = latest_weight_kg(user=user, on_or_before=day)
    if exercise.met and weight:
        kcal = exercise.met * weight * hours
    elif exercise.calories_per_hour:
        kcal = Decimal(exercise.calories_per_hour) * hours
    else:
        kcal = (exercise.met or DEFAULT_MET) * (weight or REFERENCE_WEIGHT_KG) * hours
    return int(kcal.quantize(Decimal(1), rounding=ROUND_HALF_UP))


# Typical speeds (km/h) for a distance logged without a time: "ran 10 km" is about an hour, not
# the exercise's default 30 minutes. A catalog name that states its speed ("Running, 6 mph")
# wins over these.
_PACES_KMH = (
    (("run", "jog"), Decimal("9.7")),
    (("walk",), Decimal("5")),
    (("hik",), Decimal("4")),
    (("cycl", "bicycl", "bike", "biking"), Decimal("19")),
    (("swim",), Decimal("2.5")),
    (("row",), Decimal("8")),
    (("skat",), Decimal("12")),
)
_STATED_SPEED = re.compile(r"(\d+(?:\.\d+)?)(?:-(\d+(?:\.\d+)?))? ?(mph|km/h|kph)", re.I)


PACE_LIMITS = (Decimal("0.5"), Decimal("2"))


def _pace_factor(exercise: Exercise, km, minutes) -> Decimal:
    """Speed over the exercise's typical speed (1 without a distance or a typical speed)."""
    if not km or not minutes:
        return Decimal(1)
    typical = _minutes_at_pace(exercise, Decimal(km), _MET_SPEEDS_KMH + _PACES_KMH)
    if typical is None:
        return Decimal(1)
    factor = Decimal(typical) / Decimal(minutes)
    return min(max(factor, PACE_LIMITS[0]), PACE_LIMITS[1])


# The speed an exercise's MET stands for, where it differs from the typical pace above: the
# Compendium's "running, general" (8.0 MET) is about 5 mph (8.3 MET at 8 km/h).
_MET_SPEEDS_KMH = ((("run", "jog"), Decimal(8)),)


def _minutes_at_pace(
    exercise: Exercise, km: Decimal, speeds=_PACES_KMH, *, cap: bool = True
) -> int | None:
    """How long `km` takes at the exercise's speed, when it has one (else None); at most a day
    unless `cap` is False."""
    name = exercise.name.lower()
    speed = None
    if found := _STATED_SPEED.search(name):
        low = Decimal(found.group(1))
        high = Decimal(found.group(2)) if found.group(2) else low
        speed = (low + high) / 2 * (Decimal("1.609344") if found.group(3) == "mph" else 1)
    else:
        speed = next((kmh for words, kmh in speeds if any(w in name for w in words)), None)
    if not speed:
        return None
    minutes = max(1, round(km / speed * 60))
    return min(24 * 60, minutes) if cap else minutes
