"""`make serve`: Sparky in production. Sets up (database, migrations, catalog, static files), then
serves everything, MCP included, with uvicorn in `--workers` processes.

    DEBUG=false SECRET_KEY=... SPARKY_ENCRYPTION_KEYS=... ALLOWED_HOSTS=sparky.example.com \\
        make serve HOST=0.0.0.0 PORT=8000 WEB_WORKERS=2

It refuses to start with DEBUG on (`make run` is the development server). The client's address is
the socket's: uvicorn is told not to rewrite it from X-Forwarded-For, which Sparky reads itself only
when SPARKY_TRUSTED_PROXIES says how many proxies stand in front (sparky.clients).
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import connections

NOT_PRODUCTION = (
    "make serve is the production server and needs DEBUG=false (with SECRET_KEY, "
    "SPARKY_ENCRYPTION_KEYS and ALLOWED_HOSTS). For development, use make run."
)


def uvicorn_command(*, host: str, port: int, workers: int) -> list[str]:
    uvicorn = shutil.which("uvicorn", path=str(Path(sys.executable).parent)) or "uvicorn"
    return [
        uvicorn,
        "config.asgi:application",
        "--lifespan",
        "on",
        "--host",
        host,
        "--port",
        str(port),
        "--workers",
        str(workers),
        "--no-proxy-headers",
        "--no-server-header",
    ]


class Command(BaseCommand):
    help = "Production: set up Sparky (static files included) and serve it with uvicorn workers."

    def add_arguments(self, parser):
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument(
            "--workers", type=int, default=int(os.environ.get("WEB_CONCURRENCY") or 2)
        )
        parser.add_argument("--skip-catalog", action="store_true", help="do not load the catalog")

    def handle(self, *args, host, port, workers, skip_catalog=False, **options):
        if settings.DEBUG:
            raise CommandError(NOT_PRODUCTION)
        call_command("sparky_setup", skip_catalog=skip_catalog, stdout=self.stdout)
        self.stdout.flush()
        connections.close_all()  # the server's processes open their own
        # A bounded pool per process unless set otherwise (see DB_POOL_MAX_SIZE in the README).
        os.environ.setdefault("DB_POOL_MAX_SIZE", "8")
        command = uvicorn_command(host=host, port=port, workers=workers)
        os.execv(command[0], command)
