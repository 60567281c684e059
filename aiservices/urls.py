"""The settings pages of the user's AI services."""

from django.urls import path

from aiservices import views

urlpatterns = [
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
]
