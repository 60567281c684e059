import importlib.util
import pathlib
from decimal import Decimal

import pytest

from exercise.models import Exercise


def public_exercise(name: str, met=None, calories_per_hour=None, **extra) -> Exercise:
    """A catalog row, as the catalog loader would write it (the loader is not under test here)."""
    return Exercise.objects.create(
        name=name,
        met=Decimal(str(met)) if met is not None else None,
        calories_per_hour=calories_per_hour,
        is_custom=False,
        **extra,
    )


def _compendium_rows():
    # The package itself does not import on Python 3; its data module does.
    package = importlib.util.find_spec("pyexphys")
    path = pathlib.Path(package.submodule_search_locations[0]) / "mets.py"
    spec = importlib.util.spec_from_file_location("_sparky_test_mets", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return {row.code: row for row in module.MET.compendium}.values()


@pytest.fixture
def compendium(db):
    """The whole Compendium of Physical Activities 2011 (Ainsworth et al.) as public exercises,
    named by their original descriptions: realistic, messy names for search to cope with."""
    rows = [
        Exercise(
            name=row.description.strip()[:255],
            met=Decimal(str(row.value)),
            is_custom=False,
            source="compendium",
            source_id=row.code,
        )
        for row in _compendium_rows()
    ]
    Exercise.objects.bulk_create(rows)
    return rows
