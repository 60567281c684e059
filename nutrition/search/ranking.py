"""Generic ranking of food search: reading the query (stems, corrections of typos against the
catalog's vocabulary, combinations of words), reading candidates from Postgres by length, and
scoring each name by where the query's words stand in it. What the catalog's words mean (which
food "steak" is, how SR28 writes dishes, labels and cooking forms) is catalog knowledge
(nutrition.search.knowledge); this module only weighs it."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import product
from math import log2, prod

from django.db import connection
from django.db.models.functions import Lower

from nutrition.models import FNDDS_SOURCE, Food
from nutrition.search.knowledge import (
    BRAND,
    COMPOUND_GROUPS,
    COMPOUND_STEMS,
    COOKED_FOODS,
    COOKED_GROUPS,
    COOKED_WORDS,
    DESCRIPTIONS,
    DISH_SYNONYMS,
    DISH_WORDS,
    EVERYDAY,
    FORM_WORDS,
    GENERIC,
    IMITATION_WORDS,
    KINDS,
    LABELS,
    LIGHT_STEMS,
    LIGHTLY_TRIVIAL,
    METHOD_PHRASES,
    METHOD_STEMS,
    NAMED_DISHES,
    NEUTRAL_WORDS,
    NOT_VESSEL_DISHES,
    OFFAL_STEMS,
    PHRASES,
    PRODUCT_WORDS,
    READY_WORDS,
    SNACK_GROUPS,
    SOLD_PHRASES,
    SYNONYMS,
    TRIVIAL_STEMS,
    UNCOOKED_WORDS,
    VESSEL_WORDS,
)

BARCODE = re.compile(r"\d{8,14}")
MAX_QUERY_CHARS = 200
MAX_QUERY_WORDS = 8
# A query word that is not in the vocabulary is replaced by at most this many near words.
CORRECTIONS_PER_WORD = 2
MIN_CORRECTION_SIMILARITY = 0.35
MAX_WORD_COMBINATIONS = 4
# Names read per combination of query words, and how much longer than the query a name may be
# before the length buckets give way to one "any length" read.
CANDIDATES_PER_COMBINATION = 60
LONGER_BY = 8
OWN_CANDIDATES = 100
# The user's own foods that hold every query word are ranked as if they matched this much better:
# they come first among similar matches, but "Egg, whole, raw" still beats their own "Boiled egg
# and cauliflower bake" for "egg", so logging "2 eggs" logs eggs.
OWN_HEAD_START = 0.2
# food_find_best logs without asking only above this score, with every query word matched.
CONFIDENT_SCORE = 0.6
BRAND_SCORE = 0.45  # a product named exactly by the end of a long catalog name (see _brand)
BRAND_BONUS = 0.05
# A product named with its brand's every word ("whopper", "taco bell bean burrito") is logged from
# this score: the words already say which product it is.
MADE_BY_SCORE = 0.3

# --- what the words mean ------------------------------------------------------------------------

SYNONYM_QUALITY = 0.95
DESCRIPTION_QUALITY = 0.9


# --- how names are written ----------------------------------------------------------------------


TRIVIAL_WEIGHT = 0.1
HEAD_WEIGHT = 1.5  # "crackers" of "Rice crackers"
HEAD_LIGHT_WEIGHT = 0.7  # "grain" of "Corn grain, yellow"
TAIL_WEIGHT = 0.7  # "brown" of "Rice, brown, long-grain"
LIGHT_WEIGHT = 0.35
COMPOUND_PENALTY = 2.0
SNACK_PENALTY = 1.0
BRAND_PENALTY = 1.0
PRODUCT_PENALTY = 1.0
FROZEN_PENALTY = 0.3  # frozen is only a little less than fresh ("Strawberries, frozen")
UNCOOKED_PENALTY = 1.5
NOT_SAID_COOKED_PENALTY = 0.75
COOKED_CREDIT = 0.5
GENERIC_CREDIT = 0.3
# Household servings the catalog records for a food: the common foods have many.
SERVINGS_CREDIT = 0.25
# A survey food (FNDDS) without a household portion: below SR28's foods of the same name.
SURVEY_PENALTY = 3.0
# A survey dish of another kind than the one asked for: "Taco salad" for "tacos".
SURVEY_OTHER_DISH_PENALTY = 1.0
# The bread a survey sandwich is on ("Turkey sandwich on white"): a detail, not another food.
SURVEY_DETAIL_STEMS = frozenset({"white", "wheat", "bun"})
# A survey dish that leaves a part out ("Soup, pho, no meat") when the words do not: below its
# twin with the part. (SR28's "without salt", "without skin" are forms, weighed elsewhere.)
WITHOUT_PENALTY = 0.3
_WITHOUT = re.compile(r", no [a-z]", re.IGNORECASE)
LEAVES_OUT = frozenset({"no", "without", "meatless", "plain"})
NEUTRAL_BONUS = 0.1
# "Crackers, milk" is crackers: SR28 names start with what the food is.
HEAD_MISS_FACTOR = 0.75
# "Beverages, almond milk" is more "almond milk" than "Candies, milk chocolate, with almonds".
HEAD_PARTIAL_FACTOR = 0.9
PENALTY_SCALE = 0.15
# Credits may take a name below no penalty at all, but only so far.
MAX_CREDIT = -1.0
# Words after "with" ("coffee with milk") lift names that have them but are not required.
SIDE_WEIGHT = 0.25


@dataclass
class Query:
    """A parsed query. Each option lists the stem sets that may stand for one query word."""

    options: list[list[tuple[tuple[str, ...], float]]]
    side: list[list[tuple[tuple[str, ...], float]]] = field(default_factory=list)
    stems: frozenset[str] = frozenset()  # the query's own stems, before corrections
    words: frozenset[str] = frozenset()  # its plain lowercase words
    described: bool = False  # a word was replaced by what it is made of ("latte")
    kind: bool = False  # the words name a kind of food ("fish"), not one food
    guesses: frozenset[str] = frozenset()  # corrections too far from what was typed to log
    preferred: frozenset[str] = frozenset()  # EVERYDAY names for these words
    dish: frozenset[str] = frozenset()  # the stem of a dish word the query ends with ("salad")

    @property
    def cooked(self) -> bool:
        return bool(self.stems & COOKED_FOODS) and not self.says_form

    @property
    def says_form(self) -> bool:
        return bool(self.words & FORM_WORDS)


@dataclass
class Candidate:
    id: object
    name: str
    key: frozenset[str]
    user_id: object
    food_group: str
    servings: int = 0
    survey: bool = False  # a USDA survey food (FNDDS): a dish as people report it
    score: float | None = None  # 0..1, as the caller sees it
    rank: float = 0.0  # the score before it is clipped to 0..1: credits still order the best
    complete: bool = False  # every query word matched
    preferred: bool = False


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
    foods = (Food.from_db(connection.alias, names, row) for row in rows)
    return {food.id: food for food in foods}


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


def best_food(*, user, name: str) -> Food | None:
    """The food to log for `name` without asking, or None when no match is confident. A dish is
    never logged as one of its parts: only a food named as the dish is."""
    # a survey food with no household portion would be logged as a blind 100 g: never chosen
    # without asking (it is still found, and offered)
    found = [f for f in search_foods(user=user, query=name, limit=3) if not _bare_survey(f)]
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
    nearby = [f for f in nearby if not _bare_survey(f)]
    return next(
        (f for f in nearby if f.score >= MADE_BY_SCORE and _made_by_named(f, name, maker)), None
    )


def _only_the_maker(food: Food, name: str) -> bool:
    """Whether the words name only who made the food: the survey's restaurant in brackets
    ("Big Mac (McDonalds)") or the maker SR28 writes first in capitals ("SUBWAY, tuna sub")."""
    asked = {_stem_plural(w) for w in _WORDS.findall(name.lower())}
    bracket = re.search(r"\(([^()]*)\)\s*$", food.name)
    if bracket and bracket.group(1).lower() in RESTAURANTS:
        maker = bracket.group(1)
    else:
        maker = food.name.split(",")[0]
        if "," not in food.name or any(c.islower() for c in maker.replace("Mc", "")):
            return False
    made_by = {_stem_plural(w) for w in _WORDS.findall(maker.lower().replace("'", ""))}
    return bool(asked) and asked <= made_by


def _bare_survey(food: Food) -> bool:
    return food.source == FNDDS_SOURCE and not getattr(food, "servings", 0)


def _singular_word(word: str) -> str:
    return word[:-1] if word.endswith("s") and not word.endswith("ss") else word


def _made_by_named(food: Food, name: str, maker_said: bool = False) -> bool:
    asked = frozenset(_stem_plural(w) for w in _WORDS.findall(name.lower()))
    if maker_said:
        maker = {_stem_plural(w) for w in _WORDS.findall(food.name.split(",")[0].lower())}
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
    return _made_by(food.name, frozenset(_stem_plural(w) for w in asked))


def _stem_plural(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


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
        words = {_stem_plural(w) for w in re.findall(r"[a-z]+", part.lower())}
        caps = {_stem_plural(w.lower()) for w in re.findall(r"\b[A-Z][A-Z'&]{2,}\b", part)}
        maker_words = {_stem_plural(w) for w in re.findall(r"[a-z]+", maker.lower())}
        if asked <= words | (maker_words if by_maker else set()) and (
            by_maker or (caps and caps <= asked)
        ):
            return True
    return False


_UPPER_WORDS = re.compile(r"[A-Z][A-Z0-9'&.-]*\b")
# The survey names a product in brackets after what it is ("Energy drink (Red Bull)"); a
# restaurant in brackets is the maker of several dishes, not one product.
_BRACKETED_BRAND = re.compile(r"\(([A-Z][A-Za-z' &-]*)\)\s*$")
RESTAURANTS = frozenset({"mcdonalds", "burger king"})


@lru_cache(maxsize=4096)
def _product(name: str) -> frozenset[str] | None:
    """The brand product a catalog name ends with, as words: SR28 writes products in capitals
    ("..., KELLOGG'S FROSTED FLAKES" -> frosted, flakes; the maker's name, said before, is
    dropped). None for a name that does not end with one."""
    if bracket := _BRACKETED_BRAND.search(name):  # the survey's "Corn snacks (Cheetos)"
        said = bracket.group(1).lower()
        return None if said in RESTAURANTS else frozenset(_WORDS.findall(said)) or None
    parts = name.split(",")
    if len(parts) < 2 or not _UPPER_WORDS.search(parts[-1]):
        return None
    last = parts[-1]
    if any(w.isalpha() and not w.isupper() for w in re.findall(r"[A-Za-z]+", last)):
        return None
    earlier = set(_WORDS.findall(",".join(parts[:-1]).lower()))
    product = frozenset(_WORDS.findall(last.lower())) - earlier - {"s"}
    return product or None


# --- reading the query -------------------------------------------------------------------------

_WORDS = re.compile(r"[a-z]+")
_WITH = re.compile(r"\bwith\b")


def _parse(text: str) -> Query:
    """The query's stems and, for each, the vocabulary stems that may stand for it."""
    lowered = text.lower()
    for phrase, word in PHRASES.items():
        lowered = re.sub(rf"\b{phrase}\b", word, lowered)
    main, side = _split_with(lowered)
    parts = _stems_and_corrections([main, side] if side else [main])
    options, stems, described = _options(parts.get(1, {}))
    side_options, side_stems, _ = _options(parts.get(2, {}))
    words = frozenset(_WORDS.findall(lowered))
    q = Query(
        options=options,
        side=side_options,
        stems=frozenset(stems),
        words=words,
        described=described,
        # "fish" or "candy bar" is a kind of food; "fish sandwich" or "fruit salad" is a dish
        kind=bool(words) and words <= KINDS and not _ends_with_dish(lowered),
        guesses=_guesses(parts.get(1, {})),
    )
    q.preferred = _preferred(stems, options)
    main_words = _WORDS.findall(main)
    if len(main_words) >= 2 and main_words[-1] in DISH_WORDS:  # "salad" alone is the dish
        last = main_words[-1]
        q.dish = frozenset(st for st in parts.get(1, {}) if last.startswith(st))
    return q


def _ends_with_dish(lowered: str) -> bool:
    words = _WORDS.findall(lowered)
    return len(words) >= 2 and words[-1] in DISH_WORDS


def _split_with(lowered: str) -> tuple[str, str]:
    """'coffee with milk' -> ('coffee', 'milk'); the first part is the food."""
    found = _WITH.search(lowered)
    if not found or not lowered[: found.start()].strip():
        return lowered, ""
    return lowered[: found.start()], lowered[found.end() :]


def _stems_and_corrections(texts: list[str]) -> dict[int, dict[str, list[tuple[str, float]]]]:
    """For each text, its stems in order, each with the near vocabulary stems (a typo's
    corrections, or the stem itself when the catalog uses it) and their trigram similarity."""
    with connection.cursor() as cursor:
        cursor.execute(
            """
            SELECT p.part, q.w, v.word, v.sim
            FROM unnest(%s::text[]) WITH ORDINALITY AS p(text, part)
            CROSS JOIN LATERAL unnest(string_to_array(food_search_key(p.text), ' '))
                 WITH ORDINALITY AS q(w, i)
            LEFT JOIN LATERAL (
                SELECT word, similarity(word, q.w) AS sim
                FROM food_search_words
                WHERE word %% q.w
                ORDER BY sim DESC, word
                LIMIT 3
            ) v ON true
            WHERE q.w <> ''
            ORDER BY p.part, q.i, v.sim DESC NULLS LAST
            """,
            [texts],
        )
        rows = cursor.fetchall()
    parts: dict[int, dict[str, list[tuple[str, float]]]] = {}
    for part, stem, word, sim in rows:
        near = parts.setdefault(part, {}).setdefault(stem, [])
        if word is not None:
            near.append((word, float(sim)))
    return parts


def _options(near: dict[str, list[tuple[str, float]]]):
    """(options, the query's stems, whether a word was described by its ingredients)."""
    options = []
    described = False
    for stem, words in list(near.items())[:MAX_QUERY_WORDS]:
        if stem in DESCRIPTIONS:
            described = True
            options += [[((s,), DESCRIPTION_QUALITY)] for s in DESCRIPTIONS[stem]]
            continue
        known = any(word == stem for word, _ in words)
        synonyms = [(tuple(s.split()), SYNONYM_QUALITY) for s in SYNONYMS.get(stem, ())]
        if known:
            choice = [((stem,), 1.0)]
        elif synonyms:  # "coke" is not a typo of "cake"
            choice = []
        else:
            choice = [
                ((word,), 0.5 + 0.5 * sim)
                for word, sim in words[:CORRECTIONS_PER_WORD]
                if sim >= MIN_CORRECTION_SIMILARITY
            ]
        options.append(choice + synonyms)
    return options, list(near)[:MAX_QUERY_WORDS], described


def _guesses(near: dict[str, list[tuple[str, float]]]) -> frozenset[str]:
    """The corrections offered for unknown words that are more than a slip of the keyboard away
    ("triscuit" -> "biscuit"): good enough to list, never to log without asking."""
    far = set()
    for stem, words in near.items():
        if any(word == stem for word, _ in words):
            continue
        far.update(word for word, _ in words if not _a_slip(stem, word))
    return frozenset(far - set(near))


def _a_slip(typed: str, word: str) -> bool:
    """One edit (a letter missed, doubled, swapped or wrong: "bananna", "samon", "tost"), or two
    in a longer word that still starts right ("spagheti" -> "spaghetti")."""
    distance = _edits(typed, word)
    return distance <= 1 or (distance == 2 and len(typed) >= 6 and typed[0] == word[0])


def _edits(a: str, b: str) -> int:
    """Damerau-Levenshtein distance (adjacent swaps count once), for short words."""
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                current[j] = min(current[j], previous2[j - 2] + 1)
        previous2, previous = previous, current
    return previous[-1]


_everyday_keys: dict[str, tuple[str, ...]] | None = None


def _everyday() -> dict[str, tuple[str, ...]]:
    """EVERYDAY keyed by the stems of its words (the database's stemmer, read once)."""
    global _everyday_keys
    if _everyday_keys is None:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT k, food_search_key(k) FROM unnest(%s::text[]) AS k", [list(EVERYDAY)]
            )
            _everyday_keys = {key: EVERYDAY[words] for words, key in cursor.fetchall()}
    return _everyday_keys


def _preferred(stems: list[str], options) -> frozenset[str]:
    """The EVERYDAY names for the query, as typed or as corrected ("ryce")."""
    table = _everyday()
    keys = {" ".join(sorted(stems))}
    if options and all(options):
        keys.add(" ".join(sorted({s for choice in options for s in choice[0][0]})))
    return frozenset(name for key in keys for name in table.get(key, ()))


# --- reading candidates ------------------------------------------------------------------------


def _by_barcode(user, code: str, limit: int) -> list[Food]:
    foods = list(Food.objects.visible_to(user).filter(barcode=code)[:limit])
    foods.sort(key=lambda f: f.user_id != user.id)
    for food in foods:
        food.score = 1.0
        food.complete = True
    return foods


def _combinations(q: Query, partial: bool) -> list[tuple[str, ...]]:
    """The word sets to look up, most likely first; `partial` drops one query word from each.
    Words after "with" are looked up together with the food first ("coffee milk"), then
    without."""
    usable = [o for o in q.options if o]
    if not usable:
        return []
    groups = [usable]
    if partial:
        groups = [usable[:i] + usable[i + 1 :] for i in range(len(usable))]
    elif q.side and all(q.side):
        groups = [usable + q.side, usable]
    combos: dict[tuple[str, ...], float] = {}
    for rank, group in enumerate(groups):
        for pick in product(*group):
            words = tuple(sorted({stem for stems, _ in pick for stem in stems}))
            quality = prod(quality for _, quality in pick) + (len(groups) - rank)
            combos[words] = max(quality, combos.get(words, 0.0))
    ordered = sorted(combos, key=lambda w: (-combos[w], w))
    return [w for w in ordered if w][:MAX_WORD_COMBINATIONS]


_COLUMNS = (
    "f.id, f.name, f.search_key, f.user_id, f.food_group, "
    "(SELECT count(*) FROM food_variants v WHERE v.food_id = f.id) AS servings, f.source"
)
_CANDIDATES_SQL = f"""
(SELECT {_COLUMNS} FROM foods f
 -- Not the token index: a user has few foods, a common word has thousands of rows.
 WHERE f.user_id = %(user)s AND string_to_array(f.search_key, ' ') && %(every_word)s::text[]
 LIMIT {OWN_CANDIDATES})
UNION ALL
-- The everyday table's foods for these words, through the (user_id, name) index.
SELECT {_COLUMNS} FROM foods f
WHERE f.user_id IS NULL AND f.is_custom = false AND f.name = ANY(%(preferred)s::text[])
UNION ALL
SELECT c.* FROM unnest(%(combinations)s::text[]) AS k(words)
CROSS JOIN LATERAL (
    SELECT {_COLUMNS}
    FROM (
        -- The length buckets of this word set: "banana#1", "banana#2", ..., then plain words.
        SELECT CASE WHEN n IS NULL THEN w ELSE array(SELECT x || '#' || n FROM unnest(w) x) END
               AS tokens
        FROM (SELECT string_to_array(k.words, ' ') AS w) AS q,
             LATERAL (SELECT generate_series(food_search_length(q.w),
                                              food_search_length(q.w) + {LONGER_BY})
                      UNION ALL SELECT NULL) AS bucket(n)
    ) AS b
    CROSS JOIN LATERAL (
        SELECT * FROM foods
        WHERE food_search_tokens(search_key) @> b.tokens
          AND (is_custom = false OR shared_with_public = true)
          AND user_id IS DISTINCT FROM %(user)s
    ) AS f
    -- Stops the nested loop as soon as the shortest buckets have filled it.
    LIMIT %(per_combination)s
) AS c
"""


def _candidates(user, q: Query, partial: bool) -> dict:
    """One statement: the user's own matching foods, the everyday table's foods for the words,
    then per word set the shortest names."""
    combinations = [" ".join(words) for words in _combinations(q, partial)]
    every_word = sorted({stem for choice in q.options for stems, _ in choice for stem in stems})
    if not combinations:
        return {}
    per_combination = CANDIDATES_PER_COMBINATION // (2 if partial else 1)
    with connection.cursor() as cursor:
        cursor.execute(
            _CANDIDATES_SQL,
            {
                "user": user.id,
                "every_word": every_word,
                "preferred": sorted(q.preferred),
                "combinations": combinations,
                "per_combination": per_combination,
            },
        )
        rows = cursor.fetchall()
    return {row[0]: _candidate(row) for row in rows}


def _name_contains(user, text: str) -> dict:
    """Last resort for a query of filler words only ("raw"): names containing the text."""
    rows = (
        Food.objects.visible_to(user)
        .annotate(lower_name=Lower("name"))  # the trigram index on lower(name) serves this
        .filter(lower_name__contains=text.lower())
        .values_list("id", "name", "search_key", "user_id", "food_group")[:40]
    )
    return {row[0]: _candidate((*row, 0, "")) for row in rows}


def _candidate(row) -> Candidate:
    food_id, name, key, user_id, group, servings, source = row
    return Candidate(
        id=food_id,
        name=name,
        key=frozenset((key or "").split()),
        user_id=user_id,
        food_group=group or "",
        servings=servings or 0,
        survey=source == FNDDS_SOURCE,
    )


# --- ranking -----------------------------------------------------------------------------------


@dataclass
class Layout:
    """Where the words of a name stand: what the food is (head), how it is qualified (tail),
    the catalog's label before it, brackets, generic and cooking phrases (aside)."""

    head: list[str]
    tail: list[str]
    added: list[str]  # what comes "with" it: "with calcium propionate", "without salt"
    label: list[str]
    aside: list[str]
    generic: bool
    words: frozenset[str]  # head, tail and label words: what the name says outright


_ASIDE = re.compile(r"\([^)]*(\)|$)")


def _layout(name: str) -> Layout:
    lowered = name.lower()
    aside = [w for m in _ASIDE.finditer(lowered) for w in _WORDS.findall(m.group())]
    main = _ASIDE.sub(" ", lowered)
    generic = bool(GENERIC.search(main))
    aside += [w for m in GENERIC.finditer(main) for w in _WORDS.findall(m.group())]
    main = GENERIC.sub(" ", main)
    aside += [w for m in SOLD_PHRASES.finditer(main) for w in _WORDS.findall(m.group())]
    main = SOLD_PHRASES.sub(" ", main)
    aside += [w for m in METHOD_PHRASES.finditer(main) for w in _WORDS.findall(m.group())]
    main = METHOD_PHRASES.sub(" cooked ", main)
    parts, added = [], []
    for part in re.split(r"[,;]", main):
        words = _WORDS.findall(part)
        for at, word in enumerate(words):
            if word == "without" or words[at : at + 2] == ["with", "added"]:
                words, added = words[:at], added + words[at:]
                break
        if words:
            parts.append(words)
    parts = parts or [[]]
    label: list[str] = []
    while len(parts) > 1 and " ".join(parts[0]) in LABELS:
        label += parts.pop(0)
    head, tail = parts[0], [w for p in parts[1:] for w in p]
    return Layout(head, tail, added, label, aside, generic, frozenset(head + tail + added + label))


_SUFFIXES = frozenset(
    {
        *("", "s", "es", "e", "ed", "d", "ing", "er", "ers", "y", "ly", "al", "able", "ables"),
        *("ate", "ates", "ated", "ation", "ion", "ions", "ity", "ous", "ness", "ment", "ive"),
    }
)
_I_SUFFIXES = frozenset(
    {"i", "y", "ie", "ies", "ied", "ier", "ying"} | {"i" + s for s in _SUFFIXES}
)


def _fits(word: str, stem: str) -> bool:
    """Whether `word` of a name is `stem` ("bananas"/"banana", "berries"/"berri",
    "dry"/"dri"), without confusing longer words ("beerwurst" is not "beer")."""
    if word == stem:
        return True
    if stem.endswith("i") and len(stem) > 2:
        base = stem[:-1]
        return word.startswith(base) and word[len(base) :] in _I_SUFFIXES
    return word.startswith(stem) and word[len(stem) :] in _SUFFIXES


def _where(stem: str, layout: Layout) -> str:
    for zone in ("label", "head", "tail", "added", "aside"):
        if any(_fits(word, stem) for word in getattr(layout, zone)):
            return zone
    return "tail"


@lru_cache(maxsize=20_000)
def _read(name: str, key: frozenset[str]) -> tuple[Layout, dict[str, str]]:
    """A name's layout and where each stem of its key stands; the same names come back query
    after query, so they are read once."""
    layout = _layout(name)
    return layout, {stem: _where(stem, layout) for stem in key}


def _ranked(candidates: dict, q: Query) -> list[Candidate]:
    """Score every candidate not scored yet; returns them all."""
    for c in candidates.values():
        if c.score is None:
            _rank(c, q)
    return list(candidates.values())


def _coverage(c: Candidate, options) -> tuple[float, set[str], bool]:
    """(sum of the best quality each query word is matched with, the stems matched, all of
    them matched)."""
    matched: set[str] = set()
    total = 0.0
    complete = True
    for choice in options:
        present = [(quality, stems) for stems, quality in choice if set(stems) <= c.key]
        if present:
            best, stems = max(present)
            total += best
            matched.update(stems)
        else:
            complete = False
    return total, matched, complete


def _rank(c: Candidate, q: Query) -> None:
    if not q.options:  # a filler-words-only query: every name containing it is as good
        c.score, c.rank, c.complete = 0.3, 0.3, False
        return
    total, matched, complete = _coverage(c, q.options)
    side_total, side_matched, _ = _coverage(c, q.side)
    layout, zones = _read(c.name, c.key)
    lowered = c.name.lower()
    # The everyday table's food, unless the words ask for another form ("raw salmon").
    c.preferred = (
        c.name in q.preferred
        and c.user_id is None
        and q.words & (FORM_WORDS | NEUTRAL_WORDS) <= set(_WORDS.findall(lowered))
    )
    if c.preferred:  # the everyday table says this is what the words mean
        total, complete = sum(max(quality for _, quality in choice) for choice in q.options), True
    coverage = (total + SIDE_WEIGHT * side_total) / (len(q.options) + SIDE_WEIGHT * len(q.side))
    if c.preferred:  # as good as a name can be
        score = coverage / (1 + PENALTY_SCALE * MAX_CREDIT)
    else:
        head_hit = any(zones[stem] == "head" for stem in matched)
        # A person's own food is what they named it: the form rules are for the catalog.
        catalog = c.user_id is None
        cooked = catalog and (q.cooked or (c.food_group in COOKED_GROUPS and not q.says_form))
        penalty = sum(
            TRIVIAL_WEIGHT
            if c.survey and stem in SURVEY_DETAIL_STEMS
            else _weight(stem, zones[stem], head_hit, cooked)
            for stem in c.key - matched - side_matched
        )
        penalty += _penalty(c, layout, q, cooked)
        score = coverage / (1 + PENALTY_SCALE * max(MAX_CREDIT, penalty))
        if matched and not head_hit:
            score *= HEAD_MISS_FACTOR
        elif any(zones[stem] != "head" for stem in matched):
            score *= HEAD_PARTIAL_FACTOR
    query_neutral = q.words & NEUTRAL_WORDS
    if query_neutral:
        score += NEUTRAL_BONUS * len(query_neutral & set(_WORDS.findall(lowered)))
    if q.words and _product(c.name) == q.words:
        score += BRAND_BONUS  # "frosted flakes": the product itself, not a flavour of it
    c.rank = score
    c.score = max(0.0, min(1.0, score))
    # A guessed correction or a kind of food lists foods but logs none without asking.
    c.complete = complete and not (q.described or q.kind or (matched & q.guesses))
    if c.user_id is None and "dry mix" in lowered and not {"mix", "dry"} & q.words:
        c.complete = False  # "carrot cake" is no cake mix: offered, never logged as the cake
    survey_dish = c.survey and c.servings and all(zones.get(stem) for stem in q.dish)
    if (
        q.dish
        and c.user_id is None
        and not survey_dish
        and not any(zones.get(stem) == "head" for stem in q.dish)
    ):
        # "peanut butter sandwich" is not "Cookies, peanut butter sandwich"; "caesar salad" is
        # not "Salad dressing, caesar": the dish the words end with must be what the food is
        c.complete = False
        c.rank *= HEAD_MISS_FACTOR  # and the dish itself is listed first
        c.score = max(0.0, min(1.0, c.rank))


def _weight(stem: str, where: str, head_hit: bool, cooked: bool) -> float:
    """What an extra word of a name costs, by what it is and where it stands: numbers and
    letters ("2% milkfat", "vitamin D") qualify a food rather than change it."""
    if stem in TRIVIAL_STEMS or stem in LIGHTLY_TRIVIAL or stem.isdigit() or len(stem) == 1:
        return TRIVIAL_WEIGHT
    if where in ("aside", "label"):
        return TRIVIAL_WEIGHT
    if stem in OFFAL_STEMS:
        return HEAD_WEIGHT
    if cooked and stem in METHOD_STEMS:
        return METHOD_STEMS[stem]
    light = stem in LIGHT_STEMS or where == "added"
    if where == "head" and head_hit:
        return HEAD_LIGHT_WEIGHT if light else HEAD_WEIGHT
    return LIGHT_WEIGHT if light else TAIL_WEIGHT


def _penalty(c: Candidate, layout: Layout, q: Query, cooked: bool) -> float:
    """What the kind of entry and the form it is in cost, less the credits of the common one."""
    penalty = 0.0
    if c.key & COMPOUND_STEMS or c.food_group in COMPOUND_GROUPS:
        penalty += COMPOUND_PENALTY
    elif c.food_group in SNACK_GROUPS:
        penalty += SNACK_PENALTY
    if BRAND.search(c.name) and not c.name.isupper():
        penalty += BRAND_PENALTY
    said = layout.words - q.words
    if said & IMITATION_WORDS:
        penalty += PRODUCT_PENALTY
    if cooked:
        if said & UNCOOKED_WORDS:
            penalty += UNCOOKED_PENALTY
        elif said & COOKED_WORDS or "cooked" in layout.words:
            penalty -= COOKED_CREDIT
        elif q.cooked and not said & READY_WORDS:
            penalty += NOT_SAID_COOKED_PENALTY
    elif c.user_id is None and not q.says_form:
        products = said & PRODUCT_WORDS
        if products - {"frozen"}:
            penalty += PRODUCT_PENALTY
        elif products:
            penalty += FROZEN_PENALTY
    if c.survey and _WITHOUT.search(c.name) and not q.words & LEAVES_OUT:
        penalty += WITHOUT_PENALTY  # "pho" is the soup with its meat, not "Soup, pho, no meat"
    if layout.generic:
        penalty -= GENERIC_CREDIT
    if c.servings:
        penalty -= SERVINGS_CREDIT * log2(1 + c.servings)
    if c.survey and {_singular_word(w) for w in layout.words} & DISH_WORDS - {
        _singular_word(w) for w in q.words
    }:
        penalty += SURVEY_OTHER_DISH_PENALTY  # "chicken tacos" are no "Taco or tostada salad"
    if c.survey and (q.kind or not c.servings):
        # a survey food is first when it is a dish our portion table serves ("taco", "chicken
        # noodle soup"); a single food SR28 has too, with its household measures, is SR28's
        # ("rice" is a cup of SR28's rice, not the survey's "Rice, cooked"); a kind of food
        # ("fish") lists SR28's kinds first, not "Gefilte fish"
        penalty += SURVEY_PENALTY
    return penalty
