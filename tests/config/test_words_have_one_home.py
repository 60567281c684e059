"""A domain's word lists live once, with their owner: a copy elsewhere drifts (the check-in
fields were once written out ten times, the meals six, the duration words four times with two
meanings of "m"). These read the app code as text, as a reviewer would: a tuple, list, set or
dict written out with exactly one of these lists is a copy, unless it is the owner's."""

import ast
import functools
from pathlib import Path

import pytest

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
def _literals() -> tuple[tuple[str, frozenset[str]], ...]:
    """(where, its strings) for every tuple, list or set of strings written in app code, and
    every dict whose keys are strings; read once for every list checked."""
    found = []
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.Tuple | ast.List | ast.Set):
                    words = _strings(node.elts)
                elif isinstance(node, ast.Dict) and None not in node.keys:
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
