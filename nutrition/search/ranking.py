"""Food search's entry points: the best matches for a query, the one food a name logs, a
dish's options, and who makes a product. Reading the query (nutrition.search.query), reading
candidates (nutrition.search.candidates) and scoring them (nutrition.search.scoring) are their
own modules."""

from __future__ import annotations

import re
import uuid
from types import SimpleNamespace

from django.db import connection

from nutrition import units
from nutrition.models import FNDDS_SOURCE, Food
from nutrition.search.candidates import _by_barcode, _candidates, _name_contains
from nutrition.search.knowledge import (
    DISH_SYNONYMS,
    DISH_WORDS,
    LABELS,
    NAMED_DISHES,
    NOT_VESSEL_DISHES,
    PHRASES,
    SYNONYMS,
    VESSEL_WORDS,
)
from nutrition.search.query import _WORDS, _parse
from nutrition.search.scoring import RESTAURANTS, _product, _ranked
from sparky.words import singular

BARCODE = re.compile(r"\d{8,14}")
MAX_QUERY_CHARS = 200
# The user's own foods that hold every query word are ranked as if they matched this much better:
# they come first among similar matches, but "Egg, whole, raw" still beats their own "Boiled egg
# and cauliflower bake" for "egg", so logging "2 eggs" logs eggs.
OWN_HEAD_START = 0.2
# food_find_best logs without asking only above this score, with every query word matched.
CONFIDENT_SCORE = 0.6
BRAND_SCORE = 0.45  # a product named exactly by the end of a long catalog name (see _brand)
# A product named with its brand's every word ("whopper", "taco bell bean burrito") is logged from
# this score: the words already say which product it is.
MADE_BY_SCORE = 0.3
# Searching as nobody in particular: the public catalog (and shared foods), no one's own foods.
PUBLIC = SimpleNamespace(id=uuid.UUID(int=0), pk=uuid.UUID(int=0))


def search_foods(*, user, query: str, limit: int = 10) -> list[Food]:
    """Foods matching `query`, best first, each with `.score` (0..1) and `.complete` (bool)."""
    text = " ".join(str(query or "").split())[:MAX_QUERY_CHARS]
    limit = max(1, min(int(limit), 50))
    if not text:
        return []
    if BARCODE.fullmatch(text):
        return _by_barcode(user, text, limit)
    q = _parse(text)
    if q.options:
        candidates = _candidates(user, q, partial=False)
        ranked = _ranked(candidates, q)
        if len(q.options) > 1 and sum(c.complete for c in ranked) < limit:
            # Not enough names hold every word: let one word go ("chicken breast sandwich").
            candidates = {**_candidates(user, q, partial=True), **candidates}
    else:
        candidates = _name_contains(user, text)
    ranked = sorted(
        _ranked(candidates, q),
        key=lambda c: (
            -(c.rank + (OWN_HEAD_START if c.user_id == user.id and c.complete else 0)),
            not c.preferred,
            len(c.name),
            c.name,
        ),
    )[:limit]
    foods = _foods_by_id([c.id for c in ranked])
    out = []
    for c in ranked:
        food = foods[c.id]
        food.score = round(c.score, 4)
        food.complete = c.complete
        food.servings = c.servings
        out.append(food)
    return out


def _foods_by_id(ids: list) -> dict:
    """Food rows by id, read with one plain statement (the ORM's query building would cost more
    than the search itself). The timestamps stay deferred: a search result never shows them."""
    if not ids:
        return {}
    fields = [f for f in Food._meta.concrete_fields if f.name not in ("created_at", "updated_at")]
    columns = ", ".join(connection.ops.quote_name(f.column) for f in fields)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {columns} FROM foods WHERE id = ANY(%s)", [ids])
        rows = cursor.fetchall()
    names = [f.attname for f in fields]
    # What the ORM would convert on reading (a JSON column arrives as text from a plain cursor).
    converters = [(n, f.from_db_value) for n, f in enumerate(fields) if hasattr(f, "from_db_value")]
    rows = [_converted(row, converters) for row in rows] if converters else rows
    foods = (Food.from_db(connection.alias, names, row) for row in rows)
    return {food.id: food for food in foods}


def _converted(row, converters) -> list:
    row = list(row)
    for n, convert in converters:
        row[n] = convert(row[n], None, connection)
    return row


def dish_of(text: str) -> tuple[list[str], str | None] | None:
    """(the words, the dish word) of a dish query ("turkey sandwich" -> (["turkey",
    "sandwich"], "sandwich"); "pad thai" -> (["pad", "thai"], None)), else None."""
    words = [w for w in _DISH_TEXT.findall(text.lower()) if w not in ("a", "an", "the", "some")]
    if not words:
        return None
    if " ".join(words) in NAMED_DISHES or any(w in NAMED_DISHES for w in words):
        return words, None
    if len(words) >= 2 and words[-1] in DISH_WORDS:
        return words, words[-1]
    return None


_DISH_TEXT = re.compile(r"[a-z']+")


def dish_options(*, user, query: str, limit: int = 3) -> list[Food] | None:
    """The closest real dishes for a dish query, never one of its parts: names holding the whole
    dish ("Fast foods, submarine sandwich, turkey breast" for "turkey sandwich"), else, for a
    sandwich, wrap or bowl, others of that kind; [] when the catalog has none (the user gives
    their own numbers). None when the query is not a dish (search as usual)."""
    dish = dish_of(query)
    if dish is None:
        return None
    words, vessel = dish
    found = search_foods(user=user, query=" ".join(words), limit=40)
    if vessel is None:  # a named dish: the name as a phrase
        phrase = " ".join(words).replace("'", "")
        whole = [f for f in found if phrase in f.name.lower().replace("'", "")]
        return whole[:limit]

    def has(food, word) -> bool:
        name = food.name.lower()
        stems = [word.rstrip("s")[:5], *(s[:5] for s in DISH_SYNONYMS.get(word.rstrip("s"), ()))]
        return any(stem in name for stem in stems)

    whole = [f for f in found if all(has(f, w) for w in words)]
    if len(whole) >= limit or vessel not in VESSEL_WORDS:
        return whole[:limit]

    def a_dish(food) -> bool:  # a sandwich, not a sandwich spread or a sandwich cookie
        name = food.name.lower()
        return has(food, vessel) and not any(w in name for w in NOT_VESSEL_DISHES)

    kind = whole + [f for f in found if a_dish(f) and f not in whole]
    if len(kind) < limit:
        more = search_foods(user=user, query=vessel, limit=30)
        kind += [f for f in more if a_dish(f) and f.id not in {k.id for k in kind}]
    return kind[:limit]


def known_words(text: str) -> bool:
    """Whether every word of `text` is a word of some food name as typed, not a correction of
    one ("fruit", "nuts" yes; "lol", "watched football" no), or a dish ("pad thai")."""
    if dish_of(text) is not None:
        return True
    q = _parse(text[:MAX_QUERY_CHARS])
    return bool(q.options) and all(
        any(quality == 1.0 for _, quality in choice) for choice in q.options
    )


def best_food(*, user, name: str, unit=None) -> Food | None:
    """The food to log for `name` without asking, or None when no match is confident. A dish is
    never logged as one of its parts: only a food named as the dish is. A survey food with no
    household serving is chosen only when the amount's `unit` weighs it: grams, ounces or a
    volume, or a piece or size its kin weigh (nutrition.units.kin)."""
    # a survey food with no household portion would be logged as a blind 100 g: never chosen
    # without asking (it is still found, and offered), unless the amount is weighed
    weighed = units.weighable(unit)

    def loggable(food) -> bool:
        return not _bare_survey(food) or weighed or units.survey_grams(food, unit) is not None

    found = [f for f in search_foods(user=user, query=name, limit=3) if loggable(f)]
    # "caesar salad": the salad, second after its dressing, is the dish the words end with
    found = [next((f for f in found if f.complete), found[0])] if found else []
    if found and _only_the_maker(found[0], name):
        return None  # "mcdonalds", "subway": a place to eat, not one of its dishes
    dish = dish_of(name)
    if found and dish is not None and dish[1] is None:
        phrase = " ".join(dish[0]).replace("'", "")
        if phrase not in found[0].name.lower().replace("'", ""):
            return None
    if found and found[0].complete and found[0].score >= CONFIDENT_SCORE:
        return found[0]
    if found and found[0].complete and found[0].score >= BRAND_SCORE and _brand(found[0], name):
        return found[0]
    if dish is not None and dish[1] is None:
        return None  # a BLT is any BLT, not McDONALD'S Chicken Ranch BLT Sandwich
    # a dish ("chicken curry") is some maker's product only when the maker is said
    maker = dish is not None
    if found and found[0].score >= MADE_BY_SCORE and _made_by_named(found[0], name, maker):
        return found[0]
    nearby = search_foods(user=user, query=name, limit=3)[1:]  # "frosty": the dessert, second
    nearby = [f for f in nearby if loggable(f)]
    return next(
        (f for f in nearby if f.score >= MADE_BY_SCORE and _made_by_named(f, name, maker)), None
    )


def describes_only(name: str, food: Food) -> bool:
    """Whether a one-word name is only a word describing the food it matched ("quick" of
    "Cereals, oats, regular and quick"): a word no catalog name opens with, no synonym, and not
    in what the food's name says it is (its first part, or the one after a catalog label).
    Brands named alone ("sprite") are such words too, so this is a doubt, not a refusal."""
    words = _WORDS.findall(name.lower())
    if len(words) != 1:
        return False
    word = singular(words[0])
    if word in opening_words() or any(word.startswith(stem) for stem in SYNONYMS):
        return False
    if any(re.search(rf"\b(?:{phrase})\b", word) for phrase in PHRASES):
        return False  # "oj" is orange juice
    parts = [p.strip().lower() for p in food.name.split(",")]
    what = parts[1] if len(parts) > 1 and parts[0] in LABELS else parts[0]
    said = {singular(w) for w in _WORDS.findall(what)}
    return not any(w.startswith(word) or word.startswith(w) for w in said)


def _only_the_maker(food: Food, name: str) -> bool:
    """Whether the words name only who made the food: the survey's restaurant in brackets
    ("Big Mac (McDonalds)") or the maker SR28 writes first in capitals ("SUBWAY, tuna sub")."""
    asked = {singular(w) for w in _WORDS.findall(name.lower())}
    bracket = re.search(r"\(([^()]*)\)\s*$", food.name)
    if bracket and bracket.group(1).lower() in RESTAURANTS:
        maker = bracket.group(1)
    else:
        maker = food.name.split(",")[0]
        if "," not in food.name or any(c.islower() for c in maker.replace("Mc", "")):
            return False
    made_by = {singular(w) for w in _WORDS.findall(maker.lower().replace("'", ""))}
    return bool(asked) and asked <= made_by


def _bare_survey(food: Food) -> bool:
    return food.source == FNDDS_SOURCE and not getattr(food, "servings", 0)


def _made_by_named(food: Food, name: str, maker_said: bool = False) -> bool:
    asked = frozenset(singular(w) for w in _WORDS.findall(name.lower()))
    if maker_said:
        maker = {singular(w) for w in _WORDS.findall(food.name.split(",")[0].lower())}
        if not asked & maker:
            return False
    return bool(asked) and _made_by(food.name, asked)


def _brand(food: Food, name: str) -> bool:
    """Whether `name` is the product the food's name ends with: "cheerios" is "Cereals
    ready-to-eat, GENERAL MILLS, CHEERIOS", "big mac" is "McDONALD'S, BIG MAC"; the long
    category prefix is what keeps such names under the confident score. Also a product named
    after its maker: "whopper" is "BURGER KING, WHOPPER, no cheese", "egg mcmuffin"
    "McDONALD'S, Egg McMUFFIN", "twix" "Candies, ..., TWIX Caramel Cookie Bars"."""
    asked = frozenset(_WORDS.findall(name.lower()))
    if not asked:
        return False
    if _product(food.name) == asked:
        return True
    return _made_by(food.name, frozenset(singular(w) for w in asked))


def _made_by(name: str, asked: frozenset[str]) -> bool:
    """Whether the words name a product of a brand the catalog name states in capitals: the
    maker first ("TACO BELL, Bean Burrito") or the product itself ("..., TWIX Caramel ...")."""
    parts = name.split(",")
    if len(parts) < 2:
        return False
    maker = parts[0]
    # a maker written in capitals ("BURGER KING", "McDONALD'S"), not a label ("Candies")
    by_maker = all(sum(c.islower() for c in w) <= 1 for w in re.findall(r"[A-Za-z']+", maker))
    for part in parts[1:]:
        words = {singular(w) for w in re.findall(r"[a-z]+", part.lower())}
        caps = {singular(w.lower()) for w in re.findall(r"\b[A-Z][A-Z'&]{2,}\b", part)}
        maker_words = {singular(w) for w in re.findall(r"[a-z]+", maker.lower())}
        if asked <= words | (maker_words if by_maker else set()) and (
            by_maker or (caps and caps <= asked)
        ):
            return True
    return False


_OPENERS: dict = {}


def opening_words() -> frozenset[str]:
    """Every word some public catalog name opens with, singular ("banana", "oatmeal"; never
    "quick"); after a catalog label ("Beverages, ...", "Snacks, ...") the next part's first word.
    Read from Postgres once per catalog size (a load or a curation changes it)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM foods WHERE is_custom = false")
        (size,) = cursor.fetchone()
        if _OPENERS.get("size") != size:
            cursor.execute("SELECT name FROM foods WHERE is_custom = false")
            first = set()
            for (name,) in cursor.fetchall():
                parts = [p.strip().lower() for p in name.split(",")]
                if len(parts) > 1 and parts[0] in LABELS:
                    parts = parts[1:]
                words = _WORDS.findall(" ".join(parts))
                if words:
                    first.add(singular(words[0]))
            _OPENERS.update(size=size, words=frozenset(first))
    return _OPENERS["words"]
