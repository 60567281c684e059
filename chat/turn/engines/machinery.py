"""Whether a model's words are an answer to the user or Sparky's machinery: a tool's result
echoed, a notice of Sparky's own, a narration of what "the tool" or "the user" did, raw JSON. The
agent loop never shows such words; it asks once more or says what was saved itself."""

from __future__ import annotations

import json
import re

from chat.reading.vocabulary import MACHINERY, TURNED
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
    rf"|\b{alternation(MACHINERY['narrating'])}\b"
    r"|^\W*the user\b"  # "The user's goals for every day have been set"
    r'|\{\s*"',
    re.I,
)
_REFUSING = re.compile(rf"\b{alternation(MACHINERY['refusing'])}", re.I)
# An echo adds at most this many words of its own to what the user said.
_ECHO_SLACK = 3


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


def _said(text: str) -> list[str]:
    words = re.findall(r"[a-z0-9']+", text.lower().replace("\u2019", "'"))
    return [TURNED.get(word, word) for word in words]


def echoes(text: str, message: str) -> bool:
    """Whether a reply only says the user's message back: "I skipped breakfast." answered "You
    skipped breakfast.", a wish answered with itself. Nearly all the message's words are in it,
    in order, with at most a few words of its own ("What is your weight?" to "log my weight" is
    a question, not an echo)."""
    said, reply = _said(message), _said(text)
    if len(said) < 3 or not reply:
        return False
    shared = _in_order(said, reply)
    return shared >= 0.8 * len(said) and len(reply) - shared <= _ECHO_SLACK


def _in_order(a: list[str], b: list[str]) -> int:
    """How many words of `a` appear in `b` in the same order (their longest common run)."""
    row = [0] * (len(b) + 1)
    for word in a:
        previous = 0
        for j, other in enumerate(b, 1):
            current = row[j]
            row[j] = previous + 1 if word == other else max(row[j], row[j - 1])
            previous = current
    return row[-1]


def refuses(text: str) -> bool:
    """Whether a reply refuses ("I'm sorry, but I can't help with that"), which is no answer to
    an ordinary remark, a wish or a plan."""
    return bool(_REFUSING.search(" ".join(text.split())))


def not_an_answer(text: str, reading) -> bool:
    """Whether a model's reply to the message `reading` read says it back to the user, or
    refuses a message that asked nothing ("I'm sorry, but I can't help with that" to "I skipped
    breakfast")."""
    if reading is None:
        return False
    return echoes(text, reading.text) or (refuses(text) and not reading.asks)
