"""Reading an amount: a unit as said ("2 cups", "a small bag", "fillet"), sizes in a name,
an amount moved out of a food's name, a catalog serving's words, and a unit as written after
its number."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from django.core.exceptions import ValidationError

from nutrition.units.sizes import CONTAINER_SIZES
from nutrition.units.words import (
    _LEADING_NUMBER,
    _PLACES,
    _SAME_PLURAL,
    _SIZE_WORDS,
    ALIASES,
    CONTAINERS,
    FOOD_PLURALS,
    HOUSEHOLD_WORDS,
    KCAL,
    MASS_G,
    MAX_QUANTITY,
    SIZES,
    TRAILING_HOUSEHOLD_WORDS,
    VOLUME_ML,
    _singular,
)
from sparky import words
from sparky.words import as_written


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
    for size in sorted(s for s in SIZES if " " in s):  # "extra large", "extra small"
        if re.search(rf"\b{size}\b", plain):
            found.append(size)
            plain = re.sub(rf"\b{size}\b", " ", plain)
    for size in (s for s in SIZES if " " not in s):
        if re.search(rf"\b{size}\b", plain):
            found.append(size)
    return found


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
    for size in sorted(s for s in SIZES if " " in s):  # "extra large", "extra small"
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
        f"{as_written(quantity)} is not an amount I can log; give a positive number such as 1, "
        "2.5 or 150."
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


def a_weight(unit) -> bool:
    """Whether `unit` is a weight ("g", "oz", "lb"): an amount any food kept by weight takes."""
    try:
        return parse_unit(unit).canonical in MASS_G
    except ValidationError:
        return False


def weighable(unit) -> bool:
    """Whether an amount in `unit` says its own weight or volume ("g", "oz", "cup", "fl oz"),
    so a food kept only by weight can be logged in it."""
    try:
        canonical = parse_unit(unit).canonical
    except ValidationError:
        return False
    return canonical in MASS_G or canonical in VOLUME_ML
