"""A scripted LLM server on loopback: the one fake the test suite allows.

litellm talks to it over real HTTP, so every byte it sends is a genuine provider request and every
reply goes through litellm's real parsing. It speaks three wire formats, chosen by path:

- OpenAI chat completions: POST .../chat/completions (JSON or SSE when ``stream`` is true),
  GET .../models;
- Anthropic messages: POST .../v1/messages (JSON or SSE events);
- Ollama chat: POST .../api/chat (JSON or NDJSON), POST .../api/show, GET .../api/tags.

Replies come, in order, from the queue (``reply_text``, ``reply_tool_call`` ...), then from rule
responders (``respond_with``), then from the default. The default default is a loud 400 whose
message names the request that nobody scripted, and the ``fake_llm`` fixture fails the test at
teardown if it was ever used.

    def test_something(fake_llm, settings):
        settings.SPARKY_ALLOW_PRIVATE_AI_URLS = True  # the fake lives on loopback
        fake_llm.reply_tool_call("log_food", {"food_name": "egg"})
        fake_llm.reply_text("Logged.")
        ...  # point an AI service at fake_llm.openai_base or fake_llm.anthropic_base
        assert fake_llm.tool_names() == ["log_food", ...]
"""

from __future__ import annotations

import contextlib
import json
import re
import threading
import time
import uuid
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

OPENAI = "openai"
ANTHROPIC = "anthropic"
OLLAMA = "ollama"


@dataclass(frozen=True)
class ToolCall:
    name: str
    arguments: Mapping[str, Any] | str = field(default_factory=dict)
    id: str | None = None

    def arguments_json(self) -> str:
        if isinstance(self.arguments, str):
            return self.arguments
        return json.dumps(self.arguments)

    def arguments_object(self) -> Any:
        if isinstance(self.arguments, str):
            try:
                return json.loads(self.arguments)
            except ValueError:
                return {}
        return dict(self.arguments)


@dataclass(frozen=True)
class Usage:
    input_tokens: int | None = None  # None: estimated from the request size
    output_tokens: int | None = None  # None: estimated from the reply size
    cache_read_tokens: int = 0
    cache_creation_tokens: int = 0


@dataclass(frozen=True)
class Reply:
    """One scripted answer. Build with the class methods; a responder returns one of these."""

    kind: str  # message | error | garbage | redirect
    text: str | None = None
    tool_calls: tuple[ToolCall, ...] = ()
    usage: Usage = Usage()
    finish_reason: str | None = None
    status: int = 200
    headers: Mapping[str, str] = field(default_factory=dict)
    body: bytes | None = None
    delay: float = 0.0
    # Seconds between streamed pieces of the text (a slow model writing word by word); 0 sends
    # the text in 16-character pieces at once. Only a streamed reply (``stream`` true) waits.
    token_delay: float = 0.0

    @classmethod
    def message(
        cls,
        text: str | None = None,
        tool_calls: Iterable[ToolCall | tuple] = (),
        *,
        usage: Usage | None = None,
        finish_reason: str | None = None,
        delay: float = 0.0,
        token_delay: float = 0.0,
    ) -> Reply:
        calls = tuple(c if isinstance(c, ToolCall) else ToolCall(*c) for c in tool_calls)
        return cls(
            kind="message",
            text=text,
            tool_calls=calls,
            usage=usage or Usage(),
            finish_reason=finish_reason,
            delay=delay,
            token_delay=token_delay,
        )

    @classmethod
    def error(
        cls,
        status: int = 500,
        body: str | bytes | Mapping | None = None,
        *,
        retry_after: float | str | None = None,
        headers: Mapping[str, str] | None = None,
        delay: float = 0.0,
    ) -> Reply:
        hdrs = dict(headers or {})
        if retry_after is not None:
            hdrs["Retry-After"] = str(retry_after)
        if isinstance(body, Mapping):
            raw = json.dumps(body).encode()
        elif isinstance(body, str):
            raw = body.encode()
        else:
            raw = body
        # raw None: a provider-shaped error body is written per wire format.
        return cls(kind="error", status=status, headers=hdrs, body=raw, delay=delay)

    @classmethod
    def garbage(cls, body: bytes = b'{"choices": [ this is not json', status: int = 200) -> Reply:
        return cls(kind="garbage", status=status, body=body)

    @classmethod
    def redirect(cls, location: str, status: int = 307) -> Reply:
        return cls(kind="redirect", status=status, headers={"Location": location})

    def delayed(self, seconds: float) -> Reply:
        return replace(self, delay=seconds)


@dataclass(frozen=True)
class RecordedRequest:
    method: str
    path: str
    headers: Mapping[str, str]  # lower-cased names
    body: Any  # parsed JSON, or None when the body was empty or not JSON
    raw: bytes

    @property
    def wire_format(self) -> str | None:
        if self.path.rstrip("/").endswith("/messages"):
            return ANTHROPIC
        if self.path.rstrip("/").endswith("/api/chat"):
            return OLLAMA
        if self.path.rstrip("/").endswith("/chat/completions"):
            return OPENAI
        return None

    @property
    def json(self) -> dict:
        return self.body if isinstance(self.body, dict) else {}

    @property
    def model(self) -> str | None:
        return self.json.get("model")

    @property
    def stream(self) -> bool:
        return bool(self.json.get("stream"))

    @property
    def messages(self) -> list[dict]:
        return list(self.json.get("messages") or [])

    @property
    def tools(self) -> list[dict]:
        return list(self.json.get("tools") or [])

    @property
    def tool_names(self) -> list[str]:
        names = []
        for tool in self.tools:
            # OpenAI and Ollama nest the name under "function"; Anthropic has it at the top.
            fn = tool.get("function")
            names.append(fn.get("name") if isinstance(fn, dict) else tool.get("name"))
        return names

    @property
    def system_prompt(self) -> str:
        """Every system text of the request, joined by blank lines, in either format."""
        parts: list[str] = []
        system = self.json.get("system")
        if isinstance(system, str):
            parts.append(system)
        elif isinstance(system, list):
            parts.extend(b.get("text", "") for b in system if isinstance(b, dict))
        for message in self.messages:
            if message.get("role") in ("system", "developer"):
                parts.append(_content_text(message.get("content")))
        return "\n\n".join(p for p in parts if p)

    @property
    def cache_control_positions(self) -> list[str]:
        """Where cache_control markers sit: 'tools[3]', 'system[0]', 'messages[1].content[0]'."""
        found: list[str] = []
        for i, tool in enumerate(self.tools):
            if "cache_control" in tool:
                found.append(f"tools[{i}]")
        system = self.json.get("system")
        if isinstance(system, list):
            found.extend(f"system[{i}]" for i, b in enumerate(system) if "cache_control" in b)
        for i, message in enumerate(self.messages):
            if "cache_control" in message:
                found.append(f"messages[{i}]")
            content = message.get("content")
            if isinstance(content, list):
                found.extend(
                    f"messages[{i}].content[{j}]"
                    for j, block in enumerate(content)
                    if isinstance(block, dict) and "cache_control" in block
                )
        return found

    @property
    def api_key(self) -> str | None:
        """The credential as the provider would read it (x-api-key, else the bearer token)."""
        if "x-api-key" in self.headers:
            return self.headers["x-api-key"]
        auth = self.headers.get("authorization", "")
        return auth[7:] if auth.lower().startswith("bearer ") else None

    def last_user_text(self) -> str:
        for message in reversed(self.messages):
            if message.get("role") == "user":
                return _content_text(message.get("content"))
        return ""


def _content_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(
            b.get("text", "") for b in content if isinstance(b, dict) and b.get("type") == "text"
        )
    return ""


Responder = Callable[[RecordedRequest], "Reply | str | None"]


class FakeLLM:
    """A loopback HTTP server that answers like OpenAI, Anthropic or Ollama, as scripted."""

    def __init__(self, *, default: Reply | str | None = None, host: str = "127.0.0.1"):
        self._lock = threading.Lock()
        self._queue: deque[Reply] = deque()
        self._responders: list[Responder] = []
        self._default = _as_reply(default) if default is not None else None
        self._requests: list[RecordedRequest] = []
        self.unscripted: list[RecordedRequest] = []
        self._closed = threading.Event()
        self._server = ThreadingHTTPServer((host, 0), _handler_for(self))
        self._server.daemon_threads = True
        self.host = host
        self.port = self._server.server_address[1]
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()

    # lifecycle ---------------------------------------------------------------------------
    def __enter__(self) -> FakeLLM:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        if self._closed.is_set():
            return
        self._closed.set()  # wakes delayed replies so they give up at once
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def openai_base(self) -> str:
        return f"{self.base_url}/v1"

    @property
    def anthropic_base(self) -> str:
        # litellm appends /v1/messages itself; a base ending in /v1 would double it.
        return self.base_url

    @property
    def ollama_base(self) -> str:
        return self.base_url

    # scripting ---------------------------------------------------------------------------
    def enqueue(self, *replies: Reply | str) -> FakeLLM:
        with self._lock:
            self._queue.extend(_as_reply(r) for r in replies)
        return self

    def reply_text(
        self,
        text: str,
        *,
        usage: Usage | None = None,
        delay: float = 0.0,
        token_delay: float = 0.0,
    ) -> FakeLLM:
        """A text answer; with ``token_delay`` a streamed one comes word by word, that many
        seconds apart."""
        return self.enqueue(Reply.message(text, usage=usage, delay=delay, token_delay=token_delay))

    def reply_tool_call(
        self,
        name: str,
        arguments: Mapping[str, Any] | str | None = None,
        *,
        id: str | None = None,
        text: str | None = None,
        usage: Usage | None = None,
    ) -> FakeLLM:
        call = ToolCall(name, arguments if arguments is not None else {}, id)
        return self.enqueue(Reply.message(text, [call], usage=usage))

    def reply_tool_calls(
        self,
        calls: Iterable[ToolCall | tuple],
        *,
        text: str | None = None,
        usage: Usage | None = None,
    ) -> FakeLLM:
        """Several tool calls in one reply: ``[("log_food", {...}), ("log_water", {...})]``."""
        return self.enqueue(Reply.message(text, calls, usage=usage))

    def reply_error(
        self,
        status: int = 500,
        body: str | bytes | Mapping | None = None,
        *,
        retry_after: float | str | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> FakeLLM:
        return self.enqueue(Reply.error(status, body, retry_after=retry_after, headers=headers))

    def reply_garbage(self, body: bytes = b'{"choices": [ this is not json') -> FakeLLM:
        return self.enqueue(Reply.garbage(body))

    def reply_empty(self) -> FakeLLM:
        """A well-formed reply with no text and no tool calls."""
        return self.enqueue(Reply.message(None))

    def reply_delay(self, seconds: float, then: Reply | str | None = None) -> FakeLLM:
        """Hold the response for ``seconds`` (to provoke client timeouts), then answer."""
        reply = _as_reply(then) if then is not None else Reply.message("ok")
        return self.enqueue(reply.delayed(seconds))

    def reply_redirect(self, location: str, status: int = 307) -> FakeLLM:
        return self.enqueue(Reply.redirect(location, status))

    def respond_with(self, responder: Responder) -> FakeLLM:
        """Answer from a rule when the queue is empty: ``responder(request) -> Reply | str | None``.

        Responders are asked in the order they were added; None passes to the next one, then to
        the default. A bench can install one and run forever with no scripting and no latency.
        """
        with self._lock:
            self._responders.append(responder)
        return self

    def set_default(self, reply: Reply | str | None) -> FakeLLM:
        """What to answer when nothing is queued and no responder answers (None: the loud 400)."""
        with self._lock:
            self._default = _as_reply(reply) if reply is not None else None
        return self

    def reset(self) -> None:
        with self._lock:
            self._queue.clear()
            self._responders.clear()
            self._requests.clear()
            self.unscripted.clear()

    @property
    def pending(self) -> int:
        with self._lock:
            return len(self._queue)

    # recording ---------------------------------------------------------------------------
    @property
    def requests(self) -> list[RecordedRequest]:
        """Every request received, oldest first (a snapshot copy)."""
        with self._lock:
            return list(self._requests)

    @property
    def completion_requests(self) -> list[RecordedRequest]:
        """Only the model calls (chat/completions, messages, api/chat)."""
        return [r for r in self.requests if r.wire_format and r.method == "POST"]

    @property
    def last(self) -> RecordedRequest:
        requests = self.completion_requests or self.requests
        if not requests:
            raise AssertionError("FakeLLM received no request at all.")
        return requests[-1]

    def _pick(self, req: RecordedRequest | None) -> RecordedRequest:
        return req if req is not None else self.last

    def tool_names(self, req: RecordedRequest | None = None) -> list[str]:
        return self._pick(req).tool_names

    def system_prompt(self, req: RecordedRequest | None = None) -> str:
        return self._pick(req).system_prompt

    def cache_control_positions(self, req: RecordedRequest | None = None) -> list[str]:
        return self._pick(req).cache_control_positions

    def messages(self, req: RecordedRequest | None = None) -> list[dict]:
        return self._pick(req).messages

    # serving -----------------------------------------------------------------------------
    def _record(self, req: RecordedRequest) -> None:
        with self._lock:
            self._requests.append(req)

    def _next_reply(self, req: RecordedRequest) -> Reply:
        with self._lock:
            if self._queue:
                return self._queue.popleft()
            responders = list(self._responders)
            default = self._default
        for responder in responders:
            answer = responder(req)
            if answer is not None:
                return _as_reply(answer)
        if default is not None:
            return default
        with self._lock:
            self.unscripted.append(req)
            number = len(self._requests)
        return Reply.error(
            400,
            _error_body(
                req.wire_format,
                400,
                f"FakeLLM: no scripted reply left for {req.method} {req.path} (request "
                f"#{number}). Queue a reply, add a responder or set a default.",
            ),
        )

    def _wait(self, seconds: float) -> bool:
        """Sleep unless the server closes first; True when the reply should still be sent."""
        return not self._closed.wait(seconds) if seconds > 0 else True


def _as_reply(value: Reply | str) -> Reply:
    return Reply.message(value) if isinstance(value, str) else value


# wire formats ----------------------------------------------------------------------------------
def _estimate_tokens(raw: bytes | str) -> int:
    return max(1, len(raw) // 4)


def _error_body(wire: str | None, status: int, message: str) -> bytes:
    kinds = {
        400: "invalid_request_error",
        401: "authentication_error",
        403: "permission_error",
        404: "not_found_error",
        429: "rate_limit_error",
        529: "overloaded_error",
    }
    kind = kinds.get(status, "api_error")
    if wire == ANTHROPIC:
        return json.dumps({"type": "error", "error": {"type": kind, "message": message}}).encode()
    if wire == OLLAMA:
        return json.dumps({"error": message}).encode()
    return json.dumps({"error": {"message": message, "type": kind, "code": None}}).encode()


def _usage_numbers(reply: Reply, req: RecordedRequest) -> tuple[int, int]:
    inp = reply.usage.input_tokens
    out = reply.usage.output_tokens
    if inp is None:
        inp = _estimate_tokens(req.raw)
    if out is None:
        produced = (reply.text or "") + "".join(c.arguments_json() for c in reply.tool_calls)
        out = _estimate_tokens(produced) if produced else 1
    return inp, out


def _openai_message(reply: Reply, req: RecordedRequest) -> dict:
    inp, out = _usage_numbers(reply, req)
    message: dict[str, Any] = {"role": "assistant", "content": reply.text}
    if reply.tool_calls:
        message["tool_calls"] = [
            {
                "id": c.id or f"call_{uuid.uuid4().hex[:24]}",
                "type": "function",
                "function": {"name": c.name, "arguments": c.arguments_json()},
            }
            for c in reply.tool_calls
        ]
    usage: dict[str, Any] = {
        "prompt_tokens": inp,
        "completion_tokens": out,
        "total_tokens": inp + out,
    }
    if reply.usage.cache_read_tokens:
        usage["prompt_tokens_details"] = {"cached_tokens": reply.usage.cache_read_tokens}
    return {
        "id": f"chatcmpl-{uuid.uuid4().hex[:24]}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": req.model or "fake-model",
        "choices": [
            {
                "index": 0,
                "message": message,
                "finish_reason": reply.finish_reason
                or ("tool_calls" if reply.tool_calls else "stop"),
            }
        ],
        "usage": usage,
    }


def _openai_stream(reply: Reply, req: RecordedRequest) -> Iterable[bytes]:
    body = _openai_message(reply, req)
    base = {k: body[k] for k in ("id", "created", "model")} | {"object": "chat.completion.chunk"}

    def chunk(delta: dict, finish: str | None = None, **extra) -> bytes:
        data = base | {"choices": [{"index": 0, "delta": delta, "finish_reason": finish}]} | extra
        return f"data: {json.dumps(data)}\n\n".encode()

    yield chunk({"role": "assistant", "content": ""})
    text = reply.text or ""
    if reply.token_delay > 0:
        for number, word in enumerate(re.findall(r"\s*\S+", text)):
            if number:
                time.sleep(reply.token_delay)
            yield chunk({"content": word})
    else:
        for start in range(0, len(text), 16):
            yield chunk({"content": text[start : start + 16]})
    for index, call in enumerate(body["choices"][0]["message"].get("tool_calls", [])):
        head = {
            "id": call["id"],
            "type": "function",
            "function": {"name": call["function"]["name"]},
        }
        yield chunk(
            {
                "tool_calls": [
                    {"index": index, **head, "function": head["function"] | {"arguments": ""}}
                ]
            }
        )
        yield chunk(
            {
                "tool_calls": [
                    {"index": index, "function": {"arguments": call["function"]["arguments"]}}
                ]
            }
        )
    yield chunk({}, body["choices"][0]["finish_reason"])
    if (req.json.get("stream_options") or {}).get("include_usage"):
        usage_chunk = base | {"choices": [], "usage": body["usage"]}
        yield f"data: {json.dumps(usage_chunk)}\n\n".encode()
    yield b"data: [DONE]\n\n"


def _anthropic_message(reply: Reply, req: RecordedRequest) -> dict:
    inp, out = _usage_numbers(reply, req)
    content: list[dict] = []
    if reply.text:
        content.append({"type": "text", "text": reply.text})
    for call in reply.tool_calls:
        content.append(
            {
                "type": "tool_use",
                "id": call.id or f"toolu_{uuid.uuid4().hex[:24]}",
                "name": call.name,
                "input": call.arguments_object(),
            }
        )
    return {
        "id": f"msg_{uuid.uuid4().hex[:24]}",
        "type": "message",
        "role": "assistant",
        "model": req.model or "claude-fake",
        "content": content,
        "stop_reason": reply.finish_reason or ("tool_use" if reply.tool_calls else "end_turn"),
        "stop_sequence": None,
        "usage": {
            "input_tokens": inp,
            "output_tokens": out,
            "cache_creation_input_tokens": reply.usage.cache_creation_tokens,
            "cache_read_input_tokens": reply.usage.cache_read_tokens,
        },
    }


def _anthropic_stream(reply: Reply, req: RecordedRequest) -> Iterable[bytes]:
    body = _anthropic_message(reply, req)

    def event(name: str, data: dict) -> bytes:
        return f"event: {name}\ndata: {json.dumps(data)}\n\n".encode()

    start = body | {"content": [], "stop_reason": None}
    start["usage"] = body["usage"] | {"output_tokens": 1}
    yield event("message_start", {"type": "message_start", "message": start})
    for index, block in enumerate(body["content"]):
        if block["type"] == "text":
            yield event(
                "content_block_start",
                {
                    "type": "content_block_start",
                    "index": index,
                    "content_block": {"type": "text", "text": ""},
                },
            )
            yield event(
                "content_block_delta",
                {
                    "type": "content_block_delta",
                    "index": index,
                    "delta": {"type": "text_delta", "text": block["text"]},
                },
            )
        else:
            head = {"type": "tool_use", "id": block["id"], "name": block["name"], "input": {}}
            yield event(
                "content_block_start",
                {"type": "content_block_start", "index": index, "content_block": head},
            )
            yield event(
                "content_block_delta",
                {
                    "type": "content_block_delta",
                    "index": index,
                    "delta": {
                        "type": "input_json_delta",
                        "partial_json": json.dumps(block["input"]),
                    },
                },
            )
        yield event("content_block_stop", {"type": "content_block_stop", "index": index})
    yield event(
        "message_delta",
        {
            "type": "message_delta",
            "delta": {"stop_reason": body["stop_reason"], "stop_sequence": None},
            "usage": {"output_tokens": body["usage"]["output_tokens"]},
        },
    )
    yield event("message_stop", {"type": "message_stop"})


def _ollama_message(reply: Reply, req: RecordedRequest) -> dict:
    inp, out = _usage_numbers(reply, req)
    message: dict[str, Any] = {"role": "assistant", "content": reply.text or ""}
    if reply.tool_calls:
        message["tool_calls"] = [
            {"function": {"name": c.name, "arguments": c.arguments_object()}}
            for c in reply.tool_calls
        ]
    return {
        "model": req.model or "fake",
        "created_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "message": message,
        "done": True,
        "done_reason": reply.finish_reason or "stop",
        "prompt_eval_count": inp,
        "eval_count": out,
    }


def _handler_for(fake: FakeLLM) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args) -> None:  # keep test output clean
            pass

        def do_GET(self) -> None:
            req = self._read()
            path = req.path.split("?")[0].rstrip("/")
            if path.endswith("/models"):
                self._json(
                    200,
                    {
                        "object": "list",
                        "data": [
                            {
                                "id": "fake-model",
                                "object": "model",
                                "created": 0,
                                "owned_by": "fake",
                            }
                        ],
                    },
                )
            elif path.endswith("/api/tags"):
                self._json(200, {"models": [{"name": "fake", "model": "fake"}]})
            else:
                self._json(404, {"error": {"message": f"FakeLLM: no GET route {req.path}"}})

        def do_POST(self) -> None:
            req = self._read()
            path = req.path.split("?")[0].rstrip("/")
            if path.endswith("/api/show"):
                self._json(
                    200,
                    {
                        "model_info": {"general.context_length": 8192},
                        "capabilities": ["completion", "tools"],
                        "template": "",
                    },
                )
                return
            if req.wire_format is None:
                self._json(404, {"error": {"message": f"FakeLLM: no POST route {req.path}"}})
                return
            reply = fake._next_reply(req)
            if not fake._wait(reply.delay):
                return
            # The client may have given up already (a timeout test); nothing left to say then.
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                self._send_reply(reply, req)

        def _read(self) -> RecordedRequest:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            try:
                body = json.loads(raw) if raw else None
            except ValueError:
                body = None
            req = RecordedRequest(
                method=self.command,
                path=self.path,
                headers={k.lower(): v for k, v in self.headers.items()},
                body=body,
                raw=raw,
            )
            fake._record(req)
            return req

        def _send_reply(self, reply: Reply, req: RecordedRequest) -> None:
            wire = req.wire_format
            if reply.kind == "redirect":
                self._raw(reply.status, b"", "text/plain", reply.headers)
            elif reply.kind == "garbage":
                self._raw(reply.status, reply.body or b"", "application/json", reply.headers)
            elif reply.kind == "error":
                body = reply.body
                if body is None:
                    body = _error_body(wire, reply.status, f"FakeLLM scripted {reply.status}")
                self._raw(reply.status, body, "application/json", reply.headers)
            elif req.stream and wire in (OPENAI, ANTHROPIC):
                chunks = (_openai_stream if wire == OPENAI else _anthropic_stream)(reply, req)
                self._stream("text/event-stream", chunks)
            elif wire == ANTHROPIC:
                self._json(200, _anthropic_message(reply, req))
            elif wire == OLLAMA:
                body = _ollama_message(reply, req)
                if req.stream:
                    self._stream("application/x-ndjson", [json.dumps(body).encode() + b"\n"])
                else:
                    self._json(200, body)
            else:
                self._json(200, _openai_message(reply, req))

        def _json(self, status: int, data: Any) -> None:
            self._raw(status, json.dumps(data).encode(), "application/json", {})

        def _raw(self, status: int, body: bytes, ctype: str, headers: Mapping[str, str]) -> None:
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            for name, value in headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(body)

        def _stream(self, ctype: str, chunks: Iterable[bytes]) -> None:
            # No Content-Length: the body ends when the connection closes.
            self.send_response(200)
            self.send_header("Content-Type", ctype)
            self.send_header("Cache-Control", "no-cache")
            self.send_header("Connection", "close")
            self.end_headers()
            for piece in chunks:
                self.wfile.write(piece)
                self.wfile.flush()
            self.close_connection = True

    return Handler


@pytest.fixture
def fake_llm():
    """A running FakeLLM; fails the test if a request got the unscripted default answer."""
    with FakeLLM() as fake:
        yield fake
        if fake.unscripted:
            seen = ", ".join(f"{r.method} {r.path}" for r in fake.unscripted)
            pytest.fail(f"FakeLLM answered requests nobody scripted: {seen}", pytrace=False)
