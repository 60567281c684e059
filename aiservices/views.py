"""The settings pages of the user's AI services (add, edit, test, activate). Thin views over
aiservices.services and the LLM gateway.

A service is made active only once it passes a connection test, or when the user insists
("Use it anyway"): a failed test is remembered in the session for the list page, which shows the
cause beside the service, with that button.
"""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRefresh

from aiservices import llm, services
from aiservices.forms import AIServiceForm
from aiservices.models import AIServiceSettings
from aiservices.services import ServiceTestFailed
from sparky.forms import attach_service_error

FAILED_TESTS = "ai_service_failed_tests"  # session key: service id -> what the test found
# Session key: ids of services the user asked to use once they pass ("use it once it passes"),
# that failed their first test: the next passing test makes them active.
WANTED = "ai_service_wanted"


def _own_service(request, service_id) -> AIServiceSettings:
    return get_object_or_404(AIServiceSettings.objects.for_user(request.user), pk=service_id)


def _remember_failure(request, service, message: str | None) -> None:
    failed = dict(request.session.get(FAILED_TESTS) or {})
    if message is None:
        failed.pop(str(service.id), None)
    else:
        failed[str(service.id)] = message
    request.session[FAILED_TESTS] = failed


def _remember_wish(request, service, wanted: bool) -> None:
    ids = set(request.session.get(WANTED) or [])
    (ids.add if wanted else ids.discard)(str(service.id))
    request.session[WANTED] = sorted(ids)


def _in_use(user) -> str:
    active = services.active_ai_service(user)
    return active.service_name if active else "the built-in offline parser"


def _activate(request, service, *, insist: bool = False) -> bool:
    """Test the service and make it active when it passes (or at once when the user insists);
    tell the user either way. Returns whether it is active now."""
    tested = None if insist else llm.test_service(service, request.user)
    try:
        services.ai_service_activate(
            user=request.user, service_id=service.id, tested=tested, insist=insist
        )
    except ServiceTestFailed as failed:
        _remember_failure(request, service, failed.result.message)
        _remember_wish(request, service, True)
        messages.error(
            request,
            f"{service.service_name} did not pass the connection test, so Sparky keeps using "
            f"{_in_use(request.user)}. The cause is shown beside it below.",
        )
        return False
    _remember_failure(request, service, None)
    _remember_wish(request, service, False)
    if insist:
        messages.success(request, f"Sparky now uses {service.service_name} (untested).")
    else:
        messages.success(
            request, f"{service.service_name} passed the connection test: Sparky now uses it."
        )
    return True


@login_required
def settings_index(request):
    return redirect("settings_ai")


@login_required
def ai_services(request):
    rows = list(
        AIServiceSettings.objects.for_user(request.user).order_by("-is_active", "service_name")
    )
    failed = request.session.get(FAILED_TESTS) or {}
    for row in rows:
        row.failed_test = None if row.is_active else failed.get(str(row.id))
    return render(
        request,
        "settings/ai_list.html",
        {"services": rows, "active": services.active_ai_service(request.user), "tab": "ai"},
    )


@login_required
@require_http_methods(["GET", "POST"])
def ai_service_add(request):
    form = AIServiceForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        values = form.service_values()
        wanted = values.pop("is_active")
        try:
            service = services.ai_service_create(user=request.user, **values)
        except ValidationError as exc:
            attach_service_error(form, exc)
        else:
            if wanted:
                _activate(request, service)  # its note names the service: no "Added" as well
            else:
                messages.info(request, f"Added {service.service_name}.")
            return redirect("settings_ai")
    if form.is_bound:
        form.keep_typed_key()
    return render(request, "settings/ai_form.html", {"form": form, "service": None, "tab": "ai"})


@login_required
@require_http_methods(["GET", "POST"])
def ai_service_edit(request, service_id: uuid.UUID):
    service = _own_service(request, service_id)
    initial = {
        name: getattr(service, name)
        for name in AIServiceForm.base_fields
        if name not in ("api_key", "kept_key") and hasattr(service, name)
    }
    form = AIServiceForm(
        request.POST or None, initial=initial, key_set=service.has_api_key, user=request.user
    )
    if request.method == "POST" and form.is_valid():
        values = form.service_values()
        if not values.get("api_key"):
            values.pop("api_key", None)  # blank keeps the stored key
        wanted = values.pop("is_active")
        if not wanted:
            values["is_active"] = False
        try:
            service = services.ai_service_update(user=request.user, service_id=service.id, **values)
        except ValidationError as exc:
            attach_service_error(form, exc)
        else:
            messages.success(request, f"Saved {service.service_name}.")
            if wanted and not service.is_active:
                _activate(request, service)
            return redirect("settings_ai")
    if form.is_bound:
        form.keep_typed_key()
    return render(request, "settings/ai_form.html", {"form": form, "service": service, "tab": "ai"})


@login_required
@require_POST
def ai_service_activate(request, service_id: uuid.UUID):
    service = _own_service(request, service_id)
    _activate(request, service, insist=request.POST.get("insist") == "1")
    return redirect("settings_ai")


@login_required
@require_POST
def ai_service_offline(request):
    services.ai_service_deactivate(user=request.user)
    messages.success(request, "Sparky now uses its built-in offline model.")
    return redirect("settings_ai")


@login_required
@require_POST
def ai_service_delete(request, service_id: uuid.UUID):
    service = _own_service(request, service_id)
    name = service.service_name
    services.ai_service_delete(user=request.user, service_id=service.id)
    _remember_failure(request, service, None)
    _remember_wish(request, service, False)
    messages.success(request, f"Deleted {name}.")
    return redirect("settings_ai")


@login_required
@require_POST
def ai_service_test(request, service_id: uuid.UUID):
    service = _own_service(request, service_id)
    result = llm.test_service(service, request.user)
    _remember_failure(request, service, None if result.ok else result.message)
    wanted = str(service.id) in (request.session.get(WANTED) or [])
    if result.ok and wanted and not service.is_active:
        # Saved with "use it once it passes": this pass is the one it waited for.
        services.ai_service_activate(user=request.user, service_id=service.id, tested=result)
        _remember_wish(request, service, False)
        messages.success(
            request, f"{service.service_name} passed the connection test: Sparky now uses it."
        )
        return HttpResponseClientRefresh() if request.htmx else redirect("settings_ai")
    context = {"s": service, "ok": result.ok, "text": result.message}
    if request.htmx:
        return render(request, "settings/ai_list.html#test-result", context)
    (messages.success if result.ok else messages.error)(
        request, f"{service.service_name}: {result.message}"
    )
    return redirect("settings_ai")
