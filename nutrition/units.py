"""Units: what "2 large", "150 g", "1 cup" or "3 slices" of a food is, as a multiple of the
nutrient values the food stores (per `serving_size` `serving_unit`, per 100 g for SR28 foods).

    portion(food=egg, quantity=2, unit="large").multiplier   # 2 x 50 g / 100 g = 1.0

Routes, first that applies: a serving; the food's own serving unit; a mass (g, kg, oz, lb) when
the food's weight is known (its serving is a mass, or a household serving gives grams); a
household serving named by the unit ("cup" -> "cup, sliced", "large" -> "large (8" long)",
"slices" -> "slice"); a volume through the food's volume serving or a household volume with its
grams; pieces ("piece", "each", "whole") through the typical piece-like serving, or one serving
when the food itself is counted in pieces. Anything else is refused naming the units that work.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace
from decimal import Decimal, InvalidOperation
from functools import cached_property

from django.core.exceptions import ValidationError

from nutrition.models import FNDDS_SOURCE
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
CONTAINER_SIZES = {
    "small": Decimal("0.75"),
    "medium": Decimal(1),
    "large": Decimal("1.5"),
    "extra large": Decimal(2),
    "jumbo": Decimal(2),
}
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


@dataclass(frozen=True)
class Unit:
    """A unit as a caller wrote it: "100 g" is 100 x g; `word` is the unit word itself."""

    factor: Decimal
    canonical: str | None  # g, cup, piece, serving, large...; None for other words
    word: str  # "slice" for "slices": matched against household servings
    size: str | None = None  # "small" of "small bag", already in `factor` (CONTAINER_SIZES)

    @property
    def label(self) -> str:
        return self.canonical or self.word


@dataclass(frozen=True)
class Portion:
    multiplier: Decimal  # times the food's stored nutrient values
    unit: str  # the unit to store on the entry
    variant: object | None  # the FoodVariant the amount went through
    grams: Decimal | None  # the weight, when it is known without another query
    quantity: Decimal | None = None  # the amount in `unit` ("100 g" x 2 -> 200 g)


def normalize_unit(text) -> str | None:
    """One spelling per unit ("Grams" -> "g", "tablespoons" -> "tbsp", "slices" -> "slice");
    None for no unit."""
    return parse_unit(text).label or None


def parse_unit(text) -> Unit:
    if text is None or not str(text).strip():
        return Unit(Decimal(1), None, "")
    raw = " ".join(str(text).strip().lower().replace(".", " ").split())
    factor = Decimal(1)
    if m := _LEADING_NUMBER.match(raw):
        factor, raw = Decimal(m.group(1)), m.group(2).strip() or "serving"
        if factor <= 0:
            raise ValidationError(
                f"{text!r} is not a unit: the number in it must be positive.",
                code="unknown_unit",
            )
    canonical = ALIASES.get(raw) or ALIASES.get(_singular(raw))
    size = None
    if canonical is None and (sized := _sized_container(raw)) is not None:
        size, raw = sized  # "small bag": three quarters of a bag
        factor *= CONTAINER_SIZES[size]
        canonical = ALIASES.get(raw) or ALIASES.get(_singular(raw))
    return Unit(factor, canonical, canonical or _singular(raw), size if canonical else None)


def _sized_container(raw: str) -> tuple[str, str] | None:
    """("small", "bag") for "small bag", ("large", "glass") for "big glass", ("large",
    "slice") for "large slice"; None otherwise."""
    for size_word, size in sorted(ALIASES.items(), key=lambda kv: -len(kv[0])):
        if size not in CONTAINER_SIZES or not raw.startswith(size_word + " "):
            continue
        rest = raw[len(size_word) + 1 :].strip()
        unit = ALIASES.get(rest) or ALIASES.get(_singular(rest))
        if unit in SIZES or unit in MASS_G or unit == KCAL or not rest.replace(" ", "").isalpha():
            return None
        return size, rest
    return None


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


def amount_in_name(name: str, unit: str | None) -> tuple[str, str | None]:
    """The amount words a food's name still holds, moved to the unit: ("egg", "jumbo") for
    "jumbo egg", ("orange juice", "small carton") for "carton of orange juice" with "small",
    ("juice", "juice box") for "juice box". Anything else comes back as it was."""
    words = " ".join(str(name or "").lower().split()).split(" ")
    asked = parse_unit(unit) if unit else None
    size = asked.canonical if asked is not None and asked.canonical in SIZES else None
    if asked is not None and size is None:
        return name, unit  # a unit was given: the name is the food
    if len(words) == 2 and words[0] in ("double", "triple") and words[1] == "espresso":
        return words[1], f"{2 if words[0] == 'double' else 3} fl oz"  # a shot is 1 fl oz
    if len(words) > 1 and size is None:
        first = _SIZE_WORDS.get(words[0]) or ALIASES.get(words[0])
        if first in SIZES:
            size, words = first, words[1:]
    if len(words) > 2 and words[1] == "of":
        container = ALIASES.get(words[0]) or ALIASES.get(_singular(words[0]))
        if container is None and _singular(words[0]) in HOUSEHOLD_WORDS:
            container = _singular(words[0])
        if container is not None and container not in SIZES and container != KCAL:
            rest = " ".join(words[2:])
            return rest, f"{size} {container}" if size else container
    if len(words) > 1 and _singular(words[-1]) in TRAILING_HOUSEHOLD_WORDS:
        piece = _singular(words[-1])
        return " ".join(words[:-1]), f"{size} {piece}" if size else piece
    if len(words) > 1 and " ".join(words[-2:]) in ("juice box", "juice boxes", "drink box"):
        rest = " ".join(words[:-1]) if words[-2] == "juice" else " ".join(words[:-2])
        return rest or "juice", f"{size} juice box" if size else "juice box"
    if size is None:
        return name, unit
    return " ".join(words), size


def sizes_in(text: str) -> list[str]:
    """The size words of a serving's text: 'serving large' -> ["large"], 'drink, extra large
    (44 fl oz)' -> ["extra large"]."""
    plain = " ".join(str(text or "").lower().replace("-", " ").split())
    found = []
    for size in ("extra large", "extra small"):
        if re.search(rf"\b{size}\b", plain):
            found.append(size)
            plain = re.sub(rf"\b{size}\b", " ", plain)
    for size in ("small", "medium", "large", "jumbo"):
        if re.search(rf"\b{size}\b", plain):
            found.append(size)
    return found


# Foods eaten, and named, as a plural: "fries" is never one fry, "oats" never one oat.
FOOD_PLURALS = frozenset(
    {"asparagus", "chips", "couscous", "fries", "grits", "hummus", "molasses", "oats"}
)


def _singular(word: str) -> str:
    return words.singular(word)


def singular_food_word(word: str) -> str:
    """The singular of a word of a food's name ("eggs" -> "egg"); foods eaten as a plural stay."""
    return words.singular(word, FOOD_PLURALS)


def unit_word(word: str) -> str | None:
    """The unit a word names ("grams" -> "g", "slices" -> "slice", "tins" -> "can", "big" ->
    "large"), else None: the words every caller reads as a unit of food."""
    text = " ".join(str(word or "").lower().replace("_", " ").split())
    found = ALIASES.get(text) or ALIASES.get(_singular(text))
    if found:
        return found
    return _singular(text) if _singular(text) in HOUSEHOLD_WORDS else None


def head_of(serving_unit: str) -> str:
    """The unit word of a household serving: 'medium (7" to 7-7/8" long)' -> "medium",
    "cup, sliced" -> "cup", "slices" -> "slice", "extra large" -> "extra large"."""
    text = " ".join((serving_unit or "").lower().split())
    for size in ("extra large", "extra small"):
        if text.startswith(size):
            return size
    first = re.split(r"[\s,(]", text, maxsplit=1)[0]
    if text.startswith("fl oz"):
        first = "fl oz"
    unit = ALIASES.get(first) or ALIASES.get(_singular(first)) or _singular(first)
    # a container keeps its own word ("container (7 oz)", "tin"): `_container` reads the words
    return _singular(first) if unit in CONTAINERS else unit


def clean_quantity(quantity) -> Decimal:
    """A positive, finite quantity to three places, or ValidationError 'invalid_quantity'."""
    problem = (
        f"{quantity!r} is not an amount I can log; give a positive number such as 1, 2.5 or 150."
    )
    if isinstance(quantity, bool) or quantity is None:
        raise ValidationError(problem, code="invalid_quantity")
    try:
        if isinstance(quantity, float) and not math.isfinite(quantity):
            raise ValidationError(problem, code="invalid_quantity")
        value = Decimal(str(quantity).strip())
    except (InvalidOperation, ValueError):
        raise ValidationError(problem, code="invalid_quantity") from None
    if not value.is_finite() or value <= 0:
        raise ValidationError(problem, code="invalid_quantity")
    if value > MAX_QUANTITY:
        raise ValidationError(
            f"{value:,} is far more than one person eats; check the amount.",
            code="invalid_quantity",
        )
    value = value.quantize(_PLACES)
    if value <= 0:
        raise ValidationError(problem, code="invalid_quantity")
    return value


def portion(
    *, food, quantity, unit=None, variant=None, variants=None, unsized=False, several=False
) -> Portion:
    """How much of `food` `quantity` `unit` is: the multiplier of its stored nutrients.

    `variant` is a household serving the caller already chose; `variants` may pass the food's
    servings to spare a query (they are read from the database only when needed). `unsized`
    says no count was given ("almonds", "with blueberries"): a tiny piece then gives way to a
    household measure.
    """
    amount_of = clean_quantity(quantity)
    asked = parse_unit(unit)
    amount = (amount_of * asked.factor).quantize(_PLACES)
    base = _Base(food, variants)
    if variant is not None:
        if variant.food_id != food.id:
            raise ValidationError(
                f"That serving belongs to another food, not {food.readable_name}.",
                code="unknown_unit",
            )
        if not asked.label or asked.canonical == PIECE or _matches(variant, asked):
            served = _as_served(variant, amount, asked)
            return _checked(food, _via_variant(base, variant, served), amount, asked)

    if asked.canonical == GLASS:
        labelled = base.labelled_serving()
        if labelled is not None:
            return _checked(food, _via_variant(base, labelled, amount, label=GLASS), amount, asked)
        asked = Unit(asked.factor, "cup", "cup")

    result = None
    if asked.canonical == KCAL:
        if not food.calories:
            raise ValidationError(
                f"{food.readable_name} has no calories on record, so it can't be measured in "
                "calories; give an amount in grams or servings.",
                code="unknown_unit",
            )
        mult = amount / Decimal(food.calories)
        return Portion(mult, KCAL, None, base.grams_for(mult), amount)
    if not asked.label:
        result = _natural(base, amount, unsized=unsized or several, several=several)
    elif asked.canonical == SERVING:
        result = Portion(amount, SERVING, None, base.grams_for(amount))
    elif base.unit_matches(asked):
        mult = amount / base.amount
        result = Portion(mult, asked.label, None, base.grams_for(mult))
    elif asked.canonical in MASS_G:
        grams = amount * MASS_G[asked.canonical]
        if base.grams:
            result = Portion(grams / base.grams, asked.canonical, None, grams)
    if result is None and asked.label and asked.canonical not in CONTAINERS:
        same = [v for v in base.usable_variants() if _matches(v, asked)]
        # "a bar of chocolate" is the bar, not its miniature
        match = next((v for v in same if "mini" not in _plain(v)), same[0] if same else None)
        if match is not None:
            result = _via_variant(base, match, _as_served(match, amount, asked), asked.label)
    if result is None and asked.canonical in CONTAINERS:
        result = _container(base, amount, asked.canonical, asked.size)
        if result is None and asked.canonical in ("plate", "bowl"):
            result = _natural(base, amount)  # a plate of fries: the food's own helping
    if result is None and asked.canonical in SIZES:
        result = _sized(base, amount, asked.canonical)
    if result is None and asked.word in VOLUME_STAND_INS:
        result = _by_volume(base, amount * VOLUME_STAND_INS[asked.word], asked.word)
    if result is None and asked.canonical in DRINK_SIZES_ML and base.a_drink():
        result = _by_volume(base, amount * DRINK_SIZES_ML[asked.canonical], asked.canonical)
    for stand_in in STAND_INS.get(asked.word, ()) if result is None else ():
        match = next(
            (v for v in base.usable_variants() if head_of(v.serving_unit) == stand_in), None
        )
        if match is not None:  # "a slice of cheesecake" is its "piece"
            result = _via_variant(base, match, amount)
            break
    if result is None and asked.canonical in VOLUME_ML:
        result = _by_volume(base, amount * VOLUME_ML[asked.canonical], asked.canonical)
    if result is None and (asked.canonical in (PIECE, *SIZES) or base.names(asked.word)):
        result = _pieces(base, amount)
    if result is None and asked.canonical == PIECE:
        # "a piece of lasagna": a food with no piece of its own is eaten by the serving
        result = _one_serving(base, amount)
    if result is None:
        raise ValidationError(
            f"{asked.label!r} is not a unit I can convert for {food.readable_name}; use one of: "
            f"{', '.join(available_units(food, variants=base.variants))}.",
            code="unknown_unit",
        )
    return _checked(food, result, amount, asked)


def available_units(food, variants=None) -> list[str]:
    """The units `portion` accepts for this food, for messages and tool hints."""
    base = _Base(food, variants)
    units = [SERVING]
    if base.unit_word and base.unit_word not in units:
        units.append(base.unit_word)
    if base.grams:
        units += ["g", "oz", "kg", "lb"]
    if base.ml or base.density():
        units += ["ml", "cup", "tbsp", "tsp", "fl oz", GLASS]
    elif base.labelled_serving() is not None:
        units.append(GLASS)
    if base.piece_variant() is not None or base.counted:
        units.append(PIECE)
    for v in base.usable_variants():
        units.append(head_of(v.serving_unit))
    return list(dict.fromkeys(u for u in units if u))


# Units written the same for any amount: "2 tbsp", "3 oz", "2 large".
_SAME_PLURAL = frozenset({*MASS_G, *VOLUME_ML, *SIZES}) - {"cup", "pint", "quart", "handful"}
_SAME_PLURAL = (_SAME_PLURAL - {"shot"}) | {KCAL}


def unit_text(quantity, unit: str | None) -> str:
    """A unit as read after its amount: "cups" after 1.5, "almonds" after 12, "cup" after 1 or
    0.5."""
    word = (unit or "").strip()
    try:
        one = Decimal(str(quantity)) <= 1  # "0.5 cup", "1 slice", "2 slices"
    except (InvalidOperation, ValueError):
        one = True
    if one or not word or word in _SAME_PLURAL or " " in word or not word.isalpha():
        return word
    if word.endswith(("s", "x", "ch", "sh")):
        return word + "es"
    if word.endswith("y") and word[-2:-1] not in ("a", "e", "i", "o", "u"):
        return word[:-1] + "ies"
    return word + "s"


# --- internals -----------------------------------------------------------------------------------


class _Base:
    """The food's stored serving, as an amount of a unit, with its weight when known."""

    def __init__(self, food, variants=None):
        self.food = food
        self._variants = list(variants) if variants is not None else None
        size = food.serving_size
        self.size = Decimal(size) if size is not None and Decimal(size) > 0 else Decimal(1)
        parsed = parse_unit(food.serving_unit or SERVING)
        self.amount = self.size * parsed.factor  # "100 g" -> 100, "2 slice" -> 2
        self.unit = parsed
        self.unit_word = parsed.label
        mass, volume = MASS_G.get(parsed.canonical), VOLUME_ML.get(parsed.canonical)
        self.direct_grams = self.amount * mass if mass else None
        self.ml = self.amount * volume if volume else None
        # Counted in pieces: a serving of "1 bar", "2 slices", "1 piece", "1 serving".
        self.counted = mass is None and volume is None

    @cached_property
    def grams(self) -> Decimal | None:
        """The serving's weight: its own unit, or a household serving of the same unit."""
        if self.direct_grams is not None:
            return self.direct_grams
        for v in self.usable_variants(weighed=True):
            if _matches(v, self.unit):
                return Decimal(v.gram_weight) / Decimal(v.serving_size) * self.amount
        return None

    @property
    def variants(self) -> list:
        if self._variants is None:
            self._variants = list(self.food.variants.all()) if self.food.pk else []
        return self._variants

    def usable_variants(self, weighed: bool = False) -> list:
        return [
            v
            for v in self.variants
            if v.serving_size and Decimal(v.serving_size) > 0 and (v.gram_weight or not weighed)
        ]

    def unit_matches(self, asked: Unit) -> bool:
        return bool(asked.label) and asked.label == self.unit_word

    def grams_for(self, multiplier: Decimal) -> Decimal | None:
        # Only a weight known without reading the household servings: totals stay one query.
        return None if self.direct_grams is None else self.direct_grams * multiplier

    def names(self, word: str) -> bool:
        """Whether a unit word is the food itself: "2 bananas" of "Bananas, raw"."""
        words = {_singular(w) for w in re.findall(r"[a-z]+", self.food.name.lower())}
        return len(word) > 2 and _singular(word) in words

    def variant_multiplier(self, variant) -> Decimal | None:
        """The multiplier of one `variant.serving_size` of the variant."""
        if variant.gram_weight and self.grams:
            return Decimal(variant.gram_weight) / self.grams
        calories = self.food.calories
        if variant.calories is not None and calories:
            return Decimal(variant.calories) / Decimal(calories)
        return None

    def density(self) -> Decimal | None:
        """Grams per ml, from a household volume serving that has a weight, or from a labelled
        serving that says its volume ("serving 1/2 cup" of ice cream)."""
        for v in self.usable_variants(weighed=True):
            head = head_of(v.serving_unit)
            if head in VOLUME_ML:
                ml = Decimal(v.serving_size) * VOLUME_ML[head]
                return Decimal(v.gram_weight) / ml
        for v in self.usable_variants(weighed=True):
            if ml := _labelled_ml(v):
                return Decimal(v.gram_weight) / ml
        return None

    def piece_variant(self):
        usable = [v for v in self.usable_variants() if self.variant_multiplier(v) is not None]
        # "fruit yields" is juice; "unit (yield from 1 lb ready-to-cook chicken)" is a share of
        # a pound, not a piece: the latter only when nothing else names a piece.
        usable = [v for v in usable if "yields" not in _plain(v)]
        named = [v for v in usable if "yield" not in _plain(v)]
        return self._piece_among(named) or self._piece_among(usable)

    def _piece_among(self, pieces: list):
        by_head: dict = {}
        for v in pieces:
            head = head_of(v.serving_unit)
            # of "doughnut hole", "doughnut" and "doughnut, large", the plain "doughnut"; of
            # "bar, miniature" and "bar (1.55 oz)", the bar
            kept = by_head.get(head)
            if (
                kept is None
                or (_plain(v) == head and _plain(kept) != head)
                or ("mini" in _plain(kept) and "mini" not in _plain(v))
            ):
                by_head[head] = v
        for head in GENERIC_PIECES:
            if head in by_head or (head == "piece" and PIECE in by_head):
                return by_head.get(head) or by_head[PIECE]
        sizes = [v for h, v in by_head.items() if h in SIZES]
        # only the outsizes ("extra large", "jumbo" doughnuts): the food's own piece, if named
        if sizes and not {"small", "medium", "large"} & {head_of(v.serving_unit) for v in sizes}:
            sizes = [] if any(h not in SIZES and h not in NOT_PIECES for h in by_head) else sizes
        if sizes:
            sizes.sort(key=lambda v: self.variant_multiplier(v) / Decimal(v.serving_size))
            middle = sizes[len(sizes) // 2]
            if len(sizes) % 2 == 0:  # no middle one: a medium, when there is one
                return next((v for v in sizes if head_of(v.serving_unit) == "medium"), middle)
            return middle
        nouns = [v for h, v in by_head.items() if h not in NOT_PIECES and h not in ("unit",)]
        # the food's own noun first: a corn tortilla's "tortilla", not its "enchilada"
        own = [v for v in nouns if self.names(head_of(v.serving_unit)) and not self.whole(v)]
        return (own or nouns or [None])[0]

    def whole(self, piece) -> bool:
        """Whether one "piece" is a whole roast, bird, rack or head of cabbage: more than a
        person eats at once, so no one means it by the food's bare name."""
        per = self.variant_multiplier(piece)
        if per is None:
            return False
        size = Decimal(piece.serving_size)
        grams = Decimal(piece.gram_weight) / size if piece.gram_weight else None
        kcal = per * Decimal(self.food.calories) / size if self.food.calories else None
        return (grams is not None and grams > WHOLE_GRAMS) or (
            kcal is not None and kcal > WHOLE_KCAL
        )

    def a_drink(self) -> bool:
        """Whether the food is measured as a drink: by fluid ounce, or kept per ml."""
        return bool(self.ml) or any(
            head_of(v.serving_unit) == "fl oz" for v in self.usable_variants(weighed=True)
        )

    def kcal_of(self, piece) -> Decimal:
        """The calories of one piece (0 when unknown)."""
        per = self.variant_multiplier(piece)
        if per is None or not self.food.calories:
            return Decimal(0)
        return per * Decimal(self.food.calories) / Decimal(piece.serving_size)

    def tiny(self, piece) -> bool:
        """Whether one piece is a crumb of a helping (an almond, a berry, a grape)."""
        kcal = self.kcal_of(piece)
        return Decimal(0) < kcal < TINY_PIECE_KCAL

    def _ordered_servings(self) -> list:
        return sorted(self.usable_variants(weighed=True), key=lambda v: v.sequence or 0)

    def labelled_serving(self):
        """SR28's own serving of the food ("serving (5 fl oz)", "serving 1/2 cup"), if any."""
        if self.direct_grams is None:
            return None
        return next(
            (v for v in self._ordered_servings() if LABELLED_SERVING.match(_plain(v))), None
        )

    def measure_variant(self):
        """The household measure a bare amount means (see MEASURE_HEADS), or None."""
        if self.direct_grams is None or not self.food.calories:
            return None
        labelled = self.labelled_serving()
        if labelled is not None and self._a_helping(labelled, HELPING_GRAMS):
            return labelled
        # a packet of honey or sugar is no one's helping; "tsp or 1 packet" of mustard is
        servings = [v for v in self._ordered_servings() if head_of(v.serving_unit) != "packet"]
        measures = [v for v in servings if head_of(v.serving_unit) in MEASURE_HEADS]
        if not measures:
            # Kept only by the pot or the can ("Yogurt, Greek": container (7 oz)): one of those,
            # when it is a helping, rather than 100 g.
            packs = [v for v in servings if head_of(v.serving_unit) in SINGLE_PACKS]
            most = HELPING_KCAL * 2  # a candy bar's pack is a snack of up to 500 kcal
            return next((v for v in packs if self._a_helping(v, DRINK_GRAMS, most)), None)
        first = measures[0]
        drink = head_of(first.serving_unit) == "fl oz"
        if drink and Decimal(first.serving_size) <= 1:
            # "1 fl oz" is no one's drink: a cup of coffee, a can of beer; a drink sold by the
            # bottle is the bottle ("a gatorade": its 20 fl oz)
            sold = [v for v in servings if head_of(v.serving_unit) in ("bottle", "can")]
            sold = [v for v in sold if self._a_helping(v, WHOLE_GRAMS * 2, HELPING_KCAL * 2)]
            if sold:
                return sold[0]
            drinks = [v for v in servings if self._a_helping(v, DRINK_GRAMS)]
            return max(drinks, key=lambda v: Decimal(v.gram_weight), default=None)
        most = DRINK_GRAMS if drink else HELPING_GRAMS  # an 8 fl oz glass weighs 250 g or more
        if self._a_helping(first, most):
            return first
        helpings = [v for v in measures if self._a_helping(v, most)]
        best = max(helpings, key=lambda v: Decimal(v.gram_weight), default=None)
        if best is not None and self.kcal_of(best) * Decimal(best.serving_size) < HELPING_KCAL / 4:
            # a tablespoon of chili is no helping either: a cup just over the line is
            bigger = [
                v
                for v in measures
                if v.gram_weight > best.gram_weight
                and self._a_helping(v, most * 2, HELPING_KCAL * 2)
            ]
            best = min(bigger, key=lambda v: Decimal(v.gram_weight), default=best)
        return best

    def _a_helping(self, variant, most_grams: Decimal, most_kcal: Decimal = HELPING_KCAL) -> bool:
        per = self.variant_multiplier(variant)
        kcal = per * Decimal(self.food.calories) if per is not None else None
        return kcal is not None and kcal <= most_kcal and variant.gram_weight <= most_grams


_LABELLED_VOLUME = re.compile(
    r"^serving\W+(?:(\d+)/(\d+)|(\d+(?:\.\d+)?)) ?(cups?|fl oz|tbsp|tsp)\b"
)


def _labelled_ml(variant) -> Decimal | None:
    """The volume a labelled serving states: "serving 1/2 cup" -> 118 ml, "serving (5 fl oz)"."""
    m = _LABELLED_VOLUME.match(_plain(variant).replace("(", " ").replace(")", " "))
    if m is None:
        return None
    amount = Decimal(m.group(1)) / Decimal(m.group(2)) if m.group(1) else Decimal(m.group(3))
    head = "cup" if m.group(4).startswith("cup") else m.group(4)
    return amount * Decimal(variant.serving_size) * VOLUME_ML[head] if amount > 0 else None


def _plain(variant) -> str:
    return " ".join(variant.serving_unit.lower().split())


def _matches(variant, asked: Unit) -> bool:
    return bool(asked.label) and head_of(variant.serving_unit) == asked.label


def _as_served(variant, amount: Decimal, asked: Unit) -> Decimal:
    """`amount` in the variant's own count. SR28 weighs a big fish's fillet as half a side
    ("0.5 fillet", 178 g of salmon): that half is the piece a person calls a fillet."""
    if asked.word in SIDE_MEASURED and _matches(variant, asked) and variant.serving_size < 1:
        return amount * Decimal(variant.serving_size)
    return amount


def _via_variant(base: _Base, variant, amount: Decimal, label: str | None = None) -> Portion:
    per = base.variant_multiplier(variant)
    if per is None:
        raise ValidationError(
            f"The serving {variant.serving_unit!r} of {base.food.readable_name} has no weight or "
            "nutrients to convert from; log it in another unit.",
            code="unknown_unit",
        )
    count = amount / Decimal(variant.serving_size)
    grams = count * Decimal(variant.gram_weight) if variant.gram_weight else None
    return Portion(count * per, label or head_of(variant.serving_unit), variant, grams)


def _natural(base: _Base, amount: Decimal, unsized: bool = False, several=False) -> Portion:
    """No unit: pieces of a countable food ("2 eggs"), else a household measure, else servings.
    A piece that is the whole roast gives way to the measure or, without one, to a serving, and
    so does a crumb of a piece (one almond, one fry) when no count was said; a plural with no
    count (`several`: "eggs", "pancakes") is a couple of pieces."""
    if not base.counted:
        piece = base.piece_variant()
        whole = piece is not None and base.whole(piece)
        tiny = piece is not None and unsized and base.tiny(piece)
        big = piece is not None and base.kcal_of(piece) > BIG_PIECE_KCAL
        if piece is not None and amount < 1 and head_of(piece.serving_unit) == "slice":
            # "half a pizza", "a quarter of the cake": a share of the whole, not of a slice
            entire = next(
                (v for v in base.usable_variants() if base.names(head_of(v.serving_unit))), None
            )
            if entire is not None:
                return _via_variant(base, entire, amount)
        # "spinach" is not one leaf, "broccoli" not one spear: a part of the plant is no helping
        part = piece is not None and amount <= 1 and head_of(piece.serving_unit) in PART_PIECES
        standard = _standard_piece(base) if piece is not None and (whole or big) else None
        if standard is not None:
            return replace(
                standard,
                grams=standard.grams * amount,
                multiplier=standard.multiplier * amount,
                quantity=(standard.quantity * amount).quantize(_PLACES),  # "6 oz" a steak
            )
        if piece is not None and not (whole or tiny or ((big or part) and base.measure_variant())):
            if several and not big and not part:
                count = amount * SEVERAL
                return replace(_via_variant(base, piece, count), quantity=count)
            return _via_variant(base, piece, amount)
        measure = base.measure_variant()
        if measure is not None:  # 1 x "2 tbsp" is stored as 2 tbsp
            size = Decimal(measure.serving_size)
            result = _via_variant(base, measure, amount * size)
            return replace(result, quantity=(amount * size).quantize(_PLACES))
        if piece is not None and not whole and not tiny:
            return _via_variant(base, piece, amount)
        if tiny and Decimal(piece.serving_size) > 1:  # SR28's own count: "5 crackers"
            count = amount * Decimal(piece.serving_size)
            return replace(_via_variant(base, piece, count), quantity=count.quantize(_PLACES))
        if base.food.source == FNDDS_SOURCE:  # a dish as people report it: its usual portion
            dish = next(iter(base.usable_variants()), None)
            if dish is not None:
                return _via_variant(base, dish, amount)
    return Portion(amount, SERVING, None, base.grams_for(amount))


def _container(base: _Base, amount: Decimal, word: str, said: str | None = None) -> Portion | None:
    """A bottle, can, bag... of the food: its own serving of that name, else the standard size
    (STANDARD_SIZES), as `amount` containers. A size said before the container (`said`, already
    in `amount`) scales it only when the container is not that size already: "a small box" of
    raisins is SR28's "small box (1.5 oz)", "a small bag" of chips the 1 oz snack bag."""
    names = CONTAINER_SERVINGS[word]
    size = standard_size(base.food, word, drink=base.a_drink())
    servings = [*base._ordered_servings(), *base.usable_variants()]
    if said is not None:
        unscaled = amount / CONTAINER_SIZES[said]
        for v in servings:
            text = _plain(v)
            named = any(re.search(rf"\b{re.escape(n)}\b", text) for n in names)
            if named and sizes_in(text) == [said] and base.variant_multiplier(v) is not None:
                result = _via_variant(base, v, unscaled, label=f"{said} {word}")
                return replace(result, quantity=unscaled)
        sized = SIZED_STANDARD_SIZES.get((word, said))
        if sized is not None and not base.a_drink() and base.grams:
            grams = unscaled * sized.amount * MASS_G[sized.unit]
            return Portion(grams / base.grams, f"{said} {word}", None, grams, unscaled)
    for v in servings:
        text = _plain(v)
        if any(re.search(rf"\b{re.escape(n)}\b", text) for n in names):
            if base.variant_multiplier(v) is None:
                continue
            if size is not None and base.kcal_of(v) > WHOLE_KCAL:
                continue  # an 8 oz family bag of chips is not "a bag of chips"
            return _via_variant(base, v, amount, label=word)
    if size is None:
        return None
    if size.unit in MASS_G:
        if not base.grams:
            return None
        grams = amount * size.amount * MASS_G[size.unit]
        return Portion(grams / base.grams, word, None, grams)
    ml = amount * size.amount * VOLUME_ML[size.unit]
    result = _by_volume(base, ml, word)
    if result is None and base.grams and base.food.name.lower().startswith("beverages"):
        # a drink with no volume on record weighs about what water does (1 g per ml)
        return Portion(ml / base.grams, word, None, ml)
    return result


def standard_size(food, word: str, *, drink: bool) -> StandardSize | None:
    """The standard size of a container for this food (see STANDARD_SIZES), or None."""
    words = {_singular(w) for w in re.findall(r"[a-z]+", food.name.lower())}
    for (container, food_word), size in STANDARD_SIZES_FOR.items():
        if container == word and food_word in words:
            return size
    drink_size, food_size = STANDARD_SIZES.get(word, (None, None))
    return (drink_size or food_size) if drink else (food_size or drink_size)


def _sized(base: _Base, amount: Decimal, size: str) -> Portion | None:
    """A size among the food's servings ("serving large" of fries, "drink, small (16 fl oz)"),
    a drink's coffee-shop size, else the size scaled from the one the food has (SIZE_RATIOS:
    a large sweet potato from its medium one): never another size silently."""
    for v in base.usable_variants():
        if sizes_in(v.serving_unit) == [size] and base.variant_multiplier(v) is not None:
            return _via_variant(base, v, amount, label=size)
    if base.a_drink():
        return None  # DRINK_SIZES_ML
    sized = [
        v
        for v in base.usable_variants()
        if len(sizes_in(v.serving_unit)) == 1 and base.variant_multiplier(v) is not None
    ]
    known = next((v for v in sized if sizes_in(v.serving_unit) == ["medium"]), None)
    known = known or (sized[0] if sized else base.piece_variant())
    if known is None or base.whole(known):
        return None
    had = (sizes_in(known.serving_unit) or ["medium"])[0]
    ratio = SIZE_RATIOS[size] / SIZE_RATIOS[had]
    result = _via_variant(base, known, amount * ratio * Decimal(known.serving_size), label=size)
    return replace(result, variant=None, quantity=amount)


def _one_serving(base: _Base, amount: Decimal) -> Portion | None:
    """The food's own serving ("cup 1 serving" of lasagna), else the household measure."""
    for v in base.usable_variants():
        if re.search(r"\bserving\b", _plain(v)) and base.variant_multiplier(v) is not None:
            size = Decimal(v.serving_size)
            result = _via_variant(base, v, amount * size, label=PIECE)
            return replace(result, variant=None, quantity=amount)
    measure = base.measure_variant()
    if measure is None:
        return None
    size = Decimal(measure.serving_size)
    return replace(
        _via_variant(base, measure, amount * size, label=PIECE), variant=None, quantity=amount
    )


def _standard_piece(base: _Base) -> Portion | None:
    """One piece of a food STANDARD_PIECES sizes ("a steak"), in its unit, or None."""
    words = {_singular(w) for w in re.findall(r"[a-z]+", base.food.name.lower())}
    size = next((s for word, s in STANDARD_PIECES.items() if word in words), None)
    if size is None or size.unit not in MASS_G or not base.grams:
        return None
    grams = size.amount * MASS_G[size.unit]
    return Portion(grams / base.grams, size.unit, None, grams, size.amount)


def _by_volume(base: _Base, ml: Decimal, label: str) -> Portion | None:
    if base.ml:
        mult = ml / base.ml
        return Portion(mult, label, None, base.grams_for(mult))
    density = base.density()
    if density and base.grams:
        grams = ml * density
        return Portion(grams / base.grams, label, None, grams)
    return None


def _pieces(base: _Base, amount: Decimal) -> Portion | None:
    piece = base.piece_variant()
    if piece is not None:
        return _via_variant(base, piece, amount, label=head_of(piece.serving_unit))
    if base.counted:
        # A food kept per "1 bar" or "1 serving": a piece is one of those.
        mult = amount / base.amount if base.unit.canonical != SERVING else amount
        return Portion(mult, PIECE, None, base.grams_for(mult))
    return None


def _checked(food, result: Portion, amount: Decimal, asked: Unit) -> Portion:
    """Refuse amounts no one eats at once, in the terms the caller used."""
    result = replace(result, quantity=amount if result.quantity is None else result.quantity)
    number = f"{amount.normalize():f}"
    counted = asked.canonical not in MASS_G and asked.canonical not in VOLUME_ML
    if counted and amount > MAX_COUNT:
        what = asked.label or ("pieces" if result.variant is not None else "servings")
        hint = f" Did you mean {number} g?" if not asked.label else ""
        raise ValidationError(
            f"{number} {what} of {food.readable_name} is more than anyone eats at once (at most "
            f"{MAX_COUNT} pieces or servings).{hint} Check the amount and the unit.",
            code="invalid_quantity",
        )
    said = f"{number} {asked.label}".strip()
    if result.grams is not None and result.grams > MAX_GRAMS:
        raise ValidationError(
            f"{said} of {food.readable_name} is {result.grams.quantize(Decimal(1)):,} g, more "
            f"than anyone eats at once (the limit is {MAX_GRAMS:,} g); check the amount and the "
            "unit.",
            code="invalid_quantity",
        )
    if asked.canonical in VOLUME_ML and amount * VOLUME_ML[asked.canonical] > MAX_ML:
        raise ValidationError(
            f"{said} of {food.readable_name} is more than anyone drinks at once (the limit is "
            "10 l); check the amount and the unit.",
            code="invalid_quantity",
        )
    return result
