"""The exercise catalog and the exercise diary (spec tables)."""

from django.conf import settings
from django.db import models

from sparky.models import (
    CatalogQuerySet,
    DayRow,
    catalog_name_indexes,
    catalog_source_unique,
    created_at_field,
    updated_at_field,
    uuid_key,
)


class Exercise(models.Model):
    id = uuid_key()
    name = models.CharField(max_length=255)
    category = models.CharField(max_length=50, null=True, blank=True)
    calories_per_hour = models.IntegerField(null=True, blank=True)
    description = models.TextField(null=True, blank=True)
    is_custom = models.BooleanField(null=True, default=False, db_default=False)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    created_at = created_at_field(null=True)
    updated_at = updated_at_field(null=True)
    shared_with_public = models.BooleanField(null=True, default=False, db_default=False)
    # Added: a user's share reaches other users only once staff approve it in the admin's curation
    # (sparky.curation.set_shared); until then it is the owner's alone, in lists and search.
    share_approved = models.BooleanField(default=False, db_default=False)
    # Added: metabolic equivalent, so calories burned use the user's weight (MET x kg x hours).
    met = models.DecimalField(max_digits=5, decimal_places=2, null=True, blank=True)
    default_duration_minutes = models.PositiveIntegerField(default=30)
    source = models.CharField(max_length=32, blank=True, default="")
    source_id = models.CharField(max_length=64, blank=True, default="")
    license = models.CharField(max_length=100, blank=True, default="")

    objects = CatalogQuerySet.as_manager()

    class Meta:
        db_table = "exercises"
        constraints = [catalog_source_unique("exercises")]
        indexes = catalog_name_indexes("exercises")

    def __str__(self) -> str:
        return self.name


class ExerciseEntry(DayRow):
    exercise = models.ForeignKey(Exercise, on_delete=models.PROTECT, related_name="entries")
    duration_minutes = models.IntegerField()
    calories_burned = models.IntegerField()
    entry_date = models.DateField(null=True, blank=True)
    notes = models.TextField(null=True, blank=True)
    created_at = created_at_field(null=True)
    # Added: the spec's log_exercise intent carries a distance.
    distance = models.DecimalField(max_digits=8, decimal_places=3, null=True, blank=True)
    distance_unit = models.CharField(max_length=10, null=True, blank=True)

    class Meta:
        db_table = "exercise_entries"
        verbose_name_plural = "exercise entries"
        indexes = [models.Index(fields=["user", "entry_date"], name="exercise_entries_user_date")]

    def __str__(self) -> str:
        return f"{self.duration_minutes} min of {self.exercise_id} on {self.entry_date}"
