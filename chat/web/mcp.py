"""Sparky's tool registry over the Model Context Protocol (official `mcp` SDK, low-level server).

The MCP surface publishes the user's full or core tool set directly (build_chatbot_tools over every
category): no sparky_enable_tools, since an MCP client already sees every tool it may call. Each
call goes through chat.tools.run_tool, like a chat turn's, so arguments are repaired and validated
the same way, each call is its own transaction, and a refusal comes back as a tool result flagged
isError that the client's model can read and act on.

The acting user is fixed by the transport, never by arguments:
- stdio (`manage.py mcp --user EMAIL`): the user named on the command line;
- streamable HTTP at /mcp (`http_app()`, mounted by config.asgi): the owner of the DRF token in
  `Authorization: Bearer <key>` (or `Token <key>`), checked on every request; no token, 401.

Tools are per user, so the low-level `Server` with list_tools/call_tool handlers is used rather than
decorator-registered tools. The ORM is synchronous: every database touch runs via sync_to_async.
"""

from __future__ import annotations

import dataclasses
import json
import logging

import mcp_types as types
from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import close_old_connections
from django.http.request import split_domain_port, validate_host
from mcp.server import Server
from mcp.server.transport_security import TransportSecuritySettings
from starlette.datastructures import Headers, QueryParams
from starlette.responses import JSONResponse

from aiservices.services import active_ai_service
from chat.tools import (
    CATEGORIES,
    PROFILE_DEFAULTS,
    ToolContext,
    ToolResult,
    ToolSet,
    build_chatbot_tools,
    run_tool,
)
from chat.tools.base import jsonable, registry
from sparky.models import User

logger = logging.getLogger(__name__)

SERVER_NAME = "sparky"
MCP_PATH = "/mcp"
# Where the HTTP wrapper leaves the authenticated caller for the handlers (ASGI scope keys).
SCOPE_USER = "user"
SCOPE_PROFILE = "sparky.mcp_profile"
INSTRUCTIONS = (
    "Sparky is the user's nutrition and fitness diary. Use these tools to log foods, workouts, "
    "check-ins and water, and to read the user's diary, goals and progress. Dates are the user's "
    "local dates; leave a date out for today. When a tool result is an error, read its message: "
    "it says what was wrong and what to do instead."
)


class NotAuthenticated(PermissionError):
    """No user for this request (the HTTP wrapper was bypassed)."""


def _db(fn):
    """Run an ORM function off the event loop, with Django's per-request connection hygiene.

    MCP requests do not pass through Django's request_started/finished signals, so stale or broken
    connections are closed here the way Django would around a view.
    """

    def call(*args, **kwargs):
        close_old_connections()
        try:
            return fn(*args, **kwargs)
        finally:
            close_old_connections()

    return sync_to_async(call)


# --- the tool set of a user ------------------------------------------------------------------


def profile_for(user, requested: str | None = None) -> str:
    """The requested profile, else the user's active AI service's tool_profile, else 'full'."""
    if requested:
        if requested not in PROFILE_DEFAULTS:
            raise ValueError(f"Unknown tool profile {requested!r}; expected full or core.")
        return requested

    service = active_ai_service(user)
    profile = getattr(service, "tool_profile", None)
    return profile if profile in PROFILE_DEFAULTS else "full"


def toolset_for(user, profile: str) -> ToolSet:
    return build_chatbot_tools(user, profile, list(CATEGORIES))


def mcp_tool(t) -> types.Tool:
    return types.Tool(name=t.name, description=t.description, input_schema=t.parameters)


def call_result(result: ToolResult) -> types.CallToolResult:
    """A ToolResult as MCP: the message, then the data as JSON; both as structured content too."""
    if not result.ok:
        return types.CallToolResult(
            content=[types.TextContent(text=result.message)],
            structured_content=result.for_model(),
            is_error=True,
        )
    content = [types.TextContent(text=result.message)]
    if result.data:
        content.append(types.TextContent(text=json.dumps(jsonable(result.data))))
    return types.CallToolResult(content=content, structured_content=result.for_model())


@dataclasses.dataclass(frozen=True)
class _Caller:
    user_id: object  # set for stdio and in-process servers; else the HTTP request carries the user
    profile: str | None


def _fresh_user(user_id):
    # Re-read on each call: a long-lived stdio server must see time-zone changes and deactivation.
    user = User.objects.filter(pk=user_id, is_active=True).first()
    if user is None:
        raise NotAuthenticated("This Sparky account no longer exists or is inactive.")
    return user


def _list_tools_sync(user, profile: str | None) -> list[types.Tool]:
    chosen = profile_for(user, profile)
    return [mcp_tool(t) for t in toolset_for(user, chosen).tools]


def _call_tool_sync(user, profile: str | None, name: str, arguments) -> types.CallToolResult:
    chosen = profile_for(user, profile)
    toolset = toolset_for(user, chosen)
    if toolset.get(name) is None:
        if name in registry():
            message = (
                f"{name} is not in Sparky's {chosen} tool set for this connection. "
                f"Available tools: {', '.join(toolset.names)}."
            )
        else:
            message = (
                f"There is no tool named {name!r}. Available tools: {', '.join(toolset.names)}."
            )
        return call_result(ToolResult(ok=False, message=message))
    ctx = ToolContext.for_user(user, source="mcp")
    return call_result(run_tool(ctx, name, arguments or {}, allowed=toolset))


def build_server(*, user=None, profile: str | None = None) -> Server:
    """An MCP server for one fixed user (stdio, tests) or, with user=None, for HTTP callers.

    `profile` pins 'full' or 'core'; None follows the user's active AI service on every request.
    """
    if profile is not None and profile not in PROFILE_DEFAULTS:
        raise ValueError(f"Unknown tool profile {profile!r}; expected full or core.")
    caller = _Caller(user_id=None if user is None else user.pk, profile=profile)

    async def who(ctx) -> tuple[object, str | None]:
        if caller.user_id is not None:
            return await _db(_fresh_user)(caller.user_id), caller.profile
        scope = getattr(ctx.request, "scope", None) or {}
        user = scope.get(SCOPE_USER)
        if user is None or not getattr(user, "is_authenticated", False):
            raise NotAuthenticated("This MCP request carries no authenticated Sparky user.")
        return user, scope.get(SCOPE_PROFILE) or caller.profile

    async def list_tools(ctx, params) -> types.ListToolsResult:
        user, chosen = await who(ctx)
        return types.ListToolsResult(tools=await _db(_list_tools_sync)(user, chosen))

    async def call_tool(ctx, params: types.CallToolRequestParams) -> types.CallToolResult:
        user, chosen = await who(ctx)
        return await _db(_call_tool_sync)(user, chosen, params.name, params.arguments)

    return Server(
        SERVER_NAME,
        version="1",
        title="Sparky",
        instructions=INSTRUCTIONS,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )


async def serve_stdio(*, user, profile: str | None = None) -> None:
    from mcp.server.stdio import stdio_server

    server = build_server(user=user, profile=profile)
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


# --- streamable HTTP -------------------------------------------------------------------------


def allowed_hosts() -> list[str]:
    """settings.ALLOWED_HOSTS as Django applies it (in DEBUG an empty list means local hosts)."""
    if settings.ALLOWED_HOSTS:
        return list(settings.ALLOWED_HOSTS)
    return [".localhost", "127.0.0.1", "[::1]"] if settings.DEBUG else []


def transport_security() -> TransportSecuritySettings:
    """DNS-rebinding protection for the hosts Django serves (settings.ALLOWED_HOSTS).

    The SDK matches exact hosts (and host:*), so Django's wildcard forms ('*', '.example.com')
    switch its check off; `TokenAuthApp` still validates Host with Django's own rules.
    """
    hosts = allowed_hosts()
    if any(h == "*" or h.startswith(".") for h in hosts):
        return TransportSecuritySettings(enable_dns_rebinding_protection=False)
    exact, origins = [], list(getattr(settings, "CSRF_TRUSTED_ORIGINS", []))
    for host in hosts:
        exact += [host, f"{host}:*"]
        origins += [
            f"{scheme}://{host}{port}" for scheme in ("http", "https") for port in ("", ":*")
        ]
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True, allowed_hosts=exact, allowed_origins=origins
    )


def _token_key(authorization: str | None) -> str | None:
    scheme, _, key = (authorization or "").strip().partition(" ")
    key = key.strip()
    if scheme.lower() not in ("bearer", "token") or not key or " " in key:
        return None
    return key


def _user_for_token(key: str):
    from rest_framework.authtoken.models import Token

    token = Token.objects.select_related("user").filter(key=key).first()
    if token is None or not token.user.is_active:
        return None
    return token.user


class TokenAuthApp:
    """ASGI wrapper: a valid Host and a DRF token on every request, or no MCP at all.

    `make_app` builds the SDK's app; each lifespan (server start) gets a fresh one, because the
    SDK's session manager can run only once and a process may start a server more than once.
    """

    def __init__(self, make_app):
        self.make_app = make_app
        self.app = make_app()
        self._started = False

    async def __call__(self, scope, receive, send):
        if scope["type"] == "lifespan":  # runs the SDK session manager's task group
            if self._started:
                self.app = self.make_app()
            self._started = True
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        domain, _port = split_domain_port(headers.get("host", ""))
        if not domain or not validate_host(domain, allowed_hosts()):
            await JSONResponse({"error": "Invalid Host header."}, status_code=400)(
                scope, receive, send
            )
            return
        key = _token_key(headers.get("authorization"))
        user = await _db(_user_for_token)(key) if key else None
        if user is None:
            response = JSONResponse(
                {
                    "error": "Authentication required: send 'Authorization: Bearer <token>' with "
                    "your Sparky API token."
                },
                status_code=401,
                headers={"WWW-Authenticate": 'Bearer realm="sparky"'},
            )
            await response(scope, receive, send)
            return
        profile = QueryParams(scope.get("query_string", b"")).get("profile") or None
        if profile is not None and profile not in PROFILE_DEFAULTS:
            await JSONResponse(
                {"error": f"Unknown tool profile {profile!r}; use full or core."}, status_code=400
            )(scope, receive, send)
            return
        await self.app({**scope, SCOPE_USER: user, SCOPE_PROFILE: profile}, receive, send)


def http_app(*, path: str = MCP_PATH):
    """The ASGI app serving MCP at `path`: stateless, JSON responses, token-authenticated.

    Its lifespan must run (uvicorn --lifespan on): it owns the SDK's session manager.
    """

    def make_app():
        return build_server().streamable_http_app(
            streamable_http_path=path,
            stateless_http=True,
            json_response=True,
            transport_security=transport_security(),
        )

    return TokenAuthApp(make_app)
