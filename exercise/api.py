"""The exercise API: the exercise catalog (search, your custom exercises) and your exercise
diary. Reads are scoped in get_queryset; writes go through exercise.services."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view

from exercise import serializers as s
from exercise import services
from exercise.models import Exercise, ExerciseEntry
from sparky.api import DATE_PARAMETERS, ERRORS, CatalogViewSet, DomainViewSet, Writes, filter_dates

SEARCH_LIMIT = 50


@extend_schema_view(
    list=extend_schema(
        summary="Search or list exercises",
        description="With ?search= the best matches (your own first), each with a score; "
        "without it every exercise you can see, by name. ?mine=true for only your own.",
        parameters=[
            OpenApiParameter("search", OpenApiTypes.STR, description="e.g. 'running 6 mph'."),
            OpenApiParameter("mine", OpenApiTypes.BOOL, description="Only your custom ones."),
        ],
    ),
    retrieve=extend_schema(summary="Read an exercise"),
    create=extend_schema(summary="Create a custom exercise"),
    partial_update=extend_schema(
        summary="Change one of your custom exercises",
        description="Only the fields given change; null clears calories_per_hour, met, category "
        "or description. Entries already logged keep their calories.",
        responses={200: s.ExerciseSerializer, 403: ERRORS["403"]},
    ),
    destroy=extend_schema(
        summary="Delete one of your custom exercises (refused while entries use it)",
        responses={204: None, 400: ERRORS["400"], 403: ERRORS["403"]},
    ),
)
@extend_schema(tags=["exercises"])
class ExerciseViewSet(CatalogViewSet):
    model = Exercise
    serializer_class = s.ExerciseSerializer
    create_serializer_class = update_serializer_class = s.ExerciseCreateSerializer
    writes = Writes(
        create=services.exercise_create_custom,
        update=services.exercise_update_custom,
        delete=services.exercise_delete_custom,
        id_name="exercise_id",
    )
    search = staticmethod(services.exercise_search)
    search_limit = SEARCH_LIMIT

    def given(self) -> dict:
        values = super().given()
        if self.action == "partial_update":
            return values  # null clears a value
        # A new exercise leaves a null out: the service's default applies.
        return {k: v for k, v in values.items() if v is not None}


@extend_schema_view(
    list=extend_schema(
        summary="List your exercise entries",
        description="Oldest first; filter with ?date= or ?start=&end=.",
        parameters=DATE_PARAMETERS,
    ),
    retrieve=extend_schema(summary="Read an exercise entry"),
    create=extend_schema(
        summary="Log exercise",
        description="Calories are estimated from the exercise's MET and your latest weight "
        "unless given; a name that matches nothing is refused with 'exercise_not_found'.",
    ),
    partial_update=extend_schema(
        summary="Change an exercise entry",
        description="A new duration scales the calories; a new exercise re-estimates them.",
    ),
    destroy=extend_schema(summary="Delete an exercise entry"),
)
@extend_schema(tags=["exercise entries"])
class ExerciseEntryViewSet(DomainViewSet):
    model = ExerciseEntry
    serializer_class = s.ExerciseEntrySerializer
    create_serializer_class = update_serializer_class = s.ExerciseEntryWriteSerializer
    writes = Writes(
        create=services.exercise_entry_create,
        update=services.exercise_entry_update,
        delete=services.exercise_entry_delete,
        id_name="entry_id",
    )
    documents_filters = True

    def rows(self, queryset):
        entries = filter_dates(self.request, queryset.select_related("exercise"))
        return entries.order_by("entry_date", "created_at", "id")
