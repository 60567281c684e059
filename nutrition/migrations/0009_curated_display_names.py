"""Catalog foods get the names people use: the curated table (nutrition/words/display_names.toml)
for the most-logged foods, the improved rules (nutrition.names) for the rest: "Bananas, raw" ->
"Banana", "Beverages, carbonated, low calorie, cola or pepper-type, ..." -> "Diet cola".

Only catalog rows (SR28 and FNDDS) change; custom foods keep their own name. `load_catalog`
derives the same names for rows it loads or reloads later."""

from django.db import migrations

from nutrition.names import catalog_display_name

SR28, FNDDS = "usda_sr28", "usda_fndds"


def fill_display_names(apps, schema_editor):
    Food = apps.get_model("nutrition", "Food")
    rows = Food.objects.filter(source__in=(SR28, FNDDS)).only(
        "id", "source", "name", "original_name", "display_name", "food_group"
    )
    changed = []
    for food in rows.iterator(chunk_size=2000):
        # SR28's rules read the original description; FNDDS's its readable name (as the loaders do).
        shown = catalog_display_name(
            food.original_name or food.name,
            name=food.name if food.source == FNDDS else "",
            food_group=food.food_group,
        )[:255]
        if shown != food.display_name:
            food.display_name = shown
            changed.append(food)
    Food.objects.bulk_update(changed, ["display_name"], batch_size=2000)


class Migration(migrations.Migration):
    dependencies = [
        ("nutrition", "0008_share_approval"),
    ]

    operations = [
        migrations.RunPython(fill_display_names, migrations.RunPython.noop),
    ]
