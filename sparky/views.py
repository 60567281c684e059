"""Account pages: log in and sign up.

What a login starts elsewhere (the chat opens a fresh session) hangs on Django's
`user_logged_in` signal, so the core knows nothing of the apps above it.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.views import LoginView
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from sparky import services
from sparky.forms import EmailLoginForm, SignupForm
from sparky.models import User


def _is_fresh_instance() -> bool:
    """No account yet: the first visitor is the person who installed Sparky."""
    return not User.objects.exists()


class EmailLoginView(LoginView):
    """Log in; a fresh instance with no account sends its first visitor to create the owner."""

    form_class = EmailLoginForm
    template_name = "registration/login.html"
    redirect_authenticated_user = True

    def get(self, request, *args, **kwargs):
        if not request.user.is_authenticated and _is_fresh_instance():
            return redirect("signup")
        return super().get(request, *args, **kwargs)


@require_http_methods(["GET", "POST"])
def signup(request):
    if request.user.is_authenticated:
        return redirect("chat:page")
    owner = _is_fresh_instance()
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = services.account_create(
            email=form.cleaned_data["email"], password=form.cleaned_data["password1"]
        )
        if form.cleaned_data.get("time_zone"):
            services.preferences_update(user=user, time_zone=form.cleaned_data["time_zone"])
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, "Welcome to Sparky! Tell the coach what you ate or did today.")
        return redirect("chat:page")
    return render(request, "registration/signup.html", {"form": form, "owner": owner})
