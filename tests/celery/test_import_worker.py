"""An import run by a real Celery worker on Redis (tests/worker.py): the page's progress moves
while the worker's one transaction is still open, and the diary has it all at the end."""

import datetime as dt
import time

import pytest

from config.celery import app
from diary.imports import import_confirm, import_get, import_preview
from nutrition.models import FoodEntry

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]
WAIT_SECONDS = 60
ROWS = 400

HEADER = "Day,Group,Food Name,Amount,Energy (kcal),Protein (g)"


def a_long_cronometer_log() -> bytes:
    start = dt.date(2026, 1, 1)
    lines = [HEADER]
    for n in range(ROWS):
        day = start + dt.timedelta(days=n // 4)
        lines.append(f"{day.isoformat()},Lunch,Soup number {n},1.00 bowl,{150 + n},{n % 30}")
    return ("\n".join(lines) + "\n").encode()


def test_the_worker_imports_a_file_and_its_progress_is_seen_on_the_way(worker, alice):
    registered = app.control.inspect(destination=[worker.name], timeout=5).registered()
    assert "diary.imports.jobs.import_run_task" in registered[worker.name]
    job = import_preview(user=alice, filename="long.csv", content=a_long_cronometer_log())
    assert job.total == ROWS

    import_confirm(user=alice, job_id=job.pk)

    seen, deadline = [], time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        job = import_get(user=alice, job_id=job.pk)
        seen.append((job.status, job.done))
        if job.status in ("done", "failed"):
            break
        # nothing is in the diary until the whole file is: one transaction
        assert FoodEntry.objects.for_user(alice).count() in (0, ROWS)
        time.sleep(0.05)
    assert job.status == "done", (job.error, worker.log_text()[-3000:])
    assert FoodEntry.objects.for_user(alice).count() == ROWS
    assert any(status == "running" and 0 < done < ROWS for status, done in seen), seen[-20:]
