"""Which tool categories a turn needs.

Order: a manual pick (a strict ceiling, nothing else runs); an attached image (vision + food,
always); English keyword rules over the whole message (every match kept, recall first, with guards
against the classic false positives); the LLM classifier on the last two messages ("none" ->
coaching only); and, if that call fails, the profile's default set.
"""

from __future__ import annotations

import dataclasses
import itertools
import logging
import re
from collections.abc import Iterable

from chat.categories import CATEGORIES, PROFILE_DEFAULTS
from chat.reading.vocabulary import ASKING, GOAL_WORDS, KEYWORD_GUARDS, KEYWORDS
from exercise import vocabulary as activities
from measurements import vocabulary as body
from nutrition import vocabulary as food
from sparky.words import alternation, words_pattern

logger = logging.getLogger(__name__)


@dataclasses.dataclass
class Classification:
    categories: list[str]
    phase: str  # manual | vision | keywords | classifier | none | default
    mode: str  # auto | manual
    usage: dict = dataclasses.field(default_factory=dict)
    detail: str = ""


def _rx(*lists: Iterable[str], plural: bool = False) -> re.Pattern:
    """Any word of the lists, as a whole word, in any case."""
    return words_pattern(itertools.chain(*lists), plural=plural)


def _amount_of(units: Iterable[str]) -> re.Pattern:
    """A number said with one of the units: "200 g", "2 slices", "80.5 kg"."""
    return re.compile(r"\b\d+(\.\d+)?\s*" + alternation(units) + r"\b", re.IGNORECASE)


def _sequence(lists) -> re.Pattern:
    """One word of each list in turn, spaces between: a guard's phrase. An activity's name
    stands for its words."""
    lists = [activities.ACTIVITIES[w] if isinstance(w, str) else w for w in lists]
    return re.compile(
        r"\b" + r"\s+".join(alternation(words) for words in lists) + r"\b", re.IGNORECASE
    )


_K = KEYWORDS
_BODY_UNITS = {*body.WEIGHT_SPELLINGS, *body.LENGTH_SPELLINGS} - {'"'}
_PIECES = (*food.GENERIC_PIECES[:1], *food.HOUSEHOLD_WORDS)  # "a piece", "2 slices"
_FOOD_UNITS = {*food.MEASURE_SPELLINGS, *_PIECES, *(f"{w}s" for w in _PIECES)}
_DAILY = alternation(_K["goals"]["daily"])

RULES: dict[str, list[re.Pattern]] = {
    "food": [
        _rx(_K["food"]["eating"], _K["food"]["about_food"], food.MEAL_NAMES),
        _rx(food.NUTRIENT_OF_WORD, food.NUTRITION_WORDS, food.COMMON_FOODS),
        # "80 kg" is a body weight far more often than a food's
        _amount_of(_FOOD_UNITS - set(body.WEIGHT_SPELLINGS)),
    ],
    "exercise": [
        _rx(activities.WORDS, _K["exercise"]["workouts"]),
        re.compile(r"\b" + alternation(_K["exercise"]["burning"]) + r"\s+\d+", re.IGNORECASE),
    ],
    "checkin": [
        # every word of every check-in field and reading (measurements/words/checkins.toml)
        _rx(
            body.CHECKIN_WORDS,
            body.CHECKIN_READINGS,
            body.CUSTOM_WORDS,
            _K["checkin"]["body"],
            _K["checkin"]["water"],
            food.WATER_WORDS,
        ),
        _amount_of(_BODY_UNITS),
        re.compile(r"\b\d[\d,.]*\s*k?\s*steps\b", re.IGNORECASE),
    ],
    "goals": [
        _rx(GOAL_WORDS, _K["goals"]["goals"], _K["goals"]["progress"]),
        # "I want to eat 1800 calories a day", "trying to stay under 2000 kcal"
        re.compile(
            rf"\b{alternation(_K['goals']['wanting'])}\s+to\s+{alternation(_K['goals']['wanted'])}"
            rf"\b[^.?!]*\b(?:{_DAILY}|{alternation(_K['goals']['limits'])})\b",
            re.IGNORECASE,
        ),
        re.compile(
            r"\b\d[\d,.]*\s*"
            + alternation({*food.CALORIE_WORDS, *food.GRAM_WORDS, *_K["goals"]["counted_daily"]})
            + rf"(\s+(of\s+)?[a-z]+)?\s+{_DAILY}\b",
            re.IGNORECASE,
        ),
    ],
    "coaching": [_rx(ASKING["advice"], _K["coaching"]["coaching"])],
    "vision": [_rx(_K["vision"]["images"])],
    "profile": [
        _rx(_K["profile"]["settings"]),
        re.compile(
            rf"\b{alternation(_K['profile']['switching'])}\s+{alternation(_BODY_UNITS)}\b",
            re.IGNORECASE,
        ),
    ],
    "reports": [
        _rx(_K["reports"]["reports"]),
        re.compile(rf"\b{alternation(_K['reports']['lately'])}\s+\d+\s+days\b", re.IGNORECASE),
    ],
}

# Phrases that look like a category but are not; removed before that category's rules run.
GUARDS: dict[str, list[re.Pattern]] = {}
for _category, _lists in KEYWORD_GUARDS:
    GUARDS.setdefault(_category, []).append(_sequence(_lists))

# A report or summary of what was "done" or of "activity" is about workouts too.
_REPORTED_ACTIVITY = _rx(_K["exercise"]["reported_activity"])


def keyword_categories(text: str) -> list[str]:
    """Every category whose rules match the message (after removing that category's guards)."""
    found = []
    for category, rules in RULES.items():
        subject = text
        for guard in GUARDS.get(category, ()):
            subject = guard.sub(" ", subject)
        if any(rule.search(subject) for rule in rules):
            found.append(category)
    if "reports" in found and "exercise" not in found and _REPORTED_ACTIVITY.search(text):
        found.append("exercise")
    return [c for c in RULES if c in found]


def parse_classifier_reply(text: str) -> list[str] | None:
    """Slugs from "food, exercise"; [] for "none"; None when the reply is not a category list."""
    words = re.findall(r"[a-z]+", (text or "").lower())
    if not words:
        return None
    slugs = []
    for word in words:
        if word in CATEGORIES and word not in slugs:
            slugs.append(word)
    if slugs:
        return slugs
    if "none" in words:
        return []
    return None


def classify(
    *,
    text: str,
    has_image: bool,
    profile: str,
    manual: list[str] | None = None,
    previous_reply: str | None = None,
    llm_classify=None,
    keywords: list[str] | None = None,
) -> Classification:
    """Pick the categories for a turn.

    `llm_classify(previous_reply, text) -> (reply_text, usage)` runs the Phase 2 request; it raises
    on a provider failure. None means no classifier is available (then the profile default applies).
    `keywords`: the message's keyword categories when the turn has read them already.
    """
    if manual:
        allowed = [c for c in CATEGORIES if c in manual]
        return Classification(categories=allowed, phase="manual", mode="manual")
    found = ["vision", "food"] if has_image else []
    for category in keywords if keywords is not None else keyword_categories(text):
        if category not in found:
            found.append(category)
    if has_image:
        return Classification(categories=_ordered(found), phase="vision", mode="auto")
    if found:
        return Classification(categories=_ordered(found), phase="keywords", mode="auto")
    default = list(PROFILE_DEFAULTS[profile])
    if llm_classify is None:
        return Classification(categories=default, phase="default", mode="auto")
    try:
        reply, usage = llm_classify(previous_reply, text)
    except Exception as exc:  # a provider failure, not a confident answer
        logger.info(
            "classifier failed, using the %s profile default: %s", profile, type(exc).__name__
        )
        return Classification(
            categories=default, phase="default", mode="auto", detail=type(exc).__name__
        )
    slugs = parse_classifier_reply(reply)
    if slugs is None:
        return Classification(
            categories=default, phase="default", mode="auto", usage=usage, detail="unparsed"
        )
    if not slugs:
        return Classification(categories=["coaching"], phase="none", mode="auto", usage=usage)
    return Classification(categories=_ordered(slugs), phase="classifier", mode="auto", usage=usage)


def _ordered(categories) -> list[str]:
    return [c for c in CATEGORIES if c in set(categories)]
