"""The intent schema: the intents a model without tool calling (and the offline parser) writes,
their examples, the instructions and response format sent to such a model, and the Intent and
ParseResult types every engine shares."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from exercise import vocabulary as activities
from measurements.fields import KINDS
from measurements.services import STANDARD_TYPES
from nutrition.services import ML_PER_GLASS
from nutrition.vocabulary import MEALS

INTENT_NAMES = ("log_food", "log_exercise", "log_measurement", "log_water", "ask_question", "chat")
MEAL_TYPES = MEALS
STANDARD_MEASUREMENTS = STANDARD_TYPES  # measurements owns the check-in fields
# The units a check-in value may be given in, by kind: "kg or lb; cm or inches".
_UNITS = "; ".join(" or ".join(kind.units) for kind in KINDS if kind.argument)
DISTANCE_UNITS = activities.DISTANCE_UNITS  # exercise owns the distance units

MAX_INTENTS = 20
MAX_REPLY_CHARS = 20_000
MAX_JSON_CANDIDATES = 50


# One example per intent: used in the model instructions and in every validation message.
EXAMPLES = {
    "log_food": {
        "intent": "log_food",
        "data": {
            "food_name": "egg",
            "quantity": 2,
            "unit": None,
            "meal_type": "breakfast",
            "date": None,
        },
        "response": "Logging 2 eggs for breakfast.",
    },
    "log_exercise": {
        "intent": "log_exercise",
        "data": {
            "exercise_name": "Running",
            "duration_minutes": 28,
            "distance": 5,
            "distance_unit": "km",
            "date": None,
        },
        "response": "Logging a 5 km run.",
    },
    "log_measurement": {
        "intent": "log_measurement",
        "data": {
            "measurements": [
                {"type": "weight", "value": 80.2, "unit": "kg", "date": None},
                {"type": "custom", "name": "Sleep", "value": 7.5, "unit": "hours", "date": None},
            ]
        },
        "response": "Logging your weight and sleep.",
    },
    "log_water": {
        "intent": "log_water",
        "data": {"glasses_consumed": 2, "date": None},
        "response": "Adding 2 glasses of water.",
    },
    "ask_question": {
        "intent": "ask_question",
        "data": {},
        "response": "A medium banana has about 105 kcal.",
    },
    "chat": {"intent": "chat", "data": {}, "response": "Hi! What did you eat today?"},
}


def _example(name: str) -> str:
    return json.dumps(EXAMPLES[name])


INTENT_JSON_INSTRUCTIONS = f"""\
# Answering in intent JSON
You cannot call tools. Reply with JSON only: no text before or after it and no code fences.
Sparky reads the JSON, saves what it describes and then confirms to the user, so never say that
something is already saved.

Shape: {{"intent": NAME, "data": {{...}}, "response": "one short sentence for the user"}}.
For several things in one message (two foods, a food and a walk) reply
{{"intents": [{{...}}, {{...}}]}} with one object per food, exercise or water entry.

NAME is one of:
- log_food: food_name (required, one food per intent), quantity (number, default 1), unit ("g",
  "ml", "oz", "cup", "tbsp", "slice", "piece"... or null for "one serving or piece": 2 eggs is
  quantity 2 with unit null, never unit "g"), meal_type (breakfast, lunch, dinner, snack, or null
  to let Sparky pick from the user's local time).
  {_example("log_food")}
- log_exercise: exercise_name (null if not said), duration_minutes (number or null), distance
  (number or null), distance_unit (km, mi, m or null).
  {_example("log_exercise")}
- log_measurement: measurements, a list. Standard types are {", ".join(STANDARD_MEASUREMENTS)}, each
  with value and unit ({_UNITS}; null if the user gave none). Anything else is
  {{"type": "custom", "name": ..., "value": ..., "unit": ...}}.
  {_example("log_measurement")}
- log_water: glasses_consumed (number, default 1; one glass is {ML_PER_GLASS} ml).
  {_example("log_water")}
- ask_question: a question about food, fitness or the user's data; answer it in response.
  {_example("ask_question")}
- chat: anything else; reply in response.
  {_example("chat")}

Every data object may carry date: null (today), "yesterday" or YYYY-MM-DD. Numbers are plain
numbers (2, not "two"). Use null for anything the user did not say; do not guess dates or amounts.
"""


# The reply's shape as a JSON schema, for servers that constrain generation to one (llama.cpp,
# Ollama): a small model then cannot wander off into prose or half an object.
INTENT_RESPONSE_FORMAT = {
    "type": "json_schema",
    "json_schema": {
        "name": "sparky_intents",
        "schema": {
            "type": "object",
            "properties": {
                "intents": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {
                            "intent": {"type": "string", "enum": list(INTENT_NAMES)},
                            "data": {"type": "object"},
                            "response": {"type": "string"},
                        },
                        "required": ["intent", "data"],
                    },
                },
                "response": {"type": "string"},
            },
            "required": ["intents"],
        },
    },
}


class IntentError(ValueError):
    """An intent that cannot be used; the message says what to fix."""


@dataclass(frozen=True)
class Intent:
    name: str
    data: dict
    response: str | None = None
    # A bare name the offline parser took for food on a hunch (a line of a list, "and a coffee"
    # after the water): logged when the catalog knows its words, else left out.
    tentative: bool = False


@dataclass
class ParseResult:
    intents: list[Intent] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    # The whole message was a bare name ("a banana", "rice") read as a food: log it when the
    # catalog knows it, else it was not understood (no options for "a nice day").
    bare_food: bool = False
    # The whole message was small talk, of this kind ("thanks", "feeling_low"), met with a reply.
    social: str | None = None
