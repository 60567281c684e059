"""Show what a turn would send: classification, composed system prompt, active tools, tokens.

For people debugging a small model ("why didn't it log my run?") and for the payload bench.
"""

import json

from django.core.management.base import BaseCommand, CommandError

from aiservices.llm import count_tokens
from chat.reading.classify import classify
from chat.reading.parser import guess_categories
from chat.tools import (
    CATEGORIES,
    active_tool_names,
    build_chat_tool_surface,
    build_chatbot_tools,
)
from chat.turn.prompts import compose_system_prompt


def _offline_classifier(previous_reply, text):
    guessed = guess_categories(text)
    return (", ".join(guessed) if guessed else "none"), {}


def turn_payload(
    *, message: str, profile: str, manual=None, user=None, llm_classify=None, model: str = "gpt-4o"
) -> dict:
    """What a text-only turn sends: the pieces and their token counts."""
    found = classify(
        text=message,
        has_image=False,
        profile=profile,
        manual=manual,
        llm_classify=llm_classify or _offline_classifier,
    )
    if found.mode == "manual":
        toolset = build_chatbot_tools(user, profile, found.categories)
    else:
        surface = build_chat_tool_surface(_Anonymous() if user is None else user, "UTC")
        toolset = surface.narrowed(active_tool_names(profile, found.categories))
    system = compose_system_prompt(profile=profile, categories=found.categories, mode=found.mode)
    tools = toolset.payload(cache_control=False)
    return {
        "message": message,
        "phase": found.phase,
        "categories": found.categories,
        "tools": toolset.names,
        "prompt_tokens": count_tokens(model, text=system),
        "tool_tokens": count_tokens(model, text=json.dumps(tools)) if tools else 0,
        "system_prompt": system,
    }


class _Anonymous:
    pk = None


class Command(BaseCommand):
    help = "Classify messages as a chat turn would and print the prompt, tools and token counts."

    def add_arguments(self, parser):
        parser.add_argument("message", nargs="+", help="one or more messages")
        parser.add_argument("--profile", choices=["full", "core"], default="full")
        parser.add_argument("--categories", help="manual selection, e.g. food,exercise")
        parser.add_argument("--json", action="store_true", help="one JSON line per message")

    def handle(self, *args, message, profile, categories=None, json=False, **options):
        manual = None
        if categories:
            manual = [c.strip() for c in categories.split(",") if c.strip()]
            unknown = [c for c in manual if c not in CATEGORIES]
            if unknown:
                raise CommandError(f"unknown categories: {', '.join(unknown)}")
        for text in message:
            payload = turn_payload(message=text, profile=profile, manual=manual)
            if json:
                payload.pop("system_prompt")
                self.stdout.write(_dumps(payload))
                continue
            self.stdout.write(f"=== {text}")
            self.stdout.write(
                f"phase: {payload['phase']}   categories: {', '.join(payload['categories'])}"
            )
            self.stdout.write(f"tools ({len(payload['tools'])}): {', '.join(payload['tools'])}")
            self.stdout.write(
                f"tokens: system prompt {payload['prompt_tokens']}, tools {payload['tool_tokens']}"
            )
            self.stdout.write("--- system prompt ---")
            self.stdout.write(payload["system_prompt"])
            self.stdout.write("")


def _dumps(value) -> str:
    return json.dumps(value)
