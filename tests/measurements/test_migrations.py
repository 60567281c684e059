"""measurements 0003: blood pressures kept as custom measurements before blood pressure was a
check-in move into the day's check-in, where they are plausible and the day has none yet."""

import datetime as dt

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from measurements.models import CheckInMeasurement, CustomCategory, CustomMeasurement

BEFORE = ("measurements", "0002_checkin_blood_pressure")
DAY = dt.date(2026, 11, 20)


@pytest.mark.django_db(transaction=True)
def test_custom_blood_pressures_move_into_the_check_in(alice, bob):
    executor = MigrationExecutor(connection)
    executor.migrate([BEFORE])
    old = executor.loader.project_state(BEFORE).apps
    Category = old.get_model("measurements", "CustomCategory")
    Value = old.get_model("measurements", "CustomMeasurement")

    def logged(user, name, *values):
        category = Category.objects.create(user_id=user.pk, name=name, unit="mmHg")
        for days_ago, value in values:
            Value.objects.create(
                user_id=user.pk,
                category=category,
                value=value,
                entry_date=DAY - dt.timedelta(days=days_ago),
            )

    logged(alice, "Blood pressure systolic", (0, 121), (1, 400))
    logged(alice, "Blood pressure diastolic", (0, 79), (1, 80))
    logged(bob, "Blood pressure systolic", (0, 70))
    logged(bob, "Blood pressure diastolic", (0, 110))  # lower than the diastolic: stays

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    moved = CheckInMeasurement.objects.for_user(alice).get()
    assert (moved.entry_date, moved.systolic, moved.diastolic) == (DAY, 121, 79)
    left = CustomMeasurement.objects.for_user(alice).order_by("category__name")
    assert [(m.category.name, m.value) for m in left] == [
        ("Blood pressure diastolic", 80),
        ("Blood pressure systolic", 400),
    ]
    assert not CheckInMeasurement.objects.for_user(bob).exists()
    assert CustomCategory.objects.for_user(bob).count() == 2
