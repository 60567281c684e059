"""Shapes of the exercise API. Types are checked here; durations, distances, calories and dates
are exercise.services' rules."""

from __future__ import annotations

from rest_framework import serializers
from rest_framework.exceptions import NotFound

from exercise import services
from exercise.models import Exercise, ExerciseEntry
from sparky.serializers import CatalogRowSerializer, number


class ExerciseSerializer(CatalogRowSerializer):
    is_own = serializers.SerializerMethodField(help_text="One of your custom exercises.")

    class Meta:
        model = Exercise
        fields = [
            "id",
            "name",
            "category",
            "met",
            "calories_per_hour",
            "default_duration_minutes",
            "description",
            "is_custom",
            "is_own",
            "shared_with_public",
            "source",
            "source_id",
            "license",
            "score",
            "created_at",
            "updated_at",
        ]
        read_only_fields = fields


class ExerciseCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=255)
    calories_per_hour = number(required=False, allow_null=True)
    met = number(required=False, allow_null=True, help_text="Metabolic equivalent (1-23).")
    category = serializers.CharField(max_length=50, required=False, allow_null=True)
    description = serializers.CharField(
        max_length=2000, required=False, allow_null=True, allow_blank=True
    )
    default_duration_minutes = number(required=False)
    shared_with_public = serializers.BooleanField(required=False)


def _visible_exercise(context, value):
    try:
        return services.exercise_get(user=context["request"].user, exercise_id=value)
    except Exercise.DoesNotExist:
        # A 404, as for the entry's own id: an id names one row and is never read as a name.
        raise NotFound(
            "No exercise with this id is yours or in the catalog; search /api/exercises/?search=."
        ) from None


class ExerciseEntrySerializer(serializers.ModelSerializer):
    exercise_name = serializers.CharField(source="exercise.name", read_only=True)

    class Meta:
        model = ExerciseEntry
        fields = [
            "id",
            "exercise",
            "exercise_name",
            "duration_minutes",
            "calories_burned",
            "distance",
            "distance_unit",
            "entry_date",
            "notes",
            "created_at",
        ]
        read_only_fields = fields


class ExerciseEntryWriteSerializer(serializers.Serializer):
    """With neither exercise nor exercise_name, General Exercise is logged."""

    exercise = serializers.UUIDField(required=False, allow_null=True)
    exercise_name = serializers.CharField(
        max_length=255, required=False, allow_null=True, help_text="Matched against the catalog."
    )
    duration_minutes = number(required=False, allow_null=True, help_text="Default: the exercise's.")
    distance = number(required=False, allow_null=True)
    distance_unit = serializers.CharField(max_length=20, required=False, allow_null=True)
    entry_date = serializers.DateField(required=False, help_text="Default: your today.")
    notes = serializers.CharField(
        max_length=1000, required=False, allow_null=True, allow_blank=True
    )
    calories_burned = number(
        required=False, allow_null=True, help_text="Default: estimated from MET and your weight."
    )

    def validate_exercise(self, value):
        return None if value is None else _visible_exercise(self.context, value)
