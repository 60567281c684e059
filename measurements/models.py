"""Check-in measurements and user-defined measurement categories (spec tables)."""

from django.db import models
from django.db.models.functions import Now
from django.utils import timezone

from sparky.models import DayRow, UserRow, created_at_field, updated_at_field


class CheckInMeasurement(DayRow):
    """One row per user and day; weight in the user's weight unit, lengths in their length unit.
    Its fields are declared in measurements/words/checkins.toml (measurements.fields)."""

    entry_date = models.DateField(default=timezone.localdate)
    weight = models.DecimalField(max_digits=7, decimal_places=2, null=True, blank=True)
    neck = models.DecimalField(max_digits=7, decimal_places=2, null=True, blank=True)
    waist = models.DecimalField(max_digits=7, decimal_places=2, null=True, blank=True)
    hips = models.DecimalField(max_digits=7, decimal_places=2, null=True, blank=True)
    steps = models.IntegerField(null=True, blank=True)
    # Blood pressure in mmHg.
    systolic = models.SmallIntegerField(null=True, blank=True)
    diastolic = models.SmallIntegerField(null=True, blank=True)
    created_at = created_at_field()
    updated_at = updated_at_field()

    class Meta:
        db_table = "check_in_measurements"
        constraints = [
            models.UniqueConstraint(
                fields=["user", "entry_date"], name="check_in_measurements_user_date_unique"
            )
        ]

    def __str__(self) -> str:
        return f"check-in of {self.user_id} on {self.entry_date}"


class CustomCategory(UserRow):
    class Frequency(models.TextChoices):
        ALL = "All", "Every entry"
        DAILY = "Daily", "Daily"
        HOURLY = "Hourly", "Hourly"
        WEEKLY = "Weekly", "Weekly"
        MONTHLY = "Monthly", "Monthly"

    class MeasurementType(models.TextChoices):
        NUMERIC = "numeric", "Numeric"
        TEXT = "text", "Text"

    name = models.CharField(max_length=50)
    measurement_type = models.CharField(
        max_length=50, choices=MeasurementType.choices, default=MeasurementType.NUMERIC
    )
    frequency = models.TextField(choices=Frequency.choices, default=Frequency.DAILY)
    # Added: the unit the values are recorded in ("mmHg", "hours"), optional.
    unit = models.CharField(max_length=20, blank=True, default="")
    created_at = created_at_field()
    updated_at = updated_at_field()

    class Meta:
        db_table = "custom_categories"
        verbose_name_plural = "custom categories"
        constraints = [
            models.CheckConstraint(
                condition=models.Q(frequency__in=["All", "Daily", "Hourly", "Weekly", "Monthly"]),
                name="custom_categories_frequency_check",
            ),
            models.UniqueConstraint(
                models.functions.Lower("name"), "user", name="custom_categories_user_name_unique"
            ),
        ]

    def __str__(self) -> str:
        return self.name


class CustomMeasurement(DayRow):
    category = models.ForeignKey(
        CustomCategory, on_delete=models.CASCADE, related_name="measurements"
    )
    value = models.DecimalField(max_digits=14, decimal_places=4)
    entry_date = models.DateField()
    entry_hour = models.IntegerField(null=True, blank=True)
    entry_timestamp = models.DateTimeField(default=timezone.now, db_default=Now())
    created_at = created_at_field()

    class Meta:
        db_table = "custom_measurements"
        constraints = [
            models.UniqueConstraint(
                fields=["user", "category", "entry_date", "entry_hour"],
                name="custom_measurements_unique_entry",
            ),
            models.CheckConstraint(
                condition=models.Q(entry_hour__isnull=True)
                | models.Q(entry_hour__gte=0, entry_hour__lte=23),
                name="custom_measurements_entry_hour_range",
            ),
        ]
        indexes = [
            models.Index(
                fields=["user", "category", "entry_date"], name="custom_meas_user_cat_date"
            )
        ]

    def __str__(self) -> str:
        return f"{self.value} on {self.entry_date}"
