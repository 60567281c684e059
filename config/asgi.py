"""ASGI entry point: Django for every path, the MCP server (chat.web.mcp) at /mcp.

Serve with `uvicorn config.asgi:application --lifespan on`: the lifespan starts the MCP SDK's
session manager (Django itself has no lifespan handling, so lifespan goes to the MCP app only).
"""

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup(set_prefix=False)  # before anything imports models

from sparky.asgi_files import FileStreamingASGIHandler  # noqa: E402

# Django's ASGI handler, streaming files (WhiteNoise's static files) without a sync-iterator warning
django_app = FileStreamingASGIHandler()

from chat.web.mcp import MCP_PATH, http_app  # noqa: E402

mcp_app = http_app(path=MCP_PATH)


async def application(scope, receive, send):
    if (
        scope["type"] == "lifespan"
        or scope["type"] == "http"
        and (scope["path"] == MCP_PATH or scope["path"].startswith(MCP_PATH + "/"))
    ):
        await mcp_app(scope, receive, send)
    else:
        await django_app(scope, receive, send)
