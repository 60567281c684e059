"""The agent loop: the model calls tools through litellm, step after step, within a step and time
budget. In auto mode the tools offered are the classified categories' (narrowed from the user's
surface), widened for the next step when the model calls sparky_enable_tools; in manual mode the
user's pick is a ceiling."""

from __future__ import annotations

import functools
import json
import time

from django.conf import settings

from chat import llm
from chat.choices import held_for_confirmation
from chat.classify import Classification
from chat.engines.messages import current_message, custom_prompts, history_messages
from chat.prompts import compose_system_prompt
from chat.tools import (
    ENABLE_TOOL_NAME,
    ToolContext,
    active_tool_names,
    build_chat_tool_surface,
    build_chatbot_tools,
    run_tool,
)
from chat.turns import CoachResponse, Turn, listing


def run(turn: Turn, config, classification: Classification, profile: str, service):
    user = turn.user
    categories = list(classification.categories)
    mode = classification.mode
    ctx = ToolContext.for_user(user, image=turn.image, source=turn.source, profile=profile)
    if mode == "manual":
        active = build_chatbot_tools(user, profile, categories)
        surface = None
        hint = "The user switched that category off; tell them to enable it in the tool selector."
    else:
        surface = build_chat_tool_surface(user, user.tz)
        active = surface.narrowed(active_tool_names(profile, categories))
        hint = f"Call {ENABLE_TOOL_NAME} with its category first."
    system = compose_system_prompt(
        profile=profile,
        categories=categories,
        mode=mode,
        custom_prompts=custom_prompts(turn, service),
    )
    messages = [
        {"role": "system", "content": system},
        *history_messages(turn, profile),
        current_message(turn),
    ]
    deadline = time.monotonic() + settings.SPARKY_TURN_TIME_LIMIT
    max_steps = settings.SPARKY_MAX_AGENT_STEPS
    final_text = None
    for _step in range(max_steps):
        remaining = deadline - time.monotonic()
        if remaining <= 1:
            break
        tools_payload = active.payload(cache_control=config.supports_cache_control) or None
        result = llm.complete(
            config,
            messages=messages,
            tools=tools_payload,
            timeout=min(config.timeout, remaining),
            temperature=0.2 if profile == "core" else None,
            allow_empty=bool(turn.written or turn.option_requests),
        )
        turn.add_usage(result.usage.as_dict())
        if not result.tool_calls:
            final_text = result.text.strip()
            break
        messages.append(result.assistant_message())
        enabled: list[str] = []
        replies: list[dict] = []
        run_calls = functools.partial(
            _run_step, turn, ctx, result.tool_calls, active, hint, categories, enabled, replies
        )
        question = held_for_confirmation(turn, run_calls)
        if question:  # nothing of this step was written: the model tells the user to confirm
            held = {"ok": False, "message": f"Not saved yet. {question} Ask the user."}
            for reply in replies:
                reply["content"] = json.dumps(held)
        messages += replies
        if enabled and surface is not None:
            categories += enabled
            turn.escalations.append(enabled)
            active = surface.narrowed(active_tool_names(profile, categories))
    response = CoachResponse(action="answered", message="", engine="tools")
    if final_text:
        response.message = final_text
    elif final_text is None:
        stopped = (
            f"I stopped after {max_steps} steps without a final answer"
            if time.monotonic() < deadline - 1
            else "I ran out of time before finishing"
        )
        response.message = stopped + (
            f". Saved so far: {listing(turn.written)}." if turn.written else "; nothing was saved."
        )
        response.error = "unfinished"
    elif turn.written:
        response.message = f"Logged {listing(turn.written)}."
    elif not turn.option_requests:
        raise llm.LLMBadResponse("the model sent an empty reply")
    if turn.written:
        response.action = "logged"
    classification.categories = categories
    return response


def _run_step(turn, ctx, calls, active, hint, categories, enabled, replies) -> None:
    """One step's tool calls, their replies to the model in `replies`."""
    for call in calls:
        outcome = run_tool(ctx, call.name, call.arguments, allowed=active, dormant_hint=hint)
        turn.record(call.name, outcome, call.arguments)
        if call.name == ENABLE_TOOL_NAME and outcome.ok:
            enabled += [c for c in outcome.data.get("enabled", []) if c not in categories]
        content = json.dumps(outcome.for_model())
        replies.append({"role": "tool", "tool_call_id": call.id, "content": content})
