"""Sparky's built-in offline model: a deterministic English parser for everyday logging.

Used when no AI service is configured. It turns "2 eggs and a banana for breakfast" or "ran 5 km in
28 min" into the same `Intent` objects a model writes in intent-JSON mode, so the coach dispatches
both the same way, and every intent it returns has passed `validate_intent`.

How a message is read:
1. `tokenise`: lower-case words, numbers ("80.2", "1/2", "9,500" -> "9500") and the punctuation
   that matters; "200g" becomes "200", "g". Known multi-word names ("mac and cheese", "heart rate",
   "push ups") are joined into one token first so the splitter leaves them alone.
2. Sentences end at . ! ? ; and a line break. A question ("how many calories did I eat today?") is
   never logged from: it becomes one ask_question with no response, for the coach to answer from
   the diary. Greetings and thanks become chat with a short reply.
3. Each sentence loses its time phrase ("yesterday", "this morning", "last night"), which sets the
   date of everything in it and, for food, the meal when none is named.
4. The rest is split into clauses on "and", ",", "then", "plus"; each clause is water, a
   measurement, exercise or food by its cue words, in that order of precedence. A clause with no
   cue ("toast" in "eggs, toast and coffee for breakfast") belongs to the food in its sentence.

Decisions, so the coach and the tests can rely on them:
- Counted food keeps unit None ("2 eggs": quantity 2, unit None = two pieces or servings), never
  "g". Size words become the unit ("2 large eggs": unit "large") because the catalog's household
  servings are named that way. Vague containers (a plate of, a bowl of) keep the count with unit
  None; measurable ones (cup, glass -> cup, slice, tbsp, can) become the unit.
- "with" joins: "coffee with milk" and "a bowl of cereal with milk" are one food each. The amount
  of the accompaniment is unknown, and logging it as a full serving of milk would overstate the
  day; the food search (or the options the coach offers) deals with the dish as a whole. When the
  accompaniment has its own amount ("toast with 2 tbsp peanut butter") it is its own entry.
- Plurals are made singular only when a count carries the number ("2 eggs" -> "egg"); "had eggs"
  stays "eggs". Compound names are kept whole ("peanut butter toast", "chicken breast").
- No meal word leaves meal_type None: the coach fills it from the user's local time. A time phrase
  sets it instead: this morning -> breakfast, this afternoon -> snack, this evening, tonight and
  last night -> dinner.
- Water is counted in glasses of 250 ml: a bottle is 2 glasses (500 ml), a litre 4, "500 ml" 2.
- Steps are a check-in measurement, never exercise; "walked 10000 steps" logs steps only.
- Sleep, heart rate, blood pressure, body fat and blood glucose are custom measurements.
- "m" after a number is minutes right after hours ("1h 15m"), metres otherwise ("400m").
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass

from chat.intents import (
    Intent,
    IntentError,
    ParseResult,
    distance_unit,
    food_unit,
    length_unit,
    meal_type,
    validate_intent,
    water_glasses,
    weight_unit,
)
from sparky.dates import WEEKDAYS

logger = logging.getLogger(__name__)

MAX_MESSAGE_CHARS = 2_000
CATEGORIES = ("food", "exercise", "checkin", "goals", "coaching", "reports")

EXAMPLES_TEXT = (
    "Without an AI service I can log simple messages such as '2 eggs and toast for breakfast', "
    "'walked 30 minutes', 'weight 80 kg' or '2 glasses of water'."
)


# --------------------------------------------------------------------------------------------
# Tokens and numbers
# --------------------------------------------------------------------------------------------

_TOKEN = re.compile(
    r"""
      [0-9]{4}-[0-9]{2}-[0-9]{2}              # an ISO date
    | [0-9]+(?:\.[0-9]+)?/[0-9]+(?:\.[0-9]+)?  # a fraction, or a blood pressure such as 120/80
    | [0-9]*\.[0-9]+ | [0-9]+                  # a number
    | [^\W\d_]+(?:['-][^\W\d_]+)*             # a word, keeping its apostrophes and hyphens
    | [,;:.!?&+%"]                             # punctuation that means something here
    """,
    re.VERBOSE,
)

# Names that contain a splitting word or several words; joined into one token before splitting.
_PHRASES = (
    "mac and cheese",
    "macaroni and cheese",
    "fish and chips",
    "peanut butter and jelly",
    "bread and butter",
    "salt and vinegar",
    "sweet and sour",
    "rice and beans",
    "biscuits and gravy",
    "chips and salsa",
    "half and half",
    "fl oz",
    "fluid ounces",
    "resting heart rate",
    "heart rate",
    "blood pressure",
    "blood sugar",
    "blood glucose",
    "body fat",
    "worked out",
    "work out",
    "working out",
    "lifted weights",
    "lifting weights",
    "weight training",
    "strength training",
    "bench press",
    "jumping jacks",
    "jump rope",
    "spin class",
    "martial arts",
    "push ups",
    "pull ups",
    "sit ups",
    "how many",
    "how much",
    "so far",
)
_PHRASE_TOKENS = sorted((tuple(p.split()) for p in _PHRASES), key=len, reverse=True)


def tokenise(text: str) -> list[str]:
    """Lower-case tokens of a message, with known multi-word names joined into one token."""
    text = text[:MAX_MESSAGE_CHARS].lower().replace("\u2019", "'").replace("\u2018", "'")
    for char, fraction in (("½", " 1/2"), ("¼", " 1/4"), ("¾", " 3/4"), ("⅓", " 1/3")):
        text = text.replace(char, fraction)
    text = re.sub(r"(?<=[0-9]),(?=[0-9]{3}\b)", "", text)  # 9,500 -> 9500
    text = re.sub(r"[\r\n]+", " . ", text)
    text = re.sub(r"(?<![a-z])w/(?=\s|[a-z])", " with ", text)  # "oatmeal w/ banana"
    text = re.sub(r"\s[-\u2013\u2014]+\s", " : ", text)  # "dinner - salmon": a dash sets off
    text = re.sub(r"\ba lot of\b", "lots of", text)
    return _join_phrases(_TOKEN.findall(text))


def _join_phrases(tokens: list[str]) -> list[str]:
    joined = []
    i = 0
    while i < len(tokens):
        for phrase in _PHRASE_TOKENS:
            if tuple(tokens[i : i + len(phrase)]) == phrase:
                joined.append(" ".join(phrase))
                i += len(phrase)
                break
        else:
            joined.append(tokens[i])
            i += 1
    return joined


_ONES = {
    "zero": 0,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
}
_TENS = {
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
}


def number_value(token: str) -> float | None:
    """The value of one number token: '2', '1.5', '1/2', 'seven', 'twenty-five'; else None."""
    if re.fullmatch(r"[0-9]*\.?[0-9]+", token):
        return float(token)
    if re.fullmatch(r"[0-9.]+/[0-9.]+", token):
        top, bottom = token.split("/")
        try:
            return float(top) / float(bottom) if float(bottom) else None
        except ValueError:
            return None
    if token in _ONES:
        return _ONES[token]
    if token in _TENS:
        return _TENS[token]
    tens, _, ones = token.partition("-")
    if tens in _TENS and ones in _ONES and 0 < _ONES[ones] < 10:
        return _TENS[tens] + _ONES[ones]
    return None


def _at(tokens: list[str], i: int) -> str:
    return tokens[i] if 0 <= i < len(tokens) else ""


def take_quantity(tokens: list[str], i: int, articles: bool = True) -> tuple[float | None, int]:
    """A quantity starting at tokens[i] and the index after it, or (None, i).

    Reads digits and fractions ("2", "1.5", "1/2", "1 1/2"), number words up to ninety-nine, "a"
    and "an" (1, unless articles is False), "half a", "a couple of", "a dozen", "2 and a half".
    """
    word = _at(tokens, i)
    if word == "half":
        j = i + 2 if _at(tokens, i + 1) in ("a", "an") else i + 1
        if _at(tokens, j) == "dozen":
            return 6, j + 1
        return 0.5, j
    if word in ("a", "an") and articles:
        following = _at(tokens, i + 1)
        if following == "half":
            return 0.5, i + 2
        if following == "quarter":
            return 0.25, i + 3 if _at(tokens, i + 2) == "of" else i + 2
        if following == "couple":
            return 2, i + 3 if _at(tokens, i + 2) == "of" else i + 2
        if following == "dozen":
            return 12, i + 2
        if following in ("few", "little", "bit", "lot"):
            return None, i + 2  # too vague to count: one serving
        return 1, i + 1
    if word == "couple":
        return 2, i + 2 if _at(tokens, i + 1) == "of" else i + 1
    value = number_value(word)
    if value is None:
        return None, i
    j = i + 1
    if word in _TENS and _at(tokens, j) in _ONES and 0 < _ONES[_at(tokens, j)] < 10:
        value += _ONES[_at(tokens, j)]
        j += 1
    if "/" not in word and re.fullmatch(r"[0-9]+/[0-9]+", _at(tokens, j)):
        value += number_value(_at(tokens, j)) or 0  # 1 1/2
        j += 1
    if tokens[j : j + 3] == ["and", "a", "half"]:
        value += 0.5
        j += 3
    if _at(tokens, j) == "dozen":
        value *= 12
        j += 1
    return value, j


# --------------------------------------------------------------------------------------------
# Sentences, questions and small talk
# --------------------------------------------------------------------------------------------


@dataclass
class _Sentence:
    tokens: list[str]
    question: bool


def _sentences(tokens: list[str]) -> list[_Sentence]:
    sentences, current = [], []
    for token in tokens:
        if token in (".", "!", "?", ";"):
            if current:
                sentences.append(_Sentence(current, token == "?"))
            current = []
        else:
            current.append(token)
    if current:
        sentences.append(_Sentence(current, False))
    return sentences


_SOCIAL = {
    "greeting": {
        "hi",
        "hello",
        "hey",
        "hiya",
        "howdy",
        "yo",
        "good morning",
        "good afternoon",
        "good evening",
        "morning",
    },
    "thanks": {
        "thanks",
        "thank you",
        "thanks a lot",
        "thank you so much",
        "thx",
        "ty",
        "cheers",
        "many thanks",
    },
    "goodbye": {"bye", "goodbye", "bye bye", "see you", "see ya", "good night", "night"},
    "help": {"help", "help me", "what can you do", "what can you do?", "how does this work"},
    "acknowledgement": {
        "ok",
        "okay",
        "k",
        "cool",
        "great",
        "nice",
        "awesome",
        "perfect",
        "got it",
        "sounds good",
        "sure",
        "alright",
        "yes",
        "no",
        "yep",
        "nope",
    },
}
_SOCIAL_REPLIES = {
    "greeting": "Hi! Tell me what you ate, drank or did and I'll log it, "
    "e.g. '2 eggs for breakfast' or 'walked 30 minutes'.",
    "thanks": "You're welcome!",
    "goodbye": "Bye! See you next time.",
    "help": "Tell me what you ate, drank or did, in your own words, and I'll log it: "
    "'2 eggs and toast for breakfast', 'a burger, about 600 cal', 'walked 45 min', "
    "'weight 80.2 kg waist 84 cm', '3 glasses of water', 'same breakfast as yesterday', "
    "'calorie goal 2000'. Ask 'how many calories today?', 'what did I have for lunch?' or 'how "
    "was my week?'. Entries are edited and deleted in the diary.",
    "acknowledgement": "Okay.",
}
_SOCIAL_FILLER = {"sparky", "there", "again", "so", "very", "oh", ",", ":"}
_SOCIAL_OPENERS = {"hi", "hello", "hey", "hiya", "ok", "okay", "so", "well", "oh", "sparky", ","}


def _social_kind(tokens: list[str]) -> str | None:
    """'hi', 'thank you!', 'ok thanks': small talk, by its last phrase after any openers."""
    words = [token for token in tokens if token not in _SOCIAL_FILLER]
    while words:
        phrase = " ".join(words)
        kind = next((kind for kind, phrases in _SOCIAL.items() if phrase in phrases), None)
        if kind or words[0] not in _SOCIAL_OPENERS:
            return kind
        words = words[1:]
    return None


def _strip_openers(tokens: list[str]) -> list[str]:
    """'hi, I had eggs' -> 'I had eggs'; 'thanks, also walked 20 min' -> 'also walked 20 min'."""
    i = 0
    while i < len(tokens):
        if tokens[i] in _SOCIAL_OPENERS or tokens[i] in ("thanks", "cheers"):
            i += 1
        elif tokens[i : i + 2] == ["thank", "you"]:
            i += 2
        else:
            break
    return tokens[i:]


_QUESTION_WORDS = {"how", "what", "what's", "whats", "why", "when", "where", "which", "who"}
_QUESTION_AUXILIARIES = {"should", "can", "could", "would", "will", "do", "does", "did", "is", "am"}
_SUBJECTS = {"i", "you", "we", "u", "my", "it", "this", "that", "there"}
_REQUESTS = {
    "tell",
    "show",
    "give",
    "summarize",
    "summarise",
    "suggest",
    "recommend",
    "explain",
    "help",
    "list",
    "remind",
}


def _is_question(sentence: _Sentence, tokens: list[str]) -> bool:
    first, second = _at(tokens, 0), _at(tokens, 1)
    return (
        sentence.question
        or first in _QUESTION_WORDS
        or first in ("how many", "how much")
        or first in _REQUESTS
        or (first in _QUESTION_AUXILIARIES and second in _SUBJECTS)
    )


# --------------------------------------------------------------------------------------------
# Time phrases
# --------------------------------------------------------------------------------------------

# (words, date, meal for food when no meal is named); longest first.
_TIME_PHRASES = (
    (("the", "day", "before", "yesterday"), "day before yesterday", None),
    (("day", "before", "yesterday"), "day before yesterday", None),
    (("yesterday", "morning"), "yesterday", "breakfast"),
    (("yesterday", "afternoon"), "yesterday", "snack"),
    (("yesterday", "evening"), "yesterday", "dinner"),
    (("last", "night"), "yesterday", "dinner"),
    (("this", "morning"), "today", "breakfast"),
    (("this", "afternoon"), "today", "snack"),
    (("this", "evening"), "today", "dinner"),
    (("yesterday",), "yesterday", None),
    (("tonight",), "today", "dinner"),
    (("today",), "today", None),
)


@dataclass
class _When:
    date: str | None = None
    meal: str | None = None
    last_night: bool = False


def _take_time(tokens: list[str]) -> tuple[_When, list[str]]:
    """The sentence's time phrase (the first one wins) and its tokens without time phrases."""
    when, rest = _When(), []
    i = 0
    while i < len(tokens):
        found = _time_at(tokens, i)
        if found is None:
            rest.append(tokens[i])
            i += 1
            continue
        length, date, meal = found
        if when.date is None and date is not None:
            when = _When(date, meal, last_night=tokens[i : i + 2] == ["last", "night"])
        if rest and rest[-1] in ("on", "for", "earlier", "from"):
            rest.pop()
        i += length
    return when, rest


# "after the gym", "before my run", "post workout", "pre-workout": when something was eaten, not
# a workout being logged ("protein shake after gym" is a shake).
_AROUND = {"after", "before", "post", "pre", "during"}
_AROUND_FILLER = {"the", "my", "a", "our", "this", "morning", "evening", "today's", "todays"}
_SESSIONS = {"gym", "workout", "workouts", "training", "practice", "run", "ride", "swim"}
_SESSIONS |= {"class", "game", "match", "session", "lifting", "yoga", "walk", "hike", "lift"}
_AROUND_WORDS = {"pre-workout", "post-workout", "preworkout", "postworkout", "post-gym"}


def _around_session(tokens: list[str], i: int) -> int:
    """The length of an 'after the gym' phrase at tokens[i], else 0."""
    if tokens[i] in _AROUND_WORDS:
        return 1
    if tokens[i] not in _AROUND:
        return 0
    j = i + 1
    while _at(tokens, j) in _AROUND_FILLER:
        j += 1
    return j + 1 - i if _at(tokens, j) in _SESSIONS else 0


_WEEKDAY_MEALS = {"morning": "breakfast", "afternoon": "snack", "evening": "dinner"}
_WEEKDAY_MEALS["night"] = "dinner"


def _weekday_at(tokens: list[str], i: int) -> tuple[int, str, str | None] | None:
    """'on monday', 'last friday', 'tuesday evening' (the latest such day up to today)."""
    lead = tokens[i] if tokens[i] in ("on", "last") else None
    day = _at(tokens, i + 1) if lead else tokens[i]
    day = day[:-2] if day.endswith("'s") else day  # "monday's run"
    if day not in WEEKDAYS:
        return None
    j = i + (2 if lead else 1)
    meal = _WEEKDAY_MEALS.get(_at(tokens, j))
    said = f"last {day}" if lead == "last" else day
    return j + (1 if meal else 0) - i, said, meal


def _time_at(tokens: list[str], i: int) -> tuple[int, str, str | None] | None:
    if length := _around_session(tokens, i):
        return length, None, None
    if found := _weekday_at(tokens, i):
        return found
    for words, date, meal in _TIME_PHRASES:
        if tuple(tokens[i : i + len(words)]) == words:
            return len(words), date, meal
    if re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", tokens[i]):
        return 1, tokens[i], None
    count, j = take_quantity(tokens, i, articles=False)
    if (
        count
        and count == int(count)
        and _at(tokens, j) in ("day", "days")
        and _at(tokens, j + 1) == "ago"
    ):
        return j + 2 - i, f"{int(count)} days ago", None
    return None


# --------------------------------------------------------------------------------------------
# Clauses
# --------------------------------------------------------------------------------------------

_SPLITTERS = {",", "and", "n", "&", "+", "plus", "then", "also"}
_TIME_UNITS = {"h", "hr", "hrs", "hour", "hours", "min", "mins", "minute", "minutes", "m"}


def _clauses(tokens: list[str]) -> list[list[str]]:
    clauses, current = [], []
    skipping = False  # inside "with my wife": company, not food
    for i, token in enumerate(tokens):
        if (token in _SPLITTERS and not _glued(tokens, i)) or token in (":", ";", "-"):
            skipping = False
        elif skipping:
            continue
        elif token == "with" and _with_company(tokens, i):
            skipping = True
            continue
        if (token in _SPLITTERS and not _glued(tokens, i)) or _splits_with(tokens, i):
            if current:
                clauses.append(current)
            current = []
            if token == "with":
                continue
        else:
            current.append(token)
    if current:
        clauses.append(current)
    return clauses


# "coffee with milk", "tea with lemon", "chicken with skin": what follows "with" is part of the
# food. Anything else eaten with it is its own entry ("toast with peanut butter").
_WITH_PARTS = {"milk", "cream", "sugar", "sweetener", "ice", "lemon", "lime", "skin", "bone"}
_WITH_PARTS |= {"bones", "salt", "pepper", "extra", "no", "less", "more", "added", "oat", "soy"}
_WITH_PARTS |= {"splash", "dash", "drop", "touch", "shot"}  # "with a splash of milk"
_WITH_COMPANY = {"my", "our", "friends", "friend", "family", "kids", "colleagues", "coworkers"}
_WITH_COMPANY |= {"mom", "dad", "wife", "husband", "partner", "him", "her", "them", "everyone"}
_WITH_COMPANY |= {"me", "us", "team", "boyfriend", "girlfriend", "children", "parents"}


def _after_with(tokens: list[str], i: int) -> str:
    """The first word after 'with' that is not an article or an amount."""
    j = i + 1
    while _at(tokens, j) in ("a", "an", "the", "some", "of", "little", "bit", "side"):
        j += 1
    _, k = take_quantity(tokens, j)
    if food_unit(_at(tokens, k)) is not None:
        k += 1
    while _at(tokens, k) in ("of", "the"):
        k += 1
    return _at(tokens, k) or _at(tokens, j)


def _with_company(tokens: list[str], i: int) -> bool:
    return tokens[i] == "with" and _after_with(tokens, i) in _WITH_COMPANY


def _glued(tokens: list[str], i: int) -> bool:
    """An 'and' that belongs to a number: '2 and a half', '1 hour and 15 minutes'."""
    if tokens[i] != "and":
        return False
    if tokens[i + 1 : i + 3] == ["a", "half"]:
        return True
    _, j = take_quantity(tokens, i + 1, articles=False)
    return _at(tokens, i - 1) in _TIME_UNITS and j > i + 1 and _at(tokens, j) in _TIME_UNITS


def _splits_with(tokens: list[str], i: int) -> bool:
    """'toast with 2 tbsp peanut butter', 'bread with peanut butter': what is eaten with a food
    is its own entry, unless it is part of the food ('coffee with milk')."""
    if tokens[i] != "with" or i == 0 or i + 1 >= len(tokens):
        return False
    amount, j = take_quantity(tokens, i + 1)
    if amount is not None and tokens[i + 1] not in ("a", "an", "half"):
        return True  # "with 2 slices of ham"
    word = _after_with(tokens, i)
    if word in _WITH_PARTS and tokens.index(word, i) + 1 < len(tokens):
        after = tokens[tokens.index(word, i) + 1]
        if (word, after) in _WITH_FOODS:  # "a bagel with cream cheese", "cake with ice cream"
            return True
    return bool(word) and word not in _WITH_PARTS and word.isalpha()


_WITH_FOODS = {("cream", "cheese"), ("ice", "cream"), ("milk", "chocolate"), ("salt", "fish")}


# --------------------------------------------------------------------------------------------
# Water
# --------------------------------------------------------------------------------------------

# These are drinks with calories, not water.
_NOT_PLAIN_WATER = {"coconut", "tonic", "vitamin", "flavored", "flavoured"}


def _is_water(tokens: list[str]) -> bool:
    return any(
        token in ("water", "waters") and _at(tokens, i - 1) not in _NOT_PLAIN_WATER
        for i, token in enumerate(tokens)
    )


def _water(tokens: list[str]) -> dict:
    """Glasses of water in a clause: '3 glasses of water', 'water 500 ml', '2 bottles of water'."""
    for i in range(len(tokens)):
        amount, j = take_quantity(tokens, i)
        if amount is None:
            continue
        for unit in (_at(tokens, j), _at(tokens, j + 1)):  # "2 big glasses"
            unit = None if unit in ("", "of", "water", "waters") else unit
            glasses = water_glasses(amount, unit)
            if glasses is not None:
                return {"glasses_consumed": glasses}
    return {"glasses_consumed": 1}


# --------------------------------------------------------------------------------------------
# Measurements
# --------------------------------------------------------------------------------------------

_STANDARD_WORDS = {
    "weight": "weight",
    "weigh": "weight",
    "weighed": "weight",
    "weighing": "weight",
    "weighs": "weight",
    "weigh-in": "weight",
    "bodyweight": "weight",
    "wieght": "weight",  # slips of the keyboard
    "weigth": "weight",
    "wt": "weight",
    "neck": "neck",
    "waist": "waist",
    "hips": "hips",
    "hip": "hips",
    "steps": "steps",
}
# word -> (custom measurement name, default unit)
SCORE = "out of 10"
_CUSTOM_WORDS = {
    "resting heart rate": ("Resting heart rate", "bpm"),
    "rhr": ("Resting heart rate", "bpm"),
    "heart rate": ("Heart rate", "bpm"),
    "pulse": ("Heart rate", "bpm"),
    "blood pressure": ("Blood pressure", "mmHg"),
    "bp": ("Blood pressure", "mmHg"),
    "body fat": ("Body fat", "%"),
    "blood sugar": ("Blood glucose", None),
    "blood glucose": ("Blood glucose", None),
    "glucose": ("Blood glucose", None),
    "sleep": ("Sleep", "hours"),
    "slept": ("Sleep", "hours"),
    # how the day felt, on a scale of 10: "mood 7/10", "energy level 6 out of 10"
    "mood": ("Mood", SCORE),
    "energy": ("Energy", SCORE),
    "stress": ("Stress", SCORE),
}
# Words allowed between a measurement word and its number: "weighed in at 81.4", "waist is 84".
_MEASUREMENT_FILLER = {"in", "at", "is", "was", "of", "about", "around", "=", ":", "-", "my", "for"}
_MEASUREMENT_FILLER |= {"level", "levels"}
_CUSTOM_UNITS = {"bpm": "bpm", "%": "%", "mmhg": "mmHg", "mg/dl": "mg/dL", "mmol": "mmol/L"}


def _measurement_items(tokens: list[str], when: _When) -> list[dict]:
    """Every measurement in a clause; 'weight 80.2kg waist 84cm' gives two."""
    items, used = [], set()
    for i, token in enumerate(tokens):
        if token in _STANDARD_WORDS:
            item = _standard_measurement(tokens, i, _STANDARD_WORDS[token], used)
        elif token in _CUSTOM_WORDS:
            item = _custom_measurement(tokens, i, *_CUSTOM_WORDS[token], used)
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


# "I'm 80 kg", "81.4 kg", "down to 180 lbs": a body weight said with no word for it.
_BARE_WEIGHT_OPENERS = {"i", "i'm", "im", "am", "now", "currently", "down", "up", "to", "at"}
_BARE_WEIGHT_OPENERS |= {"only", "just", "finally", "back", "under", "over", "me", "is"}


def _bare_weight(tokens: list[str]) -> dict | None:
    i = 0
    while _at(tokens, i) in _BARE_WEIGHT_OPENERS:
        i += 1
    value, end = take_quantity(tokens, i, articles=False)
    if value is None or end != len(tokens) - 1:
        return None
    unit = weight_unit(tokens[end])
    return {"type": "weight", "value": value, "unit": unit} if unit else None


def _number_near(
    tokens: list[str], i: int, used: set[int], filler=_MEASUREMENT_FILLER
) -> tuple[float, int, int] | None:
    """(value, first index, index after) of the number after tokens[i], or just before it."""
    j = i + 1
    while _at(tokens, j) in filler and j < i + 4:
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
    found = _number_near(tokens, i, used)
    if found is None:
        return []  # "I need to weigh my options"
    value, start, end = found
    used.update(range(start, end + 1))
    unit_word = _at(tokens, end)
    if kind == "steps":
        if unit_word == "k":
            value *= 1000
        return [{"type": "steps", "value": value, "unit": "steps"}]
    if kind == "weight":
        if unit_word in ("stone", "st"):
            pounds, _ = take_quantity(tokens, end + 1, articles=False)
            return [{"type": "weight", "value": value * 14 + (pounds or 0), "unit": "lb"}]
        return [{"type": "weight", "value": value, "unit": weight_unit(unit_word)}]
    return [{"type": kind, "value": value, "unit": length_unit(unit_word)}]


def _custom_measurement(
    tokens: list[str], i: int, name: str, default_unit: str | None, used: set[int]
) -> list[dict]:
    if name == "Sleep":
        minutes = _duration_minutes(tokens)
        if minutes is None:
            return []  # "slept well"
        return [
            {"type": "custom", "name": "Sleep", "value": round(minutes / 60, 2), "unit": "hours"}
        ]
    found = _number_near(tokens, i, used)
    if found is None:
        return []
    value, start, end = found
    used.update(range(start, end + 1))
    unit = _CUSTOM_UNITS.get(_at(tokens, end), default_unit)
    reading = tokens[start]
    if default_unit == SCORE:
        if re.fullmatch(r"\d+(\.\d+)?/10", reading):  # "7/10" is 7, not 0.7
            value = float(reading.split("/")[0])
        if not 0 <= value <= 10:
            return []
        return [{"type": "custom", "name": name, "value": value, "unit": SCORE}]
    if name == "Blood pressure" and "/" in reading:
        systolic, diastolic = reading.split("/")
        return [
            {
                "type": "custom",
                "name": "Blood pressure systolic",
                "value": float(systolic),
                "unit": unit,
            },
            {
                "type": "custom",
                "name": "Blood pressure diastolic",
                "value": float(diastolic),
                "unit": unit,
            },
        ]
    return [{"type": "custom", "name": name, "value": value, "unit": unit}]


# --------------------------------------------------------------------------------------------
# Exercise
# --------------------------------------------------------------------------------------------

_EXERCISE_WORDS = {
    # on a treadmill with no run word: walking, the cautious guess
    "Walking": ("walk", "walked", "walking", "walks", "treadmill"),
    "Running": ("run", "ran", "running", "runs"),
    "Jogging": ("jog", "jogged", "jogging"),
    "Cycling": ("cycled", "cycling", "bike", "biked", "biking", "bicycle", "bicycling"),
    "Swimming": ("swim", "swam", "swimming", "swum"),
    "Hiking": ("hike", "hiked", "hiking"),
    "Yoga": ("yoga",),
    "Pilates": ("pilates",),
    "Dancing": ("dance", "danced", "dancing", "zumba"),
    "Rowing": ("rowed", "rowing"),
    "Elliptical trainer": ("elliptical",),
    "Stretching": ("stretch", "stretched", "stretching"),
    "Weight lifting": (
        "lifting",
        "weightlifting",
        "lifted weights",
        "lifting weights",
        "weight training",
        "strength training",
    ),
    "Squats": ("squat", "squats"),
    "Push-ups": ("push-ups", "pushups", "push ups", "push-up"),
    "Pull-ups": ("pull-ups", "pullups", "pull ups"),
    "Sit-ups": ("sit-ups", "situps", "sit ups"),
    "Lunges": ("lunges",),
    "Burpees": ("burpees",),
    "Crunches": ("crunches",),
    "Plank": ("plank", "planks"),
    "Deadlifts": ("deadlift", "deadlifts"),
    "Bench press": ("bench press",),
    "Jumping jacks": ("jumping jacks",),
    "Jump rope": ("jump rope", "skipping"),
    "Spinning": ("spin class", "spinning"),
    "HIIT": ("hiit",),
    "CrossFit": ("crossfit",),
    "Tennis": ("tennis",),
    "Basketball": ("basketball",),
    "Soccer": ("soccer", "football"),
    "Golf": ("golf",),
    "Boxing": ("boxing",),
    "Climbing": ("climbing", "bouldering"),
    "Skiing": ("skiing",),
    "Skating": ("skating",),
    "Martial arts": ("martial arts", "karate", "judo"),
    "Gardening": ("gardening",),
    "Mowing lawn": ("mowed", "mowing", "mow"),
    "Cleaning, house": ("cleaned", "cleaning", "housework", "chores"),
}
_EXERCISE_LOOKUP = {word: name for name, words in _EXERCISE_WORDS.items() for word in words}
# Exercise without a named activity: the services log it as "General Exercise".
_GENERIC_EXERCISE = {"workout", "worked out", "work out", "working out", "exercised", "gym"}
# "I ran out of milk", "I'm running late", "walk me through it", "watched football".
_NOT_EXERCISE_AFTER = {
    "out",
    "late",
    "low",
    "short",
    "behind",
    "into",
    "errands",
    "away",
    "off",
    "over",
    "across",
    "me",
    "you",
    "him",
    "her",
    "them",
    "us",
    "through",
}
_NOT_EXERCISE_BEFORE = {"watch", "watched", "watching", "long", "price", "menstrual"}


def exercise_at(tokens: list[str], i: int) -> str | None:
    """The exercise named by tokens[i], unless the word is used in another sense there."""
    name = _EXERCISE_LOOKUP.get(tokens[i])
    if name is None:
        return None
    if _at(tokens, i + 1) in _NOT_EXERCISE_AFTER or _at(tokens, i - 1) in _NOT_EXERCISE_BEFORE:
        return None
    if tokens[i + 1 : i + 3] in (["a", "fever"], ["a", "business"], ["a", "temperature"]):
        return None
    if tokens[i + 1 : i + 3] in (["my", "plate"], ["the", "plate"], ["my", "bowl"]):
        return None  # "cleaned my plate": eaten, not housework
    return name


# Exercises counted in sets and reps: "3 sets of squats" is about 3 x 3 minutes (set and rest),
# "100 push-ups" about 4 seconds each, not the default half hour.
_COUNTED_EXERCISES = {"Squats", "Push-ups", "Pull-ups", "Sit-ups", "Lunges", "Burpees"}
_COUNTED_EXERCISES |= {"Crunches", "Deadlifts", "Bench press", "Jumping jacks"}
MINUTES_PER_SET = 3
SECONDS_PER_REP = 4


def _minutes_for_count(tokens: list[str]) -> int | None:
    reps = None
    for i in range(len(tokens)):
        count, j = take_quantity(tokens, i, articles=False)
        if count is None:
            continue
        if _at(tokens, j) in ("sets", "set", "rounds"):
            return max(1, round(count * MINUTES_PER_SET))
        if reps is None and (
            _at(tokens, j) in ("reps", "rep", "x")
            or _EXERCISE_LOOKUP.get(_at(tokens, j)) in _COUNTED_EXERCISES
        ):
            reps = count
    return None if reps is None else max(1, -(-int(reps * SECONDS_PER_REP) // 60))


# Words around an activity the parser has no word for: "played volleyball for an hour",
# "45 min of badminton", "kettlebell workout 20 min" -> the catalog is searched for the rest.
_ACTIVITY_FILLER = {"i", "we", "did", "do", "done", "went", "go", "played", "play", "playing"}
_ACTIVITY_FILLER |= {"for", "of", "some", "a", "an", "the", "about", "around", "just", "session"}
_ACTIVITY_FILLER |= {"today", "this", "morning", "and", "then", "with", "my", "at", "in", "on"}
_ACTIVITY_FILLER |= {"to", "out", "into", "up", "again", "hard", "really", "quick", "good"}
_ACTIVITY_FILLER |= {"great", "long", "short", "nice", "full", "body", "total", "was", "it"}
_PLAYED = {"played", "play", "playing", "practiced", "practised"}
# Time spent that is not exercise: "worked 8 hours", "watched tv for 2 hours", "drove 2 hours".
_NOT_ACTIVITY = {"worked", "work", "working", "watched", "watch", "watching", "tv", "drove"}
_NOT_ACTIVITY |= {"drive", "driving", "sat", "sitting", "studied", "studying", "read", "reading"}
_NOT_ACTIVITY |= {"napped", "nap", "fasted", "fasting", "waited", "commuted", "commute"}
_NOT_ACTIVITY |= {"meeting", "meetings", "talked", "called", "gaming", "games", "computer"}
_NOT_ACTIVITY |= {"phone", "screen", "late", "overtime", "shift", "class", "lecture", "school"}


def _activity_words(tokens: list[str]) -> list[str]:
    """The words of a clause left once its durations, numbers and filler are taken out."""
    out, i = [], 0
    while i < len(tokens):
        amount, j = take_quantity(tokens, i)
        if amount is not None and (_at(tokens, j) in _HOURS or _at(tokens, j) in _MINUTES):
            i = j + 1
            continue
        token = tokens[i]
        if token not in _ACTIVITY_FILLER and token not in _GENERIC_EXERCISE and token.isalpha():
            out.append(token)
        i += 1
    return out


def _exercise(tokens: list[str]) -> dict | None:
    name = next((n for i in range(len(tokens)) if (n := exercise_at(tokens, i))), None)
    generic = any(token in _GENERIC_EXERCISE for token in tokens)
    if name is None:
        # an activity the word lists lack, said as exercise: timed, or "played ..."
        said = _activity_words(tokens)
        timed = _duration_minutes(tokens) is not None
        played = bool(_PLAYED & set(tokens))
        activity = not (_food_said(tokens) or _NOT_ACTIVITY & set(tokens))
        said = said if any(len(word) >= 4 for word in said) else []
        if said and len(said) <= 3 and (generic or timed or played) and activity:
            name = " ".join(said)
        elif not generic:
            return None
    distance, unit = _distance(tokens)
    minutes = _duration_minutes(tokens)
    if minutes is None and name in _COUNTED_EXERCISES:
        minutes = _minutes_for_count(tokens)
    return {
        "exercise_name": name,
        "duration_minutes": minutes,
        "distance": distance,
        "distance_unit": unit,
    }


_HOURS = {"h", "hr", "hrs", "hour", "hours"}
_MINUTES = {"min", "mins", "minute", "minutes"}


def _duration_minutes(tokens: list[str]) -> float | None:
    """Total minutes in a clause: '45 min', 'an hour and a half', '1h 15m', 'half an hour'."""
    total, after_hours, i = None, False, 0
    while i < len(tokens):
        amount, j = take_quantity(tokens, i)
        unit = _at(tokens, j)
        if amount is None or not (
            unit in _HOURS or unit in _MINUTES or (unit == "m" and after_hours)
        ):
            i, after_hours = max(j, i + 1), False
            continue
        if unit in _HOURS:
            if tokens[j + 1 : j + 4] == ["and", "a", "half"]:
                amount += 0.5
                j += 3
            minutes = amount * 60
        else:
            minutes = amount
        total = (total or 0) + minutes
        after_hours = unit in _HOURS
        i = j + 1
    return total


def _distance(tokens: list[str]) -> tuple[float | None, str | None]:
    for i in range(len(tokens)):
        amount, j = take_quantity(tokens, i)
        unit = distance_unit(_at(tokens, j)) if amount is not None else None
        if unit == "m" and _at(tokens, i - 1) in _HOURS:
            continue  # "1h 15m": minutes
        if unit is not None:
            return amount, unit
    return None, None


# --------------------------------------------------------------------------------------------
# Food
# --------------------------------------------------------------------------------------------

_EATING = {
    "ate",
    "eat",
    "eaten",
    "eating",
    "had",
    "having",
    "drank",
    "drink",
    "drinking",
    "snacked",
    "consumed",
    "finished",
    "grabbed",
}
_FOOD_FILLER = {
    ":",
    "sum",  # "had sum cookies"
    "too",
    "much",
    "lots",
    "way",
    "i",
    "i've",
    "ive",
    "i'd",
    "i'm",
    "im",
    "we",
    "we've",
    "just",
    "have",
    "some",
    "the",
    "my",
    "of",
    "for",
    "on",
    "another",
    "more",
    "also",
    "then",
    "really",
    "quick",
}
_TRAILING_FILLER = {"please", "too", "again", "earlier", "now", "as", "well", "today", "thanks"}
# Containers that say "one serving" but no measurable amount: the count is kept, unit None.
_CONTAINERS = {
    "side",
    "bowl",
    "bowls",
    "bowlful",
    "plate",
    "plates",
    "plateful",
    "bag",
    "bags",
    "packet",
    "packets",
    "pack",
    "packs",
    "box",
    "boxes",
}
_TRAILING_UNITS = {"slice", "slices", "strip", "strips", "rasher", "rashers"}
# Parts of a plant written after it: "spinach leaves", "3 garlic cloves", "celery stalks".
_TRAILING_PARTS = {"leaf", "leaves", "stalk", "stalks", "clove", "cloves", "spear", "spears"}
_TRAILING_PARTS |= {"floret", "florets", "floweret", "flowerets", "sprig", "sprigs"}


def _unit_after(name: list[str]) -> bool:
    """A unit written after the food: slices of anything, strips and rashers of bacon, the
    leaves, stalks and cloves of a plant."""
    if len(name) < 2 or name[-1] not in _TRAILING_UNITS | _TRAILING_PARTS:
        return False
    return name[-1] in _TRAILING_PARTS or name[-1] in ("slice", "slices") or name[-2] == "bacon"


_CONTAINER_SIZES = {"big": 1.5, "large": 1.5, "huge": 2, "small": 0.75, "little": 0.75}
_CALORIE_WORDS = {"calories", "calorie", "kcal", "cal", "cals"}
CALORIES_HINT = (
    "Say how many calories, e.g. '100 calories of almonds', or what it was with its calories, "
    "e.g. 'a burger, about 600 cal'."
)
# What people "had" that is not food: the item is dropped rather than searched for.
_NOT_FOOD = {
    "day",
    "night",
    "time",
    "week",
    "nap",
    "meeting",
    "headache",
    "cold",
    "fever",
    "break",
    "rest",
    "shower",
    "bath",
    "idea",
    "question",
    "problem",
    "fun",
    "dream",
    "call",
    "chat",
    "talk",
    "look",
    "go",
    "went",
    "test",
    "testing",
    "options",
    "kids",
    "dog",
    "cat",
}
# Meal words count as the meal (not part of a name such as "breakfast burrito") after these words
# or before these.
_MEAL_BEFORE = {"for", "at", "during", "with", "my", "our"}
_MEAL_AFTER = {"", ":", "was", "is", "i", "we", "today", "-"}
_SIZE_UNITS = {"small", "medium", "large"}


def _take_meal(tokens: list[str]) -> tuple[str | None, list[str]]:
    """The meal named in a clause ('for breakfast', 'lunch was', 'as a snack') and the rest."""
    for i, token in enumerate(tokens):
        meal = meal_type(token)
        if meal is None:
            continue
        before, after = _at(tokens, i - 1), _at(tokens, i + 1)
        as_a = before in ("a", "an") and _at(tokens, i - 2) in ("as", "for")
        # "snack - an apple", "lunch 2 eggs": a meal word opening the clause before an amount
        opening = i == 0 and (after == "some" or take_quantity(tokens, i + 1)[0] is not None)
        if before in _MEAL_BEFORE or as_a or after in _MEAL_AFTER or opening:
            start = i - 2 if as_a else (i - 1 if before in _MEAL_BEFORE else i)
            while start > 0 and tokens[start - 1] in ("for", "my", "at"):
                start -= 1
            end = i + 2 if after in (":", "was", "is", "-") else i + 1
            return meal, tokens[:start] + tokens[end:]
    return None, tokens


def _food_said(tokens: list[str]) -> bool:
    """Eating words or a meal in a clause: "had pizza for 30 min" is not an activity."""
    return any(token in _EATING for token in tokens) or _take_meal(tokens)[0] is not None


def _has_food_cue(tokens: list[str]) -> bool:
    if any(token in _EATING for token in tokens) or _take_meal(tokens)[0]:
        return True
    words = _without_filler(tokens)
    if _trailing_amount(words, None)[0] is not None:
        return True  # "chicken breast 200g", "eggs x2"
    amount, j = take_quantity(words, 0)
    if amount is None:
        return False
    unit = _at(words, j)
    counted = amount != 1 or words[0] not in ("a", "an")  # "2 eggs", not "a nice day"
    measured = food_unit(unit) is not None or unit in _CONTAINERS or unit in _CALORIE_WORDS
    return bool(unit) and (counted or measured)


def _without_filler(tokens: list[str]) -> list[str]:
    i = 0
    while i < len(tokens) and (tokens[i] in _FOOD_FILLER or tokens[i] in _EATING):
        i += 1
    return tokens[i:]


@dataclass
class _FoodItem:
    data: dict
    meal: str | None


def _food_item(tokens: list[str]) -> _FoodItem | str | None:
    """One food from a clause, an error message, or None when the clause names no food."""
    meal, tokens = _take_meal(tokens)
    words = _without_filler(tokens)
    amount, j = take_quantity(words, 0)
    unit = None
    word = _at(words, j)
    if word in _CALORIE_WORDS:
        if amount is None:
            return CALORIES_HINT
        unit, j = "kcal", j + 1  # "100 calories of almonds": as much as makes 100 kcal
    elif word in _CONTAINER_SIZES and _at(words, j + 1) in _CONTAINERS:
        # "a big bowl of oatmeal": half as much again as the measure a bowl stands for.
        amount, j = (amount or 1) * _CONTAINER_SIZES[word], j + 2
    elif food_unit(word) is not None:
        unit, j = food_unit(word), j + 1
    elif word in _CONTAINERS:
        j += 1
    while _at(words, j) in ("of", "some", "the"):
        j += 1
    name = words[j:]
    if amount is None:
        amount, unit, name = _trailing_amount(name, unit)
    if _unit_after(name):  # "2 pizza slices", "3 bacon strips", "3 garlic cloves"
        word, part = name[-1], name[-1] in _TRAILING_PARTS
        if unit is None or part:  # "spinach leaves", "a handful of spinach leaves": spinach
            name = name[:-1]
        if unit is None and (amount is not None or not part):
            unit = singular(word)
    while name and name[-1] in _TRAILING_FILLER:
        name = name[:-1]
    if (
        not name
        or name[-1] in _NOT_FOOD
        or name[0] in _NOT_FOOD
        or not any(c.isalpha() for c in "".join(name))
    ):
        return None
    if amount is not None and (unit is None or unit in _SIZE_UNITS or unit == "piece"):
        name = _singular_head(name)
    data = {"food_name": " ".join(name), "quantity": amount or 1, "unit": unit}
    return _FoodItem(data, meal)


def _trailing_amount(name: list[str], unit: str | None) -> tuple[float | None, str | None, list]:
    """'chicken breast 200g', 'eggs x2': an amount written after the food."""
    if len(name) >= 3 and number_value(name[-2]) is not None and food_unit(name[-1]):
        return number_value(name[-2]), food_unit(name[-1]), name[:-2]
    if len(name) >= 2 and name[-2] == "x" and number_value(name[-1]) is not None:
        return number_value(name[-1]), unit, name[:-2]
    return None, unit, name


_SINGULAR = {
    "cookies": "cookie",
    "brownies": "brownie",
    "smoothies": "smoothie",
    "pies": "pie",
    "veggies": "veggie",
    "loaves": "loaf",
    "halves": "half",
    "leaves": "leaf",
    "potatoes": "potato",
    "tomatoes": "tomato",
    "mangoes": "mango",
    "avocados": "avocado",
}
_NOT_PLURAL = {"hummus", "couscous", "asparagus", "molasses", "fries", "chips", "oats", "grits"}


def singular(word: str) -> str:
    """A simple English singular for a food word ('eggs' -> 'egg', 'berries' -> 'berry')."""
    if word in _SINGULAR:
        return _SINGULAR[word]
    if word in _NOT_PLURAL or len(word) <= 3 or word.endswith(("ss", "us", "is")):
        return word
    if word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith(("ches", "shes", "xes", "zes")):
        return word[:-2]
    return word[:-1] if word.endswith("s") else word


def _singular_head(name: list[str]) -> list[str]:
    """Singularise the main noun: the last word, or the last before 'with' ('eggs with cheese')."""
    head = name.index("with", 1) - 1 if "with" in name[1:] else len(name) - 1
    return [*name[:head], singular(name[head]), *name[head + 1 :]]


# --------------------------------------------------------------------------------------------
# The model
# --------------------------------------------------------------------------------------------


@dataclass
class _Reading:
    """What one message said, collected before it becomes intents."""

    entries: list  # (intent name, data) in the order the user said them
    measurements: list  # merged into one log_measurement
    errors: list  # things understood but refused ("100 calories of almonds")
    left_out: list  # parts not understood at all
    asked: bool = False
    social: str | None = None


def parse_message(text: str) -> ParseResult:
    """Intents for an everyday English message; errors say what could not be understood."""
    if not isinstance(text, str) or not text.strip():
        return ParseResult(errors=["The message was empty. " + EXAMPLES_TEXT])
    try:
        return _parse(text)
    except Exception:  # a parser bug must not take the user's turn down with it
        logger.exception("offline parser failed on %r", text[:200])
        return ParseResult(errors=[_not_understood(text)])


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


def _read_repeat(text: str) -> Intent | None:
    found = _REPEAT.match(" ".join(text.lower().replace("\u2019", "'").split()))
    if found is None:
        return None
    said = found.group("meal") or found.group("meal2") or found.group("meal3")
    day = found.group("day") or found.group("day3")
    meal = meal_type(said.rstrip("s")) if said else None
    to = meal_type(found.group("to")) if found.group("to") else None
    return Intent("repeat_meal", {"meal": meal, "from": day, "to_meal": to}, None)


# "actually make that 3 eggs", "no, it was lunch", "oops I meant 2 bananas", "scratch that", "I
# didn't have the banana": a correction of something logged, never something new to log.
_CORRECTION = re.compile(
    r"^(?:actually|oops|no|nope|sorry)[\s,!.]+(?:make|it was|it's|its|that|i meant|meant|not|"
    r"change|should|i said)\b"
    r"|^(?:oops|no|nope)[\s,!.]+(?:i )?(?:meant|wrong)\b"
    r"|^(?:i )?meant\b|\bscratch that\b|^make (?:that|it) \w|^that (?:was|should be)\b"
    r"|\b(?:didn'?t|did not) (?:have|eat|drink) (?:the|that)\b"
    r"|^(?:it|that) was (?:lunch|dinner|breakfast|a snack|yesterday)\b",
)


def _parse(text: str) -> ParseResult:
    if re.fullmatch(r"\s*#?\d{1,3}[.)]?\s*", text):
        return ParseResult(errors=[LONE_NUMBER])
    if _CORRECTION.search(" ".join(text.lower().replace("\u2019", "'").split())):
        return ParseResult(errors=[CHANGE_HINT])
    if repeat := _read_repeat(text):
        return ParseResult(intents=[repeat])
    reading = _Reading(entries=[], measurements=[], errors=[], left_out=[])
    when = _When()
    for sentence in _sentences(tokenise(text)):
        kind = _social_kind(sentence.tokens)
        tokens = _strip_openers(sentence.tokens)
        if kind or not tokens:
            reading.social = reading.social or kind or "greeting"
            continue
        if _is_question(sentence, tokens):
            reading.asked = True
            continue
        said, tokens = _take_time(tokens)
        if said.date is not None:
            when = said
        tokens = _strip_late_logging(tokens)
        if not tokens:
            continue
        if tokens[0] in _CHANGE_WORDS:
            _read_change(tokens, when, reading)
            continue
        if any(token in _GOAL_WORDS for token in tokens):
            _read_goals(tokens, when, reading)
            continue
        _read_statement(tokens, when, reading)
    bare = _read_bare_food(reading, when)
    result = _result(text, reading)
    result.bare_food = bare
    return result


_BARE_FOOD_WORDS = 7
_BARE_FOOD_ITEMS = 3  # "yogurt with berries and honey"


def _read_bare_food(reading: _Reading, when: _When) -> bool:
    """A message that is only a short name ("a banana", "rice", "coffee with milk") is taken
    as something eaten, since saying what you had is what the chat is for."""
    if reading.entries or reading.errors or reading.asked or reading.social:
        return False
    if not 1 <= len(reading.left_out) <= _BARE_FOOD_ITEMS:
        return False
    items = []
    for clause in reading.left_out:
        if not 1 <= len(clause) <= _BARE_FOOD_WORDS or _has_new_subject(clause):
            return False
        if any(token in _NOT_DONE or token in _CHANGE_WORDS for token in clause):
            return False
        item = _food_item(clause)
        if not isinstance(item, _FoodItem):
            return False
        item.data["date"] = when.date
        items.append(item)
    _fill_meals(items, when.meal)
    reading.entries.extend(("log_food", item.data) for item in items)
    reading.left_out.clear()
    return True


_GOAL_WORDS = {"goal", "goals", "target", "targets"}
_GOAL_NUTRIENTS = {
    **dict.fromkeys(["calories", "calorie", "kcal", "cal", "cals"], "calories"),
    "protein": "protein",
    **dict.fromkeys(["carbs", "carb", "carbohydrates", "carbohydrate"], "carbs"),
    **dict.fromkeys(["fat", "fats"], "fat"),
    **dict.fromkeys(["fiber", "fibre"], "dietary_fiber"),
    **dict.fromkeys(["sugar", "sugars"], "sugars"),
    **dict.fromkeys(["sodium", "salt"], "sodium"),
    **dict.fromkeys(["water", "glasses", "glass"], "water_goal"),
}
_GOAL_FILLER = _MEASUREMENT_FILLER | _GOAL_WORDS | {"to", "be", "daily", "per", "day", "a", "set"}
GOALS_HINT = (
    "I can set daily goals for calories, protein, carbs, fat, fiber, sugars, sodium and water, "
    "e.g. 'calorie goal 2000' or 'protein goal 150 g and 8 glasses of water'."
)


def _read_goals(tokens: list[str], when: _When, reading: _Reading) -> None:
    """'set my calorie goal to 2200', 'goals: 150 g protein and 8 glasses of water'."""
    if any(t in ("weight", "weigh", "kg", "lb", "lbs") for t in tokens) and not any(
        t in _GOAL_NUTRIENTS for t in tokens
    ):
        reading.errors.append(
            "I don't keep a goal weight; your weigh-ins and 'how is my weight trending?' show "
            "the way there. " + GOALS_HINT
        )
        return
    values: dict[str, float] = {}
    used: set[int] = set()
    for i, token in enumerate(tokens):
        name = _GOAL_NUTRIENTS.get(token)
        if name is None or name in values:
            continue
        if name == "fat" and _at(tokens, i - 1) in ("saturated", "sat"):
            name = "saturated_fat"
        found = _number_near(tokens, i, used, _GOAL_FILLER)
        if found is not None:
            value, start, end = found
            used.update(range(start, end + 1))
            values[name] = value
    if not values:
        # "set my goal to 2000": a bare daily number is a calorie goal.
        numbers = [take_quantity(tokens, i, articles=False)[0] for i in range(len(tokens))]
        numbers = [n for n in numbers if n is not None]
        if len(numbers) == 1 and 800 <= numbers[0] <= 10_000:
            values["calories"] = numbers[0]
    if not values:
        reading.errors.append(GOALS_HINT)
        return
    if "water_goal" in values:
        values["water_goal"] = round(values["water_goal"])
    day = when.date or ("today" if {"today's", "todays"} & set(tokens) else None)
    data = {**values, "date": day, "only_for_date": day is not None}
    reading.entries.append(("set_goals", data))


_LOG_VERBS = {"log", "add", "enter", "record", "track"}
_FORGOT = (["i", "forgot", "to"], ["forgot", "to"], ["i", "forgot"], ["forgot"])


def _strip_late_logging(tokens: list[str]) -> list[str]:
    """'I forgot to log 2 eggs', 'please add 2 eggs', 'log 2 eggs': the rest is the entry."""
    verbs = _LOG_VERBS
    i = 1 if tokens[:1] == ["please"] else 0
    for opener in _FORGOT:
        if tokens[: len(opener)] == opener:
            i, verbs = len(opener), _LOG_VERBS | {"mention", "say", "tell", "put"}
            break
    if _at(tokens, i) in verbs and len(tokens) > i + 1:
        return tokens[i + 1 :]
    return tokens


def _read_change(tokens: list[str], when: _When, reading: _Reading) -> None:
    """'delete the pizza', 'undo the water': never read as something to log (that would add
    what the user wants gone). A day's check-in value is replaced when logged again, so
    'change my weight to 80 kg' is the one change that is simply a new weigh-in."""
    changed = _Reading(entries=[], measurements=[], errors=[], left_out=[])
    if tokens[0] not in _REMOVE_WORDS:
        _read_statement(tokens[1:], when, changed)
    if changed.measurements and all(name == "log_measurement" for name, _ in changed.entries):
        reading.measurements.extend(changed.measurements)
        if ("log_measurement", None) not in reading.entries:
            reading.entries.append(("log_measurement", None))
        return
    reading.errors.append(CHANGE_HINT)


# "a burger, about 600 cal", "a 500 calorie salad", "protein shake with 30g protein and 150
# calories": a food with the nutrition the user gave, logged as their own food.
_MACROS = {
    word: name
    for word, name in _GOAL_NUTRIENTS.items()
    if name in ("protein", "carbs", "fat", "dietary_fiber")
}
_GRAM_WORDS = {"g", "gram", "grams", "gr"}
_ROUGHLY = {"about", "around", "approx", "approximately", "roughly", "~", "with", "of", "like"}


def _nutrition_said(tokens: list[str]) -> tuple[dict, set[int]]:
    """The calories and grams of macros a clause states, and the token positions they use."""
    found: dict = {}
    used: set[int] = set()
    for i in range(len(tokens)):
        amount, j = take_quantity(tokens, i, articles=False)
        if amount is None or i in used:
            continue
        word = _at(tokens, j)
        if word in _CALORIE_WORDS and _at(tokens, j + 1) != "of" and "calories" not in found:
            found["calories"] = amount
            used.update(range(i, j + 1))
            continue
        k = j + 1 if word in _GRAM_WORDS else j
        k = k + 1 if _at(tokens, k) == "of" else k
        macro = _MACROS.get(_at(tokens, k))
        if macro and (word in _GRAM_WORDS or k == j) and macro not in found:
            found[macro] = amount
            used.update(range(i, k + 1))
    return found, used


def _nutrition_only(clause: list[str]) -> bool:
    """'about 600 cal', '150 calories for breakfast': nutrition (and a meal), nothing else."""
    _, clause = _take_meal(clause)
    found, used = _nutrition_said(clause)
    rest = [t for i, t in enumerate(clause) if i not in used and t not in _ROUGHLY]
    return bool(found) and not rest


def _with_nutrition(clauses: list[list[str]]) -> list[list[str]]:
    """'a burger, about 600 cal': a clause of nutrition alone belongs to the food before it."""
    out: list[list[str]] = []
    for clause in clauses:
        if out and _nutrition_only(clause) and not _nutrition_only(out[-1]):
            out[-1] = [*out[-1], "with", *clause]
        else:
            out.append(clause)
    return out


def _external_item(clause: list[str]) -> _FoodItem | None:
    found, used = _nutrition_said(clause)
    if "calories" not in found:
        return None
    rest = [t for i, t in enumerate(clause) if i not in used]
    meal, rest = _take_meal(rest)
    words = [t for t in _without_filler(rest) if t not in _ROUGHLY]
    while words and words[0] in ("a", "an", "one"):
        words = words[1:]
    while words and (words[-1] in _ROUGHLY or words[-1] in _TRAILING_FILLER):
        words = words[:-1]
    if not words or len(words) > 6 or take_quantity(words, 0)[0] is not None:
        return None  # "2 eggs, 150 calories": a count and calories; left to the model
    data = {"food_name": " ".join(words), **found, "meal_type": None}
    return _FoodItem(data, meal)


def _read_statement(tokens: list[str], when: _When, reading: _Reading) -> None:
    clauses = _with_nutrition(_rejoined(_clauses(tokens)))
    domains = [_domain(clause) for clause in clauses]
    if "food" in domains:
        # "eggs, toast and coffee for breakfast": bare items belong to the sentence's food.
        domains = [
            "food" if domain is None and not _has_new_subject(clause) else domain
            for clause, domain in zip(clauses, domains, strict=True)
        ]
    foods = []
    sentence_meal = None
    for clause, domain in zip(clauses, domains, strict=True):
        if domain == "water":
            reading.entries.append(("log_water", {**_water(clause), "date": when.date}))
        elif domain == "measurement":
            reading.measurements.extend(_measurement_items(clause, when))
            if ("log_measurement", None) not in reading.entries:
                reading.entries.append(("log_measurement", None))
        elif domain == "exercise":
            reading.entries.append(("log_exercise", {**_exercise(clause), "date": when.date}))
        elif (external := _external_item(clause)) is not None:
            external.data["date"] = when.date
            foods.append(external)
            reading.entries.append(("log_external", external.data))
        elif domain == "food":
            item = _food_item(clause)
            if isinstance(item, str):
                reading.errors.append(item)
            elif item is None:
                meal, rest = _take_meal(clause)
                if meal and all(token in _MEAL_ONLY for token in rest):
                    sentence_meal = meal  # "went out for lunch (with my wife) and had a burger"
                else:
                    reading.left_out.append(clause)
            else:
                item.data["date"] = when.date
                foods.append(item)
                reading.entries.append(("log_food", item.data))
        else:
            reading.left_out.append(clause)
    if sentence_meal and not foods and not reading.entries:
        # "I had breakfast", "log lunch": the meal, but not what was in it
        reading.errors.append(
            f"What did you have for {sentence_meal}? Tell me the foods, e.g. '2 eggs and toast "
            f"for {sentence_meal}'."
        )
    _fill_meals(foods, sentence_meal or when.meal)


def _rejoined(clauses: list[list[str]]) -> list[list[str]]:
    """'slept badly, 5 hours', 'ran, 5 km': a measurement or a workout whose number a comma cut
    off gets it back."""
    out: list[list[str]] = []
    for clause in clauses:
        previous = out[-1] if out else None
        bare_number = len(clause) <= 3 and take_quantity(clause, 0, articles=False)[0] is not None
        unmeasured = previous is not None and (
            any(t in _STANDARD_WORDS or t in _CUSTOM_WORDS for t in previous)
            and not _measurement_items(previous, _When())
        )
        untimed = previous is not None and (
            (found := _exercise(previous)) is not None
            and found["duration_minutes"] is None
            and found["distance"] is None
            and (_duration_minutes(clause) is not None or _distance(clause)[0] is not None)
        )
        if bare_number and (unmeasured or untimed):
            out[-1] = previous + clause
        else:
            out.append(clause)
    return out


# Words around a meal that say nothing about what was eaten: "went out for lunch", "had dinner".
_MEAL_ONLY = {"went", "go", "out", "for", "had", "ate", "eat", "we", "i", "our", "my", "at", "to"}
_MEAL_ONLY |= {"the", "a", "grabbed", "got", "did", ":", "-", "it", "was", "for"}


_REMOVE_WORDS = {"delete", "remove", "undo", "cancel", "erase", "unlog", "drop"}
_CHANGE_WORDS = _REMOVE_WORDS | {"edit", "change", "fix", "correct", "update", "modify"}
CHANGE_HINT = (
    "I can't change or delete entries by chat without an AI service; every entry in the diary "
    "beside the chat has Edit and Delete."
)


# A clause about the future, a wish or something not done is never logged: "I want to run 5k",
# "going for a walk later", "didn't eat breakfast", "my goal weight is 75 kg".
_NOT_DONE = {
    "every",
    "usually",
    "always",
    "often",
    "normally",
    "sometimes",
    "want",
    "wanna",
    "gonna",
    "going",
    "will",
    "plan",
    "planning",
    "tomorrow",
    "later",
    "should",
    "would",
    "might",
    "hope",
    "hoping",
    "goal",
    "target",
    "not",
    "didn't",
    "didnt",
    "don't",
    "dont",
    "never",
    "skipped",
    "haven't",
    "havent",
}


def _domain(clause: list[str]) -> str | None:
    if any(token in _NOT_DONE for token in clause):
        return None
    if _is_water(clause):
        return "water"
    if _measurement_items(clause, _When()):
        return "measurement"
    if _exercise(clause) is not None:
        return "exercise"
    if _has_food_cue(clause):
        return "food"
    return None


def _has_new_subject(clause: list[str]) -> bool:
    """'... and I ran out of milk': a clause with its own subject is not a bare food item."""
    return _at(clause, 0) in {"i", "i'm", "im", "we", "it", "he", "she", "they", "you", "my"}


def _fill_meals(foods: list[_FoodItem], time_meal: str | None) -> None:
    """A meal named once covers the foods around it: '2 eggs and a banana for breakfast'."""
    meal = None
    for item in reversed(foods):  # the meal after an item ("... for breakfast") comes first
        meal = item.meal or meal
        item.data["meal_type"] = meal
    meal = None
    for item in foods:  # then "for dinner I ate salmon and broccoli"
        meal = item.meal or meal
        item.data["meal_type"] = item.data["meal_type"] or meal or time_meal


def _result(text: str, reading: _Reading) -> ParseResult:
    result = ParseResult(errors=list(reading.errors))
    for name, data in reading.entries:
        if name == "log_measurement":
            data = {"measurements": _valid_measurements(reading.measurements, result.errors)}
            if not data["measurements"]:
                continue
        if name in ("set_goals", "log_external"):  # the offline model's own intents
            result.intents.append(Intent(name, data, None))
            continue
        try:
            result.intents.append(validate_intent({"intent": name, "data": data}))
        except IntentError as error:
            result.errors.append(str(error))
    if reading.asked:
        result.intents.append(Intent("ask_question", {}, None))
    if not result.intents and reading.social:
        result.intents.append(Intent("chat", {}, _SOCIAL_REPLIES[reading.social]))
    if result.intents:
        result.errors.extend(_left_out(clause) for clause in reading.left_out)
    elif not result.errors:
        result.errors.append(_not_understood(text))
    return result


def _valid_measurements(items: list[dict], errors: list[str]) -> list[dict]:
    """Each measurement validated alone, so one bad value does not lose the others."""
    valid = []
    for item in items:
        try:
            intent = validate_intent(
                {"intent": "log_measurement", "data": {"measurements": [item]}}
            )
        except IntentError as error:
            errors.append(str(error))
        else:
            valid.extend(intent.data["measurements"])
    items.clear()  # a later log_measurement entry must not repeat them
    return valid


def _left_out(clause: list[str]) -> str:
    return f"I couldn't tell what {' '.join(clause)!r} was, so I left it out."


def _not_understood(text: str) -> str:
    """What was not understood (the coach adds what the offline model can do)."""
    shown = " ".join(text.split())
    shown = shown if len(shown) <= 80 else shown[:77] + "..."
    return f"Sorry, I couldn't understand {shown!r}."


# --------------------------------------------------------------------------------------------
# Categories, for the classifier when no AI service is configured
# --------------------------------------------------------------------------------------------

_CATEGORY_WORDS = {
    "food": {
        "calorie",
        "calories",
        "kcal",
        "protein",
        "carb",
        "carbs",
        "fat",
        "fiber",
        "fibre",
        "sugar",
        "sodium",
        "macros",
        "nutrition",
        "food",
        "foods",
        "meal",
        "meals",
        "eat",
        "ate",
        "eaten",
        "eating",
        "breakfast",
        "brunch",
        "lunch",
        "dinner",
        "supper",
        "snack",
        "snacks",
        "recipe",
        "hungry",
        "diet",
        "water",
        "drink",
        "drank",
        "hydration",
    },
    "exercise": {
        "exercise",
        "exercises",
        "workout",
        "workouts",
        "worked out",
        "work out",
        "gym",
        "training",
        "cardio",
        "burned",
        "burn",
    },
    "checkin": {
        "weight",
        "weigh",
        "weighed",
        "weigh-in",
        "waist",
        "hips",
        "neck",
        "steps",
        "measurement",
        "measurements",
        "bmi",
        "body fat",
        "sleep",
        "slept",
        "heart rate",
        "resting heart rate",
        "blood pressure",
    },
    "goals": {"goal", "goals", "target", "targets", "budget"},
    "coaching": {
        "advice",
        "tip",
        "tips",
        "suggest",
        "suggestion",
        "recommend",
        "should",
        "motivation",
        "motivate",
        "plan",
        "help",
        "healthy",
        "healthier",
    },
    "reports": {
        "summary",
        "summarize",
        "summarise",
        "report",
        "progress",
        "trend",
        "trends",
        "history",
        "total",
        "totals",
        "average",
        "streak",
        "week",
        "weekly",
        "month",
        "monthly",
        "so far",
        "how many",
        "how much",
        "chart",
        "stats",
    },
}
_INTENT_CATEGORIES = {
    "set_goals": "goals",
    "log_external": "food",
    "repeat_meal": "food",
    "log_food": "food",
    "log_water": "food",
    "log_exercise": "exercise",
    "log_measurement": "checkin",
}


def guess_categories(text: str) -> list[str]:
    """Tool categories a message needs, by keyword and by what it would log; [] when unsure."""
    if not isinstance(text, str) or not text.strip():
        return []
    try:
        tokens = tokenise(text)
        parsed = parse_message(text)
        found = {
            _INTENT_CATEGORIES[intent.name]
            for intent in ([] if parsed.bare_food else parsed.intents)  # a bare name: unsure
            if intent.name in _INTENT_CATEGORIES
        }
        for category, words in _CATEGORY_WORDS.items():
            if any(token in words for token in tokens):
                found.add(category)
        if any(exercise_at(tokens, i) for i in range(len(tokens))):
            found.add("exercise")
    except Exception:  # classification is a hint; never fail the turn over it
        logger.exception("offline classifier failed on %r", text[:200])
        return []
    return [category for category in CATEGORIES if category in found]
