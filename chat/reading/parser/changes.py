"""Changes and repeats: corrections and delete requests (never logged), late logging
("I forgot to log 2 eggs") and "same breakfast as yesterday"."""

from __future__ import annotations

import re

from chat.reading.intents import Intent
from chat.reading.parser.tokens import token_at
from chat.reading.parser.vocabulary import LOG_VERBS
from nutrition.services import meal_for_word
from sparky.dates import WEEKDAYS

LONE_NUMBER = (
    "A number on its own picks one of the options I list when I can't find something, and "
    "none are open now. Tell me what you ate or did, e.g. '2 eggs for breakfast'."
)


_DAY_WORDS = rf"yesterday|today|(?:last |on )?(?:{'|'.join(WEEKDAYS)})"


_MEAL_WORDS = r"breakfast|lunch|dinner|supper|snacks?|meal|food|thing"


# "same breakfast as yesterday", "same as monday", "repeat yesterday's lunch", "copy last
# friday's dinner": the meal as it was logged that day, logged again for today.
_REPEAT = re.compile(
    rf"^(?:i )?(?:had |ate |log |add )?(?:the )?"
    rf"(?:same (?P<meal>{_MEAL_WORDS})? ?(?:again )?(?:as|like) (?P<day>{_DAY_WORDS})(?:'s)?"
    rf"(?: (?P<meal2>{_MEAL_WORDS}))?"
    rf"|(?:repeat|copy|again) (?P<day3>{_DAY_WORDS})'s (?P<meal3>{_MEAL_WORDS}))"
    rf"(?: (?:for|as) (?P<to>breakfast|lunch|dinner|supper|snack))?(?: again)?[.!]*$"
)


def read_repeat(text: str) -> Intent | None:
    found = _REPEAT.match(" ".join(text.lower().replace("\u2019", "'").split()))
    if found is None:
        return None
    said = found.group("meal") or found.group("meal2") or found.group("meal3")
    day = found.group("day") or found.group("day3")
    meal = meal_for_word(said.rstrip("s")) if said else None
    to = meal_for_word(found.group("to")) if found.group("to") else None
    return Intent("repeat_meal", {"meal": meal, "from": day, "to_meal": to}, None)


_MEALS = r"breakfast|lunch|dinner|supper|snack"

# "log my usual breakfast", "the usual for lunch", "had my usual breakfast": the meal saved as
# usual (nutrition.services.usual_meal_items), logged again.
_USUAL = re.compile(
    rf"^(?:i )?(?:had |ate |log |add |logging )?(?:my |the )?"
    rf"(?:usual (?P<meal>{_MEALS})|usual for (?P<meal2>{_MEALS}))"
    rf"(?: (?:for|as) (?P<to>{_MEALS}))?(?: again| today| please)?[.!]*$"
)
# "save this as my usual breakfast", "save today's lunch as my usual", "make that my usual
# breakfast": the day's meal saved as the usual one.
_SAVE_USUAL = re.compile(
    rf"^(?:please )?(?:save|remember|make|set|keep) (?:this|that|it|these|"
    rf"(?:this|today's|my|that) (?P<meal>{_MEALS})) (?:as )?(?:my )?(?:usual|regular)"
    rf"(?: (?P<meal2>{_MEALS}))?(?: one)?(?: please)?[.!]*$"
)


def read_usual(text: str) -> Intent | None:
    said = " ".join(text.lower().replace("\u2019", "'").split())
    if found := _USUAL.match(said):
        meal = meal_for_word(found.group("meal") or found.group("meal2"))
        to = meal_for_word(found.group("to")) if found.group("to") else None
        return Intent("usual_meal", {"meal": meal, "to_meal": to}, None)
    if found := _SAVE_USUAL.match(said):
        word = found.group("meal") or found.group("meal2")
        return Intent("save_usual_meal", {"meal": meal_for_word(word) if word else None}, None)
    return None


# "actually make that 3 eggs", "no, it was lunch", "oops I meant 2 bananas", "scratch that", "I
# didn't have the banana": a correction of something logged, never something new to log.
CORRECTION = re.compile(
    r"^(?:actually|oops|no|nope|sorry)[\s,!.]+(?:make|it was|it's|its|that|i meant|meant|not|"
    r"change|should|i said)\b"
    r"|^(?:oops|no|nope)[\s,!.]+(?:i )?(?:meant|wrong)\b"
    r"|^(?:i )?meant\b|\bscratch that\b|^make (?:that|it) \w|^that (?:was|should be)\b"
    r"|\b(?:didn'?t|did not) (?:have|eat|drink) (?:the|that)\b"
    r"|^(?:it|that) was (?:lunch|dinner|breakfast|a snack|yesterday)\b",
)


_FORGOT = (["i", "forgot", "to"], ["forgot", "to"], ["i", "forgot"], ["forgot"])


def strip_late_logging(tokens: list[str]) -> list[str]:
    """'I forgot to log 2 eggs', 'please add 2 eggs', 'log 2 eggs': the rest is the entry."""
    verbs = LOG_VERBS
    i = 1 if tokens[:1] == ["please"] else 0
    for opener in _FORGOT:
        if tokens[: len(opener)] == opener:
            i, verbs = len(opener), LOG_VERBS | {"mention", "say", "tell", "put"}
            break
    if token_at(tokens, i) in verbs and len(tokens) > i + 1:
        return tokens[i + 1 :]
    return tokens


CHANGE_HINT = (
    "I can't change or delete entries by chat without an AI service; every entry in the diary "
    "beside the chat has Edit and Delete."
)
