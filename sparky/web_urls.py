"""Accounts, the diary panel and the settings pages."""

from django.contrib.auth.views import LogoutView
from django.urls import path

from sparky import views

urlpatterns = [
    path("accounts/signup/", views.signup, name="signup"),
    path("accounts/login/", views.EmailLoginView.as_view(), name="login"),
    path("accounts/logout/", LogoutView.as_view(), name="logout"),
    path("diary/", views.diary, name="diary"),
    path("diary/water/", views.water_change, name="diary_water"),
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
    path("settings/", views.settings_index, name="settings"),
    path("settings/ai/", views.ai_services, name="settings_ai"),
    path("settings/ai/add/", views.ai_service_add, name="settings_ai_add"),
    path("settings/ai/offline/", views.ai_service_offline, name="settings_ai_offline"),
    path("settings/ai/<uuid:service_id>/edit/", views.ai_service_edit, name="settings_ai_edit"),
    path(
        "settings/ai/<uuid:service_id>/activate/",
        views.ai_service_activate,
        name="settings_ai_activate",
    ),
    path(
        "settings/ai/<uuid:service_id>/delete/",
        views.ai_service_delete,
        name="settings_ai_delete",
    ),
    path("settings/ai/<uuid:service_id>/test/", views.ai_service_test, name="settings_ai_test"),
    path("settings/preferences/", views.preferences, name="settings_preferences"),
    path("settings/history/clear/", views.clear_history, name="settings_clear_history"),
    path("settings/goals/", views.goals, name="settings_goals"),
]
