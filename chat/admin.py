"""Admin: chat history, view-only (a transcript is evidence of what the coach did; staff may
delete messages, e.g. on a user's request, but never rewrite them)."""

import json

from django.contrib import admin
from django.utils.html import format_html

from chat.models import ChatMessage


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    list_display = ("created_at", "user", "message_type", "excerpt", "session_id")
    list_filter = ("message_type", "created_at")
    list_select_related = ("user",)
    search_fields = ("user__email", "content", "=session_id")
    ordering = ("-created_at",)
    show_full_result_count = False
    fields = (
        "user",
        "session_id",
        "message_type",
        "created_at",
        "content",
        "metadata_json",
        "image_url",
        "idempotency_key",
        "message",
        "response",
    )
    readonly_fields = fields

    @admin.display(description="content")
    def excerpt(self, message: ChatMessage) -> str:
        text = " ".join(message.content.split())
        return text if len(text) <= 80 else f"{text[:79]}…"

    @admin.display(description="metadata")
    def metadata_json(self, message: ChatMessage) -> str:
        if not message.metadata:
            return "–"
        return format_html(
            "<pre>{}</pre>", json.dumps(message.metadata, indent=2, ensure_ascii=False)
        )

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
