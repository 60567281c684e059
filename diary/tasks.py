"""Celery tasks of the diary: imported here so that Celery's autodiscovery of diary.tasks
registers them (each lives beside the service it runs)."""

from diary.imports.jobs import import_run_task  # noqa: F401
