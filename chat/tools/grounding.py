"""Whether a write a model asks for is grounded in what the user said.

A small model calls tools nobody asked for: "hi, how are you?" became a cup of water, a food the
message never named was logged. The registry refuses such a write and tells the model why, so
it can answer instead. The check is generous, since a refused honest write costs the user more
than a loose check: the food's name shares a word with the message (singular or plural, a slip
of the keyboard forgiven), a measured value is one of the message's numbers (or that number in
the other unit), a workout or water is what the message talks about, an edit or delete was
asked for in so many words. A short follow-up ("yes", "add another one") is read with the
conversation before it; a photo names its foods itself; "the same as yesterday" logs foods the
diary names.
"""

from __future__ import annotations

import dataclasses
import re

from django.core.exceptions import ValidationError

from chat.reading.classify import keyword_categories
from chat.reading.message import Reading, numbers_in
from chat.reading.parser.vocabulary import CHANGE_WORDS, CORRECTIONS, NAME_FILLER, REPEATS
from chat.reading.vocabulary import ASKING, GOAL_WORDS, REFERRING, YES
from measurements.services import STANDARD_TYPES
from measurements.units import CM_PER_INCH, LB_PER_KG
from nutrition import vocabulary as food_words
from nutrition.services import meal_for_word
from nutrition.units import normalize_unit
from sparky.words import same_word, words_pattern

_WORD = re.compile(r"[a-z][a-z'&-]*")
# Words of a food name that say nothing about which food it is: filler, and nutrition's units
# and household measures ("2 slices", "a pint").
_NAME_FILLER = (
    NAME_FILLER
    | set(food_words.ALIASES)
    | food_words.HOUSEHOLD_WORDS
    | {f"{word}s" for word in food_words.HOUSEHOLD_WORDS}
)
# A follow-up read with the reply before: "yes", "add another one", "the same again" (a letter
# alone, "y" or "k", is an answer only as the whole message).
_FOLLOW_UP = words_pattern(w for w in YES | REFERRING if len(w) > 1)
_REPEAT = words_pattern(REPEATS["repeat"] | REPEATS["same"])
_CHANGE = words_pattern(CHANGE_WORDS | CORRECTIONS["said"])
_WATER = words_pattern(food_words.WATER_WORDS)
# A value within this share of one of the message's numbers is that number.
_CLOSE = 0.015
_CONVERSIONS = tuple(float(f) for f in (1, LB_PER_KG, 1 / LB_PER_KG, CM_PER_INCH, 1 / CM_PER_INCH))

FOOD_TOOLS = {"log_food", "log_external_food", "create_custom_food", "scan_nutrition_label"}
EXERCISE_TOOLS = {"log_exercise", "create_custom_exercise"}
CHANGE_TOOLS = {"edit_food_entry", "delete_food_entry", "edit_exercise_entry"}
CHANGE_TOOLS |= {"delete_exercise_entry"}


@dataclasses.dataclass(frozen=True)
class Said:
    """What the user said this turn, as the grounding check reads it."""

    text: str  # the message, with the conversation before it for a short follow-up
    words: tuple[str, ...]
    numbers: tuple[float, ...]
    categories: frozenset[str]
    repeat: bool = False
    image: bool = False
    own_words: tuple[str, ...] = ()  # the newest message's alone, without what came before
    message: str = ""  # the newest message as typed
    # The turn's one reading of the newest message (chat.reading.message).
    reading: Reading | None = None
    # Who asks for the writes: "model" (the agent loop), "intent-json" (a model's intents) or
    # "parser" (Sparky's own reading, whose names and numbers are the message's by construction).
    origin: str = "model"

    @property
    def corrects(self) -> bool:
        """A correction of something logged before ("oops, it was 3 eggs actually")."""
        return self.reading is not None and self.reading.kind == "change"

    @classmethod
    def of(
        cls,
        message: str,
        *,
        before: tuple[str, ...] = (),
        image: bool = False,
        reading: Reading | None = None,
        origin: str = "model",
    ) -> Said:
        """`before`: the previous user message and reply, read along with a short follow-up;
        `reading`: the turn's reading of `message`, when it has one."""
        text = " ".join((message or "").lower().split())
        own_words = tuple(_WORD.findall(text))
        if before and (len(text.split()) <= 4 or _FOLLOW_UP.search(text)):
            text = " ".join([*(b.lower() for b in before if b), text])
        return cls(
            text=text,
            words=tuple(_WORD.findall(text)),
            numbers=numbers_in(text),
            categories=frozenset(
                reading.categories
                if reading is not None and text == " ".join(message.lower().split())
                else keyword_categories(text)
            ),
            repeat=bool(_REPEAT.search(text)),
            image=image,
            own_words=own_words,
            message=message or "",
            reading=reading,
            origin=origin,
        )

    def names(self, name: str) -> bool:
        """Whether the message names this (a food, an activity): a word of it in the message."""
        wanted = [w for w in _WORD.findall(str(name).lower()) if w not in _NAME_FILLER]
        if not wanted:
            return False
        return any(
            same_word(want, word) or (len(want) >= 5 and len(word) >= 5 and want[:5] == word[:5])
            for want in wanted
            for word in self.words
            if len(word) > 1
        )

    def has_number(self, value) -> bool:
        """Whether a value is one of the message's numbers, in this unit or the other one."""
        try:
            value = abs(float(value))
        except (TypeError, ValueError):
            return False
        return any(
            abs(value - abs(n) * factor) <= _CLOSE * max(1.0, value)
            for n in self.numbers
            for factor in _CONVERSIONS
        )


def grounded_arguments(tool: str, args: dict, said: Said, *, strict: bool = True) -> dict:
    """The arguments without the details a model made up (`strict`: a small model's; a capable
    one's estimates stay): a unit or a meal the message never says ("ate an apple" sent as 1 kg
    for breakfast), a goal it does not set. Sparky's own defaults (a household measure, the meal
    of the hour) stand in for them, as when a model leaves them out. Whatever the model, a meal
    it left out is the one the message names, if it names one ("2 eggs for breakfast" logged
    at noon is breakfast)."""
    if not strict:
        food = tool in ("log_food", "log_external_food")
        if food and not args.get("meal_type") and (meal := _named_meal(said)) is not None:
            return {**args, "meal_type": meal}
        return args
    if tool == "set_goals":
        # "protein target 140 g" sent with calories 500 and carbs 0: only the goals said
        return {k: v for k, v in args.items() if k == "date" or v is None or said.has_number(v)}
    if tool not in ("log_food", "log_external_food") or said.image or said.repeat:
        return args
    args = dict(args)
    unit = args.get("unit")
    if unit and not _said_unit(unit, said):
        args.pop("unit")
        if not _said_quantity(args.get("quantity"), said):
            args.pop("quantity", None)  # "8" of a unit nobody said is no 8 pieces either
    if args.get("meal_type") and not _named_meals(said):
        args.pop("meal_type")
    elif not args.get("meal_type") and (meal := _named_meal(said)) is not None:
        args["meal_type"] = meal  # "... for dinner": the meal the message names
    return args


def _named_meals(said: Said) -> set[str]:
    words = said.own_words  # "2 eggs for lunch" after a snack: lunch
    return {meal_for_word(w) for w in (*words, *_pairs(words))} - {None}


def _named_meal(said: Said) -> str | None:
    """The one meal the message names, if it names exactly one."""
    meals = _named_meals(said)
    return meals.pop() if len(meals) == 1 else None


def _pairs(words):
    return [f"{a} {b}" for a, b in zip(words, words[1:], strict=False)]


def _said_quantity(quantity, said: Said) -> bool:
    if quantity is None or said.has_number(quantity):
        return True
    reading = said.reading  # "two eggs": the parser reads number words
    amounts = [i.data.get("quantity") for i in (reading.parse.intents if reading else [])]
    return any(a is not None and abs(float(a) - float(quantity)) < 1e-9 for a in amounts)


def _said_unit(unit, said: Said) -> bool:
    try:
        wanted = normalize_unit(unit)
    except ValidationError:
        wanted = None
    if wanted is not None:
        for word in said.words:
            try:
                if normalize_unit(word) == wanted:
                    return True
            except ValidationError:
                continue
    parts = _WORD.findall(str(unit).lower())
    return bool(parts) and all(any(same_word(p, w) for w in said.words) for p in parts)


_ESTIMATE = words_pattern(ASKING["estimating"])


def unneeded_tools(said: Said) -> set[str]:
    """Tools every call of which this message would see refused, or has no use for: a small
    model is not shown them (each costs it a few hundred tokens of reading, and an invitation
    to misuse). Editing and deleting need the user to ask; a food's own nutrition needs the
    user's numbers or a request to estimate."""
    unneeded = set()
    if not _CHANGE.search(said.text):
        unneeded |= CHANGE_TOOLS
    if not said.numbers and not _ESTIMATE.search(said.text):
        unneeded.add("log_external_food")
    return unneeded


_LOGGING_TOOLS = (
    FOOD_TOOLS
    | EXERCISE_TOOLS
    | {
        "log_water",
        "log_checkin",
        "log_custom_measurement",
    }
)


# Why a message whose reading reports nothing gets no entry, for the model that asked for one.
_NOTHING_DONE = {
    "negation": "the user says they did not have or do it: nothing to log.",
    "plan": "the user is talking about a plan, not something done: nothing to log.",
    "wish": "the user is talking about a wish, not something done: nothing to log.",
    "habit": "the user is talking about what they usually do, not today: nothing to log.",
    "others": "the user is talking about someone else: log only the user's own food and activity.",
    "chat": "the user is making small talk: answer in words, without logging anything.",
}
_ASKED = "the user asked a question: answer it in words, without logging anything."


def ungrounded(tool: str, args: dict, said: Said) -> str | None:
    """Why this write is not grounded in what the user said, or None when it is. Whoever asks
    (a model, a model's intents, Sparky's parser), nothing is logged for a message that reports
    nothing done; a model's writes must also name what the user said."""
    reading = said.reading
    if tool in _LOGGING_TOOLS and reading is not None and reading.reports_nothing:
        return _ASKED if reading.asks else _NOTHING_DONE[reading.kind]
    if said.origin == "parser":
        return None  # the parser's names and numbers are the message's own
    if tool in _LOGGING_TOOLS and said.corrects:
        return (
            "the user is correcting an entry logged before, not adding one: change it with the "
            "edit tool if you have it, or tell the user to edit it in the diary."
        )
    if tool in FOOD_TOOLS:
        name = args.get("food_name") or args.get("product_name") or ""
        if said.image or said.repeat or said.names(name):
            return None
        return (
            f"the user's message does not mention {name!r}. Log only the foods the user named, "
            "in their words; if they named none, answer without a tool."
        )
    if tool in EXERCISE_TOOLS:
        name = args.get("exercise_name") or args.get("name") or ""
        if said.repeat or "exercise" in said.categories or (name and said.names(name)):
            return None
        return (
            "the user's message does not describe a workout. Log exercise only when the user "
            "says what they did."
        )
    if tool in ("log_water", "set_water"):
        if _WATER.search(said.text):
            return None
        return "the user's message does not mention water. Log water only when they drank it."
    if tool == "log_checkin":
        given = {k: v for k, v in args.items() if k in STANDARD_TYPES}
        missing = [k for k, v in given.items() if not said.has_number(v)]
        if given and not missing:
            return None
        return (
            f"the user's message does not give the {', '.join(missing) or 'measurement'} value. "
            "Record only the numbers the user said."
        )
    if tool == "log_custom_measurement":
        if said.has_number(args.get("value")):
            return None
        return "the user's message does not give that value. Record only the numbers they said."
    if tool == "set_goals":
        reading = said.reading
        wished = reading is not None and reading.kind in _NOTHING_DONE
        if wished and not any(t in GOAL_WORDS for t in reading.tokens):
            return (  # "i want to hit 150 g of protein eventually"
                "the user says what they hope for, not to set a goal: ask whether to set it as "
                "their goal, and set nothing now."
            )
        values = [v for k, v in args.items() if k != "date" and v is not None]
        if values and any(said.has_number(v) for v in values):
            return None
        return "the user's message does not set a goal. Set goals only when the user asks."
    if tool in CHANGE_TOOLS:
        if _CHANGE.search(said.text):
            return None
        return (
            "the user did not ask to change or delete anything. Never change or delete entries "
            "unless the user asks."
        )
    if tool == "update_preferences":
        if "profile" in said.categories:
            return None
        return "the user did not ask to change a preference."
    return None
