"""The offline engine: Sparky's own English parser (chat.offline) when no AI service is configured
or the provider's circuit is open. What it understands becomes tool calls through the same
dispatch as intent-JSON mode."""

from __future__ import annotations

from chat.classify import Classification
from chat.engines.dispatch import dispatch_intents
from chat.offline import parse_message
from chat.turns import OFFLINE_HELP, CoachResponse, Turn


def run(turn: Turn, classification: Classification) -> CoachResponse:
    if turn.image is not None and not turn.text:
        response = CoachResponse(
            action="none",
            engine="offline",
            message=(
                "I can't look at photos without an AI service. Tell me what you ate in words, "
                "or add a vision-capable AI service in Settings."
            ),
        )
    else:
        parsed = parse_message(turn.text)
        if parsed.intents:
            response = dispatch_intents(
                turn, parsed.intents, engine="offline", bare_food=parsed.bare_food
            )
            if parsed.errors:
                response.message += "\n" + " ".join(parsed.errors)
        else:
            why = " ".join(parsed.errors) or "Sorry, I didn't understand that."
            response = CoachResponse(
                action="none", engine="offline", message=f"{why} {OFFLINE_HELP}"
            )
    response.categories = classification.categories
    response.mode = classification.mode
    response.phase = classification.phase
    return response
