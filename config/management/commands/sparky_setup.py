"""Everything a fresh clone needs before the server starts: database, migrations, catalog, and
with DEBUG off the static files (collected for WhiteNoise's manifest, which every page names).

Quiet when there is nothing to do, so `make run` prints only what a person needs: a line when the
database is created, one while the catalog loads on the first run, and nothing on later runs.
"""

import io

import psycopg
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand
from psycopg import sql

from exercise import catalog as exercise_catalog
from nutrition import catalog as food_catalog


def ensure_database() -> bool:
    """Create the configured database if it does not exist yet. Returns True if it was created."""
    db = settings.DATABASES["default"]
    params = {
        "host": db.get("HOST") or None,
        "port": db.get("PORT") or None,
        "user": db.get("USER") or None,
        "password": db.get("PASSWORD") or None,
        "dbname": "postgres",
        "autocommit": True,
    }
    with psycopg.connect(**{k: v for k, v in params.items() if v is not None}) as conn:
        exists = conn.execute(
            "SELECT 1 FROM pg_database WHERE datname = %s", [db["NAME"]]
        ).fetchone()
        if exists:
            return False
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(db["NAME"])))
        return True


CREATED = "Created the database {name}."
LOADING = "Loading the food and exercise catalog (first run only, a few seconds)…"


def catalog_is_loaded() -> bool:
    return food_catalog.sr28_is_loaded() and exercise_catalog.exercises_are_loaded()


class Command(BaseCommand):
    help = "Create the database if missing, migrate, and load the public food and exercise catalog."

    def add_arguments(self, parser):
        parser.add_argument("--skip-catalog", action="store_true", help="do not load the catalog")

    def handle(self, *args, skip_catalog=False, verbosity=1, **options):
        if ensure_database():
            self.stdout.write(CREATED.format(name=settings.DATABASES["default"]["NAME"]))
        call_command("migrate", interactive=False, verbosity=0)
        if verbosity > 1:
            self.stdout.write("The database is migrated.")
        if not settings.DEBUG:
            call_command("collectstatic", interactive=False, verbosity=0)
        if skip_catalog or catalog_is_loaded():
            return
        self.stdout.write(LOADING)
        self.stdout.flush()
        report = io.StringIO()
        call_command("load_catalog", if_needed=True, verbosity=0, stdout=report)
        if verbosity > 1:
            self.stdout.write(report.getvalue().rstrip())
