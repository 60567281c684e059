"""Check-ins: water, body measurements (weight, waist, a reading of several such as a blood
pressure...) and custom measurements (sleep, heart rate, mood out of 10)."""

from __future__ import annotations

import re

from chat.reading.parser.exercise import duration_minutes
from chat.reading.parser.state import When
from chat.reading.parser.tokens import take_quantity, token_at
from chat.reading.parser.vocabulary import (
    BARE_WEIGHT_CLOSERS,
    BARE_WEIGHT_OPENERS,
    CUSTOM_UNITS,
    CUSTOM_WORDS,
    MEASUREMENT_FILLER,
    NOT_PLAIN_WATER,
    PREPARED_WITH,
    STANDARD_WORDS,
)
from measurements.fields import CHECKIN, READINGS
from measurements.units import length_unit_of, weight_unit_of
from measurements.vocabulary import CHECKIN_READINGS
from nutrition.services import water_glasses
from nutrition.units import unit_word as food_unit


def is_water(tokens: list[str]) -> bool:
    """Whether a clause says water drunk: not "coconut water", nor the water porridge was "made
    with" (how a food was prepared)."""
    return any(
        token in ("water", "waters")
        and token_at(tokens, i - 1) not in NOT_PLAIN_WATER
        and not (
            token_at(tokens, i - 1) in ("with", "in") and token_at(tokens, i - 2) in PREPARED_WITH
        )
        for i, token in enumerate(tokens)
    )


def water_amount(tokens: list[str]) -> dict:
    """Glasses of water in a clause: '3 glasses of water', 'water 500 ml', '2 bottles of water'."""
    for i in range(len(tokens)):
        amount, j = take_quantity(tokens, i)
        if amount is None:
            continue
        for unit in (token_at(tokens, j), token_at(tokens, j + 1)):  # "2 big glasses"
            unit = None if unit in ("", "of", "water", "waters") else unit
            glasses = water_glasses(amount, unit)
            if glasses is not None:
                return {"glasses_consumed": glasses}
    return {"glasses_consumed": 1}


# word -> (custom measurement name, default unit)
SCORE = "out of 10"


def measurement_items(tokens: list[str], when: When) -> list[dict]:
    """Every measurement in a clause; 'weight 80.2kg waist 84cm' gives two."""
    items, used = [], set()
    for i, token in enumerate(tokens):
        token = _without_is(token)
        if token in STANDARD_WORDS:
            item = _standard_measurement(tokens, i, STANDARD_WORDS[token], used)
        elif token in CHECKIN_READINGS:
            item = _reading(tokens, i, CHECKIN_READINGS[token], used)
        elif token in CUSTOM_WORDS:
            item = _custom_measurement(tokens, i, *CUSTOM_WORDS[token], used)
        else:
            continue
        for found in item:
            found["date"] = when.date
            if found.get("name") == "Sleep" and when.last_night:
                found["date"] = None  # last night's sleep belongs to the day you woke up
            items.append(found)
    if not items and (weight := _bare_weight(tokens)):
        items.append({**weight, "date": when.date})
    return items


def _without_is(token: str) -> str:
    """ "mood's" (mood is) as "mood"; any other word as it is."""
    if token.endswith("'s") and _names_measurement(token[:-2]):
        return token[:-2]
    return token


def _names_measurement(token: str) -> bool:
    return token in STANDARD_WORDS or token in CHECKIN_READINGS or token in CUSTOM_WORDS


def measures(token: str) -> bool:
    """Whether a word names a measurement ("weight", "bp", "mood", "mood's")."""
    return _names_measurement(_without_is(token))


def _score_after(tokens: list[str], i: int, used: set[int]) -> tuple[float, int, int] | None:
    """A score said further on ("mood today 3/10", "rate my mood a 7"): the first number after
    the word, if it can be one (0 to 10)."""
    for j in range(i + 1, len(tokens)):
        value, end = take_quantity(tokens, j, articles=False)
        if value is None or j in used:
            continue
        out_of = tokens[j].endswith("/10") or tokens[end : end + 3] == ["out", "of", "10"]
        hedged = token_at(tokens, j - 1) in ("a", "at", "maybe", "about", "around", "like")
        return (value, j, end) if out_of or (hedged and 0 <= value <= 10) else None
    return None


def _bare_weight(tokens: list[str]) -> dict | None:
    while tokens and tokens[-1] in BARE_WEIGHT_CLOSERS:
        tokens = tokens[:-1]
    i = 0
    while token_at(tokens, i) in BARE_WEIGHT_OPENERS:
        i += 1
    value, end = take_quantity(tokens, i, articles=False)
    if value is None or end != len(tokens) - 1:
        return None
    unit = weight_unit_of(tokens[end])
    return {"type": "weight", "value": value, "unit": unit} if unit else None


def number_near(
    tokens: list[str], i: int, used: set[int], filler=MEASUREMENT_FILLER
) -> tuple[float, int, int] | None:
    """(value, first index, index after) of the number after tokens[i], or just before it."""
    j = i + 1
    while token_at(tokens, j) in filler and j < i + 4:
        j += 1
    value, end = take_quantity(tokens, j, articles=False)
    if value is not None and j not in used:
        return value, j, end
    # "84 cm waist", "9500 steps", "10k steps": the number comes first.
    for start in (i - 2, i - 1, i - 3):
        value, end = take_quantity(tokens, start, articles=False) if start >= 0 else (None, 0)
        if value is not None and start not in used and i - 2 <= end <= i:
            return value, start, end
    return None


def _standard_measurement(tokens: list[str], i: int, kind: str, used: set[int]) -> list[dict]:
    found = number_near(tokens, i, used)
    if found is None:
        return []  # "I need to weigh my options"
    value, start, end = found
    used.update(range(start, end + 1))
    unit_word = token_at(tokens, end)
    if kind == "steps":
        if unit_word == "k":
            value *= 1000
        return [{"type": "steps", "value": value, "unit": "steps"}]
    if kind == "weight":
        if weight_unit_of(unit_word) is None and food_unit(unit_word) is not None:
            return []  # "a lollipop weighing half an ounce": what the food weighs
        if unit_word in ("stone", "st"):
            pounds, _ = take_quantity(tokens, end + 1, articles=False)
            return [{"type": "weight", "value": value * 14 + (pounds or 0), "unit": "lb"}]
        return [{"type": "weight", "value": value, "unit": weight_unit_of(unit_word)}]
    return [{"type": kind, "value": value, "unit": length_unit_of(unit_word)}]


def _reading(tokens: list[str], i: int, fields: tuple[str, ...], used: set[int]) -> list[dict]:
    """A reading of several check-in fields said at once: "bp 120/80", "118 over 76"."""
    found = number_near(tokens, i, used)
    if found is None:
        return []
    _, start, end = found
    values = tokens[start].split("/")
    while len(values) < len(fields) and token_at(tokens, end) == "over":  # "118 over 76"
        value, after = take_quantity(tokens, end + 1, articles=False)
        if value is None:
            break
        values.append(f"{value:g}")
        end = after
    if len(values) != len(fields):
        return []  # "bp 120": which of its numbers is not said
    used.update(range(start, end + 1))
    return [
        {"type": field, "value": float(value), "unit": CHECKIN[field].kind.base}
        for field, value in zip(fields, values, strict=True)
    ]


def half_a_reading(tokens: list[str]) -> str | None:
    """What to say when a reading is named with fewer numbers than it has ("bp 120"), else None."""
    for i, token in enumerate(tokens):
        fields = CHECKIN_READINGS.get(_without_is(token))
        if fields and number_near(tokens, i, set()) is not None:
            reading = next(r for r in READINGS.values() if r.fields == fields)
            return (
                f"A {reading.label.lower()} is {len(fields)} numbers ({', '.join(fields)}): say "
                f"them together, e.g. '{token} {reading.example}'."
            )
    return None


def _custom_measurement(
    tokens: list[str], i: int, name: str, default_unit: str | None, used: set[int]
) -> list[dict]:
    if name == "Sleep":
        minutes = duration_minutes(tokens)
        if minutes is None:
            return []  # "slept well"
        return [
            {"type": "custom", "name": "Sleep", "value": round(minutes / 60, 2), "unit": "hours"}
        ]
    found = number_near(tokens, i, used)
    if found is None and default_unit == SCORE:
        found = _score_after(tokens, i, used)
    if found is None:
        return []
    value, start, end = found
    used.update(range(start, end + 1))
    unit = CUSTOM_UNITS.get(token_at(tokens, end), default_unit)
    reading = tokens[start]
    if default_unit == SCORE:
        if re.fullmatch(r"\d+(\.\d+)?/10", reading):  # "7/10" is 7, not 0.7
            value = float(reading.split("/")[0])
        if not 0 <= value <= 10:
            return []
        return [{"type": "custom", "name": name, "value": value, "unit": SCORE}]
    return [{"type": "custom", "name": name, "value": value, "unit": unit}]


# "went to bed at 11 and woke up at 7": the hours between going to bed and getting up.
_TO_BED = ("bed", "asleep")
_UP = ("woke", "awake", "up", "wake", "waking")
_AT = ("at", "by", "around", "about", "like", "~")


def _clock(tokens: list[str], i: int) -> tuple[float, str] | None:
    """The time of day said from tokens[i] ("11", "11 : 30 pm", "7am"), in hours, with its
    am/pm word ('' when none was said)."""
    hour = token_at(tokens, i)
    if not hour.isdigit() or not 0 < int(hour) <= 12:
        return None
    minutes, j = 0, i + 1
    if token_at(tokens, j) == ":" and token_at(tokens, j + 1).isdigit():
        minutes, j = int(tokens[j + 1]), j + 2
    half = token_at(tokens, j) if token_at(tokens, j) in ("am", "pm") else ""
    return int(hour) % 12 + minutes / 60, half


def _time_after(tokens: list[str], words: tuple[str, ...]) -> tuple[float, str] | None:
    for i, token in enumerate(tokens):
        if token not in words:
            continue
        for j in range(i + 1, min(i + 4, len(tokens))):
            if token_at(tokens, j - 1) in _AT and (clock := _clock(tokens, j)) is not None:
                return clock
    return None


def bed_or_wake(clause: list[str]) -> bool:
    """Whether a clause says when the user went to bed or got up ("woke up at 7")."""
    return _time_after(clause, _TO_BED) is not None or _time_after(clause, _UP) is not None


def sleep_between(tokens: list[str]) -> float | None:
    """Hours slept when the message says when the user went to bed and got up, else None."""
    bed, up = _time_after(tokens, _TO_BED), _time_after(tokens, _UP)
    if bed is None or up is None:
        return None
    (went, went_half), (rose, rose_half) = bed, up
    went += 12 if went_half == "pm" or (not went_half and went >= 6) else 0  # "at 11": night
    rose += 12 if rose_half == "pm" else 0
    hours = (rose - went) % 24
    return round(hours, 2) if 1 <= hours <= 16 else None
