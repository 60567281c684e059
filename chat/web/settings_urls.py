"""The coach's part of the settings pages: the chat history."""

from django.urls import path

from chat.web import settings_views as views

urlpatterns = [
    path("settings/history/clear/", views.clear_history, name="settings_clear_history"),
]
