"""Imports of a user's data from other trackers' export files and from Sparky's own export.

Not tables of the spec: Sparky's own. An ImportJob is one uploaded file, from its preview to the
end of its background run; an ImportedRow remembers each row an import wrote, by a key stable
across uploads of the same file, so importing it again adds nothing.
"""

from django.db import models

from sparky.models import UserRow, created_at_field, updated_at_field


class ImportJob(UserRow):
    class Source(models.TextChoices):
        MYFITNESSPAL = "myfitnesspal", "MyFitnessPal"
        CRONOMETER = "cronometer", "Cronometer"
        LOSEIT = "loseit", "Lose It!"
        SPARKY = "sparky", "Sparky"

    class Status(models.TextChoices):
        PREVIEW = "preview", "Waiting for your confirmation"
        QUEUED = "queued", "Waiting to start"
        RUNNING = "running", "Importing"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    source = models.CharField(max_length=20, choices=Source.choices)
    filename = models.CharField(max_length=255, blank=True, default="")
    # The file's text, read again by the background run (parsing is deterministic).
    content = models.TextField()
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.PREVIEW)
    # {"counts": {kind: n}, "skipped": {kind: n}, "rows": [first rows], "errors": [...]}
    preview = models.JSONField(default=dict, blank=True)
    total = models.PositiveIntegerField(default=0)
    done = models.PositiveIntegerField(default=0)
    # {kind: n} of what the run wrote
    created = models.JSONField(default=dict, blank=True)
    error = models.TextField(blank=True, default="")
    created_at = created_at_field()
    updated_at = updated_at_field()

    class Meta:
        db_table = "import_jobs"
        indexes = [models.Index(fields=["user", "created_at"], name="import_jobs_user_created")]

    def __str__(self) -> str:
        return f"{self.source} import of {self.user_id} ({self.status})"

    @property
    def percent(self) -> int:
        if self.status == self.Status.DONE:
            return 100
        return int(self.done * 100 / self.total) if self.total else 0


class ImportedRow(UserRow):
    """A row of an import file that was written, by its key: the same row of the same file,
    uploaded again, is skipped."""

    key = models.CharField(max_length=120)
    kind = models.CharField(max_length=40)
    # What it became (a food entry, a check-in...); a plain id, the row is the domain's.
    object_id = models.UUIDField(null=True, blank=True)
    job_id = models.UUIDField()
    created_at = created_at_field()

    class Meta:
        db_table = "imported_rows"
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="imported_rows_user_key")
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.key}"
