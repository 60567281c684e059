"""The coach's part of the settings pages: clearing the chat history (the AI services' pages are
aiservices.views)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from chat.services import history_clear


@login_required
@require_POST
def clear_history(request):
    count = history_clear(user=request.user)
    messages.success(request, f"Deleted {count} chat messages and their photos.")
    return redirect("settings_preferences")
