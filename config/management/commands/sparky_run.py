"""`make run`: set up (database, migrations, catalog), then serve everything with uvicorn, quietly.

Once the server listens, it prints the addresses to open, and nothing more unless something goes
wrong: no access log, no startup banners (warnings and errors still show). LOG_LEVEL, when set,
is honoured as everywhere else.
"""

from __future__ import annotations

import logging
import os

import uvicorn
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand

# What `make run` prints when it is ready; the README shows the same lines (a test compares).
ADDRESSES = (
    ("Chat", "/"),
    ("Admin", "/admin/"),
    ("API docs", "/api/docs/"),
    ("MCP", "/mcp"),
)


def base_url(host: str, port: int) -> str:
    """The address a browser on this machine opens for a server bound to host:port."""
    if host in ("0.0.0.0", ""):
        host = "127.0.0.1"
    elif host == "::":
        host = "::1"
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}"


def ready_message(host: str, port: int) -> str:
    base = base_url(host, port)
    width = max(len(label) for label, _path in ADDRESSES)
    lines = ["Sparky is running. Open:"]
    lines += [f"  {label.ljust(width)}  {base}{path}" for label, path in ADDRESSES]
    lines.append("Press Ctrl-C to stop.")
    return "\n".join(lines)


class _Server(uvicorn.Server):
    """uvicorn's server, saying where to go once it listens."""

    def __init__(self, config: uvicorn.Config, announce):
        super().__init__(config)
        self._announce = announce

    async def startup(self, sockets=None) -> None:
        await super().startup(sockets=sockets)
        if self.started:
            self._announce()


class Command(BaseCommand):
    help = "Set up Sparky if needed and serve it (chat, admin, API, MCP) with uvicorn."

    def add_arguments(self, parser):
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument("--skip-catalog", action="store_true", help="do not load the catalog")

    def handle(self, *args, host="127.0.0.1", port=8000, skip_catalog=False, **options):
        call_command("sparky_setup", skip_catalog=skip_catalog, stdout=self.stdout)
        if "LOG_LEVEL" not in os.environ:
            # Importing the ASGI app runs django.setup() again, which applies LOGGING anew: the
            # quieter level goes into LOGGING itself, not only onto the root logger.
            root = {**settings.LOGGING["root"], "level": "WARNING"}
            settings.LOGGING = {**settings.LOGGING, "root": root}
            logging.getLogger().setLevel(logging.WARNING)

        def announce():
            self.stdout.write(ready_message(host, port))
            self.stdout.flush()

        config = uvicorn.Config(
            "config.asgi:application",
            host=host,
            port=port,
            lifespan="on",
            log_level="warning",
            access_log=False,
        )
        _Server(config, announce).run()
