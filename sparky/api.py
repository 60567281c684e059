"""What every API endpoint shares, and the sparky app's own endpoints.

Shared: one error shape for every failure (`exception_handler`), the token endpoint, the throttle
and pagination classes named once in REST_FRAMEWORK, the date filters of list endpoints, the
schema class that documents the error responses of every operation, and the bases of the apps'
ViewSets (`UserRowsViewSet` and `DomainViewSet` for a user's rows, `CatalogViewSet` for the food
and exercise catalogs).

Endpoints: the daily summary, preferences, and the user's AI services (whose API key is accepted
but never returned: responses say `has_api_key`).

Error shape (every status >= 400):
    {"error": "<code>", "detail": "<what was wrong and what is expected>",
     "fields": {"<field>": ["<message>", ...]}}      # fields: validation errors only
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth import authenticate
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import (
    NON_FIELD_ERRORS,
    ObjectDoesNotExist,
    RequestDataTooBig,
    SuspiciousOperation,
)
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import transaction
from django.db.models import ProtectedError
from django.http import Http404, JsonResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.views import defaults
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
)
from rest_framework import exceptions, mixins, permissions, serializers, status, viewsets
from rest_framework.authtoken.models import Token
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView
from rest_framework.views import exception_handler as drf_exception_handler

from sparky import logins
from sparky.dates import parse_day
from sparky.models import User

# --- errors ----------------------------------------------------------------------------------


class ErrorSerializer(serializers.Serializer):
    """The body of every error response."""

    error = serializers.CharField(help_text="A stable code, e.g. not_found, invalid_date.")
    detail = serializers.CharField(help_text="What was wrong and what is expected.")
    fields = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()),
        required=False,
        help_text="Per-field messages (validation errors only).",
    )


class Conflict(exceptions.APIException):
    status_code = status.HTTP_409_CONFLICT
    default_code = "conflict"
    default_detail = "The request conflicts with the current state of the resource."


def _messages(error: DjangoValidationError) -> list[str]:
    return [str(m) for m in error.messages]


def _django_error(exc: DjangoValidationError) -> Response:
    """A service's ValidationError as a 400: its code and message, per field when it has them."""
    fields: dict[str, list[str]] = {}
    general: list[str] = []
    codes: list[str] = []
    if hasattr(exc, "error_dict"):
        for field, errors in exc.error_dict.items():
            for error in errors:
                codes.append(error.code or "invalid")
                (general if field == NON_FIELD_ERRORS else fields.setdefault(field, [])).extend(
                    _messages(error)
                )
    else:
        for error in exc.error_list:
            codes.append(error.code or "invalid")
            general.extend(_messages(error))
    detail = " ".join(general) or " ".join(m for ms in fields.values() for m in ms)
    body: dict = {"error": codes[0] if codes else "invalid", "detail": detail or "Invalid input."}
    if fields:
        body["fields"] = fields
    return Response(body, status=status.HTTP_400_BAD_REQUEST)


def _flatten(detail) -> list[str]:
    if isinstance(detail, dict):
        return [m for value in detail.values() for m in _flatten(value)]
    if isinstance(detail, list):
        return [m for value in detail for m in _flatten(value)]
    return [str(detail)]


def _first_code(codes) -> str:
    if isinstance(codes, dict):
        codes = list(codes.values())
    if isinstance(codes, list):
        return _first_code(codes[0]) if codes else "invalid"
    return str(codes)


class TooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "too_large"


def _too_large() -> str:
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE / (1024 * 1024)
    return (
        f"The request is larger than {limit:g} MB, the most Sparky accepts. "
        "Send less at once (a photo goes as a file of up to "
        f"{settings.SPARKY_MAX_IMAGE_BYTES / (1024 * 1024):g} MB)."
    )


def exception_handler(exc, context):
    """DRF's handler, plus service errors, in the one error shape of the API."""
    if isinstance(exc, DjangoValidationError):
        return _django_error(exc)
    if isinstance(exc, RequestDataTooBig):
        exc = TooLarge(_too_large())
    elif isinstance(exc, SuspiciousOperation):
        exc = exceptions.ParseError("The request could not be read; check its body and headers.")
    if isinstance(exc, ObjectDoesNotExist | Http404):
        # The same answer for "does not exist" and "belongs to someone else".
        exc = exceptions.NotFound("Not found.")
    elif isinstance(exc, ProtectedError):
        exc = Conflict("This is still in use by other records; delete those first.")
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    data = response.data
    if isinstance(exc, exceptions.ValidationError):
        if isinstance(data, dict):
            fields = {
                k: _flatten(v) for k, v in data.items() if k != api_settings.NON_FIELD_ERRORS_KEY
            }
            general = _flatten(data.get(api_settings.NON_FIELD_ERRORS_KEY, []))
        else:
            fields, general = {}, _flatten(data)
        detail = " ".join(general) or "; ".join(f"{k}: {' '.join(v)}" for k, v in fields.items())
        response.data = {
            "error": _first_code(exc.get_codes()),
            "detail": detail or "Invalid input.",
            "fields": fields,
        }
    else:
        response.data = {
            "error": _first_code(exc.get_codes()) if hasattr(exc, "get_codes") else "error",
            "detail": " ".join(
                _flatten(data.get("detail", data) if isinstance(data, dict) else data)
            ),
        }
    return response


# Outside the API's views (no route matched, a body refused before a view ran, a crash), Django's
# error handlers answer; under /api/ they answer in the same JSON shape (config/urls.py names them).

_NOT_FOUND = "There is no such address in the API; GET /api/ lists the endpoints."
_SERVER_ERROR = "Something went wrong on Sparky's side. Please try again in a moment."


def _is_api(request) -> bool:
    return request.path.startswith("/api/")


def bad_request(request, exception=None):
    if not _is_api(request):
        return defaults.bad_request(request, exception)
    if isinstance(exception, RequestDataTooBig):
        return JsonResponse({"error": "too_large", "detail": _too_large()}, status=413)
    detail = "The request could not be read; check its body and headers."
    return JsonResponse({"error": "bad_request", "detail": detail}, status=400)


def page_not_found(request, exception=None):
    if not _is_api(request):
        return defaults.page_not_found(request, exception)
    return JsonResponse({"error": "not_found", "detail": _NOT_FOUND}, status=404)


def server_error(request):
    if not _is_api(request):
        return defaults.server_error(request)
    return JsonResponse({"error": "server_error", "detail": _SERVER_ERROR}, status=500)


# --- schema ----------------------------------------------------------------------------------

_ERROR_TEXT = {
    "400": "Invalid input: the body says which field and why.",
    "401": "Not authenticated: send `Authorization: Token <key>` or log in.",
    "403": "Authenticated, but this action is not allowed.",
    "404": "No such object among yours (others' objects are never revealed).",
    "409": "Conflicts with existing data.",
    "429": "Too many requests; retry after the number of seconds in Retry-After.",
}


class SparkyAutoSchema(AutoSchema):
    """Documents the error responses every operation can give, in the shared error shape."""

    def get_request_serializer(self):
        # An app's ViewSet reads a write with its own serializer (DomainViewSet).
        write = getattr(self.view, "write_serializer_class", None)
        return (write and write()) or super().get_request_serializer()

    def _get_response_bodies(self, direction="response"):
        responses = super()._get_response_bodies(direction)
        codes = []
        if not all(isinstance(p, permissions.AllowAny) for p in self.view.get_permissions()):
            codes.append("401")
        if self.method in ("POST", "PUT", "PATCH") or (
            self.method == "GET" and getattr(self.view, "documents_filters", False)
        ):
            codes.append("400")
        if "{" in self.path:
            codes.append("404")
        if getattr(self.view, "throttle_scope", None):
            codes.append("429")
        for code in codes:
            if code not in responses:
                responses[code] = self._get_response_for_code(
                    OpenApiResponse(ErrorSerializer, description=_ERROR_TEXT[code]), code
                )
        return responses


ERRORS = {
    code: OpenApiResponse(ErrorSerializer, description=text) for code, text in _ERROR_TEXT.items()
}


# --- throttling ---------------------------------------------------------------


class ScopedThrottle(ScopedRateThrottle):
    """ScopedRateThrottle reading the rates at request time, so a changed setting applies at
    once (DRF's own reads them once, when the class is first imported)."""

    def get_rate(self):
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)

    def get_ident(self, request):
        # The socket's address unless trusted proxies are configured: X-Forwarded-For is the
        # client's to write, so DRF's own reading of it let every guess come from a new address.
        return logins.client_address(request)


def throttle_wait(request, scope: str) -> float | None:
    """None when a request of `scope` (a REST_FRAMEWORK rate) may go ahead now, else how many
    seconds until one may: the API's own throttle and count, for a page's view (the web chat
    and /api/chat/ share one count per user)."""
    throttle = ScopedThrottle()
    view = type("ScopedView", (), {"throttle_scope": scope})()
    if throttle.allow_request(request, view):
        return None
    return throttle.wait() or 60.0


# --- date filters ----------------------------------------------------------------------------

DATE_PARAMETERS = [
    OpenApiParameter("date", OpenApiTypes.DATE, description="Only this day (YYYY-MM-DD)."),
    OpenApiParameter("start", OpenApiTypes.DATE, description="From this day on (inclusive)."),
    OpenApiParameter("end", OpenApiTypes.DATE, description="Up to this day (inclusive)."),
]


def query_date(request, name: str) -> dt.date | None:
    """A date from the query string: YYYY-MM-DD, or 'today'/'yesterday' in the user's time zone.

    Future dates are fine here: they only filter.
    """
    raw = request.query_params.get(name)
    if raw is None or raw.strip() == "":
        return None
    try:
        return dt.date.fromisoformat(raw.strip())
    except ValueError:
        pass
    try:
        return parse_day(request.user, raw)
    except DjangoValidationError:
        raise exceptions.ValidationError(
            {name: [f"{raw[:40]!r} is not a date; use YYYY-MM-DD, 'today' or 'yesterday'."]},
            code="invalid_date",
        ) from None


def filter_dates(request, queryset, *, field: str = "entry_date"):
    """?date= for one day, or ?start= and/or ?end= for a range (both inclusive)."""
    day = query_date(request, "date")
    if day is not None:
        return queryset.filter(**{field: day})
    start, end = query_date(request, "start"), query_date(request, "end")
    if start and end and start > end:
        raise exceptions.ValidationError(
            {"start": [f"start {start} is after end {end}; swap them."]}, code="invalid_range"
        )
    if start:
        queryset = queryset.filter(**{f"{field}__gte": start})
    if end:
        queryset = queryset.filter(**{f"{field}__lte": end})
    return queryset


# --- permissions -----------------------------------------------------------------------------


class OwnerOrReadOnly(permissions.BasePermission):
    """Read what you can see; change only what is yours (catalog and shared rows are read-only).

    Only for objects the user can already see, so the 403 reveals nothing new.
    """

    message = "This is not one of your own; you can read and log it but not change or delete it."

    def has_object_permission(self, request, view, obj):
        return request.method in permissions.SAFE_METHODS or obj.user_id == request.user.pk


# --- the apps' ViewSets ----------------------------------------------------------------------


@dataclass(frozen=True)
class Writes:
    """The service functions that write one model's rows, and the keyword they take a row's id
    by (`entry_id=`). Each takes the acting user as `user=`."""

    create: Callable
    update: Callable
    delete: Callable
    id_name: str


# No docstrings on these classes or the apps' ViewSets: the schema would show them as the
# description of every operation.


class UserRowsViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    # A user's rows of one model, read through `model.objects.for_user` (another user's row is a
    # 404). The subclass writes them with its own actions.
    #
    # A subclass names the `model`, the serializer that shows a row (`serializer_class`) and those
    # a create and an update read (`create_serializer_class`, `update_serializer_class`, read as a
    # partial update; both default to `serializer_class`). `rows()` adds the joins, filters and
    # order of its list.

    model: type
    create_serializer_class: type[serializers.Serializer] | None = None
    update_serializer_class: type[serializers.Serializer] | None = None
    http_method_names = ["get", "post", "patch", "delete", "head", "options"]

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # schema generation: no user
            return self.model.objects.none()
        return self.rows(self.visible())

    def visible(self):
        """The rows the user may read."""
        return self.model.objects.for_user(self.request.user)

    def rows(self, queryset):
        return queryset

    def write_serializer_class(self):
        """What a create or an update reads (the schema documents it as the request's body)."""
        if self.action == "create":
            return self.create_serializer_class or self.get_serializer_class()
        if self.action == "partial_update":
            return self.update_serializer_class or self.get_serializer_class()
        return None

    def given(self) -> dict:
        """The request's body as the action's write serializer reads it (a 400 if invalid); an
        update reads only what is given."""
        given = self.write_serializer_class()(
            data=self.request.data,
            partial=self.action == "partial_update",
            context=self.get_serializer_context(),
        )
        given.is_valid(raise_exception=True)
        return dict(given.validated_data)


class DomainViewSet(UserRowsViewSet):
    # A user's rows, created, changed and deleted through the app's services (`writes`).

    writes: Writes

    def create(self, request, *args, **kwargs):
        values = self.given()
        row = self.writes.create(user=request.user, **values)
        return Response(self.get_serializer(row).data, status=status.HTTP_201_CREATED)

    def partial_update(self, request, *args, **kwargs):
        row = self.get_object()
        values = self.given()
        row = self.writes.update(user=request.user, **{self.writes.id_name: row.pk}, **values)
        return Response(self.get_serializer(row).data)

    def destroy(self, request, *args, **kwargs):
        row = self.get_object()
        self.writes.delete(user=request.user, **{self.writes.id_name: row.pk})
        return Response(status=status.HTTP_204_NO_CONTENT)


class CatalogViewSet(DomainViewSet):
    # A catalog (foods, exercises): every row the user can see, by name, with ?search= for the
    # best matches by the app's `search` service and ?mine=true for only the user's own. Only
    # their own custom rows can be changed or deleted (403 for the others).

    search: Callable  # the app's search service, as a staticmethod
    search_limit = 50
    permission_classes = [*DomainViewSet.permission_classes, OwnerOrReadOnly]
    documents_filters = True

    def mine_only(self) -> bool:
        return self.request.query_params.get("mine", "").lower() in ("1", "true", "yes")

    def visible(self):
        rows = self.model.objects.visible_to(self.request.user)
        if self.mine_only():
            rows = rows.filter(user=self.request.user, is_custom=True)
        return rows

    def rows(self, queryset):
        return queryset.order_by("name", "id")

    def list(self, request, *args, **kwargs):
        query = request.query_params.get("search", "").strip()
        if not query:
            return super().list(request)
        found = self.search(user=request.user, query=query[:200], limit=self.search_limit)
        if self.mine_only():
            found = [row for row in found if row.user_id == request.user.pk]
        page = self.paginate_queryset(found)
        return self.get_paginated_response(self.get_serializer(page, many=True).data)


# --- token endpoint --------------------------------------------------------------------------


class TokenRequestSerializer(serializers.Serializer):
    email = serializers.EmailField()
    password = serializers.CharField(style={"input_type": "password"}, trim_whitespace=False)


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField(help_text="Send as `Authorization: Token <token>`.")
    user_id = serializers.UUIDField()
    email = serializers.EmailField()


@transaction.atomic
def token_issue(*, user: User) -> Token:
    """The user's API token (one per user, created on first request)."""
    token, _ = Token.objects.get_or_create(user=user)
    return token


@transaction.atomic
def token_replace(*, user: User) -> Token:
    """A new API token for the user; the old one (if any) stops working at once."""
    Token.objects.filter(user=user).delete()
    return Token.objects.create(user=user)


@transaction.atomic
def token_revoke(*, user: User) -> bool:
    deleted, _ = Token.objects.filter(user=user).delete()
    return bool(deleted)


class AuthTokenView(APIView):
    """POST email + password for the API token; DELETE revokes it (a new POST makes a new one)."""

    throttle_classes = [ScopedThrottle]
    throttle_scope = "auth"

    def get_permissions(self):
        if self.request is not None and self.request.method == "POST":
            return [permissions.AllowAny()]
        return [permissions.IsAuthenticated()]

    def get_throttles(self):
        # Guessing passwords is what the throttle is for; revoking needs no limit.
        if self.request is not None and self.request.method == "POST":
            return super().get_throttles()
        return []

    @extend_schema(
        summary="Get the API token",
        request=TokenRequestSerializer,
        responses={200: TokenSerializer, 400: ERRORS["400"], 429: ERRORS["429"]},
        auth=[],
        tags=["auth"],
    )
    def post(self, request):
        given = TokenRequestSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        user = authenticate(
            request,
            email=given.validated_data["email"].lower(),
            password=given.validated_data["password"],
        )
        if user is None and logins.is_locked_out(request):
            return Response(
                {"error": "locked_out", "detail": logins.locked_out_message()},
                status=status.HTTP_429_TOO_MANY_REQUESTS,
                headers={"Retry-After": str(round(settings.SPARKY_LOGIN_LOCKOUT_MINUTES * 60))},
            )
        if user is None:
            raise exceptions.ValidationError(
                {api_settings.NON_FIELD_ERRORS_KEY: ["Wrong email or password."]},
                code="invalid_credentials",
            )
        logins.token_issued(request, user)
        token = token_issue(user=user)
        return Response({"token": token.key, "user_id": user.pk, "email": user.email})

    @extend_schema(
        summary="Revoke the API token",
        request=None,
        responses={204: OpenApiResponse(description="Revoked."), 401: ERRORS["401"]},
        tags=["auth"],
    )
    def delete(self, request):
        token_revoke(user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


__all__ = [
    "DATE_PARAMETERS",
    "ERRORS",
    "AuthTokenView",
    "CatalogViewSet",
    "DomainViewSet",
    "UserRowsViewSet",
    "ErrorSerializer",
    "OwnerOrReadOnly",
    "ScopedThrottle",
    "SparkyAutoSchema",
    "Writes",
    "exception_handler",
    "filter_dates",
    "query_date",
]


class ApiIndexView(APIView):
    """GET /api/: where things are. A browser is sent to the interactive docs; a client gets the
    links as JSON. Holds no user data, so it answers without a login (the docs themselves ask)."""

    permission_classes = [permissions.AllowAny]
    links: dict[str, str] = {}  # label -> URL name, given by the URL conf

    @extend_schema(
        summary="Where the docs, the schema and each endpoint are",
        responses={200: OpenApiTypes.OBJECT},
        auth=[],
        tags=["auth"],
    )
    def get(self, request):
        if "text/html" in request.headers.get("Accept", ""):
            return redirect("api-docs")
        urls = {
            label: request.build_absolute_uri(reverse(name)) for label, name in self.links.items()
        }
        return Response(
            {
                "detail": "Sparky API, version 1. Authenticate with a token from auth/token "
                "(Authorization: Token <token>) or a browser session.",
                **urls,
            }
        )


def login_first_for_browsers(view):
    """A docs page opened by a browser without a session goes to the login page and back,
    instead of a 401 in JSON; API clients still get the 401."""

    @functools.wraps(view)
    def wrapped(request, *args, **kwargs):
        wants_page = "text/html" in request.headers.get("Accept", "")
        if wants_page and not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        return view(request, *args, **kwargs)

    return wrapped
