"""The diary panel and the diary's settings pages (preferences, goals, your data)."""

from django.urls import path

from diary import data_views, report_views, views

urlpatterns = [
    path("diary/", views.diary, name="diary"),
    path("report/", report_views.report, name="report"),
    path("diary/water/", views.water_change, name="diary_water"),
    path("diary/repeat/", views.meal_repeat, name="diary_meal_repeat"),
    path("diary/usual/", views.usual_meal, name="diary_usual_meal"),
    path("diary/quick-add/", views.quick_add, name="diary_quick_add"),
    path("diary/food/<uuid:entry_id>/edit/", views.food_entry_edit, name="diary_food_edit"),
    path("diary/food/<uuid:entry_id>/delete/", views.food_entry_delete, name="diary_food_delete"),
    path(
        "diary/exercise/<uuid:entry_id>/edit/",
        views.exercise_entry_edit,
        name="diary_exercise_edit",
    ),
    path(
        "diary/exercise/<uuid:entry_id>/delete/",
        views.exercise_entry_delete,
        name="diary_exercise_delete",
    ),
    path("diary/water/edit/", views.water_edit, name="diary_water_edit"),
    path("diary/checkin/<str:field>/edit/", views.checkin_value_edit, name="diary_checkin_edit"),
    path(
        "diary/checkin/<str:field>/delete/",
        views.checkin_value_delete,
        name="diary_checkin_delete",
    ),
    path(
        "diary/measurement/<uuid:entry_id>/edit/",
        views.custom_measurement_edit,
        name="diary_measurement_edit",
    ),
    path(
        "diary/measurement/<uuid:entry_id>/delete/",
        views.custom_measurement_delete,
        name="diary_measurement_delete",
    ),
    path("settings/preferences/", views.preferences, name="settings_preferences"),
    path("settings/goals/", views.goals, name="settings_goals"),
    path("settings/data/", data_views.data_page, name="settings_data"),
    path("settings/data/export.json", data_views.export_json, name="settings_data_export_json"),
    path("settings/data/export.zip", data_views.export_csv, name="settings_data_export_csv"),
    path("settings/data/import/", data_views.import_upload, name="settings_data_upload"),
    path(
        "settings/data/import/<uuid:job_id>/",
        data_views.import_page,
        name="settings_data_import",
    ),
    path(
        "settings/data/import/<uuid:job_id>/confirm/",
        data_views.import_confirm,
        name="settings_data_import_confirm",
    ),
]
