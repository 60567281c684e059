"""AIServiceSettings moves from chat to aiservices, the app of AI services below chat. The table
stays as it is: only Django's record of which app owns it changes (chat 0004 drops it from chat's
state), and the model's content type goes with it, so permissions given on it are kept."""

import uuid

import django.contrib.postgres.functions
import django.db.models.deletion
import django.db.models.functions.datetime
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


def move_content_type(apps, schema_editor, source="chat", target="aiservices"):
    ContentType = apps.get_model("contenttypes", "ContentType")
    db = schema_editor.connection.alias
    if ContentType.objects.using(db).filter(app_label=target, model="aiservicesettings").exists():
        return
    ContentType.objects.using(db).filter(app_label=source, model="aiservicesettings").update(
        app_label=target
    )


def move_content_type_back(apps, schema_editor):
    move_content_type(apps, schema_editor, source="aiservices", target="chat")


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("chat", "0003_sparky_reads_first"),
        ("contenttypes", "0002_remove_content_type_name"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.CreateModel(
                    name="AIServiceSettings",
                    fields=[
                        (
                            "id",
                            models.UUIDField(
                                db_default=django.contrib.postgres.functions.RandomUUID(),
                                default=uuid.uuid4,
                                editable=False,
                                primary_key=True,
                                serialize=False,
                            ),
                        ),
                        ("service_name", models.CharField(max_length=255)),
                        (
                            "service_type",
                            models.CharField(
                                choices=[
                                    ("openai", "OpenAI"),
                                    ("anthropic", "Anthropic"),
                                    ("google", "Google Gemini"),
                                    ("ollama", "Ollama"),
                                    ("openrouter", "OpenRouter"),
                                    ("mistral", "Mistral"),
                                    ("groq", "Groq"),
                                    ("custom", "OpenAI-compatible (custom URL)"),
                                ],
                                max_length=50,
                            ),
                        ),
                        ("api_key", models.TextField()),
                        ("is_active", models.BooleanField(db_default=True, default=True)),
                        ("model_name", models.CharField(blank=True, max_length=255, null=True)),
                        ("system_prompt", models.TextField(blank=True, null=True)),
                        ("custom_url", models.TextField(blank=True, null=True)),
                        (
                            "tool_profile",
                            models.CharField(
                                choices=[
                                    ("full", "Full (every tool, for capable cloud models)"),
                                    (
                                        "core",
                                        "Core (essential logging tools, for small local models)",
                                    ),
                                ],
                                default="full",
                                max_length=10,
                            ),
                        ),
                        ("supports_tools", models.BooleanField(default=True)),
                        ("sparky_reads_first", models.BooleanField(default=False)),
                        (
                            "created_at",
                            models.DateTimeField(
                                db_default=django.db.models.functions.datetime.Now(),
                                default=django.utils.timezone.now,
                            ),
                        ),
                        (
                            "updated_at",
                            models.DateTimeField(
                                auto_now=True, db_default=django.db.models.functions.datetime.Now()
                            ),
                        ),
                        (
                            "user",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="ai_services",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "verbose_name": "AI service setting",
                        "db_table": "ai_service_settings",
                        "constraints": [
                            models.CheckConstraint(
                                condition=models.Q(("tool_profile__in", ["full", "core"])),
                                name="ai_service_settings_tool_profile_check",
                            ),
                            models.UniqueConstraint(
                                condition=models.Q(("is_active", True)),
                                fields=("user",),
                                name="ai_service_settings_one_active",
                            ),
                        ],
                    },
                ),
            ],
        ),
        migrations.RunPython(move_content_type, move_content_type_back),
    ]
