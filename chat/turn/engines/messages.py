"""The messages an engine sends a model: the recent history (within a token budget per profile),
the user's message with the per-request context (date, time, units) and the custom prompts."""

from __future__ import annotations

import json

from chat.turn.prompts import turn_context
from chat.turn.types import Turn
from sparky.dates import now_for
from sparky.services import preferences_for

HISTORY_TOKEN_BUDGET = {"full": 6000, "core": 1500}


def custom_prompts(turn, service) -> list[str]:
    prefs = preferences_for(turn.user)
    return [prefs.system_prompt or "", (service.system_prompt if service else "") or ""]


def history_messages(turn: Turn, profile: str, *, calls: bool = False) -> list[dict]:
    """The recent conversation, newest kept first within the profile's budget. With `calls`,
    a reply that saved something is replayed as the tool calls that saved it, their results and
    then its words: a small model shown only "Logged 1 apple." answers the next meal with those
    words instead of a call."""
    budget = HISTORY_TOKEN_BUDGET.get(profile, 6000)
    out: list[dict] = []
    used = 0
    for message in reversed(turn.history):
        content = message.content
        meta = message.metadata or {}
        if message.message_type == "assistant" and meta.get("options"):
            content += "\n[This reply offered numbered options.]"
        if meta.get("undone"):  # what it saved is gone: never replay it as saved
            content += "\n[The user undid this reply: what it saved was removed.]"
        replay = calls and not meta.get("undone")
        replayed = _replayed_calls(message.id, meta.get("saved_calls")) if replay else []
        cost = (len(content) + sum(len(json.dumps(m)) for m in replayed)) // 4 + 4
        if used + cost > budget:  # a cheap, conservative token estimate
            break
        used += cost
        role = "assistant" if message.message_type == "assistant" else "user"
        out.append({"role": role, "content": content})
        out.extend(reversed(replayed))
    return list(reversed(out))


def _replayed_calls(message_id, saved) -> list[dict]:
    if not saved:
        return []
    ids = [f"call_{str(message_id)[:8]}_{n}" for n in range(len(saved))]
    replayed = [
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": call_id,
                    "type": "function",
                    "function": {"name": call["name"], "arguments": json.dumps(call["arguments"])},
                }
                for call_id, call in zip(ids, saved, strict=True)
            ],
        }
    ]
    replayed += [
        {
            "role": "tool",
            "tool_call_id": call_id,
            "content": json.dumps({"ok": True, "message": c["result"]}),
        }
        for call_id, c in zip(ids, saved, strict=True)
    ]
    return replayed


def current_message(turn: Turn) -> dict:
    context = turn_context(now=now_for(turn.user), user=turn.user, prefs=preferences_for(turn.user))
    text = turn.text or "(photo attached, no text)"
    if turn.image is None:
        return {"role": "user", "content": f"{context}\n\n{text}"}
    return {
        "role": "user",
        "content": [
            {"type": "text", "text": f"{context}\n\n{text}"},
            {"type": "image_url", "image_url": {"url": turn.image.data_url()}},
        ],
    }
