"""The user's AI services (the spec's ai_service_settings table)."""

from django.db import models

from sparky.models import User, UserRowsQuerySet, created_at_field, updated_at_field, uuid_key


class AIServiceSettingsQuerySet(UserRowsQuerySet):
    def active(self):
        return self.filter(is_active=True)


class AIServiceSettings(models.Model):
    class ServiceType(models.TextChoices):
        OPENAI = "openai", "OpenAI"
        ANTHROPIC = "anthropic", "Anthropic"
        GOOGLE = "google", "Google Gemini"
        OLLAMA = "ollama", "Ollama"
        OPENROUTER = "openrouter", "OpenRouter"
        MISTRAL = "mistral", "Mistral"
        GROQ = "groq", "Groq"
        CUSTOM = "custom", "OpenAI-compatible (custom URL)"

    class ToolProfile(models.TextChoices):
        FULL = "full", "Full (every tool, for capable cloud models)"
        CORE = "core", "Core (essential logging tools, for small local models)"

    id = uuid_key()
    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="ai_services")
    service_name = models.CharField(max_length=255)
    service_type = models.CharField(max_length=50, choices=ServiceType.choices)
    # Ciphertext only (sparky.crypto); the plain key is never stored, rendered or logged.
    api_key = models.TextField()
    is_active = models.BooleanField(default=True, db_default=True)
    model_name = models.CharField(max_length=255, null=True, blank=True)
    system_prompt = models.TextField(null=True, blank=True)
    custom_url = models.TextField(null=True, blank=True)
    # Added: which tool set the coach sends, and whether the model can call tools at all.
    tool_profile = models.CharField(
        max_length=10, choices=ToolProfile.choices, default=ToolProfile.FULL
    )
    supports_tools = models.BooleanField(default=True)
    # Sparky's own parser logs what it reads with certainty ("2 eggs for breakfast") before the
    # model is asked; the model gets the rest. The default for the core profile (small models).
    sparky_reads_first = models.BooleanField(default=False)
    created_at = created_at_field()
    updated_at = updated_at_field()

    objects = AIServiceSettingsQuerySet.as_manager()

    class Meta:
        db_table = "ai_service_settings"
        verbose_name = "AI service setting"
        constraints = [
            models.CheckConstraint(
                condition=models.Q(tool_profile__in=["full", "core"]),
                name="ai_service_settings_tool_profile_check",
            ),
            # Added: the coach uses one service per user, so at most one may be active.
            models.UniqueConstraint(
                fields=["user"],
                condition=models.Q(is_active=True),
                name="ai_service_settings_one_active",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.service_name} ({self.service_type})"

    @property
    def has_api_key(self) -> bool:
        return bool(self.api_key)
