"""Field helpers of intent validation: keys cleaned, nulls read, numbers with their words,
units, meals and dates coerced."""

from __future__ import annotations

import datetime as dt
import math
import re

from chat.reading.intents.schema import IntentError
from measurements import vocabulary as durations
from nutrition import units as food_units
from nutrition.services import meal_for_word
from sparky.dates import is_weekday_phrase

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
        raise IntentError(f"A unit is a word such as 'g' or 'cup', not {_shown(raw)}.")
    text = " ".join(raw.strip().lower().split())
    if len(text) > 50:
        raise IntentError("That unit is longer than 50 characters; use e.g. 'g' or 'cup'.")
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


_HOUR_WORDS = durations.HOURS
_MINUTE_WORDS = durations.MINUTES | durations.MINUTES_IN_A_DURATION  # "30 m" of a duration


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
