"""Who is knocking, and how often: the client's address, and the limits on guessing passwords.

- `client_address(request)`: the socket's address, unless SPARKY_TRUSTED_PROXIES says how many
  proxies stand in front; then the address the outermost of them saw. X-Forwarded-For is written
  by whoever sends the request, so it is never read beyond the entries those proxies added.
- Failed logins are counted per account (django-axes, by the email as typed, lower-cased, whether
  or not such an account exists) and per client address, on the login page, the admin's and the
  token endpoint alike: SPARKY_LOGIN_FAILURE_LIMIT failures lock that account (or address) for
  SPARKY_LOGIN_LOCKOUT_MINUTES, the right password included; a successful login clears the
  count.
- Sign-ups are throttled per address (SPARKY_SIGNUP_RATE), so the sign-up form is no faster a
  way to try emails or passwords.
"""

from __future__ import annotations

from axes.handlers.proxy import AxesProxyHandler
from django.conf import settings
from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle


def client_address(request) -> str:
    remote = request.META.get("REMOTE_ADDR", "") or ""
    proxies = settings.SPARKY_TRUSTED_PROXIES
    if not proxies:
        return remote
    forwarded = [
        part.strip()
        for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
        if part.strip()
    ]
    if not forwarded:
        return remote
    # Each trusted proxy appended the address it was reached from: the last `proxies` entries are
    # theirs, and the first of those is the client as the outermost proxy saw it.
    return forwarded[-min(proxies, len(forwarded))]


def login_email(request, credentials: dict | None) -> str:
    """The account a login attempt is for, as django-axes counts it (AXES_USERNAME_CALLABLE)."""
    credentials = credentials or {}
    email = credentials.get("email") or credentials.get("username")
    if email is None:
        data = getattr(request, "data", None) or request.POST
        email = data.get("email") or data.get("username") or ""
    return str(email).strip().lower()


def token_issued(request, user) -> None:
    """A login without a session (the token endpoint) clears the failures as a page login does
    (django-axes hears those from Django's user_logged_in, which would also start a session)."""
    AxesProxyHandler.user_logged_in(sender=None, request=request, user=user)


def locked_out_message() -> str:
    minutes = settings.SPARKY_LOGIN_LOCKOUT_MINUTES
    return (
        "Too many failed logins for this account or from this address. Try again in "
        f"{minutes:g} minute{'s' if minutes != 1 else ''}."
    )


def is_locked_out(request) -> bool:
    """Whether the login just tried was refused (or ended) by the lockout."""
    return bool(getattr(request, "axes_locked_out", False))


class SignupThrottle(SimpleRateThrottle):
    """Sign-up form posts per client address (REST_FRAMEWORK's `signup` rate)."""

    scope = "signup"

    def get_rate(self):
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)

    def get_cache_key(self, request, view):
        return self.cache_format % {"scope": self.scope, "ident": client_address(request)}


def signup_wait(request) -> float | None:
    """None when this sign-up may go ahead, else how many seconds until one may."""
    throttle = SignupThrottle()
    if throttle.allow_request(request, None):
        return None
    return throttle.wait() or 60.0
