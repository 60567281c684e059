"""AIServiceSettings now belongs to chat (chat 0002); the table itself is kept."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("sparky", "0002_one_active_ai_service"),
        ("chat", "0002_move_ai_service_settings"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[migrations.DeleteModel(name="AIServiceSettings")],
        ),
    ]
