"""Time phrases: yesterday, this morning, last friday, 3 days ago, after the gym."""

from __future__ import annotations

import re

from chat.reading.parser.state import When
from chat.reading.parser.tokens import take_quantity, token_at
from chat.reading.parser.vocabulary import (
    AROUND,
    AROUND_FILLER,
    AROUND_WORDS,
    SESSIONS,
    TIME_PHRASES,
    WEEKDAY_MEALS,
)
from sparky.dates import WEEKDAYS


def take_time(tokens: list[str]) -> tuple[When, list[str]]:
    """The sentence's time phrase (the first one wins) and its tokens without time phrases."""
    when, rest = When(), []
    i = 0
    while i < len(tokens):
        found = _time_at(tokens, i)
        if found is None:
            rest.append(tokens[i])
            i += 1
            continue
        length, date, meal = found
        if when.date is None and date is not None:
            when = When(date, meal, last_night=tokens[i : i + 2] == ["last", "night"])
        if rest and rest[-1] in ("on", "for", "earlier", "from"):
            rest.pop()
        i += length
    return when, rest


def _around_session(tokens: list[str], i: int) -> int:
    """The length of an 'after the gym' phrase at tokens[i], else 0."""
    if tokens[i] in AROUND_WORDS:
        return 1
    if tokens[i] not in AROUND:
        return 0
    j = i + 1
    while token_at(tokens, j) in AROUND_FILLER:
        j += 1
    return j + 1 - i if token_at(tokens, j) in SESSIONS else 0


def _weekday_at(tokens: list[str], i: int) -> tuple[int, str, str | None] | None:
    """'on monday', 'last friday', 'tuesday evening' (the latest such day up to today)."""
    lead = tokens[i] if tokens[i] in ("on", "last") else None
    day = token_at(tokens, i + 1) if lead else tokens[i]
    day = day[:-2] if day.endswith("'s") else day  # "monday's run"
    if day not in WEEKDAYS:
        return None
    j = i + (2 if lead else 1)
    meal = WEEKDAY_MEALS.get(token_at(tokens, j))
    said = f"last {day}" if lead == "last" else day
    return j + (1 if meal else 0) - i, said, meal


def _time_at(tokens: list[str], i: int) -> tuple[int, str, str | None] | None:
    if length := _around_session(tokens, i):
        return length, None, None
    if found := _weekday_at(tokens, i):
        return found
    for words, date, meal in TIME_PHRASES:
        if tuple(tokens[i : i + len(words)]) == words:
            return len(words), date, meal
    if re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", tokens[i]):
        return 1, tokens[i], None
    count, j = take_quantity(tokens, i, articles=False)
    if (
        count
        and count == int(count)
        and token_at(tokens, j) in ("day", "days")
        and token_at(tokens, j + 1) == "ago"
    ):
        return j + 2 - i, f"{int(count)} days ago", None
    return None
