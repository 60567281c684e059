"""Shapes of the measurements API. Types are checked here; plausible ranges, units and dates
are measurements.services' rules."""

from __future__ import annotations

from rest_framework import serializers

from measurements.models import CheckInMeasurement, CustomCategory, CustomMeasurement
from sparky.serializers import number


class CheckInSerializer(serializers.ModelSerializer):
    """A day's check-in, in your preferred units (weight_unit, length_unit)."""

    weight_unit = serializers.SerializerMethodField()
    length_unit = serializers.SerializerMethodField()

    class Meta:
        model = CheckInMeasurement
        fields = [
            "id",
            "entry_date",
            "weight",
            "weight_unit",
            "neck",
            "waist",
            "hips",
            "length_unit",
            "steps",
            "updated_at",
        ]
        read_only_fields = fields

    def get_weight_unit(self, row) -> str:
        return self.context["preferences"].default_weight_unit

    def get_length_unit(self, row) -> str:
        return self.context["preferences"].default_measurement_unit


class CheckInWriteSerializer(serializers.Serializer):
    """Values to record; the ones left out keep their stored value. Units default to yours."""

    entry_date = serializers.DateField(required=False, help_text="Default: your today.")
    weight = number(required=False, allow_null=True)
    weight_unit = serializers.CharField(max_length=10, required=False, allow_null=True)
    neck = number(required=False, allow_null=True)
    waist = number(required=False, allow_null=True)
    hips = number(required=False, allow_null=True)
    length_unit = serializers.CharField(max_length=10, required=False, allow_null=True)
    steps = number(required=False, allow_null=True)


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
    """A value in one of your categories (created on first use, e.g. 'blood pressure')."""

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
