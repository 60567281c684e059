"""Nutrition's words, read once from nutrition/words/*.toml: the units an amount is said in and
their spellings, the sizes, the containers, and the meals. The unit parsing, the portions, the
services, the offline parser and the chat's tools read these; a word nutrition should know is
added to a file, not written out again in code (tests/config/test_words_have_one_home.py)."""

from __future__ import annotations

import tomllib
from decimal import Decimal
from pathlib import Path

WORDS_DIR = Path(__file__).resolve().parent / "words"


def _load(name: str) -> dict:
    with (WORDS_DIR / f"{name}.toml").open("rb") as handle:
        return tomllib.load(handle)


def _decimals(table: dict[str, str]) -> dict[str, Decimal]:
    return {word: Decimal(amount) for word, amount in table.items()}


_units = _load("units")
# Unit -> grams, unit -> ml.
MASS_G: dict[str, Decimal] = _decimals(_units["mass_g"])
VOLUME_ML: dict[str, Decimal] = _decimals(_units["volume_ml"])
# The sizes, smallest first, and what each is of the medium one.
SIZES: tuple[str, ...] = tuple(_units["sizes"])
SIZE_RATIOS: dict[str, Decimal] = _decimals(_units["size_ratios"])
# What a size said before a container scales it by ("a small bag", "a large glass").
CONTAINER_SIZES: dict[str, Decimal] = _decimals(_units["container_sizes"])
DRINK_SIZES_FL_OZ: dict[str, int] = dict(_units["drink_sizes_fl_oz"])
# "big" -> "large", "huge" -> "extra large": size words the sizes do not spell.
SIZE_WORDS: dict[str, str] = dict(_units["size_words"])
GENERIC_PIECES: tuple[str, ...] = tuple(_units["generic_pieces"])
PART_PIECES: frozenset[str] = frozenset(_units["part_pieces"])
HOUSEHOLD_WORDS: frozenset[str] = frozenset(_units["household_words"])
FOOD_PLURALS: frozenset[str] = frozenset(_units["food_plurals"])
NOT_PIECES: frozenset[str] = frozenset(_units["not_pieces"])
SINGLE_PACKS: frozenset[str] = frozenset(_units["single_packs"])
SIDE_MEASURED: frozenset[str] = frozenset(_units["side_measured"])
TRAILING_HOUSEHOLD_WORDS: frozenset[str] = frozenset(_units["trailing_household_words"])
# A household word -> the servings that stand in for it ("slice" -> "piece", "wedge").
STAND_INS: dict[str, tuple[str, ...]] = {
    word: tuple(others) for word, others in _units["stand_ins"].items()
}
# Container -> the words a food's own household serving may name it by.
CONTAINER_SERVINGS: dict[str, tuple[str, ...]] = {
    container: tuple(words) for container, words in _units["container_servings"].items()
}
# Spelling -> unit ("grams" -> "g", "tbs" -> "tbsp", "big" -> "large").
ALIASES: dict[str, str] = {
    spelling: unit for unit, spellings in _units["aliases"].items() for spelling in spellings
}
# The spellings of grams and of calories ("30 g protein", "about 600 cal").
GRAM_WORDS: frozenset[str] = frozenset(_units["aliases"]["g"])
CALORIE_WORDS: frozenset[str] = frozenset(_units["aliases"]["kcal"])
# Every spelling of a mass or a volume ("grams", "tbs", "pints"): what an amount is measured in.
MEASURE_SPELLINGS: frozenset[str] = frozenset(
    spelling for spelling, unit in ALIASES.items() if unit in MASS_G or unit in VOLUME_ML
)

_meals = _load("meals")
# The meals, in the order of the day.
MEALS: tuple[str, ...] = tuple(_meals["meals"])
# Word that names a meal -> the meal ("supper" -> "dinner", "brekkie" -> "breakfast").
MEAL_NAMES: dict[str, str] = {
    word: meal for meal, words in _meals["words"].items() for word in words
}
# Word -> meal, the times of day included ("tonight" -> "dinner").
MEAL_WORDS: dict[str, str] = MEAL_NAMES | {
    word: meal for meal, words in _meals["times"].items() for word in words
}

# Word -> meal, said only last after "for" ("steak and chips for tea").
MEAL_LAST_AFTER_FOR: dict[str, str] = {
    word: meal for meal, words in _meals["said_last_after_for"].items() for word in words
}

# Words for foods by region or brand, each with what it means in the catalog and its source
# (nutrition/words/aliases.toml): said -> means.
FOOD_ALIASES: dict[str, str] = {
    said: row["means"] for row in _load("aliases")["alias"] for said in row["said"]
}

_foods = _load("foods")
# Foods people name most often, for knowing a message is about food before any search.
COMMON_FOODS: frozenset[str] = frozenset(_foods["common"])
# Water, and the words for drinking it ("hydration").
WATER_WORDS: frozenset[str] = frozenset(_foods["water"])
# Words saying which kind of a food it was ("white" rice, "skim" milk).
KIND_WORDS: frozenset[str] = frozenset(_foods["kinds"])

_nutrients = _load("nutrients")
# Nutrient -> the words people use for it ("carbohydrates" -> carbs), in the diary's order.
NUTRIENT_WORDS: dict[str, tuple[str, ...]] = {
    name: tuple(words) for name, words in _nutrients["words"].items()
}
# Word -> the nutrient it names ("fibre" -> "dietary_fiber").
NUTRIENT_OF_WORD: dict[str, str] = {
    word: name for name, words in NUTRIENT_WORDS.items() for word in words
}
# Nutrient -> the name an answer says ("dietary_fiber" -> "fiber").
NUTRIENT_NAMES: dict[str, str] = dict(_nutrients["names"])
# Micronutrient -> the words people use for it ("b12" -> vitamin_b12), in MICRONUTRIENTS's order.
MICRONUTRIENT_WORDS: dict[str, tuple[str, ...]] = {
    name: tuple(words) for name, words in _nutrients["micronutrient_words"].items()
}
# Words for a food's nutrition as a whole ("macros", "nutrition").
NUTRITION_WORDS: frozenset[str] = frozenset(_nutrients["about"]["words"])
# Words for nutrients the diary does not keep ("vitamins", "caffeine").
OTHER_NUTRIENT_WORDS: frozenset[str] = frozenset(_nutrients["about"]["others"])

_standard = _load("standard_sizes")
# A standard size: (amount, unit, source); nutrition.units.sizes makes them StandardSizes.
Size = tuple[Decimal, str, str]


def _size(entry: list[str] | None) -> Size | None:
    return None if entry is None else (Decimal(entry[0]), entry[1], entry[2])


# Container -> (its usual size for a drink, for a food); either may be None.
STANDARD_SIZES: dict[str, tuple[Size | None, Size | None]] = {
    container: (_size(sizes.get("drink")), _size(sizes.get("food")))
    for container, sizes in _standard["containers"].items()
}
# (container, size said before it) -> the size it holds: a small bag is the snack bag.
SIZED_STANDARD_SIZES: dict[tuple[str, str], Size] = {
    (e["container"], e["size"]): _size(e["holds"]) for e in _standard["sized"]
}
# (container, a word of the food's name) -> the size it holds: a bottle of wine is 750 ml.
STANDARD_SIZES_FOR: dict[tuple[str, str], Size] = {
    (e["container"], e["food_word"]): _size(e["holds"]) for e in _standard["for_food"]
}
# A food word -> the piece said with no amount (a steak as served).
STANDARD_PIECES: dict[str, Size] = {word: _size(size) for word, size in _standard["pieces"].items()}
