"""Writes of the measurements app: daily check-ins and the user's own measurement categories.

Check-ins are stored in the user's preferred units (UserPreferences.default_weight_unit and
default_measurement_unit); whatever unit a caller gives is converted on the way in, and changing
the preference converts the stored rows (checkins_convert_units).
"""

from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Count, Q, Value
from django.db.models.functions import Lower
from django.utils import timezone

from measurements import fields, vocabulary
from measurements.models import CheckInMeasurement, CustomCategory, CustomMeasurement
from measurements.units import (
    convert,
    convert_weight,
    parse_unit,
    to_decimal,
    two_places,
    weight_to_kg,
)
from sparky import rows
from sparky.dates import now_for, parse_day, today_for
from sparky.services import (
    preferences_for,
    storable_name,
    storable_text,
    user_row_for_update,
    uuid_pk,
)
from sparky.words import as_written

# custom_measurements.value is numeric(14, 4).
MAX_CUSTOM_VALUE = Decimal("9999999999")
# The check-in fields, in the order they are shown (measurements/words/checkins.toml).
STANDARD_TYPES = vocabulary.CHECKIN_FIELDS


def _unit_of_bare_weight(user, value: Decimal, usual: str) -> str:
    """A weight given with no unit is in the user's usual unit, unless it is their last weight
    in the other unit ("I weigh 180" from someone at 81 kg means pounds)."""
    last_kg = latest_weight_kg(user=user)
    if not last_kg:
        return usual
    last = convert_weight(last_kg, "kg", usual)
    other = "lb" if usual == "kg" else "kg"
    as_usual = value / last
    as_other = convert_weight(value, other, usual) / last
    near = Decimal("0.1")  # within 10% of the last weigh-in
    if abs(as_other - 1) <= near and abs(as_usual - 1) > Decimal("0.5"):
        return other
    return usual


def _out_of_range(field: fields.Field, value: Decimal, unit: str) -> ValidationError:
    kind = field.kind
    span = f"{field.low:f}-{field.high:f} {kind.base}"
    if len(kind.units) > 1:  # "20-400 kg (44-882 lb)"
        other = kind.units[1]
        low, high = (convert(kind.name, n, kind.base, other) for n in (field.low, field.high))
        span += f" ({low:.0f}-{high:.0f} {other}); check the number and the unit"
    else:
        span += "; check the number"
    said = f"A {field.label.lower()} of {value} {unit}"
    if unit == field.name:  # "250,000 steps"
        said = f"{value:,f} {unit}"
    return ValidationError(
        f"{said} is outside the plausible range of {span}.", code=f"implausible_{kind.name}"
    )


def checkin_value(*, user, field: fields.Field, value, unit: str | None, prefs) -> Decimal | int:
    """A value of one check-in field as stored: checked against the field's range and converted
    to the user's unit. `unit` is the unit it was given in (None: the kept one)."""
    kind = field.kind
    kept = kind.kept(prefs)
    number = to_decimal(value, field=field.name)
    given = parse_unit(kind.name, unit, kept)
    if kind.name == "weight" and not (unit and str(unit).strip()):
        given = _unit_of_bare_weight(user, number, given)
    if field.whole and number != number.to_integral_value():
        raise ValidationError(
            f"{field.name} must be a whole number, got {value!r}.", code=f"invalid_{field.name}"
        )
    base = convert(kind.name, number, given, kind.base)
    # Whole fields end below the next whole number ("0-199999 steps": 199999.5 is too many).
    high = field.high + 1 if field.whole else field.high
    if not (field.low <= base < high if field.whole else field.low <= base <= high):
        raise _out_of_range(field, number, given)
    if field.whole:
        return int(number)
    return two_places(convert(kind.name, number, given, kept))


def _checkin_changes(user, entry_date, given: dict) -> tuple:
    """The day and the values, checked, that a check-in of `given` records."""
    units = fields.unit_arguments()
    unknown = set(given) - set(fields.CHECKIN) - set(units)
    if unknown:
        raise TypeError(f"checkin_upsert() got unexpected arguments {sorted(unknown)}")
    day = parse_day(user, entry_date)
    prefs = preferences_for(user)
    changes: dict[str, Decimal | int] = {}
    for field in fields.CHECKIN.values():
        if given.get(field.name) is None:
            continue
        unit = given.get(field.kind.argument) if field.kind.argument else None
        changes[field.name] = checkin_value(
            user=user, field=field, value=given[field.name], unit=unit, prefs=prefs
        )

    if not changes:
        raise ValidationError(
            f"Nothing to record: give at least one of {fields.names('or')}.",
            code="nothing_to_log",
        )
    return day, changes


def checkin_prepare(*, user, entry_date=None, **given) -> CheckInMeasurement:
    """What `checkin_upsert` would record, checked and not saved: the day's row as stored (or a
    new one) with the given values, for a caller that decides after seeing it."""
    day, changes = _checkin_changes(user, entry_date, given)
    row = CheckInMeasurement.objects.for_user(user).filter(entry_date=day).first()
    row = row or CheckInMeasurement(user=user, entry_date=day)
    for name, value in changes.items():
        setattr(row, name, value)
    _check_order(row)
    row.full_clean()
    return row


@transaction.atomic
def checkin_upsert(*, user, entry_date=None, **given) -> CheckInMeasurement:
    """Record the given check-in values for a day; fields not given keep their stored value.

    `given` holds values by field name (measurements.fields.CHECKIN: weight, neck, waist, hips,
    steps...) and the units they are in by their kind's argument (weight_unit, length_unit),
    each defaulting to the user's preferred one. One row per user and day. The row is created
    with INSERT ... ON CONFLICT DO NOTHING and then locked, so concurrent calls for the same day
    merge instead of failing.
    """
    day, changes = _checkin_changes(user, entry_date, given)
    row = user_row_for_update(CheckInMeasurement, user=user, entry_date=day)
    for name, value in changes.items():
        setattr(row, name, value)
    _check_order(row)
    row.full_clean()
    row.save(update_fields=[*changes, "updated_at"])
    return row


def _check_order(row: CheckInMeasurement) -> None:
    """A field declared above another (systolic above diastolic) is higher when both are known."""
    for field in fields.CHECKIN.values():
        if not field.above:
            continue
        high, low = getattr(row, field.name), getattr(row, field.above)
        if high is not None and low is not None and high <= low:
            other = fields.CHECKIN[field.above]
            raise ValidationError(
                f"The {field.label.lower()} ({high}) must be higher than the "
                f"{other.label.lower()} ({low}); check the order of the numbers.",
                code="implausible_order",
            )


@transaction.atomic
def checkin_delete(*, user, entry_date) -> bool:
    """Remove the user's check-in of that day. Returns whether there was one."""
    day = parse_day(user, entry_date)
    deleted, _ = CheckInMeasurement.objects.for_user(user).filter(entry_date=day).delete()
    return bool(deleted)


@transaction.atomic
def checkin_clear(*, user, entry_date, field: str) -> bool:
    """Remove one value of the user's check-in of that day (its weight, say), keeping the
    others; the day's row goes once none is left. Returns whether there was such a value."""
    if field not in fields.CHECKIN:
        raise ValidationError(
            f"{field!r} is not a check-in value; use one of {fields.names('or')}.",
            code="invalid_field",
        )
    day = parse_day(user, entry_date)
    mine = CheckInMeasurement.objects.for_user(user).filter(entry_date=day)
    row = mine.select_for_update().first()
    if row is None or getattr(row, field) is None:
        return False
    setattr(row, field, None)
    row.save(update_fields=[field, "updated_at"])
    mine.filter(**{f"{name}__isnull": True for name in fields.CHECKIN}).delete()
    return True


@transaction.atomic
def checkins_convert_units(
    *, user, weight_from: str, weight_to: str, length_from: str, length_to: str
) -> int:
    """Re-express every stored check-in of the user in new units (after a preference change)."""
    rows = list(CheckInMeasurement.objects.for_user(user).select_for_update().order_by("pk"))
    moves = {"weight": (weight_from, weight_to), "length": (length_from, length_to)}
    converted = [f for f in fields.CHECKIN.values() if f.kind.name in moves]
    for row in rows:
        for field in converted:
            value = getattr(row, field.name)
            if value is not None:
                old, new = moves[field.kind.name]
                setattr(row, field.name, two_places(convert(field.kind.name, value, old, new)))
    CheckInMeasurement.objects.bulk_update(rows, [f.name for f in converted])
    return len(rows)


def latest_weight_kg(*, user, on_or_before=None) -> Decimal | None:
    """The most recent weight on or before the day (default: the user's today), in kg."""
    day = on_or_before or today_for(user)
    weight = (
        CheckInMeasurement.objects.for_user(user)
        .filter(entry_date__lte=day, weight__isnull=False)
        .order_by("-entry_date")
        .values_list("weight", flat=True)
        .first()
    )
    if weight is None:
        return None
    return two_places(weight_to_kg(weight, preferences_for(user).default_weight_unit))


# --- custom measurements ---------------------------------------------------------------------


_EXAMPLES = vocabulary.CUSTOM_EXAMPLES


def _names_checkin(name: str) -> bool:
    """Whether a name is a check-in field's or one of its words ("weight", "weigh-in", "bp")."""
    word = name.lower()
    return (
        word in STANDARD_TYPES
        or word in vocabulary.CHECKIN_WORDS
        or (word in vocabulary.CHECKIN_READINGS)
    )


def _category_name(name) -> str:
    if not isinstance(name, str) or not " ".join(name.split()):
        raise ValidationError(
            f"A custom measurement needs a name, e.g. '{_EXAMPLES[0]}' or '{_EXAMPLES[1]}'.",
            code="name_required",
        )
    name = storable_name(" ".join(name.split()), field="The measurement name")
    if len(name) > 50:
        raise ValidationError(
            f"Measurement names are at most 50 characters; {name[:20]!r}... is {len(name)}.",
            code="too_long",
        )
    if _names_checkin(name):
        raise ValidationError(
            f"{name} is a standard check-in, not a custom measurement; log it as a check-in.",
            code="standard_measurement",
        )
    return name


def _frequency(value) -> str:
    for choice in CustomCategory.Frequency.values:
        if str(value).strip().lower() == choice.lower():
            return choice
    raise ValidationError(
        f"Frequency {value!r} is not known; use Daily, Hourly, Weekly, Monthly or All.",
        code="invalid_frequency",
    )


def _hour(value) -> int:
    number = to_decimal(value, field="entry_hour")
    if number != number.to_integral_value() or not 0 <= number <= 23:
        raise ValidationError(
            f"The hour must be a whole hour from 0 to 23, not {as_written(value)}.",
            code="invalid_hour",
        )
    return int(number)


def _category_get_or_create(*, user, name: str, frequency: str, unit: str) -> CustomCategory:
    """The user's category of that name (any case), created if missing; race-safe."""

    def lookup():
        return (
            CustomCategory.objects.for_user(user)
            .alias(lname=Lower("name"))
            .filter(lname=Lower(Value(name)))
        )

    category = lookup().first()
    if category is None:
        new = CustomCategory(
            user=user,
            name=name,
            frequency=frequency,
            measurement_type=CustomCategory.MeasurementType.NUMERIC,
            unit=unit,
        )
        new.full_clean(validate_constraints=False)
        # ON CONFLICT DO NOTHING: a concurrent call that created it first wins, we reuse it.
        CustomCategory.objects.bulk_create([new], ignore_conflicts=True)
    return lookup().select_for_update().get()


# What a day can hold for the categories people log most, by name: 30 hours of sleep or a resting
# heart rate of 500 is a typo, refused with the range instead of written.
KNOWN_RANGES: dict[str, tuple[Decimal, Decimal, str]] = {
    "sleep": (Decimal(0), Decimal(24), "hours"),
    "heart rate": (Decimal(20), Decimal(250), "bpm"),
    "resting heart rate": (Decimal(20), Decimal(200), "bpm"),
    "body fat": (Decimal(2), Decimal(75), "%"),
    "blood glucose": (Decimal(1), Decimal(600), ""),
}
_HOURS = {"", *vocabulary.HOURS}  # no unit: hours


# Categories kept as a score out of 10 (mood, energy, stress: their unit in words/custom.toml).
SCORE_UNIT = "out of 10"
_SCORES = {
    category.lower() for category, unit in vocabulary.CUSTOM_WORDS.values() if unit == SCORE_UNIT
}


def _check_known_range(name: str, value: Decimal, unit: str) -> None:
    if unit.lower() == SCORE_UNIT or (not unit and name.lower() in _SCORES):
        if not 0 <= value <= 10:
            raise ValidationError(
                f"A {name.lower()} of {as_written(value)} out of 10 is not a score; give one "
                "from 0 to 10.",
                code="out_of_range",
            )
        return
    known = KNOWN_RANGES.get(name.lower())
    if known is None:
        return
    low, high, label = known
    if label == "hours" and unit.lower() not in _HOURS:
        return  # minutes of sleep: the unit says so
    if not low <= value <= high:
        raise ValidationError(
            f"{as_written(value)} {label or ''} of {name.lower()} is outside what a day can hold "
            f"({low}-{high} {label}); check the number.".replace("  ", " "),
            code="out_of_range",
        )


@transaction.atomic
def custom_measurement_log(
    *,
    user,
    name: str,
    value,
    unit: str | None = None,
    entry_date=None,
    entry_hour=None,
    frequency: str | None = None,
) -> CustomMeasurement:
    """Record a value in one of the user's own categories, creating the category if needed.

    A new category gets `frequency` (default Daily) and type numeric; an existing one keeps its
    own. Daily, Weekly and Monthly categories hold one value per date and Hourly ones one per
    (date, hour) — a second value replaces the first. 'All' keeps every value. Only Hourly
    categories keep entry_hour (default: the user's current local hour).
    """
    day = parse_day(user, entry_date)
    name = _category_name(name)
    number = to_decimal(value, field=f"The value of {name}")
    if abs(number) > MAX_CUSTOM_VALUE:
        raise ValidationError(f"{number} is too large for a measurement.", code="out_of_range")
    number = number.quantize(Decimal("0.0001"))
    unit = storable_text(unit.strip()[:20], field="unit") if isinstance(unit, str) else ""
    _check_known_range(name, number, unit)
    new_frequency = _frequency(frequency) if frequency is not None else "Daily"
    hour = _hour(entry_hour) if entry_hour is not None else None

    # The category row lock serialises writers of one category, which makes the per-date
    # upsert safe even where entry_hour is NULL (NULLs never conflict in a unique constraint).
    category = _category_get_or_create(user=user, name=name, frequency=new_frequency, unit=unit)
    if unit and not category.unit:
        category.unit = unit
        category.save(update_fields=["unit", "updated_at"])

    rows = CustomMeasurement.objects.for_user(user).filter(category=category, entry_date=day)
    if category.frequency == CustomCategory.Frequency.HOURLY:
        hour = now_for(user).hour if hour is None else hour
        existing = rows.filter(entry_hour=hour).first()
    elif category.frequency == CustomCategory.Frequency.ALL:
        hour, existing = None, None
    else:
        hour = None
        existing = rows.filter(entry_hour__isnull=True).first()

    measurement = existing or CustomMeasurement(
        user=user, category=category, entry_date=day, entry_hour=hour
    )
    measurement.value = number
    measurement.entry_timestamp = timezone.now()
    measurement.full_clean(validate_constraints=False)
    measurement.save()
    return measurement


@transaction.atomic
def custom_measurement_delete(*, user, measurement_id) -> None:
    """Delete one of the user's custom values; other users' ids raise DoesNotExist."""
    pk = uuid_pk(measurement_id, CustomMeasurement)
    CustomMeasurement.objects.for_user(user).get(pk=pk).delete()


# --- custom categories -----------------------------------------------------------------------

# Daily, Weekly and Monthly categories all keep one value per date, without an hour.
_ONE_PER_DATE = (
    CustomCategory.Frequency.DAILY,
    CustomCategory.Frequency.WEEKLY,
    CustomCategory.Frequency.MONTHLY,
)


def _unit(value) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise ValidationError(f"A unit must be text, e.g. 'mmHg', not {value!r}.", code="invalid")
    unit = storable_text(" ".join(value.split()), field="The unit")
    if len(unit) > 20:
        raise ValidationError(
            f"Units are at most 20 characters; {unit[:20]!r}... is {len(unit)}.", code="too_long"
        )
    return unit


def _duplicate_name(name: str) -> ValidationError:
    return ValidationError(
        f"You already have a measurement called {name!r} (names are the same whatever the "
        "case); pick another name or use that one.",
        code="duplicate_category",
    )


def _own_category(user, category_id) -> CustomCategory:
    pk = uuid_pk(category_id, CustomCategory)
    return CustomCategory.objects.for_user(user).select_for_update().get(pk=pk)


def _named_like(user, name: str):
    return (
        CustomCategory.objects.for_user(user)
        .alias(lname=Lower("name"))
        .filter(lname=Lower(Value(name)))
    )


def _save_category(category: CustomCategory) -> None:
    # The unique index on (lower(name), user) is the last word when two requests race for
    # one name; the check before it gives the same message without reaching it.
    category.full_clean(validate_constraints=False)
    try:
        with transaction.atomic():
            category.save()
    except IntegrityError:
        raise _duplicate_name(category.name) from None


@transaction.atomic
def custom_category_create(
    *,
    user,
    name: str,
    frequency: str = CustomCategory.Frequency.DAILY,
    measurement_type: str = CustomCategory.MeasurementType.NUMERIC,
    unit: str | None = None,
) -> CustomCategory:
    """A new, empty category of the user's (refused if they have one of that name in any case)."""
    name = _category_name(name)
    kind = str(measurement_type or "").strip().lower()
    if kind != CustomCategory.MeasurementType.NUMERIC:
        # custom_measurements.value is a number: a text category could hold nothing.
        raise ValidationError(
            f"Measurement type {measurement_type!r} is not supported; values are numbers, so "
            "use 'numeric'.",
            code="invalid_measurement_type",
        )
    category = CustomCategory(
        user=user,
        name=name,
        frequency=_frequency(frequency),
        measurement_type=kind,
        unit=_unit(unit),
    )
    if _named_like(user, name).exists():
        raise _duplicate_name(name)
    _save_category(category)
    return category


def _frequency_change(category: CustomCategory, new: str) -> None:
    """Refuse a frequency the stored values cannot keep, else reshape them to it.

    The rule: a category's values must look as if they had been logged with the new frequency.
    - Daily, Weekly and Monthly keep one value per date without an hour: between them nothing
      changes; to 'All' (any number per date, no hour) nothing changes either.
    - From 'All' or Hourly to one of those: allowed only if no date holds more than one value
      (the hour of an Hourly value is dropped).
    - From Hourly to 'All': allowed; the hours are dropped, the values stay.
    - To Hourly from anything else: only while the category is empty, since no value has an
      hour and one cannot be made up.
    """
    old = category.frequency
    if new == old:
        return
    rows = CustomMeasurement.objects.for_user(category.user_id).filter(category=category)
    name = category.name
    if new == CustomCategory.Frequency.HOURLY:
        count = rows.count()
        if count:
            raise ValidationError(
                f"{name} has {count} value(s) without an hour, and an hourly category needs an "
                "hour for each. Make a new hourly category, or delete those values first.",
                code="frequency_conflict",
            )
        return
    if new in _ONE_PER_DATE and old not in _ONE_PER_DATE:
        crowded = list(
            rows.values("entry_date")
            .annotate(n=Count("id"))
            .filter(n__gt=1)
            .order_by("entry_date")
            .values_list("entry_date", flat=True)[:4]
        )
        if crowded:
            days = ", ".join(d.isoformat() for d in crowded[:3]) + (
                ", ..." if len(crowded) > 3 else ""
            )
            raise ValidationError(
                f"{name} has several values on {days}, and a {new.lower()} category keeps one "
                "value per date. Delete the extra values first, or keep the frequency.",
                code="frequency_conflict",
            )
    if old == CustomCategory.Frequency.HOURLY:
        rows.update(entry_hour=None)


@transaction.atomic
def custom_category_update(
    *, user, category_id, name: str | None = None, frequency=None, unit: str | None = None
) -> CustomCategory:
    """Rename a category, change its unit label or its frequency; what is not given stays.

    The unit is a label: changing it does not convert the stored values. Frequency changes
    follow _frequency_change's rule.
    """
    category = _own_category(user, category_id)
    if name is None and frequency is None and unit is None:
        raise ValidationError(
            f"Say what to change on {category.name}: name, frequency or unit.", code="no_changes"
        )
    if name is not None:
        new_name = _category_name(name)
        if _named_like(user, new_name).exclude(pk=category.pk).exists():
            raise _duplicate_name(new_name)
        category.name = new_name
    if unit is not None:
        category.unit = _unit(unit)
    if frequency is not None:
        new_frequency = _frequency(frequency)
        _frequency_change(category, new_frequency)
        category.frequency = new_frequency
    _save_category(category)
    return category


@transaction.atomic
def custom_category_delete(*, user, category_id) -> int:
    """Delete one of the user's categories and every value in it; returns how many values went."""
    category = _own_category(user, category_id)
    values = CustomMeasurement.objects.for_user(user).filter(category=category).count()
    category.delete()
    return values


@transaction.atomic
def custom_measurement_update(
    *, user, measurement_id, value=None, entry_date=None, entry_hour=None
) -> CustomMeasurement:
    """Correct one of the user's values: the number, its date or (hourly categories) its hour.

    Moving a value onto a date (or hour) that already holds one is refused rather than merged,
    except in 'All' categories, which keep every value.
    """
    pk = uuid_pk(measurement_id, CustomMeasurement)
    category_id = CustomMeasurement.objects.for_user(user).values_list("category_id", flat=True)
    # The category lock first, as custom_measurement_log takes it: writers of one category
    # queue on it, so the free-slot check below holds until commit.
    category = _own_category(user, category_id.get(pk=pk))
    measurement = CustomMeasurement.objects.for_user(user).select_for_update().get(pk=pk)
    if value is None and entry_date is None and entry_hour is None:
        raise ValidationError(
            "Say what to change: value, entry_date or entry_hour.", code="no_changes"
        )
    if value is not None:
        number = to_decimal(value, field=f"The value of {category.name}")
        if abs(number) > MAX_CUSTOM_VALUE:
            raise ValidationError(f"{number} is too large for a measurement.", code="out_of_range")
        measurement.value = number.quantize(Decimal("0.0001"))
    if entry_date is not None:
        measurement.entry_date = parse_day(user, entry_date)
    hourly = category.frequency == CustomCategory.Frequency.HOURLY
    if entry_hour is not None:
        if not hourly:
            raise ValidationError(
                f"{category.name} is a {category.frequency} category: its values have no hour, "
                "so leave entry_hour out (only Hourly categories keep one).",
                code="invalid_hour",
            )
        measurement.entry_hour = _hour(entry_hour)
    if category.frequency != CustomCategory.Frequency.ALL:
        hour = measurement.entry_hour
        taken = (
            CustomMeasurement.objects.for_user(user)
            .filter(category=category, entry_date=measurement.entry_date)
            .filter(Q(entry_hour=hour) if hour is not None else Q(entry_hour__isnull=True))
            .exclude(pk=measurement.pk)
            .exists()
        )
        if taken:
            when = measurement.entry_date.isoformat()
            if hourly:
                when += f" at {measurement.entry_hour:02d}:00"
            raise ValidationError(
                f"{category.name} already has a value on {when}; change or delete that one "
                "instead.",
                code="duplicate_entry",
            )
    measurement.full_clean(validate_constraints=False)
    measurement.save()
    return measurement


_CHECKIN_FIELDS = STANDARD_TYPES


def undo_write(*, user, kind: str, row_id, undo: dict) -> str:
    """Take back one write of the measurement tables: sparky.rows' DONE, CHANGED or GONE.

    A check-in the reply created is removed once none of its values is left.
    """
    op = undo.get("op")
    if kind == "checkin" and op == "restore":
        mine = CheckInMeasurement.objects.for_user(user)
        done = rows.put_back(mine, row_id, undo["before"], undo.get("after"))
        if done == rows.DONE:
            mine.filter(pk=row_id, **{f"{name}__isnull": True for name in _CHECKIN_FIELDS}).delete()
        return done
    if kind == "custom_measurement":
        done = rows.undo_row(CustomMeasurement, user, row_id, undo)
        if done is not None:
            return done
    raise ValueError(f"no undo {op!r} for {kind!r}")
