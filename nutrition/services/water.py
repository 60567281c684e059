"""Water: glasses added or set for a day, and a water goal."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal, InvalidOperation

from django.core.exceptions import ValidationError
from django.db import connection, transaction

from nutrition import units
from nutrition.services.values import MAX_GLASSES_PER_ADD, MAX_GLASSES_PER_DAY
from sparky.dates import parse_day

# --- water ---------------------------------------------------------------------------------------

_WATER_UPSERT = """
INSERT INTO water_intake (id, user_id, entry_date, glasses_consumed, created_at, updated_at)
VALUES (gen_random_uuid(), %s, %s, %s, now(), now())
ON CONFLICT (user_id, entry_date) DO UPDATE
SET glasses_consumed = {new_total}, updated_at = now()
WHERE {new_total} <= %s
RETURNING glasses_consumed
"""


ML_PER_GLASS = 250
# How many glasses one unit of water is. A bottle is taken as 500 ml, the common size.
WATER_GLASSES_PER_UNIT = {
    "glass": 1,
    "cup": 1,
    "mug": 1,
    "bottle": 500 / ML_PER_GLASS,
    **{unit: float(ml) / ML_PER_GLASS for unit, ml in units.VOLUME_ML.items()},
}
WATER_GLASSES_PER_UNIT["cup"] = 1  # "2 cups of water" are two glasses, not 1.9


def water_glasses(amount: float, unit: str | None) -> float | None:
    """Glasses of water in an amount written with a unit ("500 ml", "2 bottles", "1 l");
    no unit is glasses; None for a unit water is not measured in."""
    if unit is None or not str(unit).strip():
        return amount
    word = " ".join(str(unit).lower().split())
    try:
        canonical = units.normalize_unit(word) if word not in WATER_GLASSES_PER_UNIT else word
    except ValidationError:  # not a unit at all ("0", "-2 cups")
        canonical = word
    if canonical not in WATER_GLASSES_PER_UNIT and word.endswith("s"):
        canonical = word[:-1]  # "bottles", "mugs"
    factor = WATER_GLASSES_PER_UNIT.get(canonical)
    return None if factor is None else amount * factor


@transaction.atomic
def water_add(*, user, glasses=1, entry_date=None) -> int:
    """Add glasses of water to a day; returns the day's new total.

    One INSERT ... ON CONFLICT DO UPDATE: concurrent adds never lose a glass.
    """
    count = _glasses(glasses, 1, MAX_GLASSES_PER_ADD, "add")
    day = parse_day(user, entry_date)
    total = _water_upsert(
        user, day, count, "water_intake.glasses_consumed + EXCLUDED.glasses_consumed"
    )
    if total is None:
        raise ValidationError(
            f"That would be more than {MAX_GLASSES_PER_DAY} glasses on {day.isoformat()}; "
            "set the day's total with the right number instead.",
            code="invalid_quantity",
        )
    return total


@transaction.atomic
def water_set(*, user, glasses, entry_date=None) -> int:
    """Set a day's glasses of water (0 clears it); returns the total."""
    count = _glasses(glasses, 0, MAX_GLASSES_PER_DAY, "set")
    day = parse_day(user, entry_date)
    return _water_upsert(user, day, count, "EXCLUDED.glasses_consumed")


def _water_upsert(user, day: dt.date, count: int, new_total: str) -> int | None:
    with connection.cursor() as cursor:
        cursor.execute(
            _WATER_UPSERT.format(new_total=new_total),
            [user.pk, day, count, MAX_GLASSES_PER_DAY],
        )
        row = cursor.fetchone()
    return None if row is None else row[0]


def _glasses(value, low: int, high: int, what: str) -> int:
    problem = {
        "add": f"Water to add must be a whole number of glasses from {low} to {high}",
        "set": f"A day's water must be a whole number of glasses from {low} to {high}",
        "goal": f"A water goal must be a whole number of glasses from {low} to {high}",
    }[what]
    try:
        number = Decimal(str(value).strip())
    except (InvalidOperation, ValueError):
        number = None
    if (
        isinstance(value, bool)
        or number is None
        or not number.is_finite()
        or number != number.to_integral_value()
        or not low <= number <= high
    ):
        raise ValidationError(f"{problem}, not {value!r}.", code="invalid_quantity")
    return int(number)
