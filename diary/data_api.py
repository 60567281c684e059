"""The API of Your data: the export as JSON or a zip of CSV files, and imports (upload for a
preview, confirm, then poll the job while it runs in the background). Everything is the
authenticated user's own: another user's import is a 404."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.exceptions import ValidationError as ApiValidationError
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response
from rest_framework.views import APIView

from diary import exports, imports
from diary.data_views import download
from diary.models import ImportJob
from sparky.parsers import JSONParser
from sparky.uploads import refused_upload


class ImportJobSerializer(serializers.ModelSerializer):
    status_text = serializers.CharField(source="get_status_display", read_only=True)
    percent = serializers.IntegerField(read_only=True)
    preview = serializers.JSONField(
        read_only=True,
        help_text="What the import will add: counts per kind (`counts`, `labels`), rows "
        "imported before (`already`), the first rows (`rows`: line, kind, summary) and each "
        "row that cannot be imported (`errors`: line, field, message, text).",
    )
    created = serializers.JSONField(read_only=True, help_text="What the run added, per kind.")

    class Meta:
        model = ImportJob
        fields = [
            "id",
            "source",
            "filename",
            "status",
            "status_text",
            "total",
            "done",
            "percent",
            "preview",
            "created",
            "error",
            "created_at",
        ]
        read_only_fields = fields


class ExportJsonView(APIView):
    @extend_schema(
        summary="Export everything as JSON",
        description="One JSON document of every section of your data (diary food entries, "
        "custom foods and exercises, exercise entries, check-ins, custom measurements, goals, "
        "water, preferences, chat history). POST it to /api/imports/ to import it elsewhere.",
        responses={(200, "application/json"): OpenApiTypes.OBJECT},
        tags=["your data"],
    )
    def get(self, request):
        return download(
            exports.export_json(user=request.user),
            filename=exports.export_filename(user=request.user, extension="json"),
            content_type="application/json",
        )


class ExportCsvView(APIView):
    @extend_schema(
        summary="Export everything as CSV files",
        description="A zip with one CSV file per section (food_entries.csv, goals.csv, ...).",
        responses={(200, "application/zip"): OpenApiTypes.BINARY},
        tags=["your data"],
    )
    def get(self, request):
        return download(
            exports.export_zip(user=request.user),
            filename=exports.export_filename(user=request.user, extension="zip"),
            content_type="application/zip",
        )


class ImportListView(APIView):
    # JSON too, so a client sending JSON is told how to send the file rather than a bare 415.
    parser_classes = [MultiPartParser, FormParser, JSONParser]

    @extend_schema(
        summary="Your recent imports",
        responses=ImportJobSerializer(many=True),
        tags=["your data"],
    )
    def get(self, request):
        jobs = ImportJob.objects.for_user(request.user).order_by("-created_at")[:20]
        return Response(ImportJobSerializer(jobs, many=True).data)

    @extend_schema(
        summary="Upload a file to import (a preview; nothing is added yet)",
        description="A MyFitnessPal Nutrition, Exercise or Measurement Summary CSV (or its "
        "export zip), a Cronometer servings CSV, a Lose It! food log CSV or a Sparky JSON "
        "export, told apart by their first line. The answer "
        "is the import's preview; confirm it with POST /api/imports/{id}/confirm/.",
        request=inline_serializer(
            "ImportUpload", fields={"file": serializers.FileField(help_text="The export file.")}
        ),
        responses={201: ImportJobSerializer},
        tags=["your data"],
    )
    def post(self, request):
        upload = request.FILES.get("file")
        if refused_upload(request):
            raise ApiValidationError({"file": [refused_upload(request)]}, code="file_too_large")
        if upload is None:
            raise ApiValidationError({"file": ["Send the export file as `file` (multipart)."]})
        job = imports.import_preview(user=request.user, filename=upload.name, content=upload.read())
        return Response(ImportJobSerializer(job).data, status=status.HTTP_201_CREATED)


class ImportDetailView(APIView):
    @extend_schema(
        summary="An import: its preview, progress or result",
        responses=ImportJobSerializer,
        tags=["your data"],
    )
    def get(self, request, job_id):
        return Response(
            ImportJobSerializer(imports.import_get(user=request.user, job_id=job_id)).data
        )


class ImportConfirmView(APIView):
    @extend_schema(
        summary="Start a previewed import",
        description="Runs in the background in one transaction: everything is added, or "
        "nothing and `error` says why. Poll GET /api/imports/{id}/ for `done` of `total`. "
        "Refused (400) while the preview lists rows with errors, or when nothing is new.",
        request=None,
        responses={
            202: ImportJobSerializer,
            400: OpenApiResponse(description="Rows with errors, or nothing new."),
        },
        tags=["your data"],
    )
    def post(self, request, job_id):
        imports.import_get(user=request.user, job_id=job_id)  # someone else's: 404
        imports.import_confirm(user=request.user, job_id=job_id)
        job = imports.import_get(user=request.user, job_id=job_id)
        return Response(ImportJobSerializer(job).data, status=status.HTTP_202_ACCEPTED)
