"""Validating one intent: synonyms and casing mapped onto the schema, numbers coerced,
defaults filled, bounds checked; IntentError says what was wrong with a correct example."""

from __future__ import annotations

import dataclasses
import math
import re

from chat.reading.intents.fields import (
    _clean_key,
    _clean_keys,
    _date,
    _duration_minutes,
    _fold_number_in_unit,
    _food_unit,
    _is_null,
    _meal_type,
    _number,
    _number_and_word,
    _pick,
    _shown,
    _text_or_none,
    _tidy,
    _unit_from,
)
from chat.reading.intents.jsontext import _json_values
from chat.reading.intents.schema import (
    INTENT_NAMES,
    MAX_INTENTS,
    STANDARD_MEASUREMENTS,
    Intent,
    IntentError,
    _example,
)
from exercise.services import distance_unit_of
from measurements.fields import CHECKIN
from measurements.units import unit_of
from measurements.vocabulary import CHECKIN_READINGS, CHECKIN_WORDS
from nutrition.services import ML_PER_GLASS, water_glasses

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
        raise IntentError(
            "That is longer than a food's name can be (255 characters); name one food at a time."
        )

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
        item = _clean_keys(item)
        parts = _reading_parts(item)
        for part in parts or [item]:
            cleaned.append(_measurement(part, label, shared_date, implied_type))
    return {"measurements": cleaned}


# A reading's words as a model's keys ("blood_pressure") -> the fields it fills, in order.
_READINGS = {_clean_key(word): fields for word, fields in CHECKIN_READINGS.items()}


def _reading_parts(item: dict) -> list[dict] | None:
    """A reading of several fields as one item each: {"type": "blood_pressure", "value":
    "120/80"} is a systolic of 120 and a diastolic of 80. None when the item is no reading."""
    raw_type = _pick(item, "type", "measurement_type", "kind", "metric", "category", "name")
    fields = _READINGS.get(_clean_key(raw_type)) if isinstance(raw_type, str) else None
    if fields is None:
        return None
    value = _pick(item, "value", "reading", "amount")
    if isinstance(value, dict):
        values = [_pick(_clean_keys(value), name) for name in fields]
    else:
        values = re.split(r"\s*(?:/|over)\s*", str(value or "").strip())
    if len(values) != len(fields):
        raise IntentError(
            f"A {_clean_key(raw_type).replace('_', ' ')} reading needs {len(fields)} numbers, "
            f'{"/".join(fields)}, e.g. "120/80"; not {_shown(value)}.'
        )
    rest = {k: v for k, v in item.items() if k not in ("type", "name", "value", "reading")}
    return [
        {**rest, "type": name, "value": part} for name, part in zip(fields, values, strict=True)
    ]


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


# The types a model writes for a check-in field: its name, the words people use for it and the
# keys models write for it (measurements/words/checkins.toml); "custom" for anything else.
_MEASUREMENT_TYPES = {
    **{_clean_key(word): name for word, name in CHECKIN_WORDS.items()},
    **{_clean_key(key): name for name, field in CHECKIN.items() for key in field.keys},
    **{name: name for name in CHECKIN},
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
            f"{label} needs a type ({', '.join(CHECKIN)} or custom), e.g. "
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

    field = CHECKIN[kind]
    units = field.kind.units
    if len(units) == 1:  # steps are counted in steps
        if not _is_null(raw_unit) and unit_of(field.kind, raw_unit) is None:
            raise IntentError(
                f"{label} {kind} {'are' if kind.endswith('s') else 'is'} counted in {units[0]}, "
                f"not {_shown(raw_unit)}."
            )
        value = math.floor(number + 0.5) if field.whole else _tidy(number)
        return {"type": kind, "value": value, "unit": units[0], "date": date}

    allowed = " or ".join(units)
    unit = _unit_from(
        raw_unit, lambda word: unit_of(field.kind, word), f"{label} {kind} unit", allowed
    )
    return {"type": kind, "value": _tidy(number), "unit": unit, "date": date}


def _is_standard_name(name) -> bool:
    return isinstance(name, str) and _MEASUREMENT_TYPES.get(_clean_key(name), "custom") != "custom"


def _display_name(name: str) -> str:
    """'blood_pressure' -> 'Blood pressure'; names with capitals are kept as written."""
    name = " ".join(name.replace("_", " ").split())
    return name[:1].upper() + name[1:] if name.islower() else name
