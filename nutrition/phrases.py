"""A diary entry in the words a person would use: "2 large eggs (143 kcal)", "a slice of
whole-wheat bread (86 kcal)", "half a cup of rice (103 kcal)", "150 g of chicken breast (248 kcal)".

The chip and the diary keep the catalog's short name ("Egg, raw"); a reply reads the food by the
words before its first comma, in lower case unless they are a brand ("CHEERIOS", "McDonald's").
"""

from __future__ import annotations

import re
from decimal import Decimal

import inflect

from nutrition import search, units

_english = inflect.engine()
# Units read as a measure of the food ("a cup of rice", "150 g of pasta"); a size or a piece reads
# as the food itself ("2 large eggs", "an apple").
# A count of a fruit is the fruit itself: "a kiwi", "an orange", never "a fruit of kiwi".
_WHOLE_FOOD = ("fruit", "whole")
_PIECES = frozenset({None, "", units.PIECE, *units.SIZES, *_WHOLE_FOOD})
_HALF = Decimal("0.5")
_PARTS = {
    Decimal("0.25"): "a quarter of",
    Decimal("0.33"): "a third of",
    Decimal("0.50"): "half",
    Decimal("0.67"): "two thirds of",
    Decimal("0.75"): "three quarters of",
}
# Servings that are the dish itself: "2 big macs", not "2 sandwiches of big mac".
_DISHES = frozenset(
    {"sandwich", "burger", "taco", "burrito", "enchilada", "quesadilla", "slider", "egg roll"}
)
# Volumes said as words, with "a" and plurals ("a cup of", "2 pints of"), not as symbols.
_SPOKEN_MEASURES = frozenset({"cup", "pint", "quart", "glass", "shot"})


def food_words(name: str) -> str:
    """'Egg, raw' -> 'egg'; 'Whole-wheat bread, toasted' -> 'whole-wheat bread'; "McDonald's,
    Chicken McNuggets" -> "McDonald's chicken McNuggets"; 'Big Mac (McDonalds)' -> 'big mac'."""
    plain = re.sub(r"\s*\([^()]*\)", "", name or "").strip()
    parts = [p.strip() for p in plain.split(",") if p.strip()] or [plain]
    head = parts[0]
    if len(parts) > 1 and head.lower().replace("-", " ") in search.LABELS:
        head = parts[1]  # "Nuts, almonds": the catalog's label first, the food after it
    elif len(parts) > 1 and all(_branded(w) for w in head.split()):
        head = f"{head} {parts[1]}"  # the maker first: what it makes follows
    return " ".join(w if _branded(w) else w.lower() for w in head.split())


def _branded(word: str) -> bool:
    """A brand's capitals: 'CHEERIOS', "McDonald's", 'McNuggets'."""
    letters = [c for c in word if c.isalpha()]
    return len(letters) > 1 and sum(c.isupper() for c in letters) > 1


def _number(quantity: Decimal) -> str:
    """How many, as said: 2, 1.5, 0.3 (grams are whole numbers, counts keep one decimal)."""
    rounded = quantity.quantize(Decimal("0.1")) if quantity < 10 else quantity.quantize(Decimal(1))
    return f"{rounded.normalize():f}"


def _plural(words: str) -> str:
    *first, last = words.split(" ")
    if _fixed(last):
        return words
    return " ".join([*first, _english.plural_noun(last) or last])


def _singular(words: str) -> str:
    *first, last = words.split(" ")
    if _fixed(last) or last in units.FOOD_PLURALS:
        return words
    return " ".join([*first, _english.singular_noun(last) or last])


def _fixed(word: str) -> bool:
    """A brand or a possessive keeps its form: 'McNuggets', "McDonald's"."""
    return _branded(word) or "'" in word


def _one(words: str) -> str:
    return _english.a(words)


def amount_phrase(quantity, unit: str | None, name: str) -> str:
    """'2 large eggs', 'an apple', 'a cup of coffee', 'half a bowl of chili', '150 g of rice'."""
    amount = Decimal(str(quantity or 1))
    food = food_words(name)
    unit = (unit or "").strip()
    named = {_english.singular_noun(w) or w for w in food.lower().split()} | set(food.split())
    if unit in _PIECES or unit in _DISHES or unit in named:  # "a doughnut", "half an avocado"
        size = f"{unit} " if unit in units.SIZES else ""
        if amount == 1 and food.split()[-1] in units.FOOD_PLURALS:
            return f"{size}{food}"  # "small french fries", "oats"
        if amount == 1:
            return _one(f"{size}{_singular(food)}")
        if amount == _HALF:
            return f"half {_one(f'{size}{_singular(food)}')}"
        return f"{_number(amount)} {size}{_plural(_singular(food))}"
    if unit == units.SERVING:
        measure = "serving" if amount <= 1 else "servings"
    elif unit in units.MASS_G or (unit in units.VOLUME_ML and unit not in _SPOKEN_MEASURES):
        return f"{_number(amount)} {unit} of {food}"  # "150 g of rice", "2 tbsp of honey"
    else:
        measure = units.unit_text(amount, unit)
    if amount == 1:
        return f"{_one(measure)} of {food}"
    if part := _PARTS.get(amount.quantize(Decimal("0.01"))):
        return f"{part} {_one(measure)} of {food}"  # "three quarters of a cup of oatmeal"
    return f"{_number(amount)} {measure} of {food}"


def entry_phrase(entry, calories=None) -> str:
    """A food entry as a reply says it: '2 large eggs (143 kcal)'."""
    said = amount_phrase(entry.quantity, entry.unit, _with_maker(entry.food))
    return f"{said} ({round(calories)} kcal)" if calories is not None else said


def _with_maker(food) -> str:
    """The name a reply reads, a restaurant's dish named with its maker as the catalog spells it
    in capitals ("SUBWAY, turkey breast sub on white bread" -> "SUBWAY, turkey breast sub"), so
    a reply says "a Subway turkey breast sub", never "a serving of subway"."""
    shown = food.readable_name
    maker, _, dish = (food.name or "").partition(",")
    if not dish or not maker.isupper() or len(maker.strip()) < 3:
        return shown
    dish = re.split(r"\s+(?:on|with|in)\s+", dish.strip(), maxsplit=1)[0]
    return f"{maker.strip()}, {dish}"
