"""The measurements API: daily check-ins (one per date, upserted), custom categories and their
values. Reads are scoped in get_queryset; writes go through measurements.services."""

from __future__ import annotations

import datetime as dt
import uuid

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import status
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.response import Response

from measurements import serializers as s
from measurements import services
from measurements.models import CheckInMeasurement, CustomCategory, CustomMeasurement
from sparky.api import DATE_PARAMETERS, ERRORS, DomainViewSet, UserRowsViewSet, Writes, filter_dates
from sparky.services import preferences_for

_DATE = r"\d{4}-\d{2}-\d{2}"
_DATE_PATH = OpenApiParameter(
    "entry_date", OpenApiTypes.DATE, OpenApiParameter.PATH, description="YYYY-MM-DD."
)


@extend_schema_view(
    list=extend_schema(
        summary="List your check-ins",
        description="Oldest first; filter with ?date= or ?start=&end=.",
        parameters=DATE_PARAMETERS,
    ),
    retrieve=extend_schema(summary="Read one day's check-in", parameters=[_DATE_PATH]),
    create=extend_schema(
        summary="Record check-in values (upsert for entry_date)",
        description="Creates the day's check-in or changes only the values given; weights and "
        "lengths in any unit are stored in your preferred ones.",
        responses={200: s.CheckInSerializer},  # an upsert: 200, also when it creates
    ),
    partial_update=extend_schema(
        summary="Record check-in values for this date (upsert)",
        parameters=[_DATE_PATH],
    ),
    destroy=extend_schema(summary="Delete one day's check-in", parameters=[_DATE_PATH]),
)
@extend_schema(tags=["check-ins"])
class CheckInViewSet(UserRowsViewSet):
    # One check-in a day, by its date: a create or an update records values into it (upsert).

    model = CheckInMeasurement
    serializer_class = s.CheckInSerializer
    create_serializer_class = update_serializer_class = s.CheckInWriteSerializer
    lookup_field = "entry_date"
    lookup_value_regex = _DATE
    documents_filters = True

    def rows(self, queryset):
        return filter_dates(self.request, queryset).order_by("entry_date")

    def get_serializer_context(self):
        return {
            **super().get_serializer_context(),
            "preferences": preferences_for(self.request.user),
        }

    def _path_date(self) -> dt.date:
        try:
            return dt.date.fromisoformat(self.kwargs["entry_date"])
        except ValueError:
            raise NotFound("Not found.") from None

    def get_object(self):
        row = self.visible().filter(entry_date=self._path_date()).first()
        if row is None:
            raise NotFound("No check-in on this date.")
        return row

    def _upsert(self, request, entry_date=None):
        given = s.CheckInWriteSerializer(data=request.data, partial=entry_date is not None)
        given.is_valid(raise_exception=True)
        values = {k: v for k, v in given.validated_data.items() if v is not None}
        if entry_date is not None:
            values["entry_date"] = entry_date
        row = services.checkin_upsert(user=request.user, **values)
        return Response(self.get_serializer(row).data)

    def create(self, request):
        return self._upsert(request)

    def partial_update(self, request, entry_date=None):
        return self._upsert(request, self._path_date())

    def destroy(self, request, entry_date=None):
        if not services.checkin_delete(user=request.user, entry_date=self._path_date()):
            raise NotFound("No check-in on this date.")
        return Response(status=status.HTTP_204_NO_CONTENT)


@extend_schema_view(
    list=extend_schema(summary="List your custom measurement categories"),
    retrieve=extend_schema(summary="Read a custom category"),
    create=extend_schema(
        summary="Create an empty custom category",
        description="Logging a first value (POST /api/custom-measurements/) also creates one; "
        "a name you already use, in any case, is refused with 'duplicate_category'.",
    ),
    partial_update=extend_schema(
        summary="Rename a custom category or change its frequency or unit",
        description="A frequency the stored values do not fit is refused with "
        "'frequency_conflict': to Daily, Weekly or Monthly only if no date holds several "
        "values; to Hourly only while the category is empty. Leaving Hourly drops the hours.",
    ),
    destroy=extend_schema(
        summary="Delete a custom category and all its values",
        responses={204: None, 404: ERRORS["404"]},
    ),
)
@extend_schema(tags=["custom measurements"])
class CustomCategoryViewSet(DomainViewSet):
    model = CustomCategory
    serializer_class = s.CustomCategorySerializer
    create_serializer_class = s.CustomCategoryCreateSerializer
    update_serializer_class = s.CustomCategoryUpdateSerializer
    writes = Writes(
        create=services.custom_category_create,
        update=services.custom_category_update,
        delete=services.custom_category_delete,
        id_name="category_id",
    )

    def rows(self, queryset):
        return queryset.order_by("name", "id")


@extend_schema_view(
    list=extend_schema(
        summary="List your custom measurement values",
        description="Oldest first; filter with ?category=, ?date= or ?start=&end=.",
        parameters=[
            *DATE_PARAMETERS,
            OpenApiParameter("category", OpenApiTypes.UUID, description="A category id."),
        ],
    ),
    retrieve=extend_schema(summary="Read a custom measurement value"),
    create=extend_schema(
        summary="Log a custom measurement",
        description="Daily, weekly and monthly categories keep one value per date and hourly "
        "ones one per hour (a second value replaces the first); 'All' keeps every value.",
    ),
    partial_update=extend_schema(
        summary="Correct a custom measurement value",
        description="Change the value, its date or (hourly categories) its hour. Moving it "
        "onto a date or hour that already holds a value is refused with 'duplicate_entry', "
        "except in 'All' categories.",
    ),
    destroy=extend_schema(summary="Delete a custom measurement value"),
)
@extend_schema(tags=["custom measurements"])
class CustomMeasurementViewSet(DomainViewSet):
    model = CustomMeasurement
    serializer_class = s.CustomMeasurementSerializer
    create_serializer_class = s.CustomMeasurementWriteSerializer
    update_serializer_class = s.CustomMeasurementUpdateSerializer
    writes = Writes(
        create=services.custom_measurement_log,
        update=services.custom_measurement_update,
        delete=services.custom_measurement_delete,
        id_name="measurement_id",
    )
    documents_filters = True

    def rows(self, queryset):
        rows = queryset.select_related("category")
        category = self.request.query_params.get("category")
        if category:
            try:
                rows = rows.filter(category_id=uuid.UUID(category))
            except ValueError:
                raise ValidationError(
                    {"category": [f"{category[:40]!r} is not a category id."]}, code="invalid"
                ) from None
        return filter_dates(self.request, rows).order_by(
            "entry_date", "entry_hour", "entry_timestamp", "id"
        )
