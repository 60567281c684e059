"""A meal as people tell it, read from the catalog: "For lunch, I treated myself to a piece of
thin-crust pepperoni pizza from the cafeteria and a cup of chocolate milk that was low in sugar."

The clause grammar (clauses, food) reads messages written the way a log is typed ("2 eggs and
toast for breakfast"). A told meal wraps its foods in words that are no food at all ("I treated
myself to", "perfect for satisfying my hunger", "washed it down with"), so here the catalog
decides what a food is:

1. The sentence is cut into pieces at its punctuation, "and" (not inside "mac and cheese" or "2
   and a half") and "with".
2. A piece's item starts at its first amount ("a", "two", "1/2", "142 g"); the words before it
   frame the meal and are never a food. The amount, its unit, size or container are read as the
   food grammar reads them.
3. The food is the longest run of the words that follow which the catalog names with confidence:
   all the words first, then the words before a word that ends a food's name ("from", "that",
   "in"...), then those runs less their first words ("juicy medium apple" -> "medium apple" ->
   "apple"). A size dropped on the way ("medium") is kept as the unit. No run, no item: nothing
   is saved for words the catalog does not know as a food.
4. A piece with no amount is an item only right after another item ("eggs, toast and coffee"),
   and only when the catalog knows it as a food.
5. "X with Y" and "X and Y" are one food when the catalog names the whole ("egg omelet with
   cheese", "frozen pancakes and sausage"), else two; a piece with its own amount is always its
   own item. What a dish is made with ("a burrito loaded with meat, beans and rice") is the
   dish's, not items of their own.
"""

from __future__ import annotations

from dataclasses import dataclass

from chat.reading.parser.clauses import _glued
from chat.reading.parser.food import FoodItem, food_item, take_meal
from chat.reading.parser.tokens import take_quantity, token_at
from chat.reading.parser.vocabulary import CONTAINERS, PHRASE_ENDS
from nutrition.services import (
    food_dish_word,
    food_find_best,
    food_lead_word,
    food_name_word,
    meal_for_word,
)
from nutrition.units import SIZES
from nutrition.units import unit_word as food_unit

_CUTS = frozenset({",", ";", ":", ".", "!", "?", "&", "+"})
_LONGEST_RUN = 7  # words of a food's name tried at once
_MOST_TRIES = 16  # catalog questions per item


@dataclass
class _Piece:
    tokens: list[str]
    after_with: bool  # the piece followed "with": maybe part of the food before it
    after_and: bool = False  # "pancakes and sausage": maybe one survey dish


def _pieces(tokens: list[str]) -> list[_Piece]:
    pieces: list[_Piece] = []
    current: list[str] = []
    after_with = after_and = False
    for i, token in enumerate(tokens):
        cut = token in _CUTS or (token == "and" and not _glued(tokens, i)) or token == "with"
        if cut:
            if current:
                pieces.append(_Piece(current, after_with, after_and))
            current, after_with, after_and = [], token == "with", token == "and"
        else:
            current.append(token)
    if current:
        pieces.append(_Piece(current, after_with, after_and))
    return pieces


def _runs(words: list[str]) -> list[tuple[list[str], list[str]]]:
    """(run, the words dropped before it) to ask the catalog for, best guess first: the words
    before the first word that ends a name (its head is their last word), with what follows
    when the catalog names that too ("sandwich on white bread"); then shorter runs, those ending
    at the head first."""
    end = next((i for i, word in enumerate(words) if word in PHRASE_ENDS and i > 0), len(words))
    head, rest = words[:end], words[end:]
    runs: list[tuple[list[str], list[str]]] = []
    for stop in range(len(head), 0, -1):
        for start in range(stop):
            run = head[start:stop]
            if run[0] in ("of", "the") or len(run) > _LONGEST_RUN:
                continue
            if stop < len(head) and len(run) < 2 and not all(map(prepared, head[stop:])):
                continue  # "sweet" of "a sweet touch" is no food; "burrito" of "burrito loaded"
            if start and (food_lead_word(head[start - 1]) or food_dish_word(run[-1])):
                break  # "a poke bowl" is no ramen bowl: a food's or a dish's own word stays
            if meal_for_word(run[-1]) is not None:
                continue  # "a satisfying breakfast": the meal
            if stop == len(head) and len(rest) >= 2 and len(run) + len(rest) <= _LONGEST_RUN:
                runs.append(([*run, *rest], head[:start]))
            runs.append((run, head[:start]))
    return runs[:_MOST_TRIES]


def _ground(data: dict) -> dict | None:
    """The item with its food name cut down to the words the catalog names with confidence."""
    words = data["food_name"].split()
    tried = set()
    for run, dropped in _runs(words):
        while run and food_unit(run[0]) in SIZES:  # "large croissant": the size is the unit's
            dropped, run = [*dropped, run[0]], run[1:]
        if not run or food_unit(run[-1]) in SIZES or tuple(run) in tried:
            continue  # a size is no food
        tried.add(tuple(run))
        if food_find_best(user=None, name=" ".join(run), unit=data.get("unit")) is None:
            continue
        unit = data.get("unit")
        if unit is None:
            sizes = [food_unit(w) for w in dropped if food_unit(w) in SIZES]
            unit = sizes[-1] if sizes else None
        return {**data, "food_name": " ".join(run), "unit": unit}
    return None


def _anchors(tokens: list[str]) -> list[int]:
    """Where amounts start: "a cup of milk alongside a small chicken breast" has two."""
    anchors, i = [], 0
    while i < len(tokens):
        amount, after = take_quantity(tokens, i)
        if amount is None:
            i += 1
            continue
        inner = any(
            take_quantity(tokens, k, articles=False)[0] is not None
            and token_at(tokens, take_quantity(tokens, k, articles=False)[1]) != "%"
            for k in range(after, after + 3 if tokens[i] in ("a", "an") else after + 1)
        )  # "a 16 fl oz bottle", "a delightful 248g glass": the number is the amount
        if not inner and token_at(tokens, after) != "%":
            anchors.append(i)  # and "2%" is no amount
        i = max(after, i + 1)
    return anchors


def _items_from(tokens: list[str]) -> list[FoodItem]:
    """The items a piece holds, one from each amount on to the next, grounded in the catalog."""
    anchors = _anchors(tokens)
    items = []
    for start, stop in zip(anchors, [*anchors[1:], len(tokens)][: len(anchors)], strict=True):
        _, after = take_quantity(tokens, start)
        span = tokens[start:stop]
        if any(meal_for_word(word) is not None for word in span[:3]):
            continue  # "for a quick snack": the meal, not a food
        if start and tokens[start - 1] == "from":
            continue  # "an egg from a fast food restaurant": where it came from, not a food
        item = food_item(_without_adjectives(span, after - start))
        if not isinstance(item, FoodItem):
            continue
        grounded = _ground(item.data)
        if grounded is not None:
            items.append(FoodItem(grounded, item.meal))
    return items


def _without_adjectives(tokens: list[str], after: int) -> list[str]:
    """'a refreshing cup of water' -> 'a cup of water': words between an amount and its unit."""
    if food_unit(token_at(tokens, after)) is not None:
        return tokens
    for k in range(after + 1, min(after + 3, len(tokens) - 1)):
        if tokens[k + 1] == "of" and (food_unit(tokens[k]) is not None or tokens[k] in CONTAINERS):
            return [*tokens[:after], *tokens[k:]]
    return tokens


def _bare(tokens: list[str]) -> FoodItem | None:
    """A piece with no amount ("toast", "fruit snacks candy"), when the catalog knows it whole."""
    if not 1 <= len(tokens) <= 3 or not food_name_word(tokens[-1]):
        return None  # "skin removed" is no food: a bare name ends with a food's own word
    data = {"food_name": " ".join(tokens), "quantity": 1, "unit": None}
    if food_find_best(user=None, name=data["food_name"]) is None:
        return None
    return FoodItem(data, None)


def _joined(item: FoodItem, piece: _Piece, word: str = "with") -> FoodItem | None:
    """'egg omelet with melted cheese', 'frozen pancakes and sausage': one food, when the
    catalog names the whole."""
    name = f"{item.data['food_name']} {word} {' '.join(piece.tokens)}"
    if len(name.split()) > _LONGEST_RUN + 2:
        return None
    if food_find_best(user=None, name=name, unit=item.data.get("unit")) is None:
        return None
    return FoodItem({**item.data, "food_name": name}, item.meal)


def prepared(word: str) -> bool:
    """A word saying how a food was made ("made", "topped", "loaded", "served")."""
    return word == "made" or (len(word) > 4 and word.endswith("ed"))


def _a_dish(item: FoodItem) -> bool:
    """A sandwich, burrito, taco, pizza, salad, bowl...: a food that holds others."""
    return food_dish_word(item.data["food_name"].split()[-1])


def meal_items(tokens: list[str]) -> list[FoodItem]:
    """The foods a sentence tells of, each grounded in the catalog, with the sentence's meal."""
    meal, _ = take_meal(tokens)
    if meal is None:
        meal = next((m for t in tokens if (m := meal_for_word(t)) is not None), None)
    items: list[FoodItem] = []
    previous_found = False
    filling = False  # inside "a burrito loaded with meat, beans and rice": what the dish holds
    pieces = _pieces(tokens)
    for i, piece in enumerate(pieces):
        joins = "with" if piece.after_with else "and" if piece.after_and else None
        if joins and items and previous_found and not _anchors(piece.tokens):
            whole = _joined(items[-1], piece, joins)
            if whole is not None:
                items[-1] = whole
                continue
        if _anchors(piece.tokens):
            filling = False  # "a sandwich with a cup of milk": an item of its own
        elif piece.after_with:
            dish = bool(items) and previous_found and _a_dish(items[-1])
            filling = dish or (i > 0 and prepared(pieces[i - 1].tokens[-1]))
        if filling:
            continue  # "made with oil", "a sub with cheese, lettuce and tomato": the dish's
        found = _items_from(piece.tokens)
        if not found and previous_found and (bare := _bare(piece.tokens)) is not None:
            found = [bare]
        previous_found = bool(found)
        items.extend(found)
    for item in items:
        item.meal = item.meal or meal
    return items
