"""The coach's settings pages: the user's AI services (add, edit, test, activate) and clearing
the chat history. Thin views over chat.services and the LLM gateway."""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from chat import llm, services
from chat.forms import AIServiceForm
from chat.models import AIServiceSettings
from chat.services import history_clear
from sparky.forms import attach_service_error


def _own_service(request, service_id) -> AIServiceSettings:
    return get_object_or_404(AIServiceSettings.objects.for_user(request.user), pk=service_id)


@login_required
def settings_index(request):
    return redirect("settings_ai")


@login_required
def ai_services(request):
    rows = AIServiceSettings.objects.for_user(request.user).order_by("-is_active", "service_name")
    return render(
        request,
        "settings/ai_list.html",
        {"services": rows, "active": services.active_ai_service(request.user), "tab": "ai"},
    )


@login_required
@require_http_methods(["GET", "POST"])
def ai_service_add(request):
    form = AIServiceForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        values = form.service_values()
        try:
            service = services.ai_service_create(user=request.user, **values)
        except ValidationError as exc:
            attach_service_error(form, exc)
        else:
            messages.success(request, f"Added {service.service_name}.")
            return redirect("settings_ai")
    return render(request, "settings/ai_form.html", {"form": form, "service": None, "tab": "ai"})


@login_required
@require_http_methods(["GET", "POST"])
def ai_service_edit(request, service_id: uuid.UUID):
    service = _own_service(request, service_id)
    initial = {
        name: getattr(service, name)
        for name in AIServiceForm.base_fields
        if name != "api_key" and hasattr(service, name)
    }
    form = AIServiceForm(request.POST or None, initial=initial, key_set=service.has_api_key)
    if request.method == "POST" and form.is_valid():
        values = form.service_values()
        if not values.get("api_key"):
            values.pop("api_key", None)  # blank keeps the stored key
        try:
            services.ai_service_update(user=request.user, service_id=service.id, **values)
        except ValidationError as exc:
            attach_service_error(form, exc)
        else:
            messages.success(request, f"Saved {values['service_name']}.")
            return redirect("settings_ai")
    return render(request, "settings/ai_form.html", {"form": form, "service": service, "tab": "ai"})


@login_required
@require_POST
def ai_service_activate(request, service_id: uuid.UUID):
    service = _own_service(request, service_id)
    services.ai_service_activate(user=request.user, service_id=service.id)
    messages.success(request, f"Sparky now uses {service.service_name}.")
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
    messages.success(request, f"Deleted {name}.")
    return redirect("settings_ai")


@login_required
@require_POST
def ai_service_test(request, service_id: uuid.UUID):
    service = _own_service(request, service_id)
    try:
        ok, text = llm.test_connection(llm.config_for(service, request.user))
    except llm.LLMError as exc:
        ok, text = False, str(exc)
    context = {"service": service, "ok": ok, "text": text}
    if request.htmx:
        return render(request, "settings/ai_list.html#test-result", context)
    (messages.success if ok else messages.error)(request, f"{service.service_name}: {text}")
    return redirect("settings_ai")


@login_required
@require_POST
def clear_history(request):
    count = history_clear(user=request.user)
    messages.success(request, f"Deleted {count} chat messages and their photos.")
    return redirect("settings_preferences")
