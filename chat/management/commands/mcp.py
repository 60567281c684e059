"""Serve Sparky's tools to one user over MCP stdio, for desktop agents that launch a command."""

import anyio
from django.core.management.base import BaseCommand, CommandError

from chat.web import mcp
from sparky.models import User


class Command(BaseCommand):
    help = (
        "Serve Sparky's tools over the Model Context Protocol on stdin/stdout, acting as one user. "
        "For HTTP, serve config.asgi with uvicorn: the endpoint is /mcp."
    )

    def add_arguments(self, parser):
        parser.add_argument("--user", required=True, metavar="EMAIL", help="the acting user")
        parser.add_argument(
            "--profile",
            choices=["full", "core"],
            help="tool set to publish (default: the user's active AI service's profile, else full)",
        )

    def handle(self, *args, user, profile=None, **options):
        account = User.objects.filter(email__iexact=user.strip(), is_active=True).first()
        if account is None:
            raise CommandError(f"No active Sparky user with the email {user!r}.")
        # Nothing may be written to stdout from here on: it carries the protocol.
        anyio.run(lambda: mcp.serve_stdio(user=account, profile=profile))
