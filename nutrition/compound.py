"""Foods said together: "coffee with milk", "nutella on toast", "rice and beans". Each item is
accounted for: when the catalog has no food for the whole name, it is split into its items, each
logged on its own, the accompaniment with the amount it usually comes in (a splash of milk in tea
is 2 tbsp, not a glass). A name the catalog knows whole ("chili with beans", "macaroni and
cheese") stays one food.

    split_items(user=alice, name="coffee with milk and sugar")
    # [Item("coffee", None, None), Item("milk", 2, "tbsp"), Item("sugar", 1, "tsp")]
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from nutrition import search, units, vocabulary

# What "with Y" adds when no amount is said: (Y's words, the main food's words or None for any)
# -> amount and unit. First match wins. Typical household amounts (Sparky's estimates, in the
# range of the portions USDA's FNDDS describes): a splash of milk in coffee or tea 2 tbsp, cream
# 1 tbsp, sugar 1 tsp, butter on bread a pat, milk on cereal 1/2 cup, syrup on pancakes 1/4 cup.
ACCOMPANIMENTS: tuple[tuple[str, frozenset[str] | None, float, str], ...] = (
    ("milk", frozenset({"coffee", "tea", "espresso", "americano", "chai"}), 2, "tbsp"),
    ("milk", frozenset({"cereal", "oatmeal", "porridge", "granola", "muesli", "oats"}), 0.5, "cup"),
    ("milk", None, 0.5, "cup"),
    ("cream", frozenset({"coffee", "tea"}), 1, "tbsp"),
    ("cream", None, 2, "tbsp"),
    ("sugar", None, 1, "tsp"),
    ("sweetener", None, 1, "packet"),
    ("honey", None, 1, "tbsp"),
    ("butter", None, 1, "pat"),
    ("peanut butter", None, 1, "tbsp"),
    ("cream cheese", None, 2, "tbsp"),
    ("jam", None, 1, "tbsp"),
    ("nutella", None, 1, "tbsp"),
    ("syrup", None, 0.25, "cup"),
    ("maple syrup", None, 0.25, "cup"),
    ("berries", None, 0.5, "cup"),
    ("blueberries", None, 0.5, "cup"),
    ("strawberries", None, 0.5, "cup"),
    ("sauce", None, 0.5, "cup"),
    ("tomato sauce", None, 0.5, "cup"),
    ("dressing", None, 2, "tbsp"),
)
# The survey's salads are weighed without their dressing ("Greek Salad, no dressing"); a salad
# said without a word about dressing comes dressed: 2 tbsp (the "dressing" accompaniment) of the
# dressing it is usually served with, logged beside it so the diary shows both.
USUAL_DRESSINGS = {"caesar": "caesar dressing", "cobb": "ranch dressing"}
PLAIN_DRESSING = "italian dressing"  # an oil and vinegar dressing: greek, spinach, garden
UNDRESSED = ", no dressing"
# Mixed drinks: one shot of the spirit (1.5 fl oz) and a glass of the mixer (6 fl oz), as a bar
# pours them ("rum and coke", "vodka soda", "gin and tonic").
SPIRITS = frozenset({"vodka", "rum", "gin", "whiskey", "whisky", "tequila", "bourbon", "scotch"})
MIXERS = frozenset(
    {"soda", "coke", "cola", "tonic", "sprite", "lemonade", "ginger ale", "juice", "pepsi"}
    | {"orange juice", "cranberry", "cranberry juice", "diet coke", "club soda", "soda water"}
)
SHOT = (1.5, "fl oz")
MIXER = (6, "fl oz")
# Drinks the catalog has no entry for, as what they are made of (a medium, 12 fl oz coffee-shop
# size: a double shot of espresso and the milk; Starbucks' and SR28's figures for the parts).
RECIPES: dict[str, tuple[tuple[str, float, str], ...]] = {
    "latte": (("espresso", 2, "fl oz"), ("milk", 10, "fl oz")),
    "cafe latte": (("espresso", 2, "fl oz"), ("milk", 10, "fl oz")),
    "flat white": (("espresso", 2, "fl oz"), ("milk", 6, "fl oz")),
    "cappuccino": (("espresso", 2, "fl oz"), ("milk", 5, "fl oz")),
    "macchiato": (("espresso", 2, "fl oz"), ("milk", 1, "fl oz")),
    "cortado": (("espresso", 2, "fl oz"), ("milk", 2, "fl oz")),
    "margarita": (("tequila", 2, "fl oz"), ("lime juice", 1, "fl oz"), ("sugar", 1, "tbsp")),
}
# A small, medium, large or extra large coffee-shop drink, as a share of the medium one (12 fl oz):
# nutrition/words/units.toml.
DRINK_SIZES = {
    size: fl_oz / vocabulary.DRINK_SIZES_FL_OZ["medium"]
    for size, fl_oz in vocabulary.DRINK_SIZES_FL_OZ.items()
}
# Said with a food but nothing to log: "with ice", "with no sugar", "with a slice of lemon".
NOTHING = frozenset({"ice", "lemon", "lime", "salt", "pepper", "water", "skin", "bone", "bones"})
NEGATIONS = frozenset({"no", "without", "less", "little", "hold", "zero"})
# "nutella on toast": the topping comes first.
_ON = re.compile(r"^(?P<top>.+?)\s+on\s+(?P<base>.+)$")
_WITH = re.compile(r"^(?P<main>.+?)\s+with\s+(?P<side>.+)$")
_AND = re.compile(r"\s*(?:,|\band\b|&|\+)\s*")
_LEADING = re.compile(
    r"^(?:a bit of|a little|a splash of|a dash of|splash of|dash of|a|an|some|the)\s+"
)


@dataclass(frozen=True)
class Item:
    name: str
    quantity: float | None  # None: the amount the caller was given (or the food's natural one)
    unit: str | None


def split_items(*, user, name: str) -> list[Item]:
    """The items of a name said as several, or [Item(name)] when it is one food."""
    text = " ".join(str(name or "").lower().split())
    whole = [Item(name, None, None)]
    if mixed := _mixed_drink(text):
        return mixed
    if recipe := RECIPES.get(re.sub(r"^(an?|the|one)\s+", "", text)):
        return [Item(name, quantity, unit) for name, quantity, unit in recipe]
    if not any(f" {w} " in f" {text} " for w in ("with", "on", "and", "&", "+")):
        return _dressed_salad(user, name, text) or whole
    if _known_whole(user, text):
        return whole
    if m := _WITH.match(text):
        main, sides = m.group("main"), _parts(m.group("side"))
        items = [Item(main, None, None)]
        for side in sides:
            item = _accompaniment(side, main)
            if item is not None:
                items.append(item)
        return items if len(items) > 1 or len(sides) else whole
    if m := _ON.match(text):
        base, top = m.group("base"), m.group("top")
        if _food(user, base) and _food(user, top):
            return [Item(base, None, None), _accompaniment(top, base) or Item(top, None, None)]
        return whole
    parts = _parts(text)
    if len(parts) > 1 and all(_food(user, p) for p in parts):
        return [Item(p, None, None) for p in parts]
    return whole


def _dressed_salad(user, name: str, text: str) -> list[Item] | None:
    """[the salad, its usual dressing] for a salad the catalog has only undressed."""
    if "salad" not in text.split() or "dressing" in text or "vinaigrette" in text:
        return None
    food = search.best_food(user=user, name=text)
    if food is None or not food.name.lower().endswith(UNDRESSED):
        return None
    kind = next((k for k in USUAL_DRESSINGS if k in food.name.lower()), None)
    dressing = USUAL_DRESSINGS.get(kind, PLAIN_DRESSING)
    quantity, unit = next((q, u) for said, _, q, u in ACCOMPANIMENTS if said == "dressing")
    return [Item(name, None, None), Item(dressing, quantity, unit)]


def _mixed_drink(text: str) -> list[Item] | None:
    """[spirit shot, mixer glass] for "rum and coke", "vodka soda", "a gin & tonic"."""
    words = _AND.sub(" ", text).split()
    if len(words) < 2 or words[0] not in SPIRITS or " ".join(words[1:]) not in MIXERS:
        return None
    mixer = " ".join(words[1:])
    mixer = "club soda" if mixer == "soda" else mixer  # a vodka soda is soda water, not cola
    return [Item(words[0], *SHOT), Item(mixer, *MIXER)]


def _parts(text: str) -> list[str]:
    return [p for p in (_LEADING.sub("", p.strip()) for p in _AND.split(text)) if p]


def _accompaniment(side: str, main: str) -> Item | None:
    """What "with <side>" adds to <main>, or None when it is nothing to log."""
    words = side.split()
    if not words or words[0] in NEGATIONS or side in NOTHING or words[-1] in NOTHING:
        return None
    if any(c.isdigit() for c in side) or words[0] in units.ALIASES or " of " in f" {side} ":
        return Item(side, None, None)  # "with 2 tbsp peanut butter": its own amount
    main_words = set(main.split())
    for said, with_food, quantity, unit in ACCOMPANIMENTS:
        if side == said and (with_food is None or main_words & with_food):
            return Item(side, quantity, unit)
    return Item(side, None, None)


def _known_whole(user, text: str) -> bool:
    """Whether the catalog has a food for the whole name, holding the accompaniment's words
    ("Chili with beans, canned")."""
    food = search.best_food(user=user, name=text)
    if food is None:
        return False
    said = set(re.findall(r"[a-z]+", text)) - {"with", "on", "and", "a", "an", "the", "some"}
    named = " ".join(re.findall(r"[a-z]+", food.name.lower()))
    return all(w[:4] in named for w in said)


def _food(user, name: str) -> bool:
    return search.best_food(user=user, name=name) is not None
