"""A domain's word lists live once, with their owner: a copy elsewhere drifts (the check-in
fields were once written out ten times, the meals six, the duration words four times with two
meanings of "m", "brunch" in one copy of the meal words and not in another). These read the app
code as text, as a reviewer would: a tuple, list, set or dict written out with exactly one of
these lists is a copy, unless it is the owner's; a regular expression that holds a word list
instead of building it from one (sparky.words.alternation) hides the words from that check; and
three or more words of an owner's list in another app's pattern or literal are a partial copy."""

import ast
import functools
import importlib.util
from pathlib import Path

import pytest

from chat.reading import vocabulary as chat_words
from chat.reading.classify import RULES
from chat.reading.parser.categories import CATEGORIES as OFFLINE_CATEGORIES
from exercise import vocabulary as exercise_words
from measurements import vocabulary as body_words
from nutrition import vocabulary as nutrition_words
from nutrition.models import MealType
from nutrition.units import STANDARD_SIZES
from sparky import vocabulary as core_words
from sparky.models import UserPreferences

ROOT = Path(__file__).resolve().parents[2]
APPS = ("aiservices", "chat", "config", "diary", "exercise", "measurements", "nutrition", "sparky")

# (the words, where they are written out, the owner to read them from). An owner written as a
# .toml file means no Python module may write the list out at all.
HOMES = [
    (
        set(exercise_words.DISTANCE_UNITS),
        [],
        "exercise/words/distances.toml, read as exercise.vocabulary.DISTANCE_UNITS",
    ),
    (
        set(exercise_words.DISTANCE_SPELLINGS),
        [],
        "exercise/words/distances.toml, read as exercise.vocabulary.DISTANCE_SPELLINGS",
    ),
    (
        set(core_words.CHAT_CATEGORIES),
        ["chat/reading/classify.py"],  # RULES: each category's keyword rules
        "sparky/words/chat_categories.toml, read as sparky.vocabulary.CHAT_CATEGORIES",
    ),
    (
        set(core_words.CORE_CHAT_CATEGORIES),
        [],
        "sparky/words/chat_categories.toml, read as chat.categories.CORE_CATEGORIES",
    ),
    (
        set(OFFLINE_CATEGORIES),
        [],
        "sparky/words/chat_categories.toml, read as chat.reading.parser.categories.CATEGORIES",
    ),
    (
        set(body_words.CHECKIN_FIELDS),
        [],
        "measurements/words/checkins.toml, read as measurements.services.STANDARD_TYPES",
    ),
    (
        set(body_words.HOURS),
        [],
        "measurements/words/durations.toml, read as measurements.vocabulary.HOURS",
    ),
    (
        set(body_words.MINUTES),
        [],
        "measurements/words/durations.toml, read as measurements.vocabulary.MINUTES",
    ),
    (
        set(body_words.MINUTES | body_words.MINUTES_IN_A_DURATION),
        [],
        "measurements/words/durations.toml, read as measurements.vocabulary.MINUTES_IN_A_DURATION",
    ),
    (
        set(body_words.HOURS | body_words.MINUTES | body_words.MINUTES_IN_A_DURATION),
        [],
        "measurements/words/durations.toml, read as measurements.vocabulary.HOURS and MINUTES",
    ),
    (
        set(body_words.WEIGHT_UNITS),
        [],
        "measurements/words/units.toml, read as measurements.vocabulary.WEIGHT_UNITS",
    ),
    (
        set(body_words.LENGTH_UNITS),
        [],
        "measurements/words/units.toml, read as measurements.vocabulary.LENGTH_UNITS",
    ),
    (
        set(body_words.WEIGHT_SPELLINGS),
        [],
        "measurements/words/units.toml, read as measurements.vocabulary.WEIGHT_SPELLINGS",
    ),
    (
        set(body_words.LENGTH_SPELLINGS),
        [],
        "measurements/words/units.toml, read as measurements.vocabulary.LENGTH_SPELLINGS",
    ),
    (
        set(nutrition_words.MEALS),
        [],
        "nutrition/words/meals.toml, read as nutrition.vocabulary.MEALS",
    ),
    (
        set(nutrition_words.SIZES),
        [],
        "nutrition/words/units.toml, read as nutrition.vocabulary.SIZES",
    ),
    (
        set(nutrition_words.MASS_G),
        [],
        "nutrition/words/units.toml, read as nutrition.vocabulary.MASS_G",
    ),
    (
        set(nutrition_words.VOLUME_ML),
        [],
        "nutrition/words/units.toml, read as nutrition.vocabulary.VOLUME_ML",
    ),
    (
        set(nutrition_words.CONTAINER_SERVINGS),
        [],
        "nutrition/words/units.toml, read as nutrition.vocabulary.CONTAINER_SERVINGS",
    ),
    (
        set(nutrition_words.CONTAINER_SIZES),
        [],
        "nutrition/words/units.toml, read as nutrition.vocabulary.CONTAINER_SIZES",
    ),
    (
        set(nutrition_words.GRAM_WORDS),
        [],
        "nutrition/words/units.toml, read as nutrition.vocabulary.GRAM_WORDS",
    ),
    (
        set(nutrition_words.CALORIE_WORDS),
        [],
        "nutrition/words/units.toml, read as nutrition.vocabulary.CALORIE_WORDS",
    ),
    (
        set(nutrition_words.GENERIC_PIECES),
        [],
        "nutrition/words/units.toml, read as nutrition.vocabulary.GENERIC_PIECES",
    ),
    (
        set(nutrition_words.HOUSEHOLD_WORDS),
        [],
        "nutrition/words/units.toml, read as nutrition.vocabulary.HOUSEHOLD_WORDS",
    ),
    (
        set(nutrition_words.MEAL_WORDS),
        [],
        "nutrition/words/meals.toml, read as nutrition.vocabulary.MEAL_WORDS",
    ),
    (
        set(nutrition_words.DRINK_SIZES_FL_OZ),
        [],
        "nutrition/words/units.toml, read as nutrition.vocabulary.DRINK_SIZES_FL_OZ",
    ),
    (
        set(nutrition_words.SIZE_WORDS),
        [],
        "nutrition/words/units.toml, read as nutrition.vocabulary.SIZE_WORDS",
    ),
    (
        set(nutrition_words.STAND_INS),
        [],
        "nutrition/words/units.toml, read as nutrition.vocabulary.STAND_INS",
    ),
    (
        set(body_words.CHECKIN_WORDS),
        [],
        "measurements/words/checkins.toml, read as measurements.vocabulary.CHECKIN_WORDS",
    ),
    (
        set(body_words.CUSTOM_WORDS),
        [],
        "measurements/words/custom.toml, read as measurements.vocabulary.CUSTOM_WORDS",
    ),
    (
        set(body_words.CUSTOM_UNITS),
        [],
        "measurements/words/custom.toml, read as measurements.vocabulary.CUSTOM_UNITS",
    ),
]


def _strings(nodes) -> set[str] | None:
    """The strings of a literal's items, or None when any item is not a string."""
    items = [e.value for e in nodes if isinstance(e, ast.Constant) and isinstance(e.value, str)]
    return set(items) if nodes and len(items) == len(nodes) else None


@functools.cache
def _literals(*, keys: bool = True) -> tuple[tuple[str, frozenset[str]], ...]:
    """(where, its strings) for every tuple, list or set of strings written in app code, and
    (with `keys`) every dict whose keys are strings; read once for every list checked."""
    found = []
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.Tuple | ast.List | ast.Set):
                    words = _strings(node.elts)
                elif keys and isinstance(node, ast.Dict) and None not in node.keys:
                    words = _strings(node.keys)
                else:
                    continue
                if words:
                    found.append((f"{path.relative_to(ROOT)}:{node.lineno}", frozenset(words)))
    return tuple(found)


def literal_lists(words: set[str]) -> list[str]:
    """Where a tuple, list or set written in app code holds exactly these strings, or a dict's
    keys are exactly these."""
    return [where for where, found in _literals() if found == words]


@pytest.mark.parametrize(
    "words, homes, owner", HOMES, ids=[owner.split(" ")[-1] for _, _, owner in HOMES]
)
def test_a_domain_list_is_written_out_only_by_its_owner(words, homes, owner):
    copies = [p for p in literal_lists(words) if p.split(":")[0] not in homes]
    assert not copies, f"{sorted(words)} written out again in {copies}: read it from {owner}"


def test_the_keyword_rules_are_for_the_categories():
    assert list(RULES) == list(core_words.CHAT_CATEGORIES)


def test_every_container_has_its_standard_size():
    assert set(STANDARD_SIZES) == set(nutrition_words.CONTAINER_SERVINGS)


def test_the_body_unit_choices_are_the_body_units():
    assert tuple(UserPreferences.WeightUnit.values) == body_words.WEIGHT_UNITS
    assert tuple(UserPreferences.MeasurementUnit.values) == body_words.LENGTH_UNITS


def test_the_meal_choices_are_the_meal_words():
    assert tuple(MealType.values) == nutrition_words.MEALS


# --- word lists inside regular expressions, and partial copies ------------------------------

_COUNTER_PATH = ROOT / "bench" / "word_regexes.py"


@functools.cache
def _counter():
    """bench/word_regexes.py, the counter issue 33 is measured by: one definition of a pattern
    that holds a word list, for the bench and for these tests."""
    spec = importlib.util.spec_from_file_location("word_regexes", _COUNTER_PATH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_few_of_chat_s_patterns_hold_a_word_list():
    """A pattern is built from a vocabulary's list (sparky.words.alternation), never holds the
    words itself: a list in a pattern hides from the checks below and drifts."""
    found, _ = _counter().word_regexes("chat")
    where = [f"{path}:{line}" for path, line, _ in found]
    assert len(found) <= 10, f"{len(found)} patterns in chat hold a word list: {where}"


# The lists a domain (or chat, for its answers to a reply) owns: (the words people type, the
# names among them that code may use as keys, the owner). Three or more of the words in a pattern
# of another app, or three or more that are not names in a literal of another app, are a partial
# copy of the list.
OWNED = [
    (
        frozenset(nutrition_words.MEAL_WORDS),
        frozenset(nutrition_words.MEALS),
        "nutrition/words/meals.toml",
    ),
    (
        frozenset(nutrition_words.NUTRIENT_OF_WORD),
        frozenset(nutrition_words.NUTRIENT_WORDS) | {"calories", "sugar", "fiber"},
        "nutrition/words/nutrients.toml",
    ),
    (nutrition_words.WATER_WORDS, frozenset({"water"}), "nutrition/words/foods.toml"),
    (
        frozenset(nutrition_words.ALIASES) | nutrition_words.HOUSEHOLD_WORDS,
        frozenset(nutrition_words.ALIASES.values()),
        "nutrition/words/units.toml",
    ),
    (
        frozenset(body_words.CHECKIN_WORDS),
        frozenset(body_words.CHECKIN_FIELDS),
        "measurements/words/checkins.toml",
    ),
    (
        frozenset(body_words.CUSTOM_WORDS),
        frozenset(name.lower() for name, _ in body_words.CUSTOM_WORDS.values()),
        "measurements/words/custom.toml",
    ),
    (
        frozenset(body_words.WEIGHT_SPELLINGS) | frozenset(body_words.LENGTH_SPELLINGS),
        frozenset(body_words.WEIGHT_UNITS + body_words.LENGTH_UNITS),
        "measurements/words/units.toml",
    ),
    (
        exercise_words.WORDS,
        frozenset(name.lower() for name in exercise_words.ACTIVITIES),
        "exercise/words/activities.toml",
    ),
    (chat_words.YES, frozenset(), "chat/reading/parser/words/talk.toml"),
    (chat_words.NO, frozenset(), "chat/reading/parser/words/talk.toml"),
]
# Words too common to tell one list's copy from plain English.
_COMMON = frozenset({"a", "an", "the", "in", "it", "x", "c", "l", "each", "whole", "other"})


@functools.cache
def _written_lists() -> tuple[tuple[str, bool, frozenset[str]], ...]:
    """(where, whether it is a pattern, its words) for every alternation in a pattern written in
    app code, and every tuple, list, set or dict of strings."""
    counter = _counter()
    # a dict's keys are names more often than words people type ("calories", "grams", "unit")
    found = [(where, False, words) for where, words in _literals(keys=False)]
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            for node, text in counter._strings(ast.parse(path.read_text())):
                if "|" not in text:
                    continue
                for group in counter._alternatives(text):
                    words = {counter._MARKS.sub("", alt).strip().lower() for alt in group}
                    words = {w for w in words if counter._WORD.fullmatch(w)}
                    if len(words) >= 3:
                        where = f"{path.relative_to(ROOT)}:{node.lineno}"
                        found.append((where, True, frozenset(words)))
    return tuple(found)


@pytest.mark.parametrize(
    "words, names, owner", OWNED, ids=[f"{o}-{i}" for i, (_, _, o) in enumerate(OWNED)]
)
def test_no_part_of_an_owned_list_is_written_elsewhere(words, names, owner):
    # a domain's own code may use its words; chat's lists are read from chat.reading.vocabulary
    home = "chat/reading/vocabulary.py" if owner.startswith("chat/") else owner.split("/")[0]
    copies = [
        f"{where} {sorted(said)}"
        for where, pattern, found in _written_lists()
        if not where.startswith(home)
        and len(said := (found & words) - _COMMON - (frozenset() if pattern else names)) >= 3
    ]
    assert not copies, f"words of {owner} written out again: {copies}; read them from it"
