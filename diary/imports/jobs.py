"""An import from upload to done: preview, confirm, then one background run in one transaction.

    job = import_preview(user=alice, filename="servings.csv", content=data)  # nothing written
    job.preview   # {"counts": {...}, "already": {...}, "rows": [first rows], "errors": [...]}
    import_confirm(user=alice, job_id=job.id)   # queues import_run_task once the job is saved
    # the worker: import_run(...) writes every new row, or nothing at all, and says why

A row's key (diary.imports.rows) is the same on every upload of the file: a row imported before
is skipped, so importing a file twice adds nothing. While the run's transaction is open, its
progress is written on a connection of its own, so the page polling the job sees it move.
"""

from __future__ import annotations

import contextlib
import logging

from celery import shared_task
from django.core.exceptions import ObjectDoesNotExist, ValidationError
from django.db import DEFAULT_DB_ALIAS, connections, transaction
from kombu.exceptions import OperationalError as KombuOperationalError

from diary.imports import formats
from diary.imports.rows import KINDS, Parsed, kind_label
from diary.imports.writers import Writer, already_yours
from diary.models import ImportedRow, ImportJob
from sparky.dates import today_for
from sparky.models import User
from sparky.services import uuid_pk

logger = logging.getLogger(__name__)

MAX_BYTES = 10 * 1024 * 1024  # also the upload's limit as it streams in (sparky.uploads)
MAX_ROWS = 50_000
PREVIEW_ROWS = 10
PREVIEW_ERRORS = 50
# The run writes its progress about this many times.
PROGRESS_STEPS = 50


def _skipped(user, parsed: Parsed) -> dict[str, object]:
    """{key: id or None} of the file's rows written before (by an earlier import of it, or the
    user's own rows already)."""
    keys = [row.key for row in parsed.rows]
    done = dict(
        ImportedRow.objects.for_user(user).filter(key__in=keys).values_list("key", "object_id")
    )
    done.update(already_yours(user=user, rows=parsed.rows))  # a Sparky export's rows
    return done


def _summary(parsed: Parsed, skipped: dict) -> dict:
    counts: dict[str, int] = {}
    already: dict[str, int] = {}
    for row in parsed.rows:
        tally = already if row.key in skipped else counts
        tally[row.kind] = tally.get(row.kind, 0) + 1
    new_rows = [row for row in parsed.rows if row.key not in skipped]
    return {
        "counts": {kind: counts[kind] for kind in KINDS if kind in counts},
        "already": {kind: already[kind] for kind in KINDS if kind in already},
        "labels": [kind_label(kind, counts[kind]) for kind in KINDS if kind in counts],
        "already_labels": [kind_label(kind, already[kind]) for kind in KINDS if kind in already],
        "rows": [row.as_dict() for row in new_rows[:PREVIEW_ROWS]],
        "errors": [error.as_dict() for error in parsed.errors[:PREVIEW_ERRORS]],
        "error_count": len(parsed.errors),
        "ignored": len(parsed.ignored),
    }


@transaction.atomic
def import_preview(*, user, filename: str, content: bytes) -> ImportJob:
    """Read an uploaded file and say what importing it would write; nothing is written but the
    job itself. A file Sparky cannot read is refused (ValidationError) with what it expects."""
    if len(content) > MAX_BYTES:
        raise ValidationError(
            f"The file is {len(content) / 1024 / 1024:.1f} MB; at most "
            f"{MAX_BYTES // 1024 // 1024} MB can be imported at once. Export a shorter period.",
            code="file_too_large",
        )
    try:
        text = formats.unpack(content, largest=MAX_BYTES)
        if not text.strip():
            raise ValidationError("The file is empty.", code="empty_file")
        module = formats.detect(text)
        if module is None:
            raise ValidationError(
                f"Sparky does not know this file's layout; it reads {formats.EXPECTED}.",
                code="unknown_format",
            )
        source = module.SOURCE
        parsed = formats.read(text, today=today_for(user))
    except ValidationError:
        raise
    except Exception:
        # Every file Sparky has seen gets its own sentence above; this is for the next one.
        logger.exception("reading an uploaded import failed")
        raise ValidationError(
            "Sparky could not read this file: it is not laid out as the export it looks like. "
            f"Sparky reads {formats.EXPECTED}.",
            code="unreadable_file",
        ) from None
    if len(parsed.rows) + len(parsed.errors) > MAX_ROWS:
        raise ValidationError(
            f"The file has more than {MAX_ROWS:,} rows; export a shorter period.",
            code="too_many_rows",
        )
    if not parsed.rows and not parsed.errors:
        raise ValidationError(
            "The file has no rows to import (only its first line).", code="empty_file"
        )
    summary = _summary(parsed, _skipped(user, parsed))
    job = ImportJob(
        user=user,
        source=source,
        filename=str(filename or "")[:255],
        content=text,
        preview=summary,
        total=sum(summary["counts"].values()),
    )
    job.full_clean()
    job.save()
    return job


def import_get(*, user, job_id) -> ImportJob:
    """One of the user's imports, else ImportJob.DoesNotExist."""
    return ImportJob.objects.for_user(user).get(pk=uuid_pk(job_id, ImportJob))


@transaction.atomic
def import_confirm(*, user, job_id) -> ImportJob:
    """Start a previewed import in the background (import_run_task, once this is committed).
    Refused while the file has rows with errors, or when it would add nothing."""
    job = ImportJob.objects.for_user(user).select_for_update().get(pk=uuid_pk(job_id, ImportJob))
    if job.status != ImportJob.Status.PREVIEW:
        return job  # confirmed already (a second click): one run
    if job.preview.get("error_count"):
        raise ValidationError(
            "This file has rows Sparky cannot import; fix them in the file and upload it again.",
            code="rows_with_errors",
        )
    if not job.total:
        raise ValidationError(
            "Everything in this file is in your diary already; there is nothing to import.",
            code="nothing_to_import",
        )
    job.status = ImportJob.Status.QUEUED
    job.save(update_fields=["status", "updated_at"])
    job_id, user_id = str(job.pk), str(user.pk)
    transaction.on_commit(lambda: _send(job_id, user_id), robust=True)
    return job


# A broker that does not answer is given about a second: the page waits for it.
_PUBLISH_RETRY = {"max_retries": 2, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.5}


def _send(job_id: str, user_id: str) -> None:
    """Hand the run to the workers; when the broker cannot be reached, say so in one line and
    run it here, as with no broker at all (the import is done either way)."""
    try:
        import_run_task.apply_async((job_id, user_id), retry_policy=_PUBLISH_RETRY)
    except (KombuOperationalError, OSError) as exc:
        logger.warning(
            "The task broker is unreachable (%s); the import runs in-process.", type(exc).__name__
        )
        import_run(job_id=job_id, user_id=user_id)


@contextlib.contextmanager
def _progress(job: ImportJob):
    """A function writing how many rows are done, seen by others while the run's transaction is
    still open (it writes on a second connection). Inside a caller's transaction there is no one
    to see it, and the row may be locked by it: then it does nothing."""
    if connections[DEFAULT_DB_ALIAS].in_atomic_block:
        yield lambda done: None
        return
    side = connections[DEFAULT_DB_ALIAS].copy()

    def write(done: int) -> None:
        with side.cursor() as cursor:
            cursor.execute(
                "UPDATE import_jobs SET done = %s, updated_at = now() "
                "WHERE import_jobs.id = %s AND import_jobs.user_id = %s",
                [done, job.pk, job.user_id],
            )

    try:
        yield write
    finally:
        side.close()


class _Refused(Exception):
    def __init__(self, row, problem):
        super().__init__(str(problem))
        self.row, self.problem = row, problem


def _reason(problem) -> str:
    if isinstance(problem, ValidationError):
        return " ".join(problem.messages)
    return str(problem) or "it refers to something that does not exist"


def _write_all(user, job: ImportJob, parsed: Parsed, progress) -> dict[str, int]:
    skipped = _skipped(user, parsed)
    writer = Writer(user)
    created: dict[str, int] = {}
    step = max(1, job.total // PROGRESS_STEPS)
    done = 0
    for row in parsed.rows:
        if row.key in skipped:
            writer.remember(row, skipped[row.key])
            continue
        try:
            object_id = writer.write(row)
        except (ValidationError, ObjectDoesNotExist) as problem:
            raise _Refused(row, problem) from problem
        ImportedRow.objects.create(
            user=user, key=row.key, kind=row.kind, object_id=object_id, job_id=job.pk
        )
        skipped[row.key] = object_id  # the same row twice in a Sparky file: written once
        created[row.kind] = created.get(row.kind, 0) + 1
        done += 1
        if done % step == 0:
            progress(done)
    return created


def import_run(*, job_id, user_id) -> ImportJob:
    """Write a confirmed import's new rows in one transaction: all of them, or, when one is
    refused or anything fails, none, with the job saying why in plain words.

    Safe to re-run: a finished job is left as it is, and a run cut off (the worker lost) wrote
    nothing, so it starts again from the first row.
    """
    user = User.objects.get(pk=user_id)
    job = import_get(user=user, job_id=job_id)
    if job.status not in (ImportJob.Status.QUEUED, ImportJob.Status.RUNNING):
        return job
    job.status, job.done, job.error = ImportJob.Status.RUNNING, 0, ""
    job.save(update_fields=["status", "done", "error", "updated_at"])
    parsed = formats.read(job.content, today=today_for(user))
    try:
        with _progress(job) as progress, transaction.atomic():
            if parsed.errors:  # the day moved on since the preview, or the file changed
                raise _Refused(None, ValidationError(str(parsed.errors[0])))
            created = _write_all(user, job, parsed, progress)
    except _Refused as refused:
        job.status = ImportJob.Status.FAILED
        where = "" if refused.row is None else f"row {refused.row.line} ({refused.row.summary}) "
        job.error = (
            f"Nothing was imported: {where}was refused: {_reason(refused.problem)} "
            "Fix it in the file and import it again."
        ).replace("refused: Row", "refused: row")
    except Exception:
        logger.exception("import %s failed", job.pk)
        job.status = ImportJob.Status.FAILED
        job.error = (
            "Nothing was imported: Sparky failed while writing it (an error on Sparky's side, "
            "not in your file). Try again later."
        )
    else:
        job.status, job.created, job.done = ImportJob.Status.DONE, created, job.total
    job.save(update_fields=["status", "created", "done", "error", "updated_at"])
    return job


def created_labels(job: ImportJob) -> list[str]:
    return [kind_label(kind, job.created[kind]) for kind in KINDS if job.created.get(kind)]


@shared_task
def import_run_task(job_id: str, user_id: str) -> str:
    """Run a confirmed import (import_run). Safe to re-run: see import_run."""
    return import_run(job_id=job_id, user_id=user_id).status
