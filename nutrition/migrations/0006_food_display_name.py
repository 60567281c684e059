"""Foods get the short name people read. Catalog rows already loaded get theirs from their
description (nutrition.names); custom foods keep an empty one, their own name being what they
show. `load_catalog` computes the same names for rows it loads later."""

from django.db import migrations, models

from nutrition.names import short_food_name


def fill_display_names(apps, schema_editor):
    Food = apps.get_model("nutrition", "Food")
    rows = Food.objects.filter(source="usda_sr28").only("id", "name", "original_name")
    changed = []
    for food in rows.iterator(chunk_size=2000):
        food.display_name = short_food_name(food.original_name or food.name)
        changed.append(food)
    Food.objects.bulk_update(changed, ["display_name"], batch_size=2000)


class Migration(migrations.Migration):
    dependencies = [
        ("nutrition", "0005_ie_plural_units"),
    ]

    operations = [
        migrations.AddField(
            model_name="food",
            name="display_name",
            field=models.CharField(blank=True, default="", max_length=255),
        ),
        migrations.RunPython(fill_display_names, migrations.RunPython.noop),
    ]
