"""Changes and repeats: corrections and delete requests (never logged), late logging
("I forgot to log 2 eggs") and "same breakfast as yesterday"."""

from __future__ import annotations

import re

from chat.reading.intents import Intent
from chat.reading.parser.tokens import token_at
from chat.reading.parser.vocabulary import CORRECTIONS, EATING, LOG_VERBS, REPEATS
from nutrition.services import meal_for_word
from nutrition.vocabulary import MEAL_NAMES
from sparky.dates import WEEKDAYS
from sparky.words import alternation

LONE_NUMBER = (
    "A number on its own picks one of the options I list when I can't find something, and "
    "none are open now. Tell me what you ate or did, e.g. '2 eggs for breakfast'."
)


_DAY_WORDS = rf"yesterday|today|(?:last |on )?{alternation(WEEKDAYS)}"

# "had", "ate", "log", "add": what may open a repeat or a usual meal.
_OPENER = rf"(?:{alternation(EATING | LOG_VERBS)} )?"
_MEALS = alternation(MEAL_NAMES)
_MEAL_WORDS = alternation({*MEAL_NAMES, *REPEATS["said_of_a_meal"]}, plural=True)


# "same breakfast as yesterday", "same as monday", "repeat yesterday's lunch", "copy last
# friday's dinner": the meal as it was logged that day, logged again for today.
_REPEAT = re.compile(
    rf"^(?:i )?{_OPENER}(?:the )?"
    rf"(?:same (?P<meal>{_MEAL_WORDS})? ?(?:again )?(?:as|like) (?P<day>{_DAY_WORDS})(?:'s)?"
    rf"(?: (?P<meal2>{_MEAL_WORDS}))?"
    rf"|{alternation(REPEATS['repeat'])} (?P<day3>{_DAY_WORDS})'s (?P<meal3>{_MEAL_WORDS}))"
    rf"(?: (?:for|as) (?P<to>{_MEALS}))?(?: again)?[.!]*$"
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


# "log my usual breakfast", "the usual for lunch", "had my usual breakfast": the meal saved as
# usual (nutrition.services.usual_meal_items), logged again.
_USUAL = re.compile(
    rf"^(?:i )?{_OPENER}(?:my |the )?"
    rf"(?:usual (?P<meal>{_MEALS})|usual for (?P<meal2>{_MEALS}))"
    rf"(?: (?:for|as) (?P<to>{_MEALS}))?(?: {alternation(REPEATS['after_usual'])})?[.!]*$"
)
# "save this as my usual breakfast", "save today's lunch as my usual", "make that my usual
# breakfast": the day's meal saved as the usual one.
_SAVE_USUAL = re.compile(
    rf"^(?:please )?{alternation(REPEATS['save'])} (?:{alternation(REPEATS['this'])}|"
    rf"{alternation(REPEATS['whose'])} (?P<meal>{_MEALS})) (?:as )?(?:my )?(?:usual|regular)"
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
_OOPS = alternation(CORRECTIONS["openers"])
CORRECTION = re.compile(
    rf"^{_OOPS}[\s,!.]+{alternation(CORRECTIONS['then'])}\b"
    rf"|^{_OOPS}[\s,!.]+(?:i )?(?:meant|wrong)\b"
    r"|^(?:i )?meant\b|\bscratch that\b|^make (?:that|it) \w|^that (?:was|should be)\b"
    rf"|\b(?:didn'?t|did not) {alternation(CORRECTIONS['not_had'])} (?:the|that)\b"
    rf"|^(?:it|that) was (?:(?:a )?{_MEALS}|yesterday)\b",
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
