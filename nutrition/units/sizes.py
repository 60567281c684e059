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


def _fl_oz(n, source: str) -> StandardSize:
    return StandardSize(Decimal(str(n)), "fl oz", source)


# container -> ((drink size, food size), ...); a food word of the food's name may pick its own
# size first (STANDARD_SIZES_FOR: a bottle of wine is 750 ml, of beer 12 fl oz).
STANDARD_SIZES: dict[str, tuple[StandardSize | None, StandardSize | None]] = {
    "bottle": (
        StandardSize(Decimal(500), "ml", "single-serve bottle of soda, water or juice, 500 ml"),
        None,
    ),
    "can": (
        _fl_oz(12, "US standard beverage can, 12 fl oz (355 ml)"),
        StandardSize(
            Decimal("1.75"), "cup", "a 15 oz can of beans, vegetables or soup: about 1.75 cups"
        ),
    ),
    "bag": (None, StandardSize(Decimal(1), "oz", "snack-size bag of chips or pretzels, 1 oz")),
    "packet": (None, StandardSize(Decimal(1), "oz", "single-serve snack packet, about 1 oz")),
    "box": (
        StandardSize(Decimal(200), "ml", "juice box, 200 ml (6.75 fl oz)"),
        StandardSize(Decimal(1), "oz", "single-serve snack or cereal box, about 1 oz"),
    ),
    "carton": (_fl_oz(8, "half-pint carton of milk or juice, 8 fl oz"), None),
    "juice box": (StandardSize(Decimal(200), "ml", "juice box, 200 ml (6.75 fl oz)"), None),
    "jar": (None, StandardSize(Decimal(16), "oz", "a 16 oz jar of salsa, sauce or spread")),
    "pot": (None, StandardSize(Decimal(150), "g", "single-serve yogurt or dessert pot, 150 g")),
    "bowl": (
        StandardSize(Decimal("1.5"), "cup", "estimate: a bowl of soup, about 1.5 cups"),
        StandardSize(Decimal("1.5"), "cup", "estimate: a bowl of cereal or chili, 1.5 cups"),
    ),
    "plate": (
        None,
        StandardSize(Decimal(2), "cup", "estimate: a dinner plate of pasta or rice, 2 cups"),
    ),
    "mug": (_fl_oz(12, "estimate: a coffee mug, 12 fl oz"), None),
    "spoonful": (
        StandardSize(Decimal(1), "tbsp", "a spoonful is a tablespoon"),
        StandardSize(Decimal(1), "tbsp", "a spoonful is a tablespoon"),
    ),
}
# A size said before a container whose standard size is that size already, or has its own:
# the snack bag is the small one (1 oz); the large single-serve bag of chips is 2.5 oz.
SIZED_STANDARD_SIZES: dict[tuple[str, str], StandardSize] = {
    ("bag", "small"): StandardSize(Decimal(1), "oz", "snack-size bag of chips or pretzels, 1 oz"),
    ("bag", "large"): StandardSize(
        Decimal("2.5"), "oz", "a large single-serve bag of chips (the 2.5 oz size)"
    ),
    ("packet", "small"): StandardSize(Decimal(1), "oz", "single-serve snack packet, about 1 oz"),
}
STANDARD_SIZES_FOR: dict[tuple[str, str], StandardSize] = {
    ("bottle", "wine"): StandardSize(Decimal(750), "ml", "standard wine bottle, 750 ml"),
    ("bottle", "champagne"): StandardSize(Decimal(750), "ml", "standard wine bottle, 750 ml"),
    ("bottle", "beer"): _fl_oz(12, "US standard beer bottle, 12 fl oz"),
    ("bottle", "cider"): _fl_oz(12, "US standard cider bottle, 12 fl oz"),
    ("bottle", "gatorade"): _fl_oz(20, "Gatorade's single-serve bottle, 20 fl oz"),
    ("can", "energy"): _fl_oz(16, "energy drink can (Monster, Rockstar), 16 fl oz"),
    ("can", "monster"): _fl_oz(16, "Monster energy drink can, 16 fl oz"),
    ("can", "tuna"): StandardSize(Decimal(142), "g", "a 5 oz can of tuna: 142 g (drained 113 g)"),
    # instant oatmeal: a 28 g packet made with water is about 3/4 cup cooked (Quaker's label)
    ("packet", "oat"): StandardSize(Decimal("0.75"), "cup", "instant oatmeal packet, 3/4 cup made"),
}
# A piece of these, said with no amount, when the catalog's own piece is a pound's yield: a steak
# as served is about 6 oz cooked (8 oz raw; USDA's 3 oz is a serving, not a steak).
STANDARD_PIECES: dict[str, StandardSize] = {
    "steak": StandardSize(Decimal(6), "oz", "a restaurant steak: 8 oz raw, about 6 oz cooked"),
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
