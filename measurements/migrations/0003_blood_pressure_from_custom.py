"""Blood pressures logged before it was a check-in move into the check-in.

The offline parser used to keep "bp 120/80" as two custom measurements, "Blood pressure systolic"
and "Blood pressure diastolic". A date with one value in either is moved into that day's check-in
(systolic, diastolic) when it is a plausible reading and the check-in has none yet; the custom
values moved are deleted, and a category left empty with them. Anything else (several values on a
date, an implausible one, a day whose check-in already has a blood pressure) stays where it is.

The ranges are the ones measurements/words/checkins.toml declared when this was written: a
migration keeps its own copy, so a later change of the spec does not change what it did.
"""

from collections import defaultdict
from decimal import Decimal

from django.db import migrations
from django.db.models import Count
from django.db.models.functions import Lower

FIELDS = {"blood pressure systolic": "systolic", "blood pressure diastolic": "diastolic"}
RANGES = {"systolic": (60, 260), "diastolic": (30, 160)}


def _plausible(values: dict[str, Decimal]) -> bool:
    for field, value in values.items():
        low, high = RANGES[field]
        if value != value.to_integral_value() or not low <= value <= high:
            return False
    return len(values) < 2 or values["systolic"] > values["diastolic"]


def move_blood_pressures(apps, schema_editor):
    CheckIn = apps.get_model("measurements", "CheckInMeasurement")
    Category = apps.get_model("measurements", "CustomCategory")
    Measurement = apps.get_model("measurements", "CustomMeasurement")
    categories = Category.objects.alias(lname=Lower("name")).filter(lname__in=list(FIELDS))
    if not categories.exists():
        return
    field_of = {category.pk: FIELDS[category.name.lower()] for category in categories}
    alone = (
        Measurement.objects.filter(category__in=categories)
        .values("category", "entry_date")
        .annotate(n=Count("id"))
        .filter(n=1)
        .values_list("category", "entry_date")
    )
    single = set(alone)
    days: dict[tuple, dict] = defaultdict(dict)  # (user, date) -> {field: measurement}
    for row in Measurement.objects.filter(category__in=categories).order_by("pk"):
        if (row.category_id, row.entry_date) in single:
            days[(row.user_id, row.entry_date)][field_of[row.category_id]] = row
    for (user_id, day), rows in days.items():
        values = {field: row.value for field, row in rows.items()}
        if not _plausible(values):
            continue
        checkin, _ = CheckIn.objects.get_or_create(user_id=user_id, entry_date=day)
        if checkin.systolic is not None or checkin.diastolic is not None:
            continue
        for field, value in values.items():
            setattr(checkin, field, int(value))
        checkin.save(update_fields=[*values, "updated_at"])
        Measurement.objects.filter(pk__in=[row.pk for row in rows.values()]).delete()
    categories.filter(measurements__isnull=True).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("measurements", "0002_checkin_blood_pressure"),
    ]

    operations = [
        migrations.RunPython(move_blood_pressures, migrations.RunPython.noop, elidable=True),
    ]
