"""Account pages, and the icon browsers ask for."""

from django.contrib.auth import views as auth_views
from django.urls import path

from sparky import views

urlpatterns = [
    path("accounts/signup/", views.signup, name="signup"),
    path("accounts/login/", views.EmailLoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    # A forgotten password: an e-mail with a link of one use (Django's reset views and tokens).
    path(
        "accounts/password-reset/",
        auth_views.PasswordResetView.as_view(
            email_template_name="registration/password_reset_email.txt",
            subject_template_name="registration/password_reset_subject.txt",
        ),
        name="password_reset",
    ),
    path(
        "accounts/password-reset/sent/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "accounts/password-reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "accounts/password-reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    path("settings/password/", views.SettingsPasswordView.as_view(), name="settings_password"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("settings/api-token/", views.api_token, name="settings_api_token"),
]
