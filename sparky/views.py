"""Account pages: log in, sign up, change a password and reset a forgotten one by e-mail.

What a login starts elsewhere (the chat opens a fresh session) hangs on Django's
`user_logged_in` signal, so the core knows nothing of the apps above it.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import authenticate, login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import LoginView, PasswordChangeView
from django.core.exceptions import NON_FIELD_ERRORS
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import reverse_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods
from rest_framework.authtoken.models import Token

from sparky import api, logins, services
from sparky.forms import EmailLoginForm, SignupForm
from sparky.models import User


def _is_fresh_instance() -> bool:
    """No account yet: the first visitor is the person who installed Sparky."""
    return not User.objects.exists()


class EmailLoginView(LoginView):
    """Log in; a fresh instance with no account sends its first visitor to create the owner.
    An account (or address) locked after repeated failures gets the form back with a 429."""

    form_class = EmailLoginForm
    template_name = "registration/login.html"
    redirect_authenticated_user = True

    def get(self, request, *args, **kwargs):
        if not request.user.is_authenticated and _is_fresh_instance():
            return redirect("signup")
        return super().get(request, *args, **kwargs)

    def form_invalid(self, form):
        response = super().form_invalid(form)
        if form.has_error(NON_FIELD_ERRORS, "locked_out"):
            response.status_code = 429
        return response


class SettingsPasswordView(PasswordChangeView):
    """Settings, Password: the current password, then the new one twice. The change ends the
    user's other sessions and revokes the API token (sparky.models.User.save); this page's own
    session stays logged in."""

    template_name = "settings/password.html"
    success_url = reverse_lazy("settings_password")
    extra_context = {"tab": "password"}

    def form_valid(self, form):
        response = super().form_valid(form)
        messages.success(
            self.request,
            "Password changed. Your other sessions are logged out and your API token is "
            "revoked; make a new token for your scripts and MCP clients.",
        )
        return response


# An email that has an account is never confirmed: the same words whatever the reason.
SIGNUP_REFUSED = (
    "No new account can be made with this email and password. If you already have an account, "
    "log in instead; otherwise use another email."
)


def _signup_refused(request, form, owner, message: str, status: int):
    form.add_error(None, message)
    return render(
        request, "registration/signup.html", {"form": form, "owner": owner}, status=status
    )


@require_http_methods(["GET", "POST"])
def signup(request):
    if request.user.is_authenticated:
        return redirect("chat:page")
    owner = _is_fresh_instance()
    form = SignupForm(request.POST or None)
    if request.method == "POST" and (wait := logins.signup_wait(request)):
        form.is_valid()
        minutes = max(1, round(wait / 60))
        message = (
            "Too many sign-ups from this address. Try again in "
            f"{minutes} minute{'s' if minutes != 1 else ''}."
        )
        return _signup_refused(request, form, owner, message, 429)
    if request.method == "POST" and form.is_valid():
        email, password = form.cleaned_data["email"], form.cleaned_data["password1"]
        if User.objects.filter(email__iexact=email).exists():
            # Its owner, having forgotten they signed up, is logged in; anyone else is counted
            # as a failed login for that account, and told nothing about it.
            user = authenticate(request, username=email, password=password)
            if user is None:
                locked = logins.is_locked_out(request)
                message = logins.locked_out_message() if locked else SIGNUP_REFUSED
                return _signup_refused(request, form, owner, message, 429 if locked else 200)
            login(request, user)
            return redirect("chat:page")
        user = services.account_create(email=email, password=password)
        if form.cleaned_data.get("time_zone"):
            services.preferences_update(user=user, time_zone=form.cleaned_data["time_zone"])
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, "Welcome to Sparky! Tell the coach what you ate or did today.")
        return redirect("chat:page")
    return render(request, "registration/signup.html", {"form": form, "owner": owner})


def favicon(request):
    """/favicon.ico, which browsers ask for whatever the page links: Sparky's icon, not a 404
    in the log."""
    return redirect(static("img/sparky.svg"), permanent=True)


_NEW_TOKEN = "new_api_token"


@login_required
@never_cache
@require_http_methods(["GET", "POST"])
def api_token(request):
    """Settings: the API token (also MCP's). A new token is shown once, on the page the making
    redirects to (post, redirect, get): a reload of that page shows it no more and never makes
    another one; revoking it stops every client that uses it."""
    if request.method == "POST" and request.POST.get("action") == "revoke":
        if api.token_revoke(user=request.user):
            messages.success(request, "API token revoked: clients using it are signed out.")
        return redirect("settings_api_token")
    if request.method == "POST":
        # kept in the server-side session until the next page shows it, then dropped
        request.session[_NEW_TOKEN] = api.token_replace(user=request.user).key
        return redirect("settings_api_token")
    new_token = request.session.pop(_NEW_TOKEN, None)
    token = Token.objects.filter(user=request.user).only("key", "created").first()
    if token is None or token.key != new_token:
        new_token = None  # revoked or replaced elsewhere meanwhile: nothing to show
    context = {"tab": "api", "has_token": token is not None, "new_token": new_token}
    context["created"] = token.created if token else None
    return render(request, "settings/api_token.html", context)
