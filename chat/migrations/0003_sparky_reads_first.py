"""Sparky reads first: its parser logs what it understands with certainty before the model is
asked. Existing core-profile services (small local models) get it on, as new ones do."""

from django.db import migrations, models


def core_services_read_first(apps, schema_editor):
    AIServiceSettings = apps.get_model("chat", "AIServiceSettings")
    AIServiceSettings.objects.filter(tool_profile="core").update(sparky_reads_first=True)


class Migration(migrations.Migration):
    dependencies = [
        ("chat", "0002_move_ai_service_settings"),
    ]

    operations = [
        migrations.AddField(
            model_name="aiservicesettings",
            name="sparky_reads_first",
            field=models.BooleanField(default=False),
        ),
        migrations.RunPython(core_services_read_first, migrations.RunPython.noop),
    ]
