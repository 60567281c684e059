"""MCP over streamable HTTP at /mcp: config.asgi under uvicorn, the SDK's client, DRF tokens."""

import anyio
import httpx
import pytest

from nutrition.models import FoodEntry

pytestmark = pytest.mark.django_db(transaction=True)

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "test", "version": "1"},
    },
}
JSON_HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


def session(url: str, authorization: str, body, mode: str = "auto"):
    """Open the SDK's streamable-HTTP client with this Authorization header and run `body`."""
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    async def go():
        headers = {"Authorization": authorization}
        async with (
            create_mcp_http_client(headers=headers) as http,
            Client(streamable_http_client(url, http_client=http), mode=mode) as client,
        ):
            return await body(client)

    return anyio.run(go)


def names(url, authorization):
    async def body(client):
        return [t.name for t in (await client.list_tools()).tools]

    return session(url, authorization, body)


def call(url, authorization, name, arguments):
    async def body(client):
        return await client.call_tool(name, arguments)

    return session(url, authorization, body)


def text_of(result) -> str:
    return "\n".join(block.text for block in result.content)


@pytest.mark.parametrize(
    "authorization",
    [None, "Bearer not-a-real-token", "Basic YWxpY2U6cGFzc3dvcmQ=", "Bearer", "Token a b"],
)
def test_it_answers_401_without_a_valid_token(mcp_url, alice, authorization):
    headers = dict(JSON_HEADERS)
    if authorization:
        headers["Authorization"] = authorization

    response = httpx.post(f"{mcp_url}/mcp", json=INITIALIZE, headers=headers)

    assert response.status_code == 401
    assert response.headers["www-authenticate"].startswith("Bearer")
    assert "token" in response.json()["error"]


def test_an_inactive_users_token_is_refused(mcp_url, alice, alice_token):
    alice.is_active = False
    alice.save(update_fields=["is_active"])

    response = httpx.post(
        f"{mcp_url}/mcp",
        json=INITIALIZE,
        headers={**JSON_HEADERS, "Authorization": f"Bearer {alice_token}"},
    )

    assert response.status_code == 401


def test_a_host_django_does_not_serve_is_refused(mcp_url, alice_token):
    response = httpx.post(
        f"{mcp_url}/mcp",
        json=INITIALIZE,
        headers={**JSON_HEADERS, "Authorization": f"Bearer {alice_token}", "Host": "evil.test"},
    )

    assert response.status_code in (400, 421)


def test_a_web_page_on_another_origin_is_refused(mcp_url, alice_token):
    headers = {**JSON_HEADERS, "Authorization": f"Bearer {alice_token}"}

    foreign = httpx.post(
        f"{mcp_url}/mcp", json=INITIALIZE, headers={**headers, "Origin": "https://evil.test"}
    )
    local = httpx.post(
        f"{mcp_url}/mcp", json=INITIALIZE, headers={**headers, "Origin": "http://localhost:6274"}
    )

    assert foreign.status_code == 403
    assert local.status_code == 200


def test_a_valid_token_gets_the_users_tool_set_with_either_scheme(mcp_url, alice_token):
    bearer = names(f"{mcp_url}/mcp", f"Bearer {alice_token}")
    token = names(f"{mcp_url}/mcp", f"Token {alice_token}")

    assert len(bearer) == 35
    assert token == bearer
    assert "sparky_enable_tools" not in bearer


def test_clients_of_the_older_handshake_protocol_are_served_too(mcp_url, alice_token, egg):
    async def body(client):
        tools = (await client.list_tools()).tools
        result = await client.call_tool("food_details", {"food_id": str(egg.id)})
        return tools, result

    tools, result = session(f"{mcp_url}/mcp", f"Bearer {alice_token}", body, mode="legacy")

    assert len(tools) == 35
    assert not result.is_error
    assert "Egg, whole, raw, fresh" in text_of(result)


def test_the_profile_query_parameter_selects_the_core_set(mcp_url, alice_token):
    assert len(names(f"{mcp_url}/mcp?profile=core", f"Bearer {alice_token}")) == 19


def test_log_food_over_http_lands_in_the_token_owners_diary(mcp_url, alice, alice_token, egg):
    result = call(
        f"{mcp_url}/mcp",
        f"Bearer {alice_token}",
        "log_food",
        {"food_name": "egg", "food_id": str(egg.id), "quantity": 2, "unit": "large"},
    )

    assert not result.is_error, text_of(result)
    entry = FoodEntry.objects.get(user=alice)
    assert entry.food == egg


def test_an_error_result_over_http_is_flagged(mcp_url, alice_token):
    result = call(f"{mcp_url}/mcp", f"Bearer {alice_token}", "log_water", {"date": "2999-01-01"})

    assert result.is_error
    assert "future" in text_of(result)


def test_bobs_token_never_reaches_alices_custom_food(
    mcp_url, alice, bob, alice_token, bob_token, alices_granola
):
    forged = str(alices_granola.id)

    details = call(f"{mcp_url}/mcp", f"Bearer {bob_token}", "food_details", {"food_id": forged})
    logged = call(
        f"{mcp_url}/mcp",
        f"Bearer {bob_token}",
        "log_food",
        {"food_name": "Alice's secret maple granola", "food_id": forged, "quantity": 50},
    )

    assert details.is_error
    assert "granola" not in text_of(details).lower()
    assert logged.is_error
    assert not FoodEntry.objects.filter(food=alices_granola).exists()
    # The same id works for its owner.
    own = call(f"{mcp_url}/mcp", f"Bearer {alice_token}", "food_details", {"food_id": forged})
    assert not own.is_error
    assert "granola" in text_of(own).lower()


def test_the_rest_of_the_site_is_still_django(mcp_url):
    response = httpx.get(f"{mcp_url}/this-page-does-not-exist/")

    assert response.status_code == 404


def test_the_mcp_app_can_start_again_after_a_shutdown():
    from chat.web.mcp import http_app

    app = http_app()

    async def lifespan_once():
        events = [{"type": "lifespan.startup"}, {"type": "lifespan.shutdown"}]
        sent = []

        async def receive():
            if events:
                return events.pop(0)
            await anyio.sleep_forever()

        async def send(message):
            sent.append(message["type"])

        await app({"type": "lifespan", "asgi": {"version": "3.0"}, "state": {}}, receive, send)
        return sent

    for _ in range(2):
        assert anyio.run(lifespan_once) == [
            "lifespan.startup.complete",
            "lifespan.shutdown.complete",
        ]


def test_a_password_change_revokes_the_mcp_token(mcp_url, alice, alice_token):
    headers = {**JSON_HEADERS, "Authorization": f"Bearer {alice_token}"}
    assert httpx.post(f"{mcp_url}/mcp", json=INITIALIZE, headers=headers).status_code == 200

    alice.set_password("a new and unusual pass")
    alice.save()

    assert httpx.post(f"{mcp_url}/mcp", json=INITIALIZE, headers=headers).status_code == 401
