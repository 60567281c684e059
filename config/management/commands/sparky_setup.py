"""Everything a fresh clone needs before the server starts: database, migrations, catalog."""

import psycopg
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand
from psycopg import sql


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


class Command(BaseCommand):
    help = "Create the database if missing, migrate, and load the public food and exercise catalog."

    def add_arguments(self, parser):
        parser.add_argument("--skip-catalog", action="store_true", help="do not load the catalog")

    def handle(self, *args, skip_catalog=False, **options):
        if ensure_database():
            self.stdout.write(f"Created database {settings.DATABASES['default']['NAME']}")
        call_command("migrate", interactive=False, verbosity=0)
        self.stdout.write("Database is migrated.")
        if not skip_catalog:
            call_command("load_catalog", if_needed=True)
