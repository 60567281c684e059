"""Reads of check-ins and custom measurements, in the user's preferred units."""

import datetime as dt
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db.models import F, Value
from django.db.models.functions import Lower

from measurements.fields import CHECKIN, KINDS
from measurements.models import CheckInMeasurement, CustomCategory, CustomMeasurement
from sparky.dates import today_for
from sparky.services import preferences_for

MAX_DAYS = 3660


def _window(user, days: int) -> tuple[dt.date, dt.date]:
    if isinstance(days, bool) or not isinstance(days, int) or not 1 <= days <= MAX_DAYS:
        raise ValidationError(
            f"days must be a whole number from 1 to {MAX_DAYS}, got {days!r}.", code="invalid_days"
        )
    end = today_for(user)
    return end - dt.timedelta(days=days - 1), end


def _checkin_dict(row: CheckInMeasurement) -> dict:
    return {
        "id": row.id,
        "date": row.entry_date,
        **{name: getattr(row, name) for name in CHECKIN},
    }


def _custom_dict(row: CustomMeasurement) -> dict:
    return {
        "id": row.id,
        "category": row.category.name,
        "category_id": row.category_id,
        "frequency": row.category.frequency,
        "unit": row.category.unit,
        "value": row.value,
        "date": row.entry_date,
        "entry_hour": row.entry_hour,
        "entry_timestamp": row.entry_timestamp,
    }


def measurements_for(*, user, day: dt.date) -> dict:
    """The day's check-in and custom values.

    {"date", "weight_unit", "length_unit",   (each kind's unit argument: the unit it is kept in)
     "checkin": {"id", "date", and each check-in field (measurements.fields.CHECKIN)} | None,
     "custom": [{"id", "category", "category_id", "frequency", "unit", "value", "date",
                 "entry_hour", "entry_timestamp"}, ...]}   (by category name, then time)
    """
    prefs = preferences_for(user)
    checkin = CheckInMeasurement.objects.for_user(user).filter(entry_date=day).first()
    custom = (
        CustomMeasurement.objects.for_user(user)
        .filter(entry_date=day)
        .select_related("category")
        .order_by(Lower("category__name"), "entry_hour", "entry_timestamp")
    )
    return {
        "date": day,
        **{kind.argument: getattr(prefs, kind.preference) for kind in KINDS if kind.preference},
        "checkin": _checkin_dict(checkin) if checkin else None,
        "custom": [_custom_dict(row) for row in custom],
    }


def checkin_trend(*, user, field: str, days: int = 30) -> list[tuple[dt.date, Decimal | int]]:
    """(date, value in the user's unit) for each day of the last `days` with a value of one
    check-in field, oldest first."""
    start, end = _window(user, days)
    return list(
        CheckInMeasurement.objects.for_user(user)
        .between(start, end)
        .filter(**{f"{CHECKIN[field].name}__isnull": False})
        .order_by("entry_date")
        .values_list("entry_date", field)
    )


def weight_trend(*, user, days: int = 30) -> list[tuple[dt.date, Decimal]]:
    """(date, weight in the user's unit) for each day of the last `days` with a weight, oldest
    first."""
    return checkin_trend(user=user, field="weight", days=days)


def kept_unit(field: str, prefs) -> str:
    """The unit a check-in field's values are kept in: the user's preference for its kind of
    unit, else the kind's only unit (steps, mmHg)."""
    return CHECKIN[field].kind.kept(prefs)


def custom_trend(*, user, category_name: str, days: int = 30) -> list[dict]:
    """Values of one of the user's categories (name in any case) over the last `days`, oldest
    first: [{"date", "entry_hour", "value", "entry_timestamp"}]. Unknown name: []."""
    start, end = _window(user, days)
    category = (
        CustomCategory.objects.for_user(user)
        .alias(lname=Lower("name"))
        .filter(lname=Lower(Value(" ".join(str(category_name).split()))))
        .first()
    )
    if category is None:
        return []
    return list(
        CustomMeasurement.objects.for_user(user)
        .filter(category=category)
        .between(start, end)
        .order_by("entry_date", "entry_hour", "entry_timestamp")
        .values("entry_hour", "value", "entry_timestamp", date=F("entry_date"))
    )


def checkin_history(*, user, days: int = 30) -> list[dict]:
    """The user's check-ins of the last `days`, newest first (same dicts as measurements_for)."""
    start, end = _window(user, days)
    rows = CheckInMeasurement.objects.for_user(user).between(start, end).order_by("-entry_date")
    return [_checkin_dict(row) for row in rows]


def custom_categories(*, user) -> list[CustomCategory]:
    return list(CustomCategory.objects.for_user(user).order_by(Lower("name")))
