"""Shapes of the measurements API. Types are checked here; plausible ranges, units and dates
are measurements.services' rules."""

from __future__ import annotations

from rest_framework import serializers

from measurements.fields import CHECKIN, KINDS, UnitKind, last_of_kind
from measurements.models import CheckInMeasurement, CustomCategory, CustomMeasurement
from measurements.vocabulary import CUSTOM_EXAMPLES
from sparky.serializers import number


def _kept_unit(kind: UnitKind):
    """The getter of a kind's unit field: the unit the reader's values are kept in."""

    def get_unit(self, row) -> str:
        return kind.kept(self.context["preferences"])

    return get_unit


def _checkin_names() -> list[str]:
    """The fields in the order they are shown, each kind's unit after its last field: weight,
    weight_unit, neck, waist, hips, length_unit, steps."""
    names = []
    for field in CHECKIN.values():
        names.append(field.name)
        if field.kind.argument and last_of_kind(field):
            names.append(field.kind.argument)
    return names


class _CheckInBase(serializers.ModelSerializer):
    class Meta:
        model = CheckInMeasurement
        fields = ["id", "entry_date", *_checkin_names(), "updated_at"]
        read_only_fields = fields


# A day's check-in, in your preferred units (the *_unit fields). Built from the spec
# (measurements.fields): a unit field per kind of unit that has a preference.
CheckInSerializer = type(
    "CheckInSerializer",
    (_CheckInBase,),
    {
        "__module__": __name__,
        "__doc__": "A day's check-in, in your preferred units ("
        + ", ".join(kind.argument for kind in KINDS if kind.preference)
        + ").",
        **{
            attr: value
            for kind in KINDS
            if kind.preference
            for attr, value in (
                (kind.argument, serializers.SerializerMethodField()),
                (f"get_{kind.argument}", _kept_unit(kind)),
            )
        },
    },
)


def _write_field(name: str) -> serializers.Field:
    if name in CHECKIN:
        return number(required=False, allow_null=True)
    return serializers.CharField(max_length=10, required=False, allow_null=True)


CheckInWriteSerializer = type(
    "CheckInWriteSerializer",
    (serializers.Serializer,),
    {
        "__module__": __name__,
        "__doc__": "Values to record; the ones left out keep their stored value. Units default "
        "to yours.",
        "entry_date": serializers.DateField(required=False, help_text="Default: your today."),
        **{name: _write_field(name) for name in _checkin_names()},
    },
)


class CustomCategorySerializer(serializers.ModelSerializer):
    class Meta:
        model = CustomCategory
        fields = ["id", "name", "measurement_type", "frequency", "unit", "created_at"]
        read_only_fields = fields


class CustomMeasurementSerializer(serializers.ModelSerializer):
    category_name = serializers.CharField(source="category.name", read_only=True)
    unit = serializers.CharField(source="category.unit", read_only=True)

    class Meta:
        model = CustomMeasurement
        fields = [
            "id",
            "category",
            "category_name",
            "value",
            "unit",
            "entry_date",
            "entry_hour",
            "entry_timestamp",
        ]
        read_only_fields = fields


class CustomMeasurementWriteSerializer(serializers.Serializer):
    # The docstring, the schema's description, names an example from measurements/words.

    name = serializers.CharField(max_length=100, help_text="The category's name.")
    value = number()
    unit = serializers.CharField(max_length=20, required=False, allow_null=True)
    entry_date = serializers.DateField(required=False, help_text="Default: your today.")
    entry_hour = serializers.IntegerField(
        required=False, allow_null=True, help_text="0-23, for hourly categories."
    )
    frequency = serializers.ChoiceField(
        choices=CustomCategory.Frequency.choices,
        required=False,
        allow_null=True,
        help_text="For a new category (default Daily).",
    )


CustomMeasurementWriteSerializer.__doc__ = (
    f"A value in one of your categories (created on first use, e.g. '{CUSTOM_EXAMPLES[0]}')."
)


class CustomCategoryCreateSerializer(serializers.Serializer):
    """An empty category; values come later (POST /api/custom-measurements/ with its name)."""

    name = serializers.CharField(max_length=100, help_text="e.g. 'Blood glucose'.")
    frequency = serializers.ChoiceField(
        choices=CustomCategory.Frequency.choices,
        required=False,
        default=CustomCategory.Frequency.DAILY,
        help_text="Daily, Weekly and Monthly keep one value per date, Hourly one per hour, "
        "All every value.",
    )
    measurement_type = serializers.ChoiceField(
        choices=[CustomCategory.MeasurementType.NUMERIC],
        required=False,
        default=CustomCategory.MeasurementType.NUMERIC,
        help_text="Values are numbers.",
    )
    unit = serializers.CharField(max_length=100, required=False, allow_blank=True)


class CustomCategoryUpdateSerializer(serializers.Serializer):
    """What to change; the rest stays. The unit is a label: values are not converted."""

    name = serializers.CharField(max_length=100, required=False)
    frequency = serializers.ChoiceField(
        choices=CustomCategory.Frequency.choices,
        required=False,
        help_text="Refused when the stored values do not fit it (e.g. Hourly -> Daily with "
        "several values on one date).",
    )
    unit = serializers.CharField(max_length=100, required=False, allow_blank=True)


class CustomMeasurementUpdateSerializer(serializers.Serializer):
    value = number(required=False)
    entry_date = serializers.DateField(required=False)
    entry_hour = serializers.IntegerField(required=False, help_text="0-23, hourly categories.")
