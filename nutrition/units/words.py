"""Nutrition's unit words: masses and volumes, sizes, pieces and containers, the spellings
people use for them, and the limits of an amount."""

from __future__ import annotations

import re
from decimal import Decimal

from nutrition import vocabulary
from sparky import words

# Masses in grams and volumes in ml (nutrition/words/units.toml).
MASS_G = vocabulary.MASS_G
VOLUME_ML = vocabulary.VOLUME_ML
SERVING = "serving"
KCAL = "kcal"  # "100 calories of almonds": as much of the food as has 100 kcal
PIECE = "piece"
SIZES = vocabulary.SIZES
# Household servings that stand for one piece of the food, in the order a bare "1 piece" (or no
# unit at all) prefers them; a size is picked by weight (the middle one), nouns like "breast" or
# "cookie" follow, and SR28's "unit (yield from ...)" comes last.
GENERIC_PIECES = vocabulary.GENERIC_PIECES
NOT_PIECES = frozenset({*MASS_G, *VOLUME_ML, SERVING}) | vocabulary.NOT_PIECES

# A bare amount of a food kept per weight ("peanut butter", "rice", "a coffee") is one of its
# household measures, not 100 g: SR28's labelled serving ("serving (5 fl oz)" of wine), else
# the measure it lists first ("2 tbsp" of peanut butter, "1 cup" of rice), else the largest one
# that is still a helping (honey's "1 cup" is 1,031 kcal, its "1 tbsp" 64).
MEASURE_HEADS = frozenset({*VOLUME_ML, "oz"}) - {"l", "dl", "cl", "pint", "quart", "shot"}
LABELLED_SERVING = re.compile(r"^serving\b.*\b(\d+ )?(fl oz|oz|cups?|tbsp|tsp|g)\b")
HELPING_KCAL = Decimal(250)
SINGLE_PACKS = vocabulary.SINGLE_PACKS  # a pot of yogurt, a Twix's own pack
HELPING_GRAMS = Decimal(250)
DRINK_GRAMS = Decimal(400)  # a 12 fl oz can or bottle is one drink
# A piece this small ("1 almond", "1 berry") is not what "almonds" or "some blueberries" mean
# when no count was said: a household measure is (1 oz, 1 cup).
TINY_PIECE_KCAL = Decimal(30)
# A "piece" bigger than this is the whole thing (a roast, a turkey, a head of cabbage): a bare
# name means a household measure of it instead.
WHOLE_GRAMS = Decimal(500)
WHOLE_KCAL = Decimal(1000)
# "eggs", "pancakes" with no count: a couple of them.
SEVERAL = Decimal(2)
# Pieces that are a part of the food, never what its bare name means.
PART_PIECES = vocabulary.PART_PIECES
# A piece over this (a stick of margarine, a pound's yield of steak, a 3.5 oz chocolate bar)
# gives way to a household measure when the food has one (1 tbsp, 3 oz, 1 oz).
BIG_PIECE_KCAL = Decimal(500)
# Household words that mean another serving when the food has none of their own: a slice of
# cheesecake is SR28's "piece", a strip or rasher of bacon its "slice".
STAND_INS = vocabulary.STAND_INS
# A scoop of a food with no scoop of its own (ice cream, rice) is half a cup; a small, medium or
# large drink with no sizes of its own is a coffee-shop 8, 12 or 16 fl oz.
VOLUME_STAND_INS = {"scoop": VOLUME_ML["cup"] / 2}
DRINK_SIZES_ML = {
    size: n * VOLUME_ML["fl oz"]
    for size, n in vocabulary.DRINK_SIZES_FL_OZ.items()
    if size != "extra large"  # an extra large drink with no size of its own is not guessed
}
# A glass is a cup, except of a drink SR28 gives a labelled serving (wine: 5 fl oz).
GLASS = "glass"

# Containers: what "a bottle", "a can", "a bag" of a food is. A food's own household serving
# that names the container comes first ("can or bottle (12 fl oz)" of cola, "container (6 oz)"
# of yogurt, "drink box (8.45 fl oz)" of juice); CONTAINER_SERVINGS lists the words such a
# serving may use. Without one, STANDARD_SIZES gives the usual size, for a drink (a food kept by
# the fluid ounce or the ml) or a food, with its source. A size word before a container scales it
# (CONTAINER_SIZES: "a small bag", "a large glass").
CONTAINER_SERVINGS = vocabulary.CONTAINER_SERVINGS
FL_OZ_ML = VOLUME_ML["fl oz"]
# A size the food has no serving for, from the one it has: USDA's small, medium and large
# apples, potatoes and eggs are about 0.7, 1 and 1.3 times the medium one.
SIZE_RATIOS = vocabulary.SIZE_RATIOS

# Spelling -> unit ("grams" -> "g", "tbs" -> "tbsp").
ALIASES = vocabulary.ALIASES
CONTAINERS = frozenset(CONTAINER_SERVINGS)

MAX_GRAMS = Decimal(10_000)
MAX_ML = Decimal(10_000)
MAX_COUNT = Decimal(100)
MAX_QUANTITY = Decimal(100_000)
_PLACES = Decimal("0.001")
_LEADING_NUMBER = re.compile(r"^(\d+(?:\.\d+)?)\s*(.*)$")


# Serving words that are not units above but name an amount of a food, as its household
# servings do ("2 slices of pizza", "2 strips of bacon", "a wedge of brie", "a stick of butter").
HOUSEHOLD_WORDS = vocabulary.HOUSEHOLD_WORDS
# Pieces SR28 measures as part of a whole side when the fish is big: "a fillet" is that part.
SIDE_MEASURED = vocabulary.SIDE_MEASURED
# Serving words people also say after the food ("a salmon fillet", "tilapia fillets").
TRAILING_HOUSEHOLD_WORDS = vocabulary.TRAILING_HOUSEHOLD_WORDS
_SIZE_WORDS = vocabulary.SIZE_WORDS


# Foods eaten, and named, as a plural: "fries" is never one fry, "oats" never one oat.
FOOD_PLURALS = vocabulary.FOOD_PLURALS


def _singular(word: str) -> str:
    return words.singular(word)


# Units written the same for any amount: "2 tbsp", "3 oz", "2 large".
_SAME_PLURAL = frozenset({*MASS_G, *VOLUME_ML, *SIZES}) - {"cup", "pint", "quart", "handful"}
_SAME_PLURAL = (_SAME_PLURAL - {"shot"}) | {KCAL}
