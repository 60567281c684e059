"""Writes that span domains: the user's preferences, whose units decide how check-ins are stored."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction

from measurements.services import checkins_convert_units
from measurements.units import parse_length_unit, parse_weight_unit
from sparky import services as sparky_services
from sparky.models import UserPreferences

_UNIT_FIELDS = {
    "default_weight_unit": (parse_weight_unit, "kg or lb"),
    "default_measurement_unit": (parse_length_unit, "cm or inches"),
}


def _unit(name: str, value) -> str:
    parse, expected = _UNIT_FIELDS[name]
    try:
        unit = parse(value, default="")
    except ValidationError:
        raise ValidationError(
            f"{name} {value!r} is not allowed; use {expected}.", code="invalid_choice"
        ) from None
    if not unit:
        raise ValidationError(f"{name} needs {expected}.", code="invalid_choice")
    return unit


@transaction.atomic
def preferences_update(*, user, **fields) -> UserPreferences:
    """Change the given preferences (sparky.services.preferences_update's rules); a unit may be
    written as people write it ("pounds", "in"), and changing one converts the stored check-ins,
    which are always kept in the preferred units."""
    for name in _UNIT_FIELDS.keys() & fields.keys():
        fields[name] = _unit(name, fields[name])
    before = sparky_services.preferences_locked(user)
    old_weight, old_length = before.default_weight_unit, before.default_measurement_unit
    prefs = sparky_services.preferences_update(user=user, **fields)
    if (old_weight, old_length) != (prefs.default_weight_unit, prefs.default_measurement_unit):
        checkins_convert_units(
            user=user,
            weight_from=old_weight,
            weight_to=prefs.default_weight_unit,
            length_from=old_length,
            length_to=prefs.default_measurement_unit,
        )
    return prefs
