"""Writes of the exercise app (and the catalog search that logging depends on).

Calories burned follow the Compendium of Physical Activities (Ainsworth et al. 2011):
kcal = MET x body weight in kg x hours, with the user's latest weight on or before the entry date.
"""

import difflib
import re
import uuid
from decimal import ROUND_HALF_UP, Decimal

from django.contrib.postgres.search import TrigramWordSimilarity
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Case, DecimalField, IntegerField, Q, Value, When
from django.db.models.functions import Cast, Greatest, Length, Lower, Round

from exercise import catalog, vocabulary
from exercise.models import Exercise, ExerciseEntry
from measurements.services import latest_weight_kg
from measurements.units import to_decimal
from sparky import rows
from sparky.dates import parse_day
from sparky.services import preferences_for, storable_text

GENERAL_NAME = catalog.GENERAL_EXERCISE_NAME
# An exercise with neither MET nor calories per hour counts as General Exercise (4.0 MET).
DEFAULT_MET = catalog.GENERAL_MET
# When we know a MET but not the user's weight, a 70 kg reference adult stands in.
REFERENCE_WEIGHT_KG = Decimal(70)
MAX_MINUTES = 24 * 60
MAX_CALORIES = 20_000
MAX_DISTANCE_KM = Decimal(1000)
MAX_NOTES_CHARS = 1000
# A search hit at or above this word similarity is confident enough to log without asking.
CONFIDENT_SCORE = 0.6

# How people say it -> how catalogs name it (exercise/words/activities.toml). Trigrams cope with
# typos and plurals but not with irregular verbs ("ran") or synonyms ("bike").
_CANONICAL = vocabulary.SEARCH_TERMS
_VOCABULARY = sorted({*_CANONICAL, *_CANONICAL.values(), "yoga", "pilates", "elliptical"})
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
_FILLER = {
    "a", "an", "the", "i", "my", "some", "did", "do", "went", "go", "going", "for", "of", "to",
    "and", "had", "session", "morning", "afternoon", "evening", "today", "yesterday", "min",
    "mins", "minute", "minutes", "hour", "hours", "hr", "hrs", "km", "kms", "mile", "miles",
    "quick", "little", "bit", "class", "classes",
}  # fmt: skip
DISTANCE_UNITS = {
    "km": "km", "kms": "km", "k": "km", "kilometer": "km", "kilometers": "km",
    "kilometre": "km", "kilometres": "km",
    "mi": "mi", "mile": "mi", "miles": "mi",
    "m": "m", "meter": "m", "meters": "m", "metre": "m", "metres": "m",
}  # fmt: skip
_KM_PER_UNIT = {"km": Decimal(1), "mi": Decimal("1.609344"), "m": Decimal("0.001")}


def distance_unit_of(word) -> str | None:
    """km, mi or m for a distance unit as people write it ("kms", "miles", "metres"), else None."""
    return DISTANCE_UNITS.get(str(word or "").strip().lower().rstrip("."))


# --- search ----------------------------------------------------------------------------------


def _correct(word: str) -> str:
    """A misspelt activity word ("runing", "swiming") to the nearest one we know."""
    if word in _CANONICAL or len(word) < 4:
        return word
    close = difflib.get_close_matches(word, _VOCABULARY, n=1, cutoff=0.9)
    return close[0] if close else word


def _search_terms(query: str) -> list[tuple[str, float]]:
    """(term, weight) pairs to match: the query, the query in catalog words, and each activity
    word alone (weighted a little lower, so the whole phrase wins when it matches)."""
    words = re.sub(r"[^\w\s'-]", " ", query.lower()).replace("_", " ").split()
    content = [_correct(w) for w in words if w not in _FILLER and not w.isdigit()] or words
    terms = [(" ".join(words), 1.0), (" ".join(_CANONICAL.get(w, w) for w in content), 1.0)]
    terms += [(_CANONICAL[w], 0.9) for w in content if w in _CANONICAL]
    seen: dict[str, float] = {}
    for term, weight in terms:
        if term and weight > seen.get(term, 0.0):
            seen[term] = weight
    return list(seen.items())


def _flag(condition: Q) -> Case:
    return Case(When(condition, then=Value(1)), default=Value(0), output_field=IntegerField())


def exercise_search(*, user, query: str, limit: int = 10) -> list[Exercise]:
    """Exercises visible to the user matching `query`: the user's own custom ones first, then
    the public and shared catalog, each group by similarity. Each result has `.score` (0..1).

    Among names equally similar, the activity's everyday variant (_TYPICAL), then a name that
    starts with the query, then a "general" one, then the shortest wins.
    """
    query = (query or "").strip()
    limit = max(1, min(int(limit), 50))
    terms = _search_terms(query)
    if not terms:
        return []

    sims = [TrigramWordSimilarity(Value(term), "lname") * Value(weight) for term, weight in terms]
    matches, exact, prefix, typical = Q(), Q(), Q(), Q()
    for term, _ in terms:
        # %> uses the GIN trigram index on lower(name); LIKE catches short words inside names.
        matches |= Q(lname__trigram_word_similar=term)
        if len(term) >= 3:
            matches |= Q(lname__contains=term)
        exact |= Q(lname=term)
        prefix |= Q(lname__startswith=term)
        if term in _TYPICAL:
            typical |= Q(lname__startswith=_TYPICAL[term])
    results = (
        Exercise.objects.visible_to(user)
        .annotate(lname=Lower("name"))
        .filter(matches)
        .annotate(
            sim=Greatest(*sims) if len(sims) > 1 else sims[0],
            own=_flag(Q(user=user)),
            exact=_flag(exact),
            prefix=_flag(prefix),
            typical=_flag(typical) if typical else Value(0),
            general=_flag(Q(lname__contains="general")),
        )
        .annotate(
            # Two decimals, so near-equal similarities tie and the rules below decide.
            rounded=Round(Cast("sim", DecimalField(max_digits=8, decimal_places=4)), 2)
        )
        .order_by(
            "-own", "-exact", "-rounded", "-typical", "-prefix", "-general", Length("name"), "name"
        )[:limit]
    )
    results = list(results)
    for exercise in results:
        exercise.score = 1.0 if exercise.exact else round(min(float(exercise.sim), 1.0), 3)
    return results


def exercise_find_best(*, user, name: str) -> Exercise | None:
    """The exercise to log for `name` when the match is confident, else None (so the caller can
    offer options instead of logging the wrong thing)."""
    name = (name or "").strip()
    if not name:
        return None
    if name.lower() == GENERAL_NAME.lower():
        return general_exercise()
    for exercise in exercise_search(user=user, query=name, limit=5):
        if exercise.score >= CONFIDENT_SCORE:
            return exercise
    return None


def exercise_get(*, user, exercise_id) -> Exercise:
    """An exercise visible to the user, else Exercise.DoesNotExist."""
    return Exercise.objects.visible_to(user).get(pk=_uuid(exercise_id, Exercise))


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


def _uuid(value, model):
    try:
        return value if isinstance(value, uuid.UUID) else uuid.UUID(str(value))
    except ValueError:
        raise model.DoesNotExist(f"No such {model._meta.verbose_name}.") from None


def _minutes(value) -> int:
    number = to_decimal(value, field="duration_minutes")
    # Rounded only when in range: quantizing 1e308 overflows Decimal's precision.
    in_range = 0 < number <= MAX_MINUTES
    minutes = int(number.quantize(Decimal(1), rounding=ROUND_HALF_UP)) if in_range else 0
    if minutes < 1:
        raise ValidationError(
            f"A duration of {number} minutes is not possible; give between 1 minute and 24 hours "
            f"({MAX_MINUTES} minutes).",
            code="invalid_duration",
        )
    return minutes


def _calories(value) -> int:
    number = to_decimal(value, field="calories_burned")
    if number < 0 or number > MAX_CALORIES:
        raise ValidationError(
            f"{number} kcal burned is not plausible; give a number from 0 to {MAX_CALORIES:,}.",
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
            f"A distance of {number} {code} is not plausible for one session; give more than 0 "
            "and at most 1,000 km.",
            code="invalid_distance",
        )
    if number >= 100_000:
        raise ValidationError(
            f"{number} {code} is too long a number; give the distance in km.",
            code="invalid_distance",
        )
    return number.quantize(Decimal("0.001"), rounding=ROUND_HALF_UP), code


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


def _resolve(user, exercise, exercise_name) -> Exercise:
    """The exercise to log: the one given (if visible), the confident match of the name, or
    General Exercise when neither is given (small models often leave both out)."""
    if exercise is not None:
        pk = exercise.pk if isinstance(exercise, Exercise) else exercise
        try:
            return exercise_get(user=user, exercise_id=pk)
        except Exercise.DoesNotExist:
            raise ValidationError(
                "That exercise does not exist or is not visible to you.",
                code="exercise_not_found",
            ) from None
    if exercise_name is not None and not isinstance(exercise_name, str):
        raise ValidationError("exercise_name must be text.", code="invalid")
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


# --- writes ----------------------------------------------------------------------------------


@transaction.atomic
def exercise_entry_create(
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
    """
    day = parse_day(user, entry_date)
    chosen = _resolve(user, exercise, exercise_name)
    dist, dist_unit = _distance(user, distance, distance_unit)
    km = dist * _KM_PER_UNIT[dist_unit] if dist is not None else None
    if duration_minutes is None and dist is not None:
        duration_minutes = _minutes_at_pace(chosen, km)
        km = None  # no time said: the typical pace, which the MET already is
    minutes = _minutes(
        duration_minutes if duration_minutes is not None else chosen.default_duration_minutes
    )
    entry = ExerciseEntry(
        user=user,
        exercise=chosen,
        duration_minutes=minutes,
        calories_burned=(
            _calories(calories_burned)
            if calories_burned is not None
            else exercise_calories(
                user=user, exercise=chosen, duration_minutes=minutes, day=day, km=km
            )
        ),
        entry_date=day,
        notes=_notes(notes),
        distance=dist,
        distance_unit=dist_unit,
    )
    entry.full_clean()
    entry.save()
    return entry


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


def _minutes_at_pace(exercise: Exercise, km: Decimal, speeds=_PACES_KMH) -> int | None:
    """How long `km` takes at the exercise's speed, when it has one (else None)."""
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
    return max(1, min(24 * 60, round(km / speed * 60)))


def _exercise_name(name) -> str:
    if not isinstance(name, str) or not " ".join(name.split()):
        raise ValidationError("A custom exercise needs a name.", code="name_required")
    name = storable_text(" ".join(name.split()), field="The exercise name")
    if len(name) > 255:
        raise ValidationError("Exercise names are at most 255 characters.", code="too_long")
    return name


def _calories_per_hour(value) -> int:
    cph = to_decimal(value, field="calories_per_hour")
    if not 1 <= cph <= 3000:
        raise ValidationError(
            f"{cph} kcal per hour is not plausible; give a number from 1 to 3,000.",
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


def _custom_fields(
    *, name, calories_per_hour, met, category, description, default_duration_minutes
) -> dict:
    fields: dict = {"name": _exercise_name(name)}
    if calories_per_hour is not None:
        fields["calories_per_hour"] = _calories_per_hour(calories_per_hour)
    if met is not None:
        fields["met"] = _met(met)
    if category is not None:
        fields["category"] = _category(category)
    if description is not None:
        fields["description"] = _description(description)
    if default_duration_minutes is not None:
        fields["default_duration_minutes"] = _minutes(default_duration_minutes)
    return fields


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
    fields = _custom_fields(
        name=name,
        calories_per_hour=calories_per_hour,
        met=met,
        category=category,
        description=description,
        default_duration_minutes=default_duration_minutes,
    )
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
_CLEARABLE = {
    "calories_per_hour": _calories_per_hour,
    "met": _met,
    "category": _category,
    "description": _description,
}


def _own_exercise(user, exercise_id) -> Exercise:
    """One of the user's own custom exercises, locked. An exercise they can see but do not own
    (the catalog, one shared by someone else) is read-only; any other id does not exist."""
    pk = _uuid(exercise_id, Exercise)
    try:
        return Exercise.objects.owned_by(user).filter(is_custom=True).select_for_update().get(pk=pk)
    except Exercise.DoesNotExist:
        shared = Exercise.objects.visible_to(user).filter(pk=pk).first()
        if shared is None:
            raise
        raise ValidationError(
            f"{shared.name} is not one of your own exercises: you can log it but not change or "
            "delete it. Create your own exercise to adjust it.",
            code="read_only",
        ) from None


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
                    "default_duration_minutes cannot be cleared; give a number of minutes from "
                    f"1 to {MAX_MINUTES}.",
                    code="invalid_duration",
                )
            exercise.default_duration_minutes = _minutes(value)
        elif name == "shared_with_public":
            if not isinstance(value, bool):
                raise ValidationError(
                    f"shared_with_public must be true or false, not {value!r}.", code="invalid"
                )
            exercise.shared_with_public = value
        else:
            setattr(exercise, name, None if value is None else _CLEARABLE[name](value))
    if "name" in fields and _own_named(user, exercise.name).exclude(pk=exercise.pk).exists():
        raise ValidationError(
            f"You already have an exercise called {exercise.name!r}; pick another name.",
            code="duplicate_exercise",
        )
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
    mine = ExerciseEntry.objects.filter(exercise=exercise, user=user).count()
    others = ExerciseEntry.objects.filter(exercise=exercise).exclude(user=user).count()
    if mine or others:
        used = f"{mine} of your exercise entries" if mine else ""
        if others:
            used += (" and " if used else "") + "other people who logged it after you shared it"
        raise ValidationError(
            f"{exercise.name} is used by {used}, so it stays. Delete those entries first"
            + (", or stop sharing it." if others else "."),
            code="in_use",
        )
    exercise.delete()


@transaction.atomic
def exercise_option_add(
    *,
    user,
    option: dict,
    duration_minutes=None,
    distance=None,
    distance_unit: str | None = None,
    entry_date=None,
    notes: str | None = None,
    calories_burned=None,
) -> ExerciseEntry:
    """Log a suggested option ({name, calories_per_hour, category, met?, description?,
    duration_minutes?}): it becomes the user's custom exercise (reused if they already have one
    of that name), then is logged like any other."""
    if not isinstance(option, dict) or not option.get("name"):
        raise ValidationError("The option needs at least a name.", code="invalid_option")
    parse_day(user, entry_date)  # refuse a bad date before creating anything
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
    return exercise_entry_create(
        user=user,
        exercise=exercise,
        duration_minutes=(
            duration_minutes if duration_minutes is not None else option.get("duration_minutes")
        ),
        distance=distance,
        distance_unit=distance_unit,
        entry_date=entry_date,
        notes=notes,
        calories_burned=calories_burned,
    )


def _own_entry(user, entry_id) -> ExerciseEntry:
    pk = _uuid(entry_id, ExerciseEntry)
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
        exercise = Exercise.objects.owned_by(user).filter(is_custom=True, pk=row_id).first()
        if exercise is None:
            return rows.GONE
        if ExerciseEntry.objects.filter(exercise=exercise).exists():
            return rows.CHANGED
        exercise.delete()
        return rows.DONE
    raise ValueError(f"no undo {op!r} for {kind!r}")
