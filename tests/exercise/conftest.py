from decimal import Decimal

import pytest

from exercise.catalog import import_exercises
from exercise.models import Exercise


def public_exercise(name: str, met=None, calories_per_hour=None, **extra) -> Exercise:
    """A public catalog row written directly (for small, exact fixtures)."""
    return Exercise.objects.create(
        name=name,
        met=Decimal(str(met)) if met is not None else None,
        calories_per_hour=calories_per_hour,
        is_custom=False,
        **extra,
    )


@pytest.fixture
def catalog(db):
    """The real public catalog (Compendium 2011, wger, General Exercise), as `load_catalog`
    writes it: realistic, messy names for search to cope with."""
    import_exercises()
