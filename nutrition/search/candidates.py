"""Reading candidates from Postgres: the user's own foods first, then the catalog's names
by length, shortest first, or by barcode."""

from __future__ import annotations

from itertools import product
from math import prod

from django.db import connection
from django.db.models.functions import Lower

from nutrition.models import FNDDS_SOURCE, Food
from nutrition.search.query import Candidate, Query

MAX_WORD_COMBINATIONS = 4
# Names read per combination of query words, and how much longer than the query a name may be
# before the length buckets give way to one "any length" read.
CANDIDATES_PER_COMBINATION = 60
LONGER_BY = 8
OWN_CANDIDATES = 100


# --- reading candidates ------------------------------------------------------------------------


def _by_barcode(user, code: str, limit: int) -> list[Food]:
    foods = list(Food.objects.visible_to(user.id).filter(barcode=code)[:limit])
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
          AND (is_custom = false OR (shared_with_public = true AND share_approved = true))
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
        Food.objects.visible_to(user.id)  # an id: the public stand-in (PUBLIC) has no row
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
