"""Entries logged as "2 cooky" (a plural of a word ending in "ie" made singular the wrong way)
read "2 cookie", the unit the household servings are now matched by."""

from django.db import migrations

RENAMED = {"cooky": "cookie", "browny": "brownie", "smoothy": "smoothie", "veggy": "veggie"}


def forwards(apps, schema_editor):
    FoodEntry = apps.get_model("nutrition", "FoodEntry")
    for old, new in RENAMED.items():
        FoodEntry.objects.filter(unit=old).update(unit=new)


def backwards(apps, schema_editor):
    FoodEntry = apps.get_model("nutrition", "FoodEntry")
    for old, new in RENAMED.items():
        FoodEntry.objects.filter(unit=new).update(unit=old)


class Migration(migrations.Migration):
    dependencies = [("nutrition", "0004_search_length_significant_words")]

    operations = [migrations.RunPython(forwards, backwards)]
