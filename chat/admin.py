"""Admin: chat history, view-only (a transcript is evidence of what the coach did; staff may
delete messages, e.g. on a user's request, but never rewrite them), and AI services without their
keys."""

import json

from django.contrib import admin
from django.utils.html import format_html

from chat.models import AIServiceSettings, ChatMessage


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


@admin.register(AIServiceSettings)
class AIServiceSettingsAdmin(admin.ModelAdmin):
    """The API key is never shown or editable here: it is ciphertext, entered by its owner in
    Sparky's settings and read only through sparky.services."""

    exclude = ("api_key",)
    list_display = (
        "service_name",
        "user",
        "service_type",
        "model_name",
        "tool_profile",
        "supports_tools",
        "sparky_reads_first",
        "is_active",
        "key_set",
        "updated_at",
    )
    list_filter = ("service_type", "tool_profile", "is_active", "supports_tools")
    list_select_related = ("user",)
    search_fields = ("service_name", "model_name", "user__email")
    autocomplete_fields = ("user",)
    readonly_fields = ("key_set", "created_at", "updated_at")

    @admin.display(boolean=True, description="API key set")
    def key_set(self, obj: AIServiceSettings) -> bool:
        return obj.has_api_key

    def has_add_permission(self, request) -> bool:
        # A service needs an encrypted key, which only the owner's settings page can take.
        return False
