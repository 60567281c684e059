"""Admin: the users' AI services, without their keys."""

from django.contrib import admin

from aiservices.models import AIServiceSettings


@admin.register(AIServiceSettings)
class AIServiceSettingsAdmin(admin.ModelAdmin):
    """The API key is never shown or editable here: it is ciphertext, entered by its owner in
    Sparky's settings and read only through aiservices.services."""

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
