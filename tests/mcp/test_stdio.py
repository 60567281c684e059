"""`manage.py mcp` over stdio, spawned by the SDK's client against the pytest database."""

import os
import sys

import anyio
import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from django.db import connection

from nutrition.models import FoodEntry
from tests.worker import database_url

pytestmark = pytest.mark.django_db(transaction=True)


def stdio_session(args: list[str], body):
    from mcp import Client, StdioServerParameters

    params = StdioServerParameters(
        command=sys.executable,
        args=["manage.py", "mcp", *args],
        cwd=str(settings.BASE_DIR),
        env={
            "DATABASE_URL": database_url(connection.settings_dict),
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "PYTHONPATH": os.environ.get("PYTHONPATH", ""),
        },
    )

    async def go():
        async with Client(params, read_timeout_seconds=60) as client:
            return await body(client)

    return anyio.run(go)


def test_the_stdio_server_acts_as_the_named_user(alice, bob, egg):
    async def body(client):
        tools = (await client.list_tools()).tools
        result = await client.call_tool(
            "log_food", {"food_name": "egg", "food_id": str(egg.id), "quantity": 3}
        )
        refused = await client.call_tool("log_water", {"date": "2999-01-01"})
        return tools, result, refused

    tools, result, refused = stdio_session(["--user", "ALICE@example.com"], body)

    assert len(tools) == 35
    assert not result.is_error, result.content
    assert refused.is_error
    entry = FoodEntry.objects.get(food=egg)
    assert entry.user == alice
    assert float(entry.quantity) == 3


def test_the_profile_flag_publishes_the_core_set(alice):
    async def body(client):
        return (await client.list_tools()).tools

    tools = stdio_session(["--user", alice.email, "--profile", "core"], body)

    assert len(tools) == 19


def test_an_unknown_user_is_refused_before_serving(db):
    with pytest.raises(CommandError, match="nobody@example.com"):
        call_command("mcp", user="nobody@example.com")
