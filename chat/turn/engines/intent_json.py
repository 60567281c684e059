"""Intent-JSON mode, for models without tool calling: one JSON reply describing what to log
(chat.reading.intents reads it), dispatched to the tools like the offline parser's intents."""

from __future__ import annotations

from aiservices import llm
from chat.reading.intents import (
    INTENT_JSON_INSTRUCTIONS,
    INTENT_RESPONSE_FORMAT,
    parse_intent_reply,
)
from chat.turn.engines.dispatch import dispatch_intents
from chat.turn.engines.messages import current_message, custom_prompts, history_messages
from chat.turn.prompts import compose_system_prompt
from chat.turn.types import CoachResponse, Turn

# Long enough for several intents with a sentence each; a runaway reply is cut here.
MAX_TOKENS = 700


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
        max_tokens=MAX_TOKENS,
        response_format=INTENT_RESPONSE_FORMAT if config.constrains_json else None,
    )
    turn.add_usage(result.usage.as_dict())
    text = llm.strip_reasoning(result.text)
    parsed = parse_intent_reply(text)
    if not parsed.intents:
        if text.strip() and not text.strip().startswith(("{", "[")):
            return CoachResponse(action="answered", message=text.strip(), engine="intent-json")
        if not parsed.errors or not text.strip():
            raise llm.LLMBadResponse("the model sent an empty reply")
        # The model answered, but nothing in it could be saved: say what and why. This is the
        # model's mistake about the user's message, not a provider failure.
        return CoachResponse(
            action="none",
            engine="intent-json",
            message="\n".join(f"Not saved: {problem}" for problem in parsed.errors),
        )
    response = dispatch_intents(turn, parsed.intents, engine="intent-json", profile=profile)
    if parsed.errors:
        response.message += "\n" + "\n".join(f"Not saved: {problem}" for problem in parsed.errors)
    return response
