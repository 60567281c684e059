"""Body units: parsing what people type ("lbs", "inches", "81.4") and converting between them.

Weights are kept in kg or lb and lengths in cm or inches, as UserPreferences names them. Every
conversion goes through Decimal so a value stored and read back does not drift.
"""

from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

from django.core.exceptions import ValidationError

from measurements import vocabulary

LB_PER_KG = Decimal("2.20462262185")
CM_PER_INCH = Decimal("2.54")
TWO_PLACES = Decimal("0.01")

# Spelling -> unit (measurements/words/units.toml).
_WEIGHT_UNITS = vocabulary.WEIGHT_SPELLINGS
_LENGTH_UNITS = vocabulary.LENGTH_SPELLINGS


def to_decimal(value, *, field: str) -> Decimal:
    """A finite Decimal from a number or a numeric string; anything else is refused (`field`
    named as words: "duration_minutes" reads "Duration minutes")."""
    field = field.replace("_", " ")
    field = field[:1].upper() + field[1:]
    if isinstance(value, bool) or not isinstance(value, int | float | Decimal | str):
        raise ValidationError(f"{field} must be a number, got {value!r}.", code="not_a_number")
    text = value.strip().replace(",", ".") if isinstance(value, str) else str(value)
    try:
        number = Decimal(text)
    except InvalidOperation:
        raise ValidationError(
            f"{field} must be a number, got {value!r}.", code="not_a_number"
        ) from None
    if not number.is_finite():
        raise ValidationError(f"{field} must be a finite number.", code="not_a_number")
    return number


def weight_unit_of(word) -> str | None:
    """kg or lb for a weight unit as people write it ("kilos", "lbs"), else None."""
    return _WEIGHT_UNITS.get(str(word or "").strip().lower().rstrip("."))


def length_unit_of(word) -> str | None:
    """cm or inches for a length unit as people write it ("cms", "in", '"'), else None."""
    return _LENGTH_UNITS.get(str(word or "").strip().lower().rstrip("."))


def parse_weight_unit(value: str | None, default: str) -> str:
    if value is None or str(value).strip() == "":
        return default
    unit = _WEIGHT_UNITS.get(str(value).strip().lower().rstrip("."))
    if unit is None:
        raise ValidationError(f"Unknown weight unit {value!r}; use kg or lb.", code="invalid_unit")
    return unit


def parse_length_unit(value: str | None, default: str) -> str:
    if value is None or str(value).strip() == "":
        return default
    unit = _LENGTH_UNITS.get(str(value).strip().lower().rstrip("."))
    if unit is None:
        raise ValidationError(
            f"Unknown length unit {value!r}; use cm or inches.", code="invalid_unit"
        )
    return unit


def weight_to_kg(value: Decimal, unit: str) -> Decimal:
    return value / LB_PER_KG if unit == "lb" else value


def weight_from_kg(kg: Decimal, unit: str) -> Decimal:
    return kg * LB_PER_KG if unit == "lb" else kg


def convert_weight(value: Decimal, from_unit: str, to_unit: str) -> Decimal:
    if from_unit == to_unit:
        return value
    return weight_from_kg(weight_to_kg(value, from_unit), to_unit)


def length_to_cm(value: Decimal, unit: str) -> Decimal:
    return value * CM_PER_INCH if unit == "inches" else value


def convert_length(value: Decimal, from_unit: str, to_unit: str) -> Decimal:
    if from_unit == to_unit:
        return value
    cm = length_to_cm(value, from_unit)
    return cm / CM_PER_INCH if to_unit == "inches" else cm


def two_places(value: Decimal) -> Decimal:
    return value.quantize(TWO_PLACES, rounding=ROUND_HALF_UP)


# A kind of check-in unit (measurements.fields.UnitKind.name) -> how a unit of it is read and a
# value converted; kinds not here have one unit and are kept as given.
_PARSERS = {"weight": parse_weight_unit, "length": parse_length_unit}
_CONVERTERS = {"weight": convert_weight, "length": convert_length}


def parse_unit(kind: str, value: str | None, default: str) -> str:
    """The unit of a kind as people write it ("lbs" -> "lb"), `default` when none is given."""
    parse = _PARSERS.get(kind)
    return parse(value, default) if parse else default


def convert(kind: str, value: Decimal, from_unit: str, to_unit: str) -> Decimal:
    convert_kind = _CONVERTERS.get(kind)
    return convert_kind(value, from_unit, to_unit) if convert_kind else value


_SPELLINGS = {"weight": weight_unit_of, "length": length_unit_of}


def unit_of(kind, word) -> str | None:
    """A unit of a kind (measurements.fields.UnitKind) as people write it ("lbs" -> "lb",
    "steps" -> "steps", "mm Hg" -> "mmHg"), else None."""
    spelled = _SPELLINGS.get(kind.name)
    if spelled:
        return spelled(word)
    said = "".join(str(word or "").lower().split()).rstrip(".")
    return next((unit for unit in kind.units if said in (unit.lower(), unit.lower()[:-1])), None)
