"""Reading a model's reply: its text (without reasoning), its tool calls and its token usage,
from a whole response or from a stream rebuilt whole."""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from aiservices.llm.config import LLMConfig
from aiservices.llm.errors import LLMBadResponse


class ToolCall(NamedTuple):
    id: str
    name: str
    arguments: str  # JSON text, as the model wrote it


@dataclass(frozen=True)
class Usage:
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cache_read_tokens: int = 0
    cache_creation_tokens: int = 0

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def as_dict(self) -> dict[str, int]:
        return {
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "cache_read_tokens": self.cache_read_tokens,
            "cache_creation_tokens": self.cache_creation_tokens,
        }


@dataclass(frozen=True)
class LLMResult:
    text: str
    tool_calls: list[ToolCall]
    usage: Usage
    finish_reason: str | None
    model: str | None

    def assistant_message(self) -> dict[str, Any]:
        """This reply as an OpenAI-format history message, for the next step of a loop."""
        message: dict[str, Any] = {"role": "assistant", "content": self.text or None}
        if self.tool_calls:
            message["tool_calls"] = [
                {
                    "id": c.id,
                    "type": "function",
                    "function": {"name": c.name, "arguments": c.arguments},
                }
                for c in self.tool_calls
            ]
        return message


# Reasoning -------------------------------------------------------------------------------------
# Reasoning models write their thinking before the answer (<think>...</think> and the like); a
# small model may also never close the tag. Only what follows is the answer.
REASONING_TAGS = ("think", "thinking", "reasoning", "reflection")
_REASONING = re.compile(
    rf"<({'|'.join(REASONING_TAGS)})>.*?(?:</\1>|\Z)", re.IGNORECASE | re.DOTALL
)


def strip_reasoning(text: str) -> str:
    """The answer without any reasoning block before or inside it."""
    if not text:
        return ""
    return _REASONING.sub("", text).strip()


def gathered(litellm, stream, messages, *, on_text=None, on_call=None):
    """A streamed reply read to its end, its text and calls handed on as they come, rebuilt
    whole."""
    chunks = []
    calls: dict[int, list[str]] = {}  # index -> [name, arguments so far]
    for chunk in stream:
        chunks.append(chunk)
        for choice in getattr(chunk, "choices", None) or []:
            delta = getattr(choice, "delta", None)
            piece = getattr(delta, "content", None)
            if on_text is not None and isinstance(piece, str) and piece:
                on_text(piece)
            for number, call in enumerate(getattr(delta, "tool_calls", None) or []):
                index = getattr(call, "index", None)
                written = calls.setdefault(number if index is None else index, ["", ""])
                function = getattr(call, "function", None)
                written[0] = getattr(function, "name", None) or written[0]
                written[1] += getattr(function, "arguments", None) or ""
                if on_call is not None and written[0]:
                    on_call(written[0], written[1])
    if not chunks:
        return None
    return litellm.stream_chunk_builder(chunks, messages=list(messages))


def result_of(response, config: LLMConfig, *, allow_empty: bool) -> LLMResult:
    choices = getattr(response, "choices", None) or []
    if not choices:
        raise LLMBadResponse(f"{config.description} sent a reply with no message in it.")
    choice = choices[0]
    message = getattr(choice, "message", None)
    text = _text_of(getattr(message, "content", None))
    calls = []
    for index, call in enumerate(getattr(message, "tool_calls", None) or []):
        function = getattr(call, "function", None)
        name = getattr(function, "name", None)
        if not name:
            continue
        arguments = getattr(function, "arguments", None)
        if not isinstance(arguments, str):
            arguments = json.dumps(arguments if arguments is not None else {})
        call_id = getattr(call, "id", None) or f"call_{index}_{uuid.uuid4().hex[:12]}"
        calls.append(ToolCall(call_id, name, arguments or "{}"))
    if not text.strip() and not calls and not allow_empty:
        raise LLMBadResponse(f"{config.description} sent an empty reply.")
    return LLMResult(
        text=text,
        tool_calls=calls,
        usage=_usage_of(getattr(response, "usage", None)),
        finish_reason=getattr(choice, "finish_reason", None),
        model=getattr(response, "model", None),
    )


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # content parts
        return "".join(p.get("text", "") for p in content if isinstance(p, Mapping))
    return ""


def _usage_of(usage: Any) -> Usage:
    if usage is None:
        return Usage()

    def number(obj: Any, name: str) -> int:
        value = getattr(obj, name, None) if obj is not None else None
        return int(value) if isinstance(value, int | float) else 0

    details = getattr(usage, "prompt_tokens_details", None)
    return Usage(
        prompt_tokens=number(usage, "prompt_tokens"),
        completion_tokens=number(usage, "completion_tokens"),
        cache_read_tokens=number(usage, "cache_read_input_tokens")
        or number(details, "cached_tokens"),
        cache_creation_tokens=number(usage, "cache_creation_input_tokens")
        or number(details, "cache_creation_tokens"),
    )
