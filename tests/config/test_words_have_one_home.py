"""A domain's word lists live once, with their owner: a copy elsewhere drifts (the check-in
fields were once written out ten times, the meals six, the duration words four times with two
meanings of "m"). These read the app code as text, as a reviewer would: a tuple, list, set or
dict written out with exactly one of these lists is a copy, unless it is the owner's."""

import ast
from pathlib import Path

import pytest

from nutrition import vocabulary as nutrition_words
from nutrition.models import MealType
from nutrition.units import STANDARD_SIZES

ROOT = Path(__file__).resolve().parents[2]
APPS = ("aiservices", "chat", "config", "diary", "exercise", "measurements", "nutrition", "sparky")
CHECKIN_FIELDS = {"weight", "neck", "waist", "hips", "steps"}

# (the words, where they are written out, the owner to read them from). An owner written as a
# .toml file means no Python module may write the list out at all.
HOMES = [
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
        ["nutrition/units/sizes.py"],  # STANDARD_SIZES: each container's usual size
        "nutrition/words/units.toml, read as nutrition.vocabulary.CONTAINER_SERVINGS",
    ),
    (
        set(nutrition_words.CONTAINER_SIZES),
        [],
        "nutrition/words/units.toml, read as nutrition.vocabulary.CONTAINER_SIZES",
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
]


def _strings(nodes) -> set[str] | None:
    """The strings of a literal's items, or None when any item is not a string."""
    items = [e.value for e in nodes if isinstance(e, ast.Constant) and isinstance(e.value, str)]
    return set(items) if nodes and len(items) == len(nodes) else None


def literal_lists(words: set[str], *, keys: bool = True):
    """Every tuple, list or set written in app code whose items are exactly these strings, and
    (with `keys`) every dict whose keys are."""
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.Tuple | ast.List | ast.Set):
                    found = _strings(node.elts)
                elif keys and isinstance(node, ast.Dict) and None not in node.keys:
                    found = _strings(node.keys)
                else:
                    continue
                if found == words:
                    yield f"{path.relative_to(ROOT)}:{node.lineno}"


def test_the_check_in_fields_are_written_out_only_where_measurements_keeps_them():
    found = [p.split(":")[0] for p in literal_lists(CHECKIN_FIELDS, keys=False)]
    assert found == ["measurements/services.py"]


@pytest.mark.parametrize(
    "words, homes, owner", HOMES, ids=[owner.split(" ")[-1] for _, _, owner in HOMES]
)
def test_a_domain_list_is_written_out_only_by_its_owner(words, homes, owner):
    copies = [p for p in literal_lists(words) if p.split(":")[0] not in homes]
    assert not copies, f"{sorted(words)} written out again in {copies}: read it from {owner}"


def test_every_container_has_its_standard_size():
    assert set(STANDARD_SIZES) == set(nutrition_words.CONTAINER_SERVINGS)


def test_the_meal_choices_are_the_meal_words():
    assert tuple(MealType.values) == nutrition_words.MEALS
