"""The offline engine: Sparky's own English parser (chat.reading.parser) when no AI service is
configured or the provider's circuit is open. What it understands becomes tool calls through the
same dispatch as intent-JSON mode.

`run_if_sure` is the same parser in front of a model (a service with "Sparky reads first"): a
message it reads with certainty, every item of it saved (or refused by the diary's rules) with
nothing to choose from or to confirm, is answered without the model, and so are greetings,
thanks and what other people ate; anything less is undone and left to the model whole, so the
model never sees half a message.
"""

from __future__ import annotations

from chat.reading.classify import Classification
from chat.reading.message import wants_advice
from chat.turn.answers import answer_for, answer_question
from chat.turn.engines.dispatch import dispatch_intents, nothing_logged
from chat.turn.types import OFFLINE_HELP, CoachResponse, Turn
from nutrition.services import food_words_known


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
    elif (answer := _answered(turn)) is not None:
        response = answer
    else:
        parsed = turn.reading.parse
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


def _answered(turn: Turn) -> CoachResponse | None:
    """A message that reports nothing done, answered as such: a question by what it asks, a
    wish, plan or negation with a plain "nothing logged"."""
    reading = turn.reading
    if reading.asks:
        answer = answer_for(user=turn.user, reading=reading)
        if answer is None and not reading.logs:
            answer = answer_question(user=turn.user, text=turn.text)
        if answer is not None:
            return CoachResponse(action="answered", engine="offline", message=answer)
    if reading.kind in ("negation", "plan", "wish", "habit") and not any(
        i.name == "chat" for i in reading.parse.intents
    ):
        message = nothing_logged(reading)
        foods = [i.data.get("food_name") or "" for i in reading.logs]
        plain = len(foods) == 1 and not set(foods[0].split()) & {"no", "zero", "or", "and"}
        if reading.kind == "negation" and plain and food_words_known(foods[0]):
            message = f"Nothing logged for the {foods[0]}: you said you didn't have it."
        return CoachResponse(action="none", engine="offline", message=message)
    return None


# What the parser may log on its own in front of a model, and the tool category each is in;
# questions and chat are the model's.
_LOGGING = {
    "log_food": "food",
    "log_external": "food",
    "log_exercise": "exercise",
    "log_measurement": "checkin",
    "log_water": "checkin",
    "set_goals": "goals",
    "usual_meal": "food",
    "save_usual_meal": "food",
}


def run_if_sure(turn: Turn, classification: Classification) -> CoachResponse | None:
    """The parser's answer when it read the whole message with certainty, else None (and
    nothing written)."""
    if turn.image is not None or not turn.text:
        return None
    reading = turn.reading
    if reading.asks:
        # "calories in an avocado?", "how much protein today?", "find oat milk": the numbers,
        # exactly, from the catalog and the diary; advice and the rest are the model's
        answer = answer_for(user=turn.user, reading=reading)
        if answer is None and reading.kind == "data_question" and not wants_advice(turn.text):
            # the user's own numbers, read as Sparky alone reads them: a small model guesses
            answer = answer_question(user=turn.user, text=turn.text)
        if answer is None:
            return None
        response = CoachResponse(action="answered", engine="sparky", message=answer)
    else:
        parsed = reading.parse
        if parsed.errors or not parsed.intents:
            return None
        if [i.name for i in parsed.intents] == ["chat"] and parsed.intents[0].response:
            # "thanks!", "hi sparky", "my wife had a salad": nothing to log, and Sparky says so
            response = CoachResponse(
                action="answered", engine="sparky", message=parsed.intents[0].response.strip()
            )
        elif any(intent.name not in _LOGGING for intent in parsed.intents):
            return None
        elif turn.manual is not None and any(
            _LOGGING[intent.name] not in turn.manual for intent in parsed.intents
        ):
            return None  # the user switched that category off: the model says so
        else:
            response = dispatch_intents(
                turn,
                parsed.intents,
                engine="sparky",
                bare_food=parsed.bare_food,
                only_if_sure=True,
            )
            if response is None:
                return None
    response.categories = classification.categories
    response.mode = classification.mode
    response.phase = classification.phase
    return response
