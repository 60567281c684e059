"""Standard sizes: what a can, a bottle, a bag or a size of a food holds when the catalog has
no serving of that name, with its source."""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

from nutrition import vocabulary
from nutrition.units.words import _singular


@dataclass(frozen=True)
class StandardSize:
    """The usual size of a container when the food has no serving of that name."""

    amount: Decimal
    unit: str  # a unit of MASS_G or VOLUME_ML
    source: str


def _standard(size) -> StandardSize | None:
    return None if size is None else StandardSize(*size)


# The sizes themselves are nutrition/words/standard_sizes.toml's, each with its source.
# container -> (drink size, food size); a food word of the food's name may pick its own size first
# (STANDARD_SIZES_FOR: a bottle of wine is 750 ml, of beer 12 fl oz).
STANDARD_SIZES: dict[str, tuple[StandardSize | None, StandardSize | None]] = {
    container: (_standard(drink), _standard(food))
    for container, (drink, food) in vocabulary.STANDARD_SIZES.items()
}
# A size said before a container whose standard size is that size already, or has its own:
# the snack bag is the small one (1 oz); the large single-serve bag of chips is 2.5 oz.
SIZED_STANDARD_SIZES: dict[tuple[str, str], StandardSize] = {
    key: StandardSize(*size) for key, size in vocabulary.SIZED_STANDARD_SIZES.items()
}
STANDARD_SIZES_FOR: dict[tuple[str, str], StandardSize] = {
    key: StandardSize(*size) for key, size in vocabulary.STANDARD_SIZES_FOR.items()
}
# A piece of these, said with no amount, when the catalog's own piece is a pound's yield.
STANDARD_PIECES: dict[str, StandardSize] = {
    word: StandardSize(*size) for word, size in vocabulary.STANDARD_PIECES.items()
}
# A size said before a container: "a small bag", "a large glass", "a big bowl".
CONTAINER_SIZES = vocabulary.CONTAINER_SIZES


def standard_size(food, word: str, *, drink: bool) -> StandardSize | None:
    """The standard size of a container for this food (see STANDARD_SIZES), or None."""
    words = {_singular(w) for w in re.findall(r"[a-z]+", food.name.lower())}
    for (container, food_word), size in STANDARD_SIZES_FOR.items():
        if container == word and food_word in words:
            return size
    drink_size, food_size = STANDARD_SIZES.get(word, (None, None))
    return (drink_size or food_size) if drink else (food_size or drink_size)
