"""AIServiceSettings now belongs to aiservices (aiservices 0001); the table itself is kept."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("chat", "0003_sparky_reads_first"),
        ("aiservices", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[migrations.DeleteModel(name="AIServiceSettings")],
        ),
    ]
