"""Nutrition's unit words: masses and volumes, sizes, pieces and containers, the spellings
people use for them, and the limits of an amount."""

from __future__ import annotations

import re
from decimal import Decimal

from sparky import words

MASS_G = {
    "g": Decimal(1),
    "handful": Decimal(30),  # of nuts, berries, chips: about an ounce
    "kg": Decimal(1000),
    "mg": Decimal("0.001"),
    "oz": Decimal("28.349523125"),
    "lb": Decimal("453.59237"),
}
VOLUME_ML = {
    "ml": Decimal(1),
    "cl": Decimal(10),
    "dl": Decimal(100),
    "l": Decimal(1000),
    "tsp": Decimal("4.92892159375"),
    "tbsp": Decimal("14.78676478125"),
    "fl oz": Decimal("29.5735295625"),
    "cup": Decimal("236.5882365"),
    "pint": Decimal("473.176473"),
    "shot": Decimal("44.36029434375"),  # 1.5 fl oz
    "quart": Decimal("946.352946"),
}
SERVING = "serving"
KCAL = "kcal"  # "100 calories of almonds": as much of the food as has 100 kcal
PIECE = "piece"
SIZES = ("extra small", "small", "medium", "large", "extra large", "jumbo")
# Household servings that stand for one piece of the food, in the order a bare "1 piece" (or no
# unit at all) prefers them; a size is picked by weight (the middle one), nouns like "breast" or
# "cookie" follow, and SR28's "unit (yield from ...)" comes last.
GENERIC_PIECES = ("piece", "each", "whole", "item", "fruit")
NOT_PIECES = frozenset(
    {*MASS_G, *VOLUME_ML, SERVING, "nlea", "package", "container", "can", "jar", "bottle", "box"}
    | {"pot", "carton", "juice box", "bowl", "plate", "mug", "spoonful"}
    | {"bag", "pouch", "packet", "cubic", "inch", "portion", "recipe", "batch", "loaf"}
    | {"block", "head", "bunch", "roast", "bird", "rack"}  # the whole thing, not a piece
)

# A bare amount of a food kept per weight ("peanut butter", "rice", "a coffee") is one of its
# household measures, not 100 g: SR28's labelled serving ("serving (5 fl oz)" of wine), else
# the measure it lists first ("2 tbsp" of peanut butter, "1 cup" of rice), else the largest one
# that is still a helping (honey's "1 cup" is 1,031 kcal, its "1 tbsp" 64).
MEASURE_HEADS = frozenset({*VOLUME_ML, "oz"}) - {"l", "dl", "cl", "pint", "quart", "shot"}
LABELLED_SERVING = re.compile(r"^serving\b.*\b(\d+ )?(fl oz|oz|cups?|tbsp|tsp|g)\b")
HELPING_KCAL = Decimal(250)
SINGLE_PACKS = frozenset({"container", "carton", "pot", "tub", "can", "bottle", "pouch", "cup"})
SINGLE_PACKS |= {"package"}  # a Twix, a bag of M&Ms: the product's own pack
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
PART_PIECES = frozenset({"leaf", "floweret", "floret", "spear", "stalk", "sprig", "pod"})
# A piece over this (a stick of margarine, a pound's yield of steak, a 3.5 oz chocolate bar)
# gives way to a household measure when the food has one (1 tbsp, 3 oz, 1 oz).
BIG_PIECE_KCAL = Decimal(500)
# Household words that mean another serving when the food has none of their own: a slice of
# cheesecake is SR28's "piece", a strip or rasher of bacon its "slice".
STAND_INS = {"slice": ("piece", "wedge"), "strip": ("slice",), "rasher": ("slice",)}
STAND_INS |= {"floret": ("floweret",), "floweret": ("floret",)}
# A scoop of a food with no scoop of its own (ice cream, rice) is half a cup; a small, medium or
# large drink with no sizes of its own is a coffee-shop 8, 12 or 16 fl oz.
VOLUME_STAND_INS = {"scoop": VOLUME_ML["cup"] / 2}
DRINK_SIZES_ML = {
    "small": 8 * VOLUME_ML["fl oz"],
    "medium": 12 * VOLUME_ML["fl oz"],
    "large": 16 * VOLUME_ML["fl oz"],
}
# A glass is a cup, except of a drink SR28 gives a labelled serving (wine: 5 fl oz).
GLASS = "glass"

# Containers: what "a bottle", "a can", "a bag" of a food is. A food's own household serving
# that names the container comes first ("can or bottle (12 fl oz)" of cola, "container (6 oz)"
# of yogurt, "drink box (8.45 fl oz)" of juice); CONTAINER_SERVINGS lists the words such a
# serving may use. Without one, STANDARD_SIZES gives the usual size, for a drink (a food kept by
# the fluid ounce or the ml) or a food, with its source. A size word before a container scales it
# (CONTAINER_SIZES: "a small bag", "a large glass").
CONTAINER_SERVINGS: dict[str, tuple[str, ...]] = {
    "bottle": ("bottle",),
    "can": ("can", "tin"),
    "bag": ("bag", "package", "pouch"),
    "packet": ("packet", "package", "pouch", "envelope", "sachet"),
    "box": ("box", "package"),
    "carton": ("carton", "drink box", "box", "container"),
    "juice box": ("drink box", "juice box", "box"),
    "jar": ("jar",),
    "pot": ("container", "pot", "tub", "cup"),
    "bowl": ("bowl",),
    "plate": ("plate",),
    "mug": ("mug",),
    "spoonful": ("tbsp",),
}
FL_OZ_ML = Decimal("29.5735295625")
# A size the food has no serving for, from the one it has: USDA's small, medium and large
# apples, potatoes and eggs are about 0.7, 1 and 1.3 times the medium one.
SIZE_RATIOS = {
    "extra small": Decimal("0.55"),
    "small": Decimal("0.7"),
    "medium": Decimal(1),
    "large": Decimal("1.3"),
    "extra large": Decimal("1.5"),
    "jumbo": Decimal("1.7"),
}

ALIASES = {
    **dict.fromkeys(["g", "gram", "grams", "gr", "grm", "gm", "gms"], "g"),
    **dict.fromkeys(["kg", "kgs", "kilo", "kilos", "kilogram", "kilograms"], "kg"),
    **dict.fromkeys(["mg", "milligram", "milligrams"], "mg"),
    **dict.fromkeys(["oz", "ounce", "ounces"], "oz"),
    **dict.fromkeys(["handful", "handfuls", "fistful", "fistfuls"], "handful"),
    **dict.fromkeys(["lb", "lbs", "pound", "pounds"], "lb"),
    **dict.fromkeys(["ml", "mls", "milliliter", "milliliters", "millilitre", "millilitres"], "ml"),
    **dict.fromkeys(["cl", "centiliter", "centilitre"], "cl"),
    **dict.fromkeys(["dl", "deciliter", "decilitre"], "dl"),
    **dict.fromkeys(["l", "liter", "liters", "litre", "litres", "ltr"], "l"),
    **dict.fromkeys(["tsp", "tsps", "teaspoon", "teaspoons"], "tsp"),
    **dict.fromkeys(["tbsp", "tbsps", "tbs", "tbl", "tablespoon", "tablespoons"], "tbsp"),
    **dict.fromkeys(["fl oz", "floz", "fluid ounce", "fluid ounces"], "fl oz"),
    **dict.fromkeys(["cup", "cups", "c"], "cup"),
    **dict.fromkeys(["pint", "pints", "pt"], "pint"),
    **dict.fromkeys(["shot", "shots"], "shot"),
    **dict.fromkeys(["glass", "glasses"], GLASS),
    **dict.fromkeys(["quart", "quarts", "qt"], "quart"),
    **dict.fromkeys(
        ["serving", "servings", "serve", "serves", "portion", "portions", "helping", "helpings"],
        SERVING,
    ),
    **dict.fromkeys(["kcal", "cal", "cals", "calorie", "calories", "kilocalories"], KCAL),
    **dict.fromkeys(
        ["piece", "pieces", "pc", "pcs", "each", "ea", "whole", "item", "items"], PIECE
    ),
    **dict.fromkeys(["unit", "units", "x"], PIECE),
    **dict.fromkeys(["small", "sm"], "small"),
    **dict.fromkeys(["medium", "med", "regular"], "medium"),
    **dict.fromkeys(["large", "lg", "big"], "large"),
    **dict.fromkeys(["extra large", "xl", "x-large", "extra-large"], "extra large"),
    **dict.fromkeys(["extra small", "xs", "x-small", "extra-small"], "extra small"),
    "jumbo": "jumbo",
    **dict.fromkeys(["bottle", "bottles"], "bottle"),
    **dict.fromkeys(["can", "cans", "tin", "tins"], "can"),
    **dict.fromkeys(["bag", "bags", "baggie"], "bag"),
    **dict.fromkeys(["packet", "packets", "pack", "packs", "sachet", "sachets"], "packet"),
    **dict.fromkeys(["pouch", "pouches"], "packet"),
    **dict.fromkeys(["box", "boxes"], "box"),
    **dict.fromkeys(["carton", "cartons"], "carton"),
    **dict.fromkeys(["juice box", "juice boxes", "drink box", "drink boxes"], "juice box"),
    **dict.fromkeys(["jar", "jars"], "jar"),
    **dict.fromkeys(["pot", "pots", "tub", "tubs", "container", "containers"], "pot"),
    **dict.fromkeys(["bowl", "bowls", "bowlful", "bowlfuls"], "bowl"),
    **dict.fromkeys(["plate", "plates", "plateful", "platefuls"], "plate"),
    **dict.fromkeys(["mug", "mugs", "mugful"], "mug"),
    **dict.fromkeys(["spoonful", "spoonfuls", "spoon", "spoons"], "spoonful"),
}
CONTAINERS = frozenset(CONTAINER_SERVINGS)

MAX_GRAMS = Decimal(10_000)
MAX_ML = Decimal(10_000)
MAX_COUNT = Decimal(100)
MAX_QUANTITY = Decimal(100_000)
_PLACES = Decimal("0.001")
_LEADING_NUMBER = re.compile(r"^(\d+(?:\.\d+)?)\s*(.*)$")


# Serving words that are not units above but name an amount of a food, as its household
# servings do ("2 slices of pizza", "2 strips of bacon", "a wedge of brie", "a stick of butter").
HOUSEHOLD_WORDS = frozenset(
    {"slice", "scoop", "wedge", "stick", "bar", "square", "strip", "rasher", "fillet"}
)
# Pieces SR28 measures as part of a whole side when the fish is big: "a fillet" is that part.
SIDE_MEASURED = frozenset({"fillet"})
# Serving words people also say after the food ("a salmon fillet", "tilapia fillets").
TRAILING_HOUSEHOLD_WORDS = frozenset({"fillet"})
_SIZE_WORDS = {"big": "large", "little": "small", "huge": "extra large", "giant": "extra large"}


# Foods eaten, and named, as a plural: "fries" is never one fry, "oats" never one oat.
FOOD_PLURALS = frozenset(
    {"asparagus", "chips", "couscous", "fries", "grits", "hummus", "molasses", "oats"}
)


def _singular(word: str) -> str:
    return words.singular(word)


# Units written the same for any amount: "2 tbsp", "3 oz", "2 large".
_SAME_PLURAL = frozenset({*MASS_G, *VOLUME_ML, *SIZES}) - {"cup", "pint", "quart", "handful"}
_SAME_PLURAL = (_SAME_PLURAL - {"shot"}) | {KCAL}
