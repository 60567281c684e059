"""Account pages, and the icon browsers ask for."""

from django.contrib.auth.views import LogoutView
from django.urls import path

from sparky import views

urlpatterns = [
    path("accounts/signup/", views.signup, name="signup"),
    path("accounts/login/", views.EmailLoginView.as_view(), name="login"),
    path("accounts/logout/", LogoutView.as_view(), name="logout"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("settings/api-token/", views.api_token, name="settings_api_token"),
]
