"""A meal as people tell it, read from the catalog: "For lunch, I treated myself to a piece of
thin-crust pepperoni pizza from the cafeteria and a cup of chocolate milk that was low in sugar."

The clause grammar (clauses, food) reads messages written the way a log is typed ("2 eggs and
toast for breakfast"). A told meal wraps its foods in words that are no food at all ("I treated
myself to", "perfect for satisfying my hunger", "washed it down with"), so here the catalog
decides what a food is:

1. The message is cut into sentences, and each sentence into items at its amounts ("a", "two",
   "1/2", "142 g"): an item runs from its amount to the next one. The words before the first
   amount frame the meal and are never a food; the amount, its unit, size or container are read
   as the food grammar reads them.
2. The item's food is the catalog food whose name its words cover best, rare words weighing more
   than common ones (nutrition.search.cover): "chicken or turkey with rice and a mix of fresh
   vegetables, all without any sauce" is the survey's "Chicken or turkey with rice and
   vegetables, no sauce". A food whose name the words do not half cover, or that rests on common
   words only, is no food: nothing is saved for words the catalog does not know.
3. "a hamburger on a white bun with a medium patty": an item that starts with "a" and no unit is
   part of the one before when one catalog food covers words of both (never after "and" or a
   comma: "a steak and a baked potato" are two).
4. What the chosen food leaves out of its item, after "and", "with" or a comma, may be an item of
   its own ("a bagel with cream cheese", "a cup of coffee, toast and jam"), when the catalog
   knows it whole; never what a dish holds ("a burrito loaded with meat, beans and rice").
"""

from __future__ import annotations

from dataclasses import dataclass

from chat.reading.parser.food import FoodItem, food_item, take_meal
from chat.reading.parser.tokens import take_quantity, token_at
from chat.reading.parser.vocabulary import CONTAINERS, DESCRIBING, EATING, PHRASE_ENDS
from nutrition.services import (
    food_covering,
    food_dish_word,
    food_name_word,
    meal_for_word,
)
from nutrition.services import food_word_says_how_made as prepared
from nutrition.units import SIZES
from nutrition.units import unit_word as food_unit
from sparky.words import singular

_SENTENCE_ENDS = frozenset({".", "!", "?", ";", ":"})
_CUTS = frozenset({",", "and", "with", "&", "+", "plus", "along", "alongside", "together", "then"})
_AFTER_MADE = PHRASE_ENDS | {"with", "by", "up", "over", "onto", "inside"}  # "served on"
_CLOCK = frozenset({"am", "pm", "a.m.", "p.m.", "o'clock"})
_LONGEST_EXTRA = 3  # words of an item without an amount ("cream cheese", "fruit snacks candy")


def _sentences(tokens: list[str]) -> list[tuple[int, list[str]]]:
    """(where it starts, its tokens) of each sentence."""
    sentences, start = [], 0
    for i, token in enumerate([*tokens, "."]):
        if token in _SENTENCE_ENDS:
            if i > start:
                sentences.append((start, tokens[start:i]))
            start = i + 1
    return sentences


def _anchors(tokens: list[str]) -> tuple[list[int], list[int]]:
    """Where amounts start ("a cup of milk alongside a small chicken breast" has two), and where
    items end: at the next amount, or at the article of "a delightful 248g glass", whose number
    is the amount (the words between describe it)."""
    anchors, ends, i = [], [], 0
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
        if inner or token_at(tokens, after) in _CLOCK:
            ends.append(i)  # "before my 6am spin class": a time, not an amount
        elif token_at(tokens, after) != "%" and not _of_an_amount(tokens, i):
            anchors.append(i)  # "2%" is no amount, nor the "a" of "200 g of a raw apple"
            ends.append(i)
        i = max(after, i + 1)
    return anchors, ends


def _of_an_amount(tokens: list[str], i: int) -> bool:
    """The "a" of "200 g of a raw apple": the amount is the grams."""
    return (
        tokens[i] in ("a", "an")
        and token_at(tokens, i - 1) == "of"
        and i >= 2
        and (food_unit(tokens[i - 2]) is not None or take_quantity(tokens, i - 2)[0] is not None)
    )


def _without_adjectives(tokens: list[str], after: int) -> list[str]:
    """'a refreshing cup of water' -> 'a cup of water', 'a medium single serving bag of chips'
    -> 'a medium bag of chips': the words between an amount (and its size) and its unit."""
    sized = food_unit(token_at(tokens, after)) in SIZES
    if food_unit(token_at(tokens, after)) is not None and not sized:
        return tokens
    start = after + 1 if sized else after
    for k in range(start + 1, min(start + 4, len(tokens) - 1)):
        if tokens[k + 1] == "of" and (food_unit(tokens[k]) is not None or tokens[k] in CONTAINERS):
            return [*tokens[:start], *tokens[k:]]
    return tokens


class _Item:
    """An item's reading: its amount, the words after it, and the food they cover."""

    def __init__(self, data: dict, words: list[str], article: bool):
        self.data = data
        self.words = words
        self.article = article  # its amount is "a"/"an" and it names no unit: maybe the last's
        self.cover = None

    def ground(self) -> bool:
        """The food the item's words cover, when one does. A dish named across "with" or "and"
        ("rice with some grilled chicken") must hold what each part says, or the first part is
        the item and the rest may be items of their own ("Rice, fried, with chicken" is not
        rice and grilled chicken)."""
        said = _head(self.words)
        if (
            said is not None
            and meal_for_word(self.words[said]) is not None
            and not _names_a_food(self.words, said)
        ):
            self.cover = None  # "the perfect treat", "a light lunch": the meal itself
            return False
        words = [  # "a snack of chips": the meal; "a breakfast burrito", "a snack cake": the food
            "," if meal_for_word(w) is not None and not _names_a_food(self.words, i) else w
            for i, w in enumerate(self.words)
        ]
        self.cover = self._cover(words)
        if self.cover is not None and not self._holds_each_part(words):
            first = _pieces(words)[0]
            self.cover = self._cover(words[: first[1]])
        return self.cover is not None

    def _cover(self, words: list[str]):
        head = _head(words)
        if not words or head is None:
            return None  # "a sweet and crunchy treat": no word says which food
        unit, quantity = self.data.get("unit"), self.data.get("quantity") or 1
        weak = frozenset(i for i, word in enumerate(words) if word in DESCRIBING)
        found = None
        if _held_in(token_at(words, head + 1)):  # "an ice cream bar" is a food of its own, "a
            found = food_covering(  # juice pouch" juice in a pouch
                words=words, quantity=quantity, unit=unit, head=head + 1, weak=weak
            )
            if found is not None and head not in found.covered:
                found = None  # "a salmon fillet" is salmon, never "Vegetarian fillets"
        found = found or food_covering(
            words=words, quantity=quantity, unit=unit, head=head, weak=weak
        )
        if found is not None and any(
            words[k].endswith("'s") and k not in found.covered and k not in found.known
            for k in range(head)
        ):
            return None  # "grandma's famous stew": her recipe, not the catalog's stew
        return found

    def _holds_each_part(self, words: list[str]) -> bool:
        """Whether the food covers what each part after the first says; what a dish is filled
        or topped with ("a sub filled with bacon, lettuce and cheese") need not all be named."""
        covered, known = set(self.cover.covered), set(self.cover.known)
        for start, stop in _pieces(words)[1:]:
            if token_at(words, start - 1) == "with" and prepared(token_at(words, start - 2)):
                break  # the filling: "Submarine sandwich, bacon, lettuce, and tomato" holds it
            stop = next((k for k in range(start, stop) if words[k] in PHRASE_ENDS), stop)
            part = set(range(start, stop))  # "jelly sandwich" of "... on wheat bread"
            said = {i for i in part & known if words[i] not in DESCRIBING}
            if part & covered and not said <= covered:
                return False
        return True

    def food_item(self, meal) -> FoodItem:
        covered = self.cover.covered
        name = " ".join(w for w in self.words[covered[0] : covered[-1] + 1] if w not in _CUTS)
        data = {**self.data, "food_name": name, "food_id": str(self.cover.food.id)}
        return FoodItem(data, meal)


def _head(words: list[str]) -> int | None:
    """The word that says what the item is: the last of its first phrase that does not only
    describe ("pizza" of "pepperoni pizza with a side of chips", "hamburger" of "hamburger served
    on a white bun", "chips" of "snack of corn chips", "treat" of "sweet and crunchy treat")."""
    head = None
    for i, word in enumerate(words):
        if head is None and (
            word in _CUTS or word == "of" or word in DESCRIBING or prepared(word) or _held_in(word)
        ):
            continue  # "(a snack) of corn chips", "a sweet and crunchy treat", "(a bottle)
            # filled with water"
        if word in ("and", "&") and head is not None and _dish_ahead(words, i + 1):
            continue  # "a steak and cheese sub": the sub
        if word in _CUTS or word in PHRASE_ENDS:
            break
        if head is not None and word in EATING and not food_name_word(word):
            break  # "a medium orange eaten in the car"
        if _held_in(word) and token_at(words, i + 1) in ("filled", "full"):
            head = None  # "a school container filled with juice": the food is what it holds
            continue
        if prepared(word) and head is not None and token_at(words, i + 1) in _AFTER_MADE:
            break
        if word not in DESCRIBING and (head is None or food_unit(word) is None):
            head = i  # "a fruit juice pouch": the juice, in its pouch
    return head


def _dish_ahead(words: list[str], i: int) -> bool:
    """Whether a dish word ("sandwich", "burrito") closes the phrase starting at i."""
    for word in words[i : i + 3]:
        if word in _CUTS or word in PHRASE_ENDS:
            return False
        if food_dish_word(word):
            return True
    return False


def _names_a_food(words: list[str], i: int) -> bool:
    """Whether the meal word at i is part of a food's name ("breakfast burrito", "snack cake"):
    a word naming a food follows it."""
    after = token_at(words, i + 1)
    return (
        after.isalpha()
        and after not in _CUTS
        and after not in PHRASE_ENDS
        and after != "of"
        and meal_for_word(after) is None
        and (food_name_word(after) or _held_in(after))  # "a breakfast bar"
    )


def _held_in(word: str) -> bool:
    """A container or measure ("bottle", "cup", "bag"), never the food itself."""
    return word in CONTAINERS or (food_unit(word) is not None and food_unit(word) not in SIZES)


def _pieces(words: list[str]) -> list[tuple[int, int]]:
    """(start, stop) of the runs of words between cuts ("rice", "some grilled chicken")."""
    pieces, start = [], 0
    for i, word in enumerate([*words, ","]):
        if word in _CUTS:
            if i > start:
                pieces.append((start, i))
            start = i + 1
    return pieces


def _read(span: list[str]) -> _Item | None:
    """An item's amount, unit and words: the food grammar reads the amount and its phrase ("355
    ml can of cola"), the words after it ("that I drank ice cold") are the item's too."""
    _, after = take_quantity(span, 0)
    span = _without_adjectives(span, after)
    end = next(
        (k for k in range(after + 1, len(span)) if span[k] in PHRASE_ENDS or span[k] in _CUTS),
        len(span),
    )
    item = food_item(span[:end])
    if not isinstance(item, FoodItem):
        return None
    data = dict(item.data)
    words = [*str(data.get("food_name") or "").split(), *span[end:]]
    head = _head(words)
    for word in words[: head or 0]:
        if data.get("unit") is None and food_unit(word) in SIZES:
            data["unit"] = food_unit(word)  # "a buttery large croissant": its unit
            break
    after = token_at(words, head + 1) if head is not None else ""
    if data.get("unit") is None and after and food_unit(after) is not None:
        data["unit"] = after  # "a fruit juice pouch"
    article = span[0] in ("a", "an") and food_unit(item.data.get("unit")) in (None, *SIZES)
    return _Item(data, words, article)


def _merged(first: _Item, chain: list[_Item]) -> _Item | None:
    """'a hamburger with a small patty on a white bun': one food when one covers the words of
    the first item and of the last one joined to it."""
    words, last = list(first.words), 0
    for item in chain:
        words.append("a")
        last = len(words)
        if food_unit(item.data.get("unit")) in SIZES:
            words.append(item.data["unit"])  # "a small patty": the size says which
        words.extend(item.words)
    whole = _Item(first.data, words, first.article)
    if not whole.ground():
        return None
    covered = whole.cover.covered
    if any(i < len(first.words) for i in covered) and any(i >= last for i in covered):
        return whole
    return None


_LONGEST_CHAIN = 3  # items joined into one food


def _joined(items: list[tuple[_Item, bool]]) -> list[_Item]:
    """The items of a sentence, each with the ones after it that are part of it ("a hamburger
    with a small patty on a white bun"), the longest such chain first."""
    joined, i = [], 0
    while i < len(items):
        item, _ = items[i]
        whole, taken = None, 0
        for size in range(min(_LONGEST_CHAIN, len(items) - i - 1), 0, -1):
            chain = items[i + 1 : i + 1 + size]
            if all(part.article and attached for part, attached in chain):
                whole = _merged(item, [part for part, _ in chain])
                if whole is not None:
                    taken = size
                    break
        joined.append(whole or item)
        i += 1 + taken
    return joined


def _a_dish(items: list[tuple[_Item, bool]]) -> bool:
    """Whether the item before is a dish grounded in the catalog ("Hot dog sandwich", "Cheese
    steak sandwich or sub"): what it is served on is its own bread, not another food."""
    if not items or items[-1][0].cover is None:
        return False
    name = items[-1][0].cover.food.name.lower().replace(",", " ").split()
    return any(food_dish_word(word) for word in name[:4])


def _extras(item: _Item) -> list[_Item]:
    """Foods an item names beside the one chosen ("a bagel with cream cheese"): each piece after
    a cut that the chosen food covers none of, when the catalog knows it whole. What a dish holds
    or a food was made with ("a burrito loaded with meat, beans and rice", "cooked with oil") is
    the food's, not items of their own."""
    covered = set(item.cover.covered)
    dish = food_dish_word(item.words[item.cover.covered[-1]])
    extras, piece, start, cut, filling = [], [], 0, None, False
    for i, word in enumerate([*item.words, ","]):
        if word not in _CUTS:
            if not piece:
                start = i
            piece.append(word)
            continue
        stop = next((k for k, w in enumerate(piece) if w in PHRASE_ENDS), len(piece))
        piece = piece[:stop]  # "grilled chicken for lunch": what follows "for" is not food
        if piece and word == "with" and (dish or prepared(piece[-1])):
            filling = True
        elif (
            piece
            and cut is not None
            and not filling
            and len(piece) <= _LONGEST_EXTRA
            and not covered & set(range(start, start + len(piece)))
            and any(word not in DESCRIBING for word in piece)
            and not (len(piece) == 1 and prepared(piece[0]) and not food_name_word(piece[0]))
        ):
            extra = _Item({"food_name": " ".join(piece), "quantity": 1, "unit": None}, piece, False)
            if extra.ground():
                extras.append(extra)
        if piece:
            cut = word
        piece = []
    return extras


@dataclass
class ToldMeal:
    """The foods a told message names, the words of the message their catalog foods cover
    ("navel orange": what else the item said, "nice and sweet", it judged no food), and where
    the items it read stand."""

    items: list[FoodItem]
    named: set[str]
    spans: set[int]  # the tokens of every item it read, with a food found or not


def meal_items(tokens: list[str]) -> ToldMeal:
    """The foods a message tells of, each grounded in the catalog, with the message's meal."""
    meal, _ = take_meal(tokens)
    if meal is None:
        meal = next((m for t in tokens if (m := meal_for_word(t)) is not None), None)
    found: list[_Item] = []
    spans: set[int] = set()
    for offset, sentence in _sentences(tokens):
        anchors, ends = _anchors(sentence)
        items: list[tuple[_Item, bool]] = []
        for start in anchors:
            stop = next((end for end in ends if end > start), len(sentence))
            span = sentence[start:stop]
            meal_at = next(
                (
                    k
                    for k, w in enumerate(span[:3])
                    if meal_for_word(w) and not _names_a_food(span, k)
                ),
                None,
            )
            if meal_at is not None and token_at(span, meal_at + 1) != "of":
                continue  # "for a quick snack": the meal, not a food ("a snack of chips" is)
            if start and sentence[start - 1] == "from":
                continue  # "an egg from a fast food restaurant": where it came from
            item = _read(span)
            if item is None or not item.words:
                continue
            spans.update(range(offset + start, offset + stop))
            item.ground()
            attached = bool(start) and sentence[start - 1] not in _CUTS - {"with"}
            if attached and sentence[start - 1] == "on" and _a_dish(items):
                continue  # "a steak sub served on a delicious roll": the sub's own bread
            items.append((item, attached))
        for item in _joined(items):
            if item.cover is not None:
                found.append(item)
                found.extend(_extras(item))
    named = {singular(item.words[i]) for item in found for i in item.cover.covered}
    return ToldMeal([item.food_item(meal) for item in found], named, spans)
