"""Celery tasks of the project package."""

from celery import shared_task

from exercise.catalog import import_exercises
from nutrition.catalog import import_foods

CATALOG_PARTS = ("foods", "exercises")


@shared_task
def catalog_import_task(parts: list[str]) -> dict:
    """Load the public catalog parts named ("foods", "exercises") off the request path.

    Safe to re-run: every row is upserted on (source, source_id) and rows already current are
    left untouched, so a retried or duplicated task changes nothing.
    """
    unknown = sorted(set(parts) - set(CATALOG_PARTS))
    if unknown:
        raise ValueError(f"Unknown catalog part(s) {unknown}; expected some of {CATALOG_PARTS}.")
    result = {}
    if "foods" in parts:
        result["foods"] = import_foods().as_dict()
    if "exercises" in parts:
        result["exercises"] = import_exercises().as_dict()
    return result
