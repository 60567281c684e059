"""Intent-JSON mode: the schema a model answers in when it cannot call tools, and its parser.

Models without tool calling, and Sparky's built-in offline parser (chat.offline), describe what to
log as JSON intents. Small local models write sloppy JSON, so reading a reply is two steps:

1. `_json_values` finds every JSON object or list in the text (prose, code fences and all), and
   json-repair mends the usual slips: trailing commas, single-quoted strings, bare keys, Python's
   None/True/False, a reply cut off before its last brace.
2. `validate_intent` maps synonyms and casing onto the schema, coerces numbers given as strings,
   fills defaults and checks bounds. It raises `IntentError` with a message that says what was wrong
   and shows a correct example, so the coach can pass it back to the model or show it to the user.

Nothing here touches the database: dates stay strings ("today", "yesterday", "2025-03-01") and the
services resolve them (and refuse the future) in the user's time zone.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import math
import re
from dataclasses import dataclass, field

import json_repair

from exercise.services import distance_unit_of
from measurements.units import length_unit_of, weight_unit_of
from nutrition import units as food_units
from nutrition.services import ML_PER_GLASS, meal_for_word, water_glasses
from sparky.dates import is_weekday_phrase

INTENT_NAMES = ("log_food", "log_exercise", "log_measurement", "log_water", "ask_question", "chat")
MEAL_TYPES = ("breakfast", "lunch", "dinner", "snack")
STANDARD_MEASUREMENTS = ("weight", "neck", "waist", "hips", "steps")
DISTANCE_UNITS = ("km", "mi", "m")

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
- log_measurement: measurements, a list. Standard types are weight, neck, waist, hips, steps, each
  with value and unit (kg or lb; cm or in; null if the user gave none). Anything else is
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


# --------------------------------------------------------------------------------------------
# Reading JSON out of a reply
# --------------------------------------------------------------------------------------------


def parse_intent_reply(text: str) -> ParseResult:
    """Every valid intent in a model's reply, and a human message for each part that was not."""
    if not isinstance(text, str) or not text.strip():
        return ParseResult(
            errors=[f"The reply was empty; expected JSON such as {_example('chat')}"]
        )
    values = _json_values(text[:MAX_REPLY_CHARS])
    if not values:
        return ParseResult(
            errors=[
                f"The reply held no JSON intent; answer with JSON only, e.g. {_example('chat')}"
            ]
        )
    candidates = []
    for value in values:
        candidates.extend(_intent_candidates(value))
    if not candidates:
        return ParseResult(
            errors=[f"The reply's JSON held no intent; expected e.g. {_example('log_food')}"]
        )

    result = ParseResult()
    if len(candidates) > MAX_INTENTS:
        result.errors.append(
            f"Only the first {MAX_INTENTS} of {len(candidates)} intents were read."
        )
        candidates = candidates[:MAX_INTENTS]
    for position, candidate in enumerate(candidates, start=1):
        try:
            result.intents.append(validate_intent(candidate))
        except IntentError as error:
            prefix = f"Intent {position}: " if len(candidates) > 1 else ""
            result.errors.append(f"{prefix}{error}")
    return result


def _json_values(text: str) -> list:
    """Top-level JSON objects and lists in text, in order; prose and fences around them ignored."""
    values = []
    position = 0
    for _ in range(MAX_JSON_CANDIDATES):
        start = _next_opening(text, position)
        if start is None:
            break
        end = _matching_close(text, start)
        if end is None:  # cut off before its closing brace: the rest of the reply is the value
            value = _loads_lenient(text[start:])
            if isinstance(value, dict):
                values.append(value)
            break
        value = _loads_lenient(text[start : end + 1])
        if isinstance(value, dict | list):
            values.append(value)
            position = end + 1
        else:
            # Not JSON (e.g. "{like this}" in prose): look for an object inside or after it.
            position = start + 1
    return values


def _next_opening(text: str, position: int) -> int | None:
    indexes = [i for i in (text.find("{", position), text.find("[", position)) if i >= 0]
    return min(indexes) if indexes else None


def _matching_close(text: str, start: int) -> int | None:
    """Index of the bracket closing the one at start, skipping brackets inside strings."""
    expected = []
    quote = None
    i = start
    while i < len(text):
        char = text[i]
        if quote:
            if char == "\\":
                i += 1
            elif char == quote:
                quote = None
        elif char in "\"'":
            quote = char
        elif char in "{[":
            expected.append("}" if char == "{" else "]")
        elif char in "}]":
            if not expected or expected.pop() != char:
                return None
            if not expected:
                return i
        i += 1
    return None


def _loads_lenient(span: str):
    """A JSON value from strict JSON, else from what json-repair makes of relaxed JSON (single
    quotes, bare words, Python's None/True, trailing commas, a missing closing brace)."""
    try:
        return json.loads(span, strict=False)
    except (ValueError, RecursionError):
        pass
    try:
        value = json_repair.loads(span)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict | list) and value else None


def _intent_candidates(value, depth: int = 0) -> list:
    """The objects in a parsed reply that should each be one intent."""
    if depth > 3:
        return []
    if isinstance(value, list):
        found = []
        for item in value:
            found.extend(_intent_candidates(item, depth + 1))
        return found
    if not isinstance(value, dict):
        return []
    fields = _clean_keys(value)
    if "intents" in fields:
        inner = _intent_candidates(fields["intents"], depth + 1)
        shared = _text_or_none(fields.get("response"))
        if shared and inner and not any(_has_response(item) for item in inner):
            # One reply for the whole list: give it to the first intent only, so it is shown once.
            inner[0] = {**inner[0], "response": shared}
        return inner
    items = next((fields[key] for key in _DATA_KEYS if key in fields), None)
    if isinstance(items, list) and items and all(isinstance(item, dict) for item in items):
        # {"intent": "log_food", "data": [{...}, {...}]}: one intent per item.
        data_key = next(key for key in value if _clean_key(key) in _DATA_KEYS)
        return [{**value, data_key: item} for item in items[: MAX_INTENTS + 1]]
    return [value]


def _has_response(candidate) -> bool:
    return isinstance(candidate, dict) and any(
        _clean_key(key) in _RESPONSE_KEYS for key in candidate
    )


# --------------------------------------------------------------------------------------------
# Normalising and validating one intent
# --------------------------------------------------------------------------------------------

# "name" and "type" name the intent only when they hold an intent name (OpenAI-style
# {"name": "log_food", "arguments": {...}}); otherwise they are data ({"type": "weight"}).
_INTENT_KEYS = ("intent", "intent_name", "action", "tool", "function", "name", "type")
_AUTHORITATIVE_INTENT_KEYS = frozenset(_INTENT_KEYS[:5])
_DATA_KEYS = ("data", "arguments", "args", "parameters", "params", "input", "details", "payload")
_RESPONSE_KEYS = ("response", "message", "reply", "answer", "text")
_ENVELOPE_KEYS = frozenset(_INTENT_KEYS + _DATA_KEYS + _RESPONSE_KEYS)

# Names models use for the six intents; the value is (intent, implied measurement type).
_INTENT_ALIASES = {
    "log_food": ("log_food", None),
    "log_foods": ("log_food", None),
    "log_meal": ("log_food", None),
    "add_food": ("log_food", None),
    "food": ("log_food", None),
    "food_log": ("log_food", None),
    "log_exercise": ("log_exercise", None),
    "log_workout": ("log_exercise", None),
    "log_activity": ("log_exercise", None),
    "add_exercise": ("log_exercise", None),
    "exercise": ("log_exercise", None),
    "log_measurement": ("log_measurement", None),
    "log_measurements": ("log_measurement", None),
    "log_check_in": ("log_measurement", None),
    "log_checkin": ("log_measurement", None),
    "measurement": ("log_measurement", None),
    "log_body_measurement": ("log_measurement", None),
    "log_custom_measurement": ("log_measurement", "custom"),
    "log_weight": ("log_measurement", "weight"),
    "log_steps": ("log_measurement", "steps"),
    "log_water": ("log_water", None),
    "add_water": ("log_water", None),
    "water": ("log_water", None),
    "log_hydration": ("log_water", None),
    "ask_question": ("ask_question", None),
    "question": ("ask_question", None),
    "ask": ("ask_question", None),
    "chat": ("chat", None),
    "general_chat": ("chat", None),
    "conversation": ("chat", None),
    "none": ("chat", None),
}


def validate_intent(obj) -> Intent:
    """One intent in canonical form (every schema key present, defaults filled), or IntentError.

    Accepts the sloppy shapes models produce (synonyms, casing, flat data, numbers as strings) and
    an Intent, so validating a validated intent returns it unchanged.
    """
    if isinstance(obj, Intent):
        again = validate_intent({"intent": obj.name, "data": obj.data, "response": obj.response})
        return dataclasses.replace(again, tentative=obj.tentative)
    if not isinstance(obj, dict):
        raise IntentError(f"An intent must be a JSON object, e.g. {_example('log_food')}")
    fields = _clean_keys(obj)
    name, implied_type, name_key = _intent_name(fields)
    response = _text_or_none(_pick(fields, *_RESPONSE_KEYS))
    if name in ("ask_question", "chat"):
        # Their data is always {}; a reply misplaced inside it is still the reply.
        data = fields.get("data")
        inner = _pick(_clean_keys(data), *_RESPONSE_KEYS) if isinstance(data, dict) else None
        return Intent(name, {}, response or _text_or_none(inner))
    data = _intent_data(fields, name, name_key)
    validators = {
        "log_food": _food_data,
        "log_exercise": _exercise_data,
        "log_water": _water_data,
    }
    if name == "log_measurement":
        return Intent(name, _measurement_data(data, implied_type), response)
    return Intent(name, validators[name](data), response)


def _intent_name(fields: dict) -> tuple[str, str | None, str]:
    """(intent, implied measurement type, the key that named it)."""
    for key in _INTENT_KEYS:
        raw = fields.get(key)
        if isinstance(raw, str) and _clean_key(raw) in _INTENT_ALIASES:
            return (*_INTENT_ALIASES[_clean_key(raw)], key)
        if key in _AUTHORITATIVE_INTENT_KEYS and key in fields:
            raise IntentError(
                f"Unknown intent {_shown(raw)}; use one of {', '.join(INTENT_NAMES)}."
            )
    # {"log_food": {...}}: the intent given as the only key.
    named = [key for key in fields if key in _INTENT_ALIASES and isinstance(fields[key], dict)]
    if len(named) == 1:
        return (*_INTENT_ALIASES[named[0]], named[0])
    raise IntentError(
        f"The JSON has no intent; use one of {', '.join(INTENT_NAMES)}, e.g. {_example('log_food')}"
    )


def _intent_data(fields: dict, name: str, name_key: str) -> dict:
    if name_key in _INTENT_KEYS:
        data = next((fields[key] for key in _DATA_KEYS if key in fields), None)
    else:
        data = fields[name_key]
    # Fields written beside "data" rather than inside it still count.
    loose = {
        key: value
        for key, value in fields.items()
        if key != name_key and key not in _DATA_KEYS and key not in _RESPONSE_KEYS
    }
    for _ in range(5):
        if isinstance(data, str):
            data = next((v for v in _json_values(data) if isinstance(v, dict)), None)
        if isinstance(data, dict):
            inner = _clean_keys(data)
            wrapped = next((key for key in _DATA_KEYS if key in inner), None)
            if wrapped and set(inner) <= _ENVELOPE_KEYS:
                data = inner[wrapped]  # {"data": {"data": {...}}} or a whole intent inside data
                continue
        break
    if data is None or _is_null(data):
        data = {}
    if not isinstance(data, dict):
        raise IntentError(f"{name} data must be an object, e.g. {_example(name)}")
    return {**loose, **_clean_keys(data)}


def _food_data(data: dict) -> dict:
    food_name = _pick(data, "food_name", "food", "name", "item", "food_item", "description")
    if _is_null(food_name) or not isinstance(food_name, str) or not food_name.strip():
        raise IntentError(f"log_food needs a food_name, e.g. {_example('log_food')}")
    food_name = " ".join(food_name.split())
    if len(food_name) > 255:
        raise IntentError("log_food food_name is longer than 255 characters; name one food.")

    raw_quantity = _pick(data, "quantity", "qty", "amount", "servings", "count", "number")
    raw_unit = _pick(data, "unit", "units", "serving_unit", "measure", "unit_of_measure")
    quantity, unit_from_quantity = _number_and_word(raw_quantity, "log_food quantity")
    # No unit stays None ("one serving or piece"), not the spec's default "g": "2 eggs" logged as
    # 2 g is the classic mix-up, and the services know each food's serving when no unit is given.
    unit = _food_unit(raw_unit)
    if unit is None and unit_from_quantity is not None:
        unit = _food_unit(unit_from_quantity)  # "quantity": "200g"
    if quantity is None:
        quantity = 1
    unit, quantity = _fold_number_in_unit(unit, quantity)

    return {
        "food_name": food_name,
        "quantity": _tidy(quantity),
        "unit": unit,
        "meal_type": _meal_type(_pick(data, "meal_type", "meal", "mealtype", "meal_name")),
        "date": _date(data, "log_food"),
    }


def _exercise_data(data: dict) -> dict:
    name = _pick(data, "exercise_name", "exercise", "name", "activity", "workout", "sport")
    if _is_null(name) or (isinstance(name, str) and not name.strip()):
        name = None  # the exercise services log "General Exercise"
    elif not isinstance(name, str):
        raise IntentError(
            f"log_exercise exercise_name must be text, e.g. {_example('log_exercise')}"
        )
    else:
        name = " ".join(name.split())[:255]

    minutes = _duration_minutes(data)

    distance, unit_from_distance = _number_and_word(
        _pick(data, "distance", "dist", "distance_value"), "log_exercise distance"
    )
    unit = None
    if distance is not None:
        raw_unit = _pick(data, "distance_unit", "unit", "distance_units", "units")
        if _is_null(raw_unit):
            raw_unit = unit_from_distance
        unit = _unit_from(raw_unit, distance_unit_of, "log_exercise distance_unit", "km, mi or m")

    return {
        "exercise_name": name,
        "duration_minutes": _tidy(minutes) if minutes is not None else None,
        "distance": _tidy(distance) if distance is not None else None,
        "distance_unit": unit,
        "date": _date(data, "log_exercise"),
    }


def _water_data(data: dict) -> dict:
    label = "log_water glasses_consumed"
    amount, word = _number_and_word(
        _pick(data, "glasses_consumed", "glasses", "glass", "cups", "count", "quantity", "amount"),
        label,
    )
    unit = _pick(data, "unit", "units") or word
    if amount is None:
        amount, unit = _number(_pick(data, "ml", "milliliters", "amount_ml"), "log_water ml"), "ml"
    glasses = 1 if amount is None else water_glasses(amount, None if _is_null(unit) else unit)
    if glasses is None:
        raise IntentError(
            f"{label} is counted in glasses ({ML_PER_GLASS} ml); {_shown(unit)} is not a unit of "
            f"water I know. Use glasses, ml or l, e.g. {_example('log_water')}"
        )
    # The water table counts whole glasses: round half up, and any water drunk counts as one.
    # None or less is passed on as it is, for the water service to refuse.
    whole = max(1, math.floor(glasses + 0.5)) if glasses > 0 else _tidy(glasses)
    return {"glasses_consumed": whole, "date": _date(data, "log_water")}


def _measurement_data(data: dict, implied_type: str | None) -> dict:
    items = _pick(data, "measurements", "measurement", "entries", "items", "values", "readings")
    if isinstance(items, dict):
        items = [items]
    if items is None:
        items = _flat_measurements(data, implied_type)
    if not isinstance(items, list) or not items:
        raise IntentError(
            f"log_measurement needs a list of measurements, e.g. {_example('log_measurement')}"
        )
    if len(items) > MAX_INTENTS:
        raise IntentError(f"log_measurement takes at most {MAX_INTENTS} measurements at once.")
    shared_date = _date(data, "log_measurement")
    cleaned = []
    for position, item in enumerate(items, start=1):
        label = f"log_measurement item {position}" if len(items) > 1 else "log_measurement"
        if not isinstance(item, dict):
            raise IntentError(f"{label} must be an object like {{'type': 'weight', 'value': 80}}.")
        cleaned.append(_measurement(_clean_keys(item), label, shared_date, implied_type))
    return {"measurements": cleaned}


def _flat_measurements(data: dict, implied_type: str | None) -> list[dict]:
    """Measurements written straight into data: {"type": "weight", "value": 80}, {"weight": 80}."""
    if any(key in data for key in ("type", "value", "name")) or implied_type:
        return [data]
    items = []
    for kind in STANDARD_MEASUREMENTS:
        if kind in data and not _is_null(data[kind]):
            unit = data.get(f"{kind}_unit")
            if unit is None and kind != "steps":
                unit = data.get("length_unit") if kind != "weight" else data.get("weight_unit")
            items.append(
                {"type": kind, "value": data[kind], "unit": unit, "date": data.get("date")}
            )
    return items


_MEASUREMENT_TYPES = {
    "weight": "weight",
    "body_weight": "weight",
    "bodyweight": "weight",
    "weigh_in": "weight",
    "neck": "neck",
    "neck_circumference": "neck",
    "waist": "waist",
    "waist_circumference": "waist",
    "hips": "hips",
    "hip": "hips",
    "hip_circumference": "hips",
    "steps": "steps",
    "step": "steps",
    "step_count": "steps",
    "custom": "custom",
}


def _measurement(item: dict, label: str, shared_date, implied_type: str | None) -> dict:
    raw_type = _pick(item, "type", "measurement_type", "kind", "metric", "category")
    name = _pick(item, "name", "label", "custom_name", "category_name")
    value = _pick(item, "value", "amount", "reading", "val", "quantity", "count")
    if _is_null(raw_type) and _is_null(value):
        # {"weight": 80, "unit": "kg"}: the type given as the key.
        given = [kind for kind in STANDARD_MEASUREMENTS if not _is_null(item.get(kind))]
        if len(given) == 1:
            raw_type, value = given[0], item[given[0]]
    if _is_null(raw_type):
        raw_type = implied_type
    if _is_standard_name(name) and (_is_null(raw_type) or _clean_key(raw_type) == "custom"):
        raw_type, name = name, None  # {"name": "weight"} or {"type": "custom", "name": "Weight"}
    if _is_null(raw_type) and isinstance(name, str) and name.strip():
        raw_type = "custom"
    if not isinstance(raw_type, str):
        raise IntentError(
            f"{label} needs a type (weight, neck, waist, hips, steps or custom), e.g. "
            f"{_example('log_measurement')}"
        )
    kind = _MEASUREMENT_TYPES.get(_clean_key(raw_type))
    if kind is None:
        # "blood_pressure": an unknown type is a custom measurement of that name.
        kind, name = "custom", name if isinstance(name, str) and name.strip() else raw_type

    number, unit_word = _number_and_word(value, f"{label} ({kind}) value")
    if number is None:
        raise IntentError(f"{label} ({kind}) needs a value, e.g. {_example('log_measurement')}")
    raw_unit = item.get("unit", item.get("units"))
    if _is_null(raw_unit):
        raw_unit = unit_word
    date = _date(item, label) or shared_date

    if kind == "custom":
        if not isinstance(name, str) or not name.strip():
            raise IntentError(
                f"{label} is custom and needs a name, e.g. {_example('log_measurement')}"
            )
        name = _display_name(name)
        if len(name) > 50:
            raise IntentError(f"{label} name is longer than 50 characters.")
        unit = None if _is_null(raw_unit) else " ".join(str(raw_unit).split())[:20] or None
        return {"type": "custom", "name": name, "value": _tidy(number), "unit": unit, "date": date}

    if kind == "steps":
        if not _is_null(raw_unit) and _clean_key(str(raw_unit)) not in ("steps", "step"):
            raise IntentError(f"{label} steps are counted in steps, not {_shown(raw_unit)}.")
        return {"type": "steps", "value": math.floor(number + 0.5), "unit": "steps", "date": date}

    if kind == "weight":
        unit = _unit_from(raw_unit, weight_unit_of, f"{label} weight unit", "kg or lb")
    else:
        unit = _unit_from(raw_unit, length_unit_of, f"{label} {kind} unit", "cm or inches")
    return {"type": kind, "value": _tidy(number), "unit": unit, "date": date}


def _is_standard_name(name) -> bool:
    return isinstance(name, str) and _MEASUREMENT_TYPES.get(_clean_key(name), "custom") != "custom"


def _display_name(name: str) -> str:
    """'blood_pressure' -> 'Blood pressure'; names with capitals are kept as written."""
    name = " ".join(name.replace("_", " ").split())
    return name[:1].upper() + name[1:] if name.islower() else name


# --------------------------------------------------------------------------------------------
# Field helpers
# --------------------------------------------------------------------------------------------

_NULL_WORDS = frozenset({"", "null", "none", "nil", "n/a", "na", "undefined", "unknown"})


def _clean_key(key) -> str:
    """'Food Name', 'food-name' and 'foodName' all become 'food_name'."""
    text = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", str(key).strip())
    return re.sub(r"[\s\-]+", "_", text).lower()


def _clean_keys(obj: dict) -> dict:
    return {_clean_key(key): value for key, value in obj.items()}


def _pick(data: dict, *names: str):
    """The first of several synonymous keys that holds a non-null value."""
    for name in names:
        if name in data and not _is_null(data[name]):
            return data[name]
    return None


def _is_null(value) -> bool:
    return value is None or (isinstance(value, str) and value.strip().lower() in _NULL_WORDS)


def _text_or_none(value) -> str | None:
    if not isinstance(value, str) or _is_null(value):
        return None
    return value.strip()


def _shown(value) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _number(value, label: str) -> float | None:
    return _number_and_word(value, label)[0]


_NUMBER_WITH_WORD = re.compile(r"(\d+(?:\.\d+)?|\.\d+)(?:\s*/\s*(\d+(?:\.\d+)?))?\s*([^\W\d].*)?")


def _number_and_word(value, label: str) -> tuple[float | None, str | None]:
    """A number from a JSON value, plus any word after it in a string ("200 g" -> 200, "g")."""
    if _is_null(value):
        return None, None
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise IntentError(f"{label} must be a number, not {_shown(value)}.")
    if isinstance(value, str):
        text = value.strip().replace(",", "") if re.search(r"\d,\d{3}", value) else value.strip()
        try:
            number = float(text)
        except ValueError:
            match = _NUMBER_WITH_WORD.fullmatch(text)
            if not match:
                raise IntentError(f"{label} must be a number, not {_shown(value)}.") from None
            if match[2] and float(match[2]) == 0:
                raise IntentError(f"{label} must be a number, not {_shown(value)}.") from None
            number = float(match[1]) / float(match[2]) if match[2] else float(match[1])
            if not math.isfinite(number):
                raise IntentError(
                    f"{label} must be a finite number, not {_shown(value)}."
                ) from None
            return number, (match[3] or "").strip().lower() or None
    else:
        number = float(value) if abs(value) < 1e300 else math.inf
    if not math.isfinite(number):
        raise IntentError(f"{label} must be a finite number, not {_shown(value)}.")
    return number, None


def _tidy(number: float) -> int | float:
    """Whole numbers as int, others to 4 decimals, so stored JSON reads naturally."""
    rounded = round(number, 4)
    return int(rounded) if rounded == int(rounded) else rounded


def _fold_number_in_unit(unit: str | None, quantity: float) -> tuple[str | None, float]:
    """A unit such as "100 g" hides a number; fold it into quantity only when that is unambiguous.

    quantity 1 with unit "100 g" means 100 g. quantity 75 with unit "100 g" could mean 75 g or
    7,500 g (a real 26,000 kcal mix-up elsewhere), so it is refused rather than guessed.
    """
    if unit is None or not re.match(r"[\d.]", unit):
        return unit, quantity
    amount, word = _number_and_word(unit, "log_food unit")
    if quantity == 1 and word:
        return _food_unit(word), amount
    raise IntentError(
        f"log_food unit {unit!r} holds a number; put the amount in quantity and only the unit in "
        f"unit, e.g. quantity 75 and unit 'g'."
    )


def _food_unit(raw) -> str | None:
    if _is_null(raw):
        return None
    if not isinstance(raw, str):
        raise IntentError(f"log_food unit must be text such as 'g' or 'cup', not {_shown(raw)}.")
    text = " ".join(raw.strip().lower().split())
    if len(text) > 50:
        raise IntentError("log_food unit is longer than 50 characters; use e.g. 'g' or 'cup'.")
    return food_units.unit_word(text) or text


def _meal_type(raw) -> str | None:
    if _is_null(raw):
        return None  # the coach picks the meal from the user's local time
    if isinstance(raw, str):
        # "Late lunch", "afternoon snack": the meal word decides.
        meals = {meal_for_word(word) for word in re.findall(r"[a-z]+", raw.lower())} - {None}
        if len(meals) == 1:
            return meals.pop()
    raise IntentError(
        f"log_food meal_type must be breakfast, lunch, dinner, snack or null, not {_shown(raw)}."
    )


def _unit_from(raw, lookup, label: str, allowed: str) -> str | None:
    """A unit through its domain's vocabulary; None for none; IntentError for an unknown one."""
    if _is_null(raw):
        return None
    unit = lookup(raw) if isinstance(raw, str) else None
    if unit is None:
        raise IntentError(f"{label} must be {allowed} (or null), not {_shown(raw)}.")
    return unit


_HOUR_WORDS = frozenset({"h", "hr", "hrs", "hour", "hours"})
_MINUTE_WORDS = frozenset({"m", "min", "mins", "minute", "minutes"})


def _duration_minutes(data: dict) -> float | None:
    label = "log_exercise duration_minutes"
    raw = _pick(data, "duration_minutes", "duration", "minutes", "mins", "duration_min", "time")
    minutes, word = _number_and_word(raw, label)
    if minutes is not None and word is not None:
        if word in _HOUR_WORDS:
            minutes *= 60
        elif word not in _MINUTE_WORDS:
            raise IntentError(f"{label} must be a number of minutes, not {_shown(raw)}.")
    if minutes is None:
        hours = _number(_pick(data, "duration_hours", "hours"), "log_exercise duration_hours")
        minutes = hours * 60 if hours is not None else None
    return minutes


_RELATIVE_DATES = ("today", "yesterday", "day before yesterday")


def _date(data: dict, label: str) -> str | None:
    """The date as the services read it: None (today), 'today', 'yesterday', 'N days ago', ISO."""
    raw = _pick(data, "date", "entry_date", "day", "log_date")
    if _is_null(raw):
        return None
    if isinstance(raw, str):
        text = " ".join(raw.strip().lower().split())
        if text in ("now", "tonight", "this morning", "this evening", "this afternoon"):
            return "today"
        if text in _RELATIVE_DATES or re.fullmatch(r"\d{1,4} days? ago", text):
            return text
        if is_weekday_phrase(text):
            return text
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}([t ].*)?", text):
            try:
                return dt.date.fromisoformat(text[:10]).isoformat()
            except ValueError:
                pass
    raise IntentError(
        f"{label} date must be null, 'today', 'yesterday' or YYYY-MM-DD, not {_shown(raw)}."
    )
