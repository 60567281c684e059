"""Load the public food and exercise catalog from the installed data packages, never the network."""

import time
from functools import partial

from django.core.exceptions import ImproperlyConfigured
from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from exercise import catalog as exercise_catalog
from nutrition import catalog as food_catalog


class Command(BaseCommand):
    help = (
        "Load USDA SR28 and survey (FNDDS) foods and the Compendium, wger and General Exercise "
        "activities into the catalog. Idempotent: rows are upserted on (source, source_id)."
    )

    def add_arguments(self, parser):
        only = parser.add_mutually_exclusive_group()
        only.add_argument("--foods-only", action="store_true", help="load only the foods")
        only.add_argument("--exercises-only", action="store_true", help="load only the exercises")
        parser.add_argument(
            "--if-needed",
            action="store_true",
            help="skip a part whose catalog is already fully loaded",
        )

    def handle(self, *args, foods_only=False, exercises_only=False, if_needed=False, **options):
        show_bar = options.get("verbosity", 1) > 0
        try:
            if not exercises_only:
                self._foods(if_needed, show_bar)
            if not foods_only:
                self._exercises(if_needed, show_bar)
        except ImproperlyConfigured as exc:
            raise CommandError(str(exc)) from exc

    def _progress(self, show_bar: bool):
        return partial(
            tqdm, unit=" rows", unit_scale=True, leave=False, disable=not show_bar, mininterval=0.2
        )

    def _foods(self, if_needed: bool, show_bar: bool) -> None:
        if if_needed and food_catalog.sr28_is_loaded():
            self.stdout.write("Foods: USDA SR28 is already loaded.")
            return
        started = time.monotonic()
        result = food_catalog.import_foods(progress=self._progress(show_bar))
        self.stdout.write(
            f"Foods: USDA SR28 {_summary(result.foods)}; household servings "
            f"{_summary(result.variants)}; USDA survey foods (FNDDS) "
            f"{_summary(result.survey_foods)}; their portions {_summary(result.survey_variants)} "
            f"({time.monotonic() - started:.1f} s)."
        )

    def _exercises(self, if_needed: bool, show_bar: bool) -> None:
        if if_needed and exercise_catalog.exercises_are_loaded():
            self.stdout.write("Exercises: the catalog is already loaded.")
            return
        started = time.monotonic()
        with tqdm(total=1, desc="Exercises", leave=False, disable=not show_bar):
            result = exercise_catalog.import_exercises()
        self.stdout.write(
            f"Exercises: Compendium 2011 {_summary(result.compendium)}; wger "
            f"{_summary(result.wger)}; General Exercise {_summary(result.general)} "
            f"({time.monotonic() - started:.1f} s)."
        )


def _summary(counts) -> str:
    parts = [f"{counts.created} new", f"{counts.updated} updated", f"{counts.unchanged} unchanged"]
    if getattr(counts, "removed", 0):
        parts.append(f"{counts.removed} removed")
    return ", ".join(parts)
