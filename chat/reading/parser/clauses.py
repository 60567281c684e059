"""Splitting a sentence into clauses, one thing each; what follows "with" is part of a food
(coffee with milk), its own entry (toast with peanut butter) or company (with my wife)."""

from __future__ import annotations

from chat.reading.parser.tokens import number_value, take_quantity, token_at
from chat.reading.parser.vocabulary import (
    PREPARED_WITH,
    SPLITTERS,
    TIME_UNITS,
    WITH_COMPANY,
    WITH_FOODS,
    WITH_PARTS,
)
from nutrition.services import food_dish_word
from nutrition.units import unit_word as food_unit


def split_clauses(tokens: list[str]) -> list[list[str]]:
    clauses, current = [], []
    skipping = False  # inside "with my wife": company, not food
    for i, token in enumerate(tokens):
        if (token in SPLITTERS and not _glued(tokens, i)) or token in (":", ";", "-"):
            skipping = False
        elif skipping:
            continue
        elif token == "with" and _with_company(tokens, i):
            skipping = True
            continue
        if (token in SPLITTERS and not _glued(tokens, i)) or _splits_with(tokens, i):
            if current:
                clauses.append(current)
            current = []
            if token == "with":
                continue
        else:
            current.append(token)
    if current:
        clauses.append(current)
    return clauses


def _after_with(tokens: list[str], i: int) -> str:
    """The first word after 'with' that is not an article or an amount."""
    j = i + 1
    while token_at(tokens, j) in ("a", "an", "the", "some", "of", "little", "bit", "side"):
        j += 1
    _, k = take_quantity(tokens, j)
    if food_unit(token_at(tokens, k)) is not None:
        k += 1
    while token_at(tokens, k) in ("of", "the"):
        k += 1
    return token_at(tokens, k) or token_at(tokens, j)


def _with_company(tokens: list[str], i: int) -> bool:
    return tokens[i] == "with" and _after_with(tokens, i) in WITH_COMPANY


def _glued(tokens: list[str], i: int) -> bool:
    """An 'and' that belongs to a number: '2 and a half', 'one hundred and fifty', '1 hour and
    15 minutes'."""
    if tokens[i] != "and":
        return False
    if tokens[i + 1 : i + 3] == ["a", "half"]:
        return True
    if token_at(tokens, i - 1) in ("hundred", "thousand") and number_value(token_at(tokens, i + 1)):
        return True  # "one hundred and fifty"
    filling, dish = token_at(tokens, i + 1), token_at(tokens, i + 2)
    if (
        token_at(tokens, i - 1).isalpha()
        and filling.isalpha()
        and filling not in ("a", "an", "the", "some")
        and not food_dish_word(filling)
        and food_dish_word(dish)
    ):
        return True  # "a ham and cheese sandwich": one dish, named by what is in it
    _, j = take_quantity(tokens, i + 1, articles=False)
    return token_at(tokens, i - 1) in TIME_UNITS and j > i + 1 and token_at(tokens, j) in TIME_UNITS


def _splits_with(tokens: list[str], i: int) -> bool:
    """'toast with 2 tbsp peanut butter', 'bread with peanut butter': what is eaten with a food
    is its own entry, unless it is part of the food ('coffee with milk')."""
    if tokens[i] != "with" or i == 0 or i + 1 >= len(tokens):
        return False
    amount, j = take_quantity(tokens, i + 1)
    if amount is not None and tokens[i + 1] not in ("a", "an", "half"):
        return True  # "with 2 slices of ham"
    word = _after_with(tokens, i)
    if word in ("water", "waters") and token_at(tokens, i - 1) in PREPARED_WITH:
        return False  # "porridge made with water": how it was made, no glass of water
    if word in WITH_PARTS and tokens.index(word, i) + 1 < len(tokens):
        after = tokens[tokens.index(word, i) + 1]
        if (word, after) in WITH_FOODS:  # "a bagel with cream cheese", "cake with ice cream"
            return True
    return bool(word) and word not in WITH_PARTS and word.isalpha()
