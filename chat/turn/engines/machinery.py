"""Whether a model's words are an answer to the user or Sparky's machinery: a tool's result
echoed, a notice of Sparky's own, a narration of what "the tool" or "the user" did, raw JSON. The
agent loop never shows such words; it asks once more or says what was saved itself."""

from __future__ import annotations

import json
import re

from chat.reading.vocabulary import MACHINERY
from sparky.words import alternation


def is_json(text: str) -> bool:
    """Whether the text is one JSON object or list and nothing else."""
    text = text.strip()
    if not text.startswith(("{", "[")):
        return False
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def names_a_tool(text: str, active) -> bool:
    """Whether the text names one of the tools offered ("log_food: chicken")."""
    return any(re.search(rf"\b{re.escape(name)}\b", text) for name in active.names)


_RESULT_ONLY = re.compile(
    rf"^(enabled [a-z, ]+\.|the tool \w+ was not offered|{alternation(MACHINERY['results'])})",
    re.I,
)
# A reply that talks about Sparky's machinery instead of to the user: "the tool recorded 6.5 hours
# of sleep", "The user asked about...", or a tool's result echoed as JSON (fenced or not).
_NARRATED = re.compile(
    rf"\bthe tools? {alternation(MACHINERY['reporting'])}\b"
    rf"|\btool[ _]{alternation(MACHINERY['tool_parts'])}\b"
    rf"|\bthe user('s)? {alternation(MACHINERY['user_did'])}\b"
    r'|\{\s*"',
    re.I,
)


def only_machinery(text: str, messages: list[dict]) -> bool:
    """Whether the model's last words are a tool's one-line summary or a notice of Sparky's own
    (an escalation, a refusal), not an answer to the user."""
    plain = " ".join(text.split()).strip()
    if _RESULT_ONLY.match(plain) or _NARRATED.search(plain):
        return True
    for message in messages:
        if message.get("role") != "tool":
            continue
        try:
            said = json.loads(message.get("content") or "{}").get("message")
        except (ValueError, AttributeError):
            continue
        if said and plain.rstrip(".") == " ".join(str(said).split()).rstrip("."):
            return True
    return False
