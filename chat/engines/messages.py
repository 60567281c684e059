"""The messages an engine sends a model: the recent history (within a token budget per profile),
the user's message with the per-request context (date, time, units) and the custom prompts."""

from __future__ import annotations

from chat.prompts import turn_context
from chat.turns import Turn
from sparky.dates import now_for
from sparky.services import preferences_for

HISTORY_TOKEN_BUDGET = {"full": 6000, "core": 1500}


def custom_prompts(turn, service) -> list[str]:
    prefs = preferences_for(turn.user)
    return [prefs.system_prompt or "", (service.system_prompt if service else "") or ""]


def history_messages(turn: Turn, profile: str) -> list[dict]:
    budget = HISTORY_TOKEN_BUDGET.get(profile, 6000)
    out: list[dict] = []
    used = 0
    for message in reversed(turn.history):
        content = message.content
        if message.message_type == "assistant" and (message.metadata or {}).get("options"):
            content += "\n[This reply offered numbered options.]"
        cost = len(content) // 4 + 4  # a cheap, conservative token estimate
        if used + cost > budget:
            break
        used += cost
        role = "assistant" if message.message_type == "assistant" else "user"
        out.append({"role": role, "content": content})
    return list(reversed(out))


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
