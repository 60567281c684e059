"""Every MCP tool, as bob's MCP server lists them, called with alice's ids and alice named as the
user: the server acts for bob and nothing of alice's is shown, changed or deleted.

The server runs in-process through the SDK's client; its handlers reach the database from
sync_to_async threads, so these tests are transactional (data is committed to be seen).
"""

from __future__ import annotations

import json

import anyio
import pytest
from asgiref.sync import sync_to_async
from django.db import connections

from chat.tools import tools_for
from chat.web.mcp import build_server
from tests.trust.conftest import leaks, snapshot
from tests.trust.test_isolation_tools import forged, tool_calls

pytestmark = pytest.mark.django_db(transaction=True)


def _conversation(server, body):
    from mcp import Client

    async def main():
        try:
            async with Client(server) as client:
                return await body(client)
        finally:
            await sync_to_async(connections.close_all)()

    return anyio.run(main)


def _text(result) -> str:
    parts = [getattr(block, "text", "") for block in result.content]
    if result.structured_content is not None:
        parts.append(json.dumps(result.structured_content, default=str))
    return "\n".join(parts)


def test_bobs_mcp_server_serves_bob_whatever_the_arguments_say(alice_world, bob):
    w = alice_world
    before = snapshot(w.alice)
    calls = tool_calls(w)

    async def body(client):
        listed = [t.name for t in (await client.list_tools()).tools]
        answers = []
        for name in listed:
            for args in calls[name]:
                result = await client.call_tool(name, {**args, **forged(w)})
                answers.append((name, args, result))
        return listed, answers

    listed, answers = _conversation(build_server(user=bob), body)

    assert listed == [t.name for t in tools_for("full")]
    problems = []
    said = ""  # bob's own rows may carry the words bob's client sent in earlier calls
    for name, args, result in answers:
        said += json.dumps(args)
        text = _text(result)
        found = leaks(text, w, given=said)
        if found:
            problems.append(f"{name}({args}): alice's {found} in {text[:300]}")
        if "failed unexpectedly" in text:
            problems.append(f"{name}({args}) crashed: {text[:300]}")
    assert len(answers) > 40
    assert problems == [], "\n".join(problems)
    assert snapshot(w.alice) == before


def test_alices_token_named_in_the_arguments_does_not_switch_the_user(alice_world, bob):
    w = alice_world

    async def body(client):
        return await client.call_tool(
            "food_diary",
            {"date": w.day.isoformat(), "token": w.token, "authorization": f"Bearer {w.token}"},
        )

    result = _conversation(build_server(user=bob), body)
    assert not result.is_error
    assert leaks(_text(result), w) == []
    assert json.loads(result.content[1].text)["meals"] == {
        "breakfast": [],
        "lunch": [],
        "dinner": [],
        "snack": [],
    }
