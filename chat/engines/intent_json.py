"""Intent-JSON mode, for models without tool calling: one JSON reply describing what to log
(chat.intents reads it), dispatched to the tools like the offline parser's intents."""

from __future__ import annotations

from chat import llm
from chat.engines.dispatch import dispatch_intents
from chat.engines.messages import current_message, custom_prompts, history_messages
from chat.intents import INTENT_JSON_INSTRUCTIONS, parse_intent_reply
from chat.prompts import compose_system_prompt
from chat.turns import CoachResponse, Turn


def run(turn: Turn, config, classification, profile, service) -> CoachResponse:
    system = compose_system_prompt(
        profile=profile,
        categories=classification.categories,
        mode=classification.mode,
        custom_prompts=custom_prompts(turn, service),
        intent_json=INTENT_JSON_INSTRUCTIONS,
    )
    result = llm.complete(
        config,
        messages=[
            {"role": "system", "content": system},
            *history_messages(turn, profile),
            current_message(turn),
        ],
        temperature=0.1,
    )
    turn.add_usage(result.usage.as_dict())
    parsed = parse_intent_reply(result.text)
    if not parsed.intents:
        if result.text.strip() and not result.text.strip().startswith("{"):
            return CoachResponse(
                action="answered", message=result.text.strip(), engine="intent-json"
            )
        problem = "; ".join(parsed.errors) or "an empty reply"
        raise llm.LLMBadResponse(f"the model's reply was not a usable intent ({problem})")
    return dispatch_intents(turn, parsed.intents, engine="intent-json")
