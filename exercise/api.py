"""The exercise API: the exercise catalog (search, your custom exercises) and your exercise
diary. Reads are scoped in get_queryset; writes go through exercise.services."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import mixins, status, viewsets
from rest_framework.response import Response

from exercise import serializers as s
from exercise import services
from exercise.models import Exercise, ExerciseEntry
from sparky.api import DATE_PARAMETERS, ERRORS, OwnerOrReadOnly, filter_dates

SEARCH_LIMIT = 50
_TRUE = ("1", "true", "yes")


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
    create=extend_schema(
        summary="Create a custom exercise",
        request=s.ExerciseCreateSerializer,
        responses={201: s.ExerciseSerializer},
    ),
    partial_update=extend_schema(
        summary="Change one of your custom exercises",
        description="Only the fields given change; null clears calories_per_hour, met, category "
        "or description. Entries already logged keep their calories.",
        request=s.ExerciseCreateSerializer(partial=True),
        responses={200: s.ExerciseSerializer, 403: ERRORS["403"]},
    ),
    destroy=extend_schema(
        summary="Delete one of your custom exercises (refused while entries use it)",
        responses={204: None, 400: ERRORS["400"], 403: ERRORS["403"]},
    ),
)
@extend_schema(tags=["exercises"])
class ExerciseViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    serializer_class = s.ExerciseSerializer
    # Catalog exercises and those others share are readable, never changeable (403).
    permission_classes = [*viewsets.GenericViewSet.permission_classes, OwnerOrReadOnly]
    http_method_names = ["get", "post", "patch", "delete", "head", "options"]
    documents_filters = True

    def _mine(self) -> bool:
        return self.request.query_params.get("mine", "").lower() in _TRUE

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # schema generation: no user
            return Exercise.objects.none()
        exercises = Exercise.objects.visible_to(self.request.user)
        if self._mine():
            exercises = exercises.filter(user=self.request.user, is_custom=True)
        return exercises.order_by("name", "id")

    def list(self, request):
        query = request.query_params.get("search", "").strip()
        if not query:
            return super().list(request)
        found = services.exercise_search(user=request.user, query=query[:200], limit=SEARCH_LIMIT)
        if self._mine():
            found = [exercise for exercise in found if exercise.user_id == request.user.pk]
        page = self.paginate_queryset(found)
        return self.get_paginated_response(self.get_serializer(page, many=True).data)

    def create(self, request):
        given = s.ExerciseCreateSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        values = {k: v for k, v in given.validated_data.items() if v is not None}
        exercise = services.exercise_create_custom(user=request.user, **values)
        return Response(self.get_serializer(exercise).data, status=status.HTTP_201_CREATED)

    def partial_update(self, request, pk=None):
        exercise = self.get_object()
        given = s.ExerciseCreateSerializer(data=request.data, partial=True)
        given.is_valid(raise_exception=True)
        exercise = services.exercise_update_custom(
            user=request.user, exercise_id=exercise.pk, **given.validated_data
        )
        return Response(self.get_serializer(exercise).data)

    def destroy(self, request, pk=None):
        exercise = self.get_object()
        services.exercise_delete_custom(user=request.user, exercise_id=exercise.pk)
        return Response(status=status.HTTP_204_NO_CONTENT)


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
        request=s.ExerciseEntryWriteSerializer,
        responses={201: s.ExerciseEntrySerializer},
    ),
    partial_update=extend_schema(
        summary="Change an exercise entry",
        description="A new duration scales the calories; a new exercise re-estimates them.",
        request=s.ExerciseEntryWriteSerializer,
        responses={200: s.ExerciseEntrySerializer},
    ),
    destroy=extend_schema(summary="Delete an exercise entry"),
)
@extend_schema(tags=["exercise entries"])
class ExerciseEntryViewSet(
    mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet
):
    serializer_class = s.ExerciseEntrySerializer
    http_method_names = ["get", "post", "patch", "delete", "head", "options"]
    documents_filters = True

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # schema generation: no user
            return ExerciseEntry.objects.none()
        entries = ExerciseEntry.objects.for_user(self.request.user).select_related("exercise")
        return filter_dates(self.request, entries).order_by("entry_date", "created_at", "id")

    def _given(self, request, *, partial: bool) -> dict:
        given = s.ExerciseEntryWriteSerializer(
            data=request.data, partial=partial, context={"request": request}
        )
        given.is_valid(raise_exception=True)
        return dict(given.validated_data)

    def create(self, request):
        entry = services.exercise_entry_create(
            user=request.user, **self._given(request, partial=False)
        )
        return Response(self.get_serializer(entry).data, status=status.HTTP_201_CREATED)

    def partial_update(self, request, pk=None):
        entry = self.get_object()
        entry = services.exercise_entry_update(
            user=request.user, entry_id=entry.pk, **self._given(request, partial=True)
        )
        return Response(self.get_serializer(entry).data)

    def destroy(self, request, pk=None):
        entry = self.get_object()
        services.exercise_entry_delete(user=request.user, entry_id=entry.pk)
        return Response(status=status.HTTP_204_NO_CONTENT)
