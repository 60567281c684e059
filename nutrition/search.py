"""Food search: the user's own foods first, then the public catalog, best match for logging first.

Postgres keeps for every food a search key: its name as sorted English stems without catalog
filler ("Bananas, raw" -> "banana"; migrations 0003-0004). A GIN index holds each stem twice,
plain and tagged with how many words of the key say what the food is ("banana#1"; numbers,
letters and "vitamin" do not count), so "names of n such words containing every query word" is
one small posting list. Candidates are read shortest first (n = query words, then one more, ...)
and reading stops after a few dozen, however many thousand names contain the word:
a short name that matches fully is what a person logging "banana" means. Typos are corrected
against the catalog's vocabulary (the table food_search_words, a few thousand stems) by trigram
similarity before any name is read.

The candidates are ranked here, in Python, where the rules are easy to read and to test:
every query word matched, exactly or through a correction or synonym; few other words, and
preparation words ("roasted", "nonfat") cost less than words that make it another food
("chips", "sandwich"); branded and compound foods (baby food, fast food) step back.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import product
from math import prod

from django.db import connection
from django.db.models.functions import Lower

from nutrition.models import Food

BARCODE = re.compile(r"\d{8,14}")
# SR28 names some foods by their group first: the food is the next part.
CATEGORY_WORDS = frozenset(
    {"fish", "nuts", "cereals", "beverages", "spices", "seeds", "snacks", "candies", "crustaceans"}
)
CATEGORY_STEMS = (
    "fish",
    "nut",
    "cereal",
    "beverag",
    "spice",
    "seed",
    "snack",
    "candi",
    "crustacean",
)
MAX_QUERY_CHARS = 200
MAX_QUERY_WORDS = 8
# A query word that is not in the vocabulary is replaced by at most this many near words.
CORRECTIONS_PER_WORD = 2
MIN_CORRECTION_SIMILARITY = 0.35
MAX_WORD_COMBINATIONS = 4
# Names read per combination of query words, and how much longer than the query a name may be
# before the length buckets give way to one "any length" read.
CANDIDATES_PER_COMBINATION = 40
LONGER_BY = 8
OWN_CANDIDATES = 100
# The user's own foods that hold every query word are ranked as if they matched this much better:
# they come first among similar matches, but "Egg, whole, raw" still beats their own "Boiled egg
# and cauliflower bake" for "egg", so logging "2 eggs" logs eggs.
OWN_HEAD_START = 0.1
# food_find_best logs without asking only above this score, with every query word matched.
CONFIDENT_SCORE = 0.6

# Query stem -> stems that name the same food in the catalog (British and American names,
# oatmeal for oats). Applied to the query only, with a little less weight than the word itself.
SYNONYMS: dict[str, tuple[str, ...]] = {
    "oatmeal": ("oat",),
    "porridg": ("oat",),
    "yoghurt": ("yogurt",),
    "courgett": ("zucchini",),
    "aubergin": ("eggplant",),
    "prawn": ("shrimp",),
    "garbanzo": ("chickpea",),
    "chickpea": ("garbanzo",),
    "minc": ("ground",),
}
SYNONYM_QUALITY = 0.95

# Extra stems in a name that describe how the food is prepared, cut or how fat it is: they cost
# a third of a word that changes what the food is. SR28's group words ("Fish, salmon", "Nuts,
# almonds") are light too.
LIGHT_STEMS = frozenset(
    {
        *("roast", "grill", "bake", "boil", "steam", "fri", "poach", "scrambl", "toast", "broil"),
        *("stew", "brais", "microwav", "saute", "sauté", "smoke", "frozen", "can", "drain"),
        *("solid", "water", "nonfat", "lowfat", "fat", "reduc", "free", "skim", "lean"),
        *("meat", "skin", "boneless", "skinless", "slice", "chop", "dice", "mash", "long"),
        *("medium", "short", "grain", "dri", "instant", *CATEGORY_STEMS),
    }
)
LIGHT_WEIGHT = 0.35
# Fortification and fat-content details ("fluid, 3.25% milkfat, with added vitamin D") hardly
# change what a food is.
TRIVIAL_STEMS = frozenset({"vitamin", "milkfat", "fluid", "mineral"})
TRIVIAL_WEIGHT = 0.1
# Foods that are a dish or a product for a particular eater, not the food itself.
COMPOUND_STEMS = frozenset({"babyfood", "restaur"})
COMPOUND_GROUPS = frozenset(
    {"Baby Foods", "Fast Foods", "Restaurant Foods", "Meals, Entrees, and Side Dishes"}
)
COMPOUND_PENALTY = 2.0
BRAND_PENALTY = 1.0
# SR28 writes brands in capitals: "Yogurt, Greek, nonfat, vanilla, CHOBANI".
BRAND = re.compile(r"[A-Z]{3,}")
# Query words the search key drops (they say little about the food) still favour names that
# have them: "raw egg" prefers "Egg, whole, raw, fresh" to a boiled egg.
NEUTRAL_WORDS = frozenset(
    {"raw", "fresh", "whole", "plain", "regular", "cooked", "prepared", "uncooked", "fortified"}
)
NEUTRAL_BONUS = 0.1
# "Crackers, milk" is crackers: SR28 names start with what the food is.
HEAD_MISS_FACTOR = 0.75
PENALTY_SCALE = 0.15


@dataclass
class Candidate:
    id: object
    name: str
    key: frozenset[str]
    user_id: object
    food_group: str
    score: float | None = None
    complete: bool = False  # every query word matched


def search_foods(*, user, query: str, limit: int = 10) -> list[Food]:
    """Foods matching `query`, best first, each with `.score` (0..1) and `.complete` (bool)."""
    text = " ".join(str(query or "").split())[:MAX_QUERY_CHARS]
    limit = max(1, min(int(limit), 50))
    if not text:
        return []
    if BARCODE.fullmatch(text):
        return _by_barcode(user, text, limit)
    options = _word_options(text)
    query_neutral = set(_WORDS.findall(text.lower())) & NEUTRAL_WORDS
    if options:
        candidates = _candidates(user, options, partial=False)
        ranked = _ranked(candidates, options, query_neutral)
        if len(options) > 1 and sum(c.complete for c in ranked) < limit:
            # Not enough names hold every word: let one word go ("chicken breast sandwich").
            candidates = {**_candidates(user, options, partial=True), **candidates}
    else:
        candidates = _name_contains(user, text)
    ranked = sorted(
        _ranked(candidates, options, query_neutral),
        key=lambda c: (
            -(c.score + (OWN_HEAD_START if c.user_id == user.id and c.complete else 0)),
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


def best_food(*, user, name: str) -> Food | None:
    """The food to log for `name` without asking, or None when no match is confident."""
    found = search_foods(user=user, query=name, limit=1)
    if found and found[0].complete and found[0].score >= CONFIDENT_SCORE:
        return found[0]
    return None


# --- reading candidates ------------------------------------------------------------------------


def _by_barcode(user, code: str, limit: int) -> list[Food]:
    foods = list(Food.objects.visible_to(user).filter(barcode=code)[:limit])
    foods.sort(key=lambda f: f.user_id != user.id)
    for food in foods:
        food.score = 1.0
        food.complete = True
    return foods


def _word_options(text: str) -> list[list[tuple[str, float]]]:
    """For each stem of the query, the vocabulary stems that may stand for it, with a quality.

    A stem the catalog uses stands for itself (1.0); an unknown one (a typo) is replaced by its
    nearest vocabulary stems, whose quality follows their trigram similarity.
    """
    with connection.cursor() as cursor:
        cursor.execute(
            """
            SELECT q.w, v.word, v.sim
            FROM unnest(string_to_array(food_search_key(%s), ' ')) WITH ORDINALITY AS q(w, i)
            LEFT JOIN LATERAL (
                SELECT word, similarity(word, q.w) AS sim
                FROM food_search_words
                WHERE word %% q.w
                ORDER BY sim DESC, word
                LIMIT 3
            ) v ON true
            WHERE q.w <> ''
            ORDER BY q.i, v.sim DESC NULLS LAST
            """,
            [text],
        )
        rows = cursor.fetchall()
    near: dict[str, list[tuple[str, float]]] = {}
    for stem, word, sim in rows:
        near.setdefault(stem, [])
        if word is not None:
            near[stem].append((word, float(sim)))
    options = []
    for stem, words in list(near.items())[:MAX_QUERY_WORDS]:
        if any(word == stem for word, _ in words):
            choice = [(stem, 1.0)]
        else:
            choice = [
                (word, 0.5 + 0.5 * sim)
                for word, sim in words[:CORRECTIONS_PER_WORD]
                if sim >= MIN_CORRECTION_SIMILARITY
            ]
        choice += [(s, SYNONYM_QUALITY) for s in SYNONYMS.get(stem, ()) if s != stem]
        options.append(choice)
    return options


def _combinations(options, partial: bool) -> list[tuple[str, ...]]:
    """The word sets to look up, most likely first; `partial` drops one query word from each."""
    usable = [o for o in options if o]
    if not usable:
        return []
    groups = [usable]
    if partial:
        groups = [usable[:i] + usable[i + 1 :] for i in range(len(usable))]
    combos: dict[tuple[str, ...], float] = {}
    for group in groups:
        for pick in product(*group):
            words = tuple(sorted({word for word, _ in pick}))
            quality = prod(q for _, q in pick)
            combos[words] = max(quality, combos.get(words, 0.0))
    ordered = sorted(combos, key=lambda w: (-combos[w], w))
    return [w for w in ordered if w][:MAX_WORD_COMBINATIONS]


_CANDIDATES_SQL = f"""
(SELECT id, name, search_key, user_id, food_group FROM foods
 -- Not the token index: a user has few foods, a common word has thousands of rows.
 WHERE user_id = %(user)s AND string_to_array(search_key, ' ') && %(every_word)s::text[]
 LIMIT {OWN_CANDIDATES})
UNION ALL
SELECT c.* FROM unnest(%(combinations)s::text[]) AS k(words)
CROSS JOIN LATERAL (
    SELECT f.id, f.name, f.search_key, f.user_id, f.food_group
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


def _candidates(user, options, partial: bool) -> dict:
    """One statement: the user's own matching foods, then per word set the shortest names."""
    combinations = [" ".join(words) for words in _combinations(options, partial)]
    every_word = sorted({word for choice in options for word, _ in choice})
    if not combinations:
        return {}
    per_combination = CANDIDATES_PER_COMBINATION // (2 if partial else 1)
    with connection.cursor() as cursor:
        cursor.execute(
            _CANDIDATES_SQL,
            {
                "user": user.id,
                "every_word": every_word,
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
    return {row[0]: _candidate(row) for row in rows}


def _candidate(row) -> Candidate:
    food_id, name, key, user_id, group = row
    return Candidate(
        id=food_id,
        name=name,
        key=frozenset((key or "").split()),
        user_id=user_id,
        food_group=group or "",
    )


# --- ranking -----------------------------------------------------------------------------------

_WORDS = re.compile(r"[a-z]+")


def _ranked(candidates: dict, options, query_neutral=frozenset()) -> list[Candidate]:
    """Score every candidate not scored yet; returns them all."""
    for c in candidates.values():
        if c.score is None:
            _rank(c, options, query_neutral)
    return list(candidates.values())


def _rank(c: Candidate, options, query_neutral) -> None:
    if not options:  # a filler-words-only query: every name containing it is as good
        c.score, c.complete = 0.3, False
        return
    matched: set[str] = set()
    total = 0.0
    complete = True
    for choice in options:
        present = [(q, word) for word, q in choice if word in c.key]
        if present:
            best, word = max(present)
            total += best
            matched.add(word)
        else:
            complete = False
    extras = c.key - matched
    penalty = sum(_weight(e) for e in extras)
    if c.key & COMPOUND_STEMS or c.food_group in COMPOUND_GROUPS:
        penalty += COMPOUND_PENALTY
    if BRAND.search(c.name) and not c.name.isupper():
        penalty += BRAND_PENALTY
    score = total / len(options) / (1 + PENALTY_SCALE * penalty)
    lowered = c.name.lower()
    if matched and not _head_has(lowered, matched):
        score *= HEAD_MISS_FACTOR
    if query_neutral:
        score += NEUTRAL_BONUS * len(query_neutral & set(_WORDS.findall(lowered)))
    c.score = max(0.0, min(1.0, score))
    c.complete = complete


def _weight(stem: str) -> float:
    """What an extra word of a name costs: numbers and letters ("2% milkfat", "vitamin D")
    qualify a food rather than change it."""
    if stem in TRIVIAL_STEMS or stem.isdigit() or len(stem) == 1:
        return TRIVIAL_WEIGHT
    return LIGHT_WEIGHT if stem in LIGHT_STEMS else 1.0


def _head_has(lowered_name: str, stems: set[str]) -> bool:
    """Whether the name's first part ("bananas" of "bananas, raw"; "salmon" of "fish, salmon,
    raw") holds one of the stems. A stem is a prefix of its word give or take its last letter
    ("berri" of "berry")."""
    parts = lowered_name.split(",", 2)
    head = _WORDS.findall(parts[0])
    if len(parts) > 1 and head and set(head) <= CATEGORY_WORDS:
        head = _WORDS.findall(parts[1])
    return any(word.startswith(stem[: max(3, len(stem) - 1)]) for word in head for stem in stems)
