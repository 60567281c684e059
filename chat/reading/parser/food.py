"""Food: the meal a clause names, the amount, unit and name of a food, and food with the
nutrition the user stated ("a burger, about 600 cal")."""

from __future__ import annotations

from dataclasses import dataclass

from chat.reading.parser.tokens import number_value, take_quantity, token_at
from chat.reading.parser.vocabulary import (
    CALORIE_WORDS,
    CONTAINER_SIZES,
    CONTAINERS,
    EATING,
    FOOD_FILLER,
    GOAL_NUTRIENTS,
    GRAM_WORDS,
    HEDGES,
    MEAL_AFTER,
    MEAL_BEFORE,
    NOT_FOOD,
    NOT_FOOD_ALONE,
    PREPARED_WITH,
    ROUGHLY,
    SAID_OF_A_GLASS,
    SIZE_UNITS,
    TRAILING_FILLER,
    TRAILING_PARTS,
    TRAILING_UNITS,
)
from nutrition import vocabulary as food_words
from nutrition.services import meal_for_word
from nutrition.units import SIZES, singular_food_word
from nutrition.units import unit_word as food_unit


def _unit_after(name: list[str]) -> bool:
    """A unit written after the food: slices of anything, strips and rashers of bacon, the
    leaves, stalks and cloves of a plant."""
    if len(name) < 2 or name[-1] not in TRAILING_UNITS | TRAILING_PARTS:
        return False
    return name[-1] in TRAILING_PARTS or name[-1] in ("slice", "slices") or name[-2] == "bacon"


CALORIES_HINT = (
    "Say how many calories, e.g. '100 calories of almonds', or what it was with its calories, "
    "e.g. 'a burger, about 600 cal'."
)


def take_meal(tokens: list[str]) -> tuple[str | None, list[str]]:
    """The meal named in a clause ('for breakfast', 'lunch was', 'as a snack') and the rest."""
    for i, token in enumerate(tokens):
        last_after_for = i == len(tokens) - 1 and token_at(tokens, i - 1) == "for"
        meal = meal_for_word(token, last_after_for=last_after_for)
        if meal is None:
            continue
        before, after = token_at(tokens, i - 1), token_at(tokens, i + 1)
        # "as a snack", and "for a quick snack": one word may describe the meal
        lead = 2 if token_at(tokens, i - 2) in ("a", "an") and before.isalpha() else 1
        as_a = token_at(tokens, i - lead) in ("a", "an") and token_at(tokens, i - lead - 1) in (
            "as",
            "for",
        )
        # "snack - an apple", "lunch 2 eggs": a meal word opening the clause before an amount
        opening = i == 0 and (after == "some" or take_quantity(tokens, i + 1)[0] is not None)
        if before in MEAL_BEFORE or as_a or after in MEAL_AFTER or opening:
            start = i - lead - 1 if as_a else (i - 1 if before in MEAL_BEFORE else i)
            while start > 0 and tokens[start - 1] in ("for", "my", "at"):
                start -= 1
            end = i + 2 if after in (":", "was", "is", "-") else i + 1
            return meal, tokens[:start] + tokens[end:]
    return None, tokens


def food_said(tokens: list[str]) -> bool:
    """Eating words or a meal in a clause: "had pizza for 30 min" is not an activity."""
    return any(token in EATING for token in tokens) or take_meal(tokens)[0] is not None


def has_food_cue(tokens: list[str]) -> bool:
    if any(token in EATING for token in tokens) or take_meal(tokens)[0]:
        return True
    words = without_filler(tokens)
    if _trailing_amount(words, None)[0] is not None:
        return True  # "chicken breast 200g", "eggs x2"
    amount, j = take_quantity(words, 0)
    if amount is None:
        return False
    unit = token_at(words, j)
    counted = amount != 1 or words[0] not in ("a", "an")  # "2 eggs", not "a nice day"
    measured = food_unit(unit) is not None or unit in CONTAINERS or unit in CALORIE_WORDS
    return bool(unit) and (counted or measured)


def without_filler(tokens: list[str]) -> list[str]:
    i = 0
    while i < len(tokens) and (tokens[i] in FOOD_FILLER or tokens[i] in EATING):
        i += 1
    return tokens[i:]


# What wine is poured into, for a colour said of it ("a glass of red").
_GLASSES = frozenset({"glass", "bottle", "carafe"})


@dataclass
class FoodItem:
    data: dict
    meal: str | None


# Size words that are often part of a name ("big mac", "regular coffee"): a size only before a
# unit; otherwise they stay in the name, for the food's own words to decide. They are the sizes'
# other one-word spellings (nutrition's): "big", "regular", "med", "lg", "sm", "xl", "xs".
LOOSE_SIZES = frozenset(
    word
    for word, unit in food_words.ALIASES.items()
    if unit in SIZES and word not in SIZES and "-" not in word and " " not in word
)


def _size(word: str) -> str | None:
    """The size a word says ("big" -> "large", "little" -> "small"), else None."""
    size = food_unit(word) if food_unit(word) in SIZES else None
    return size or CONTAINER_SIZES.get(word)


def food_item(tokens: list[str]) -> FoodItem | str | None:
    """One food from a clause, an error message, or None when the clause names no food."""
    meal, tokens = take_meal(tokens)
    words = without_filler(tokens)
    if len(words) > 1 and words[0] in HEDGES:  # "like 2 handfuls of chips": the chips
        rest = list(tokens)
        rest.remove(words[0])
        hedged = food_item(rest)
        if isinstance(hedged, FoodItem):
            hedged.meal = hedged.meal or meal
            return hedged
    amount, j = take_quantity(words, 0)
    unit = None
    word, after = token_at(words, j), token_at(words, j + 1)
    if word in CALORIE_WORDS:
        if amount is None:
            return CALORIES_HINT
        unit, j = "kcal", j + 1  # "100 calories of almonds": as much as makes 100 kcal
    elif _size(word) and food_unit(token_at(words, j + 1)) not in (None, *SIZES):
        # "a small bag of pretzels", "a big bowl of oatmeal": the container in that size
        unit, j = f"{_size(word)} {food_unit(token_at(words, j + 1))}", j + 2
    elif food_unit(word) is not None and (word not in LOOSE_SIZES or food_unit(after)):
        unit, j = food_unit(word), j + 1
    elif word in CONTAINERS:
        j += 1
    while token_at(words, j) in ("of", "some", "the"):
        j += 1
    name = words[j:]
    if amount is None:
        amount, unit, name = _trailing_amount(name, unit)
    if _unit_after(name):  # "2 pizza slices", "3 bacon strips", "3 garlic cloves"
        word, part = name[-1], name[-1] in TRAILING_PARTS
        if unit is None or part:  # "spinach leaves", "a handful of spinach leaves": spinach
            name = name[:-1]
        if unit is None and (amount is not None or not part):
            unit = singular(word)
    while name and name[-1] in TRAILING_FILLER:
        name = name[:-1]
    made_with = name[-3:-2] and name[-3] in PREPARED_WITH and name[-2] in ("with", "in")
    if made_with and name[-1] in ("water", "waters"):
        name = name[:-3]  # "oatmeal made with water": the oatmeal, no water of its own
    if len(name) == 1 and name[0] in SAID_OF_A_GLASS and unit and unit.split()[-1] in _GLASSES:
        name = SAID_OF_A_GLASS[name[0]].split()  # "a glass of red": red wine
    if (
        not name
        or " ".join(name) in NOT_FOOD_ALONE
        or all(word in NOT_FOOD_ALONE for word in name)  # "the usual size", "a large one"
        or name[-1] in NOT_FOOD
        or name[0] in NOT_FOOD
        or not any(c.isalpha() for c in "".join(name))
    ):
        return None
    if amount is not None and (unit is None or unit in SIZE_UNITS or unit == "piece"):
        name = _singular_head(name)
    quantity = 1 if amount is None else amount  # "0 eggs" is passed on, to be refused
    data = {"food_name": " ".join(name), "quantity": quantity, "unit": unit}
    return FoodItem(data, meal)


def _trailing_amount(name: list[str], unit: str | None) -> tuple[float | None, str | None, list]:
    """'chicken breast 200g', 'eggs x2': an amount written after the food."""
    if len(name) >= 3 and number_value(name[-2]) is not None and food_unit(name[-1]):
        return number_value(name[-2]), food_unit(name[-1]), name[:-2]
    if len(name) >= 2 and name[-2] == "x" and number_value(name[-1]) is not None:
        return number_value(name[-1]), unit, name[:-2]
    return None, unit, name


def singular(word: str) -> str:
    """The singular of a food word ('eggs' -> 'egg', 'berries' -> 'berry'); foods eaten as a
    plural ('fries', 'oats') stay."""
    return singular_food_word(word)


def _singular_head(name: list[str]) -> list[str]:
    """Singularise the main noun: the last word, or the last before 'with' ('eggs with cheese')."""
    head = name.index("with", 1) - 1 if "with" in name[1:] else len(name) - 1
    return [*name[:head], singular(name[head]), *name[head + 1 :]]


# "a burger, about 600 cal", "a 500 calorie salad", "protein shake with 30g protein and 150
# calories": a food with the nutrition the user gave, logged as their own food.
MACROS = {
    word: name
    for word, name in GOAL_NUTRIENTS.items()
    if name in ("protein", "carbs", "fat", "dietary_fiber")
}


def nutrition_said(tokens: list[str]) -> tuple[dict, set[int]]:
    """The calories and grams of macros a clause states, and the token positions they use."""
    found: dict = {}
    used: set[int] = set()
    for i in range(len(tokens)):
        amount, j = take_quantity(tokens, i, articles=False)
        if amount is None or i in used:
            continue
        word = token_at(tokens, j)
        if word in CALORIE_WORDS and token_at(tokens, j + 1) != "of" and "calories" not in found:
            found["calories"] = amount
            used.update(range(i, j + 1))
            continue
        k = j + 1 if word in GRAM_WORDS else j
        k = k + 1 if token_at(tokens, k) == "of" else k
        macro = MACROS.get(token_at(tokens, k))
        if macro and (word in GRAM_WORDS or k == j) and macro not in found:
            found[macro] = amount
            used.update(range(i, k + 1))
    return found, used


def _nutrition_only(clause: list[str]) -> bool:
    """'about 600 cal', '150 calories for breakfast': nutrition (and a meal), nothing else."""
    _, clause = take_meal(clause)
    found, used = nutrition_said(clause)
    rest = [t for i, t in enumerate(clause) if i not in used and t not in ROUGHLY]
    return bool(found) and not rest


def with_nutrition(clauses: list[list[str]]) -> list[list[str]]:
    """'a burger, about 600 cal': a clause of nutrition alone belongs to the food before it."""
    out: list[list[str]] = []
    for clause in clauses:
        if out and _nutrition_only(clause) and not _nutrition_only(out[-1]):
            out[-1] = [*out[-1], "with", *clause]
        else:
            out.append(clause)
    return out


def external_item(clause: list[str]) -> FoodItem | None:
    found, used = nutrition_said(clause)
    if "calories" not in found:
        return None
    rest = [t for i, t in enumerate(clause) if i not in used]
    meal, rest = take_meal(rest)
    words = [t for t in without_filler(rest) if t not in ROUGHLY]
    while words and words[0] in ("a", "an", "one"):
        words = words[1:]
    while words and (words[-1] in ROUGHLY or words[-1] in TRAILING_FILLER):
        words = words[:-1]
    if not words or len(words) > 6 or take_quantity(words, 0)[0] is not None:
        return None  # "2 eggs, 150 calories": a count and calories; left to the model
    data = {"food_name": " ".join(words), **found, "meal_type": None}
    return FoodItem(data, meal)
