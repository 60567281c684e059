"""Exercise: the activity, its duration and distance; sets and reps counted as minutes."""

from __future__ import annotations

from chat.reading.parser.food import food_said
from chat.reading.parser.tokens import take_quantity, token_at
from chat.reading.parser.vocabulary import (
    ACTIVITY_FILLER,
    COUNTED_EXERCISES,
    EACH_WAY,
    EXERCISE_LOOKUP,
    GENERIC_EXERCISE,
    HOURS,
    MINUTES,
    MINUTES_AFTER_HOURS,
    NOT_ACTIVITY,
    NOT_EXERCISE_AFTER,
    NOT_EXERCISE_BEFORE,
    PLAYED,
)
from exercise.services import distance_unit_of


def exercise_at(tokens: list[str], i: int) -> str | None:
    """The exercise named by tokens[i], unless the word is used in another sense there."""
    name = EXERCISE_LOOKUP.get(tokens[i])
    if name is None:
        return None
    if (
        token_at(tokens, i + 1) in NOT_EXERCISE_AFTER
        or token_at(tokens, i - 1) in NOT_EXERCISE_BEFORE
    ):
        return None
    if tokens[i + 1 : i + 3] in (["a", "fever"], ["a", "business"], ["a", "temperature"]):
        return None
    if tokens[i + 1 : i + 3] in (["my", "plate"], ["the", "plate"], ["my", "bowl"]):
        return None  # "cleaned my plate": eaten, not housework
    return name


MINUTES_PER_SET = 3


SECONDS_PER_REP = 4


def minutes_for_count(tokens: list[str]) -> int | None:
    reps = None
    for i in range(len(tokens)):
        count, j = take_quantity(tokens, i, articles=False)
        if count is None:
            continue
        if token_at(tokens, j) in ("sets", "set", "rounds"):
            return max(1, round(count * MINUTES_PER_SET))
        if token_at(tokens, j) == "x" and take_quantity(tokens, j + 1, articles=False)[0]:
            return max(1, round(count * MINUTES_PER_SET))  # "4x8": 4 sets of 8 reps
        if reps is None and (
            token_at(tokens, j) in ("reps", "rep", "x")
            or EXERCISE_LOOKUP.get(token_at(tokens, j)) in COUNTED_EXERCISES
        ):
            reps = count
    return None if reps is None else max(1, -(-int(reps * SECONDS_PER_REP) // 60))


def _activity_words(tokens: list[str]) -> list[str]:
    """The words of a clause left once its durations, numbers and filler are taken out."""
    out, i = [], 0
    while i < len(tokens):
        amount, j = take_quantity(tokens, i)
        if amount is not None and (token_at(tokens, j) in HOURS or token_at(tokens, j) in MINUTES):
            i = j + 1
            continue
        token = tokens[i]
        if token not in ACTIVITY_FILLER and token not in GENERIC_EXERCISE and token.isalpha():
            out.append(token)
        i += 1
    return out


def exercise_item(tokens: list[str]) -> dict | None:
    name = next((n for i in range(len(tokens)) if (n := exercise_at(tokens, i))), None)
    generic = any(token in GENERIC_EXERCISE for token in tokens)
    if name is None:
        # an activity the word lists lack, said as exercise: timed, or "played ..."
        said = _activity_words(tokens)
        timed = duration_minutes(tokens) is not None
        played = bool(PLAYED & set(tokens))
        activity = not (food_said(tokens) or NOT_ACTIVITY & set(tokens))
        said = said if any(len(word) >= 4 for word in said) else []
        if said and len(said) <= 3 and (generic or timed or played) and activity:
            name = " ".join(said)
        elif not generic:
            return None
    distance, unit = distance_of(tokens)
    minutes = duration_minutes(tokens)
    if minutes is None and distance is not None and (pace := pace_of(tokens)) is not None:
        per, per_unit = pace  # "10k at 5:30/km": as long as the distance takes at that pace
        minutes = round(per * distance * _IN_UNIT.get((unit, per_unit), 1.0), 1)
    if minutes is None:
        minutes = minutes_for(tokens)
    if minutes is None and name in COUNTED_EXERCISES:
        minutes = minutes_for_count(tokens)
    return {
        "exercise_name": name,
        "duration_minutes": minutes,
        "distance": distance,
        "distance_unit": unit,
    }


# How many of a pace's unit one distance unit is: a pace per km over miles.
_IN_UNIT = {("mi", "km"): 1.609344, ("km", "mi"): 1 / 1.609344}
# Minutes a workout's bare number may be ("walked the dog for 40"): beyond, it is no duration.
BARE_MINUTES = (5, 300)


def minutes_for(tokens: list[str]) -> float | None:
    """A bare number after "for", said of a workout, is its minutes: "walked the dog for 40"."""
    for i, token in enumerate(tokens[:-1]):
        if token != "for":
            continue
        amount, j = take_quantity(tokens, i + 1, articles=False)
        low, high = BARE_MINUTES
        if amount is not None and j == len(tokens) and low <= amount <= high:
            return amount
    return None


def pace_of(tokens: list[str]) -> tuple[float, str] | None:
    """A pace said as minutes per distance unit: "5:30/km", "at 6 min/km", "9 min per mile",
    "5:30 pace" (per km); (minutes, unit) or None."""
    for i in range(len(tokens)):
        per = None
        if token_at(tokens, i + 1) == ":" and tokens[i].isdigit() and tokens[i + 2 : i + 3]:
            seconds = tokens[i + 2]
            if seconds.isdigit() and len(seconds) == 2:
                per, j = int(tokens[i]) + int(seconds) / 60, i + 3
        elif _pace_minutes(tokens, i) is not None:
            per, j = _pace_minutes(tokens, i)
        if per is None:
            continue
        if token_at(tokens, j) in ("per", "a", "/"):
            j += 1
        unit = distance_unit_of(token_at(tokens, j))
        if unit is not None:
            return per, unit
        if token_at(tokens, j) == "pace":
            return per, "km"
    return None


def _pace_minutes(tokens: list[str], i: int) -> tuple[float, int] | None:
    amount, j = take_quantity(tokens, i, articles=False)
    if amount is None or token_at(tokens, j) not in MINUTES:
        return None
    after = token_at(tokens, j + 1)
    if after in ("per", "/") or (distance_unit_of(after) and after not in MINUTES_AFTER_HOURS):
        return amount, j + 1
    return None


def duration_minutes(tokens: list[str]) -> float | None:
    """Total minutes in a clause: '45 min', 'an hour and a half', '1h 15m', 'half an hour';
    '20 mins each way' is both ways, 40."""
    total, after_hours, i = None, False, 0
    while i < len(tokens):
        amount, j = take_quantity(tokens, i)
        unit = token_at(tokens, j)
        if amount is None or not (
            unit in HOURS or unit in MINUTES or (unit in MINUTES_AFTER_HOURS and after_hours)
        ):
            i, after_hours = max(j, i + 1), False
            continue
        if unit in MINUTES and _pace_minutes(tokens, i) is not None:
            i, after_hours = j + 1, False  # "6 min/km": a pace, not the time taken
            continue
        if unit in HOURS:
            if tokens[j + 1 : j + 4] == ["and", "a", "half"]:
                amount += 0.5
                j += 3
            minutes = amount * 60
        else:
            minutes = amount
        if token_at(tokens, j + 1) in EACH_WAY:
            minutes *= 2
            j += 1
        total = (total or 0) + minutes
        after_hours = unit in HOURS
        i = j + 1
    return total


def distance_of(tokens: list[str]) -> tuple[float | None, str | None]:
    for i in range(len(tokens)):
        amount, j = take_quantity(tokens, i)
        unit = distance_unit_of(token_at(tokens, j)) if amount is not None else None
        if unit in MINUTES_AFTER_HOURS and token_at(tokens, i - 1) in HOURS:
            continue  # "1h 15m": minutes
        if unit is not None:
            return amount, unit
    return None, None
