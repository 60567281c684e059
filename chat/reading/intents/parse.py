"""Reading intents out of a model's reply: every JSON object or list in the text (prose, code
fences and all), mended by json-repair, then validated."""

from __future__ import annotations

from chat.reading.intents.fields import _clean_key, _clean_keys, _text_or_none
from chat.reading.intents.jsontext import _json_values
from chat.reading.intents.schema import (
    MAX_INTENTS,
    MAX_REPLY_CHARS,
    IntentError,
    ParseResult,
    _example,
)
from chat.reading.intents.validate import _DATA_KEYS, _RESPONSE_KEYS, validate_intent

# --------------------------------------------------------------------------------------------
# Reading JSON out of a reply
# --------------------------------------------------------------------------------------------


def parse_intent_reply(text: str) -> ParseResult:
    """Every valid intent in a model's reply, and a human message for each part that was not."""
    if not isinstance(text, str) or not text.strip():
        return ParseResult(
            errors=[f"The reply was empty; expected JSON such as {_example('chat')}"]
        )
    values = _json_values(text[:MAX_REPLY_CHARS])
    if not values:
        return ParseResult(
            errors=[
                f"The reply held no JSON intent; answer with JSON only, e.g. {_example('chat')}"
            ]
        )
    candidates = []
    for value in values:
        candidates.extend(_intent_candidates(value))
    if not candidates:
        return ParseResult(
            errors=[f"The reply's JSON held no intent; expected e.g. {_example('log_food')}"]
        )

    result = ParseResult()
    if len(candidates) > MAX_INTENTS:
        result.errors.append(
            f"Only the first {MAX_INTENTS} of {len(candidates)} intents were read."
        )
        candidates = candidates[:MAX_INTENTS]
    for position, candidate in enumerate(candidates, start=1):
        try:
            result.intents.append(validate_intent(candidate))
        except IntentError as error:
            prefix = f"Intent {position}: " if len(candidates) > 1 else ""
            result.errors.append(f"{prefix}{error}")
    return result


def _intent_candidates(value, depth: int = 0) -> list:
    """The objects in a parsed reply that should each be one intent."""
    if depth > 3:
        return []
    if isinstance(value, list):
        found = []
        for item in value:
            found.extend(_intent_candidates(item, depth + 1))
        return found
    if not isinstance(value, dict):
        return []
    fields = _clean_keys(value)
    if "intents" in fields:
        inner = _intent_candidates(fields["intents"], depth + 1)
        shared = _text_or_none(fields.get("response"))
        if shared and inner and not any(_has_response(item) for item in inner):
            # One reply for the whole list: give it to the first intent only, so it is shown once.
            inner[0] = {**inner[0], "response": shared}
        return inner
    items = next((fields[key] for key in _DATA_KEYS if key in fields), None)
    if isinstance(items, list) and items and all(isinstance(item, dict) for item in items):
        # {"intent": "log_food", "data": [{...}, {...}]}: one intent per item.
        data_key = next(key for key in value if _clean_key(key) in _DATA_KEYS)
        return [{**value, data_key: item} for item in items[: MAX_INTENTS + 1]]
    return [value]


def _has_response(candidate) -> bool:
    return isinstance(candidate, dict) and any(
        _clean_key(key) in _RESPONSE_KEYS for key in candidate
    )
