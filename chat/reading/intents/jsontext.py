"""Finding JSON in a model's text: every object or list, in prose and code fences, mended by
json-repair (trailing commas, single quotes, bare keys, a reply cut off before its last brace)."""

from __future__ import annotations

import json

import json_repair

from chat.reading.intents.schema import MAX_JSON_CANDIDATES


def _json_values(text: str) -> list:
    """Top-level JSON objects and lists in text, in order; prose and fences around them ignored."""
    values = []
    position = 0
    for _ in range(MAX_JSON_CANDIDATES):
        start = _next_opening(text, position)
        if start is None:
            break
        end = _matching_close(text, start)
        if end is None:  # cut off before its closing brace: the rest of the reply is the value
            value = _loads_lenient(text[start:])
            if isinstance(value, dict):
                values.append(value)
            break
        value = _loads_lenient(text[start : end + 1])
        if isinstance(value, dict | list):
            values.append(value)
            position = end + 1
        else:
            # Not JSON (e.g. "{like this}" in prose): look for an object inside or after it.
            position = start + 1
    return values


def _next_opening(text: str, position: int) -> int | None:
    indexes = [i for i in (text.find("{", position), text.find("[", position)) if i >= 0]
    return min(indexes) if indexes else None


def _matching_close(text: str, start: int) -> int | None:
    """Index of the bracket closing the one at start, skipping brackets inside strings."""
    expected = []
    quote = None
    i = start
    while i < len(text):
        char = text[i]
        if quote:
            if char == "\\":
                i += 1
            elif char == quote:
                quote = None
        elif char in "\"'":
            quote = char
        elif char in "{[":
            expected.append("}" if char == "{" else "]")
        elif char in "}]":
            if not expected or expected.pop() != char:
                return None
            if not expected:
                return i
        i += 1
    return None


def _loads_lenient(span: str):
    """A JSON value from strict JSON, else from what json-repair makes of relaxed JSON (single
    quotes, bare words, Python's None/True, trailing commas, a missing closing brace)."""
    try:
        return json.loads(span, strict=False)
    except (ValueError, RecursionError):
        pass
    try:
        value = json_repair.loads(span)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict | list) and value else None
