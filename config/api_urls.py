"""The DRF API under /api/ (version 1; a breaking change would come as /api/v2/).

The schema and the docs need a login like everything but the token endpoint. The docs' assets
come from drf-spectacular-sidecar's files and are served here, never from a CDN.
"""

from pathlib import Path

import drf_spectacular_sidecar
from django.urls import path, re_path
from django.views.static import serve
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView
from rest_framework.routers import DefaultRouter

from aiservices.api import AIServiceViewSet
from chat.web.api import (
    ChatHistoryView,
    ChatReviewCancelView,
    ChatReviewConfirmView,
    ChatTurnView,
    ChatUndoView,
)
from diary.api import PreferencesView, ReportView, SummaryView
from diary.data_api import (
    ExportCsvView,
    ExportJsonView,
    ImportConfirmView,
    ImportDetailView,
    ImportListView,
)
from exercise.api import ExerciseEntryViewSet, ExerciseViewSet
from measurements.api import CheckInViewSet, CustomCategoryViewSet, CustomMeasurementViewSet
from nutrition.api import (
    FoodEntryViewSet,
    FoodViewSet,
    GoalViewSet,
    UsualMealLogView,
    UsualMealView,
    WaterView,
)
from sparky.api import ApiIndexView, AuthTokenView, login_first_for_browsers

ASSETS = Path(drf_spectacular_sidecar.__file__).parent / "static" / "drf_spectacular_sidecar"

router = DefaultRouter(trailing_slash=True)
router.include_root_view = False
# No `.json` twins of every route: the API speaks JSON only, the schema does not list them, and
# the handlers (partial_update(request, pk), ...) do not take the `format` argument they pass, so
# PATCH /api/foods/<id>.json answered 500.
router.include_format_suffixes = False
router.register("foods", FoodViewSet, basename="food")
router.register("food-entries", FoodEntryViewSet, basename="food-entry")
router.register("goals", GoalViewSet, basename="goal")
router.register("exercises", ExerciseViewSet, basename="exercise")
router.register("exercise-entries", ExerciseEntryViewSet, basename="exercise-entry")
router.register("checkins", CheckInViewSet, basename="checkin")
router.register("custom-categories", CustomCategoryViewSet, basename="custom-category")
router.register("custom-measurements", CustomMeasurementViewSet, basename="custom-measurement")
router.register("ai-services", AIServiceViewSet, basename="ai-service")

INDEX = {
    "docs": "api-docs",
    "redoc": "api-redoc",
    "schema": "api-schema",
    "token": "api-token",
    "chat": "api-chat",
    "summary": "api-summary",
    "report": "api-report",
    "foods": "food-list",
    "food_entries": "food-entry-list",
    "exercises": "exercise-list",
    "exercise_entries": "exercise-entry-list",
    "checkins": "checkin-list",
    "water": "api-water",
    "usual_meals": "api-usual-meals",
    "goals": "goal-list",
    "preferences": "api-preferences",
    "ai_services": "ai-service-list",
    "export_json": "api-export-json",
    "export_csv": "api-export-csv",
    "imports": "api-imports",
}

urlpatterns = [
    path("", ApiIndexView.as_view(links=INDEX), name="api-root"),
    path("auth/token/", AuthTokenView.as_view(), name="api-token"),
    path("water/", WaterView.as_view(), name="api-water"),
    path("usual-meals/", UsualMealView.as_view(), name="api-usual-meals"),
    path("usual-meals/<str:meal_type>/log/", UsualMealLogView.as_view(), name="api-usual-meal-log"),
    path("summary/", SummaryView.as_view(), name="api-summary"),
    path("report/", ReportView.as_view(), name="api-report"),
    path("preferences/", PreferencesView.as_view(), name="api-preferences"),
    path("export/json/", ExportJsonView.as_view(), name="api-export-json"),
    path("export/csv/", ExportCsvView.as_view(), name="api-export-csv"),
    path("imports/", ImportListView.as_view(), name="api-imports"),
    path("imports/<uuid:job_id>/", ImportDetailView.as_view(), name="api-import"),
    path(
        "imports/<uuid:job_id>/confirm/",
        ImportConfirmView.as_view(),
        name="api-import-confirm",
    ),
    path("chat/", ChatTurnView.as_view(), name="api-chat"),
    path("chat/history/", ChatHistoryView.as_view(), name="api-chat-history"),
    path("chat/messages/<uuid:message_id>/undo/", ChatUndoView.as_view(), name="api-chat-undo"),
    path(
        "chat/messages/<uuid:message_id>/review/confirm/",
        ChatReviewConfirmView.as_view(),
        name="api-chat-review-confirm",
    ),
    path(
        "chat/messages/<uuid:message_id>/review/cancel/",
        ChatReviewCancelView.as_view(),
        name="api-chat-review-cancel",
    ),
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path(
        "docs/",
        login_first_for_browsers(SpectacularSwaggerView.as_view(url_name="api-schema")),
        name="api-docs",
    ),
    path(
        "redoc/",
        login_first_for_browsers(SpectacularRedocView.as_view(url_name="api-schema")),
        name="api-redoc",
    ),
    re_path(
        r"^docs/assets/(?P<path>(swagger-ui-dist|redoc)/[\w./-]+)$",
        serve,
        {"document_root": ASSETS},
        name="api-docs-assets",
    ),
    *router.urls,
]
