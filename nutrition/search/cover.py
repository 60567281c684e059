"""The catalog food that covers the most of a told item's words: "a 162 g portion of chicken or
turkey with rice and a mix of fresh vegetables, all without any sauce" is USDA's survey food
"Chicken or turkey with rice and vegetables (excluding carrots, broccoli...), no sauce".

Search (ranking.py) reads a food's name as typed into a search box: every word must match. A meal
told in a sentence says more than a name (what it was like, where it came from, what it came
with), so here a food is chosen as the one whose name the item's words cover best, each word
weighed by how rare it is in the catalog (inverse document frequency: "pizza" says more than
"cooked"). A name's words the item does not say count against it, so "Milk, reduced fat" beats
"Milk, reduced fat, with added vitamin A and vitamin D, protein fortified" for "reduced fat milk".

Words are the catalog's search stems (Postgres' `food_search_key`, the same the search index
holds), so "fries", "fried" and "frying" meet. The index of the public catalog's stems is held in
memory and built again when the catalog changes (about a second for 13,000 foods).
"""

from __future__ import annotations

import math
import re
import threading
from collections import Counter, defaultdict
from dataclasses import dataclass

from django.db import connection
from django.db.models import Count, Max

from nutrition.models import FNDDS_SOURCE, Food
from nutrition.search.knowledge import DISH_WORDS, LABELS, PHRASES, says_how_made
from nutrition.search.ranking import PUBLIC

# How the score weighs a name's unsaid words against the item's unmatched ones: 0.5 both alike.
NAME_WEIGHT = 0.5
# Survey foods are named as people report meals: at a near tie, the survey's food.
SURVEY_BONUS = 1.05
# A food is chosen only when the item's words cover at least this share of its name's weight
# (this less when the name says first the item's head word: "Burrito, chicken, cheese")...
MIN_NAME_COVERED = 0.5
MIN_NAME_COVERED_WITH_HEAD = 0.3
# The item's head word ("pizza" of "pepperoni pizza with a side of chips") as the name's own head
# ("Pizza with pepperoni, ...", not "Pepperoni"; "Enchilada, chicken", not "Enchilada sauce"), or
# in what the name says the food is (its first part).
HEAD_FIRST_BONUS = 1.5
HEAD_BONUS = 1.2
# ...and at least this much weight in all (a word that ten foods share weighs log(1300) ~ 7,
# "rice" 4, "cooked" 1.5).
MIN_MATCHED = 2.0
CANDIDATES = 8  # foods read from the database for the best scores
TIED = 0.95  # scores this close are alike


@dataclass(frozen=True)
class Covering:
    """A food chosen for an item's words, and which of those words its name covers."""

    food: Food
    covered: tuple[int, ...]  # indexes of the words the food's name holds
    score: float
    known: tuple[int, ...] = ()  # indexes of the words any catalog name holds


@dataclass
class _Index:
    signature: tuple
    stems: list[frozenset[str]]
    first: list[frozenset[str]]  # the stems of what the name says the food is
    heads: list[frozenset[str]]  # the stems of its head word ("sauce" of "Enchilada sauce")
    ids: list
    survey: list[bool]
    weight: dict[str, float]
    postings: dict[str, list[int]]


_lock = threading.Lock()
_index: _Index | None = None


def _public():
    return Food.objects.visible_to(PUBLIC.id)


def _current() -> _Index:
    global _index
    state = _public().aggregate(n=Count("id"), at=Max("updated_at"))
    signature = (connection.alias, connection.settings_dict["NAME"], state["n"], state["at"])
    with _lock:
        if _index is None or _index.signature != signature:
            _index = _build(signature)
        return _index


def _build(signature: tuple) -> _Index:
    rows = list(_public().values_list("id", "search_key", "source", "name"))
    stems = [frozenset((key or "").split()) for _, key, _, _ in rows]
    # "Chili hot dog, no bun", "Chicken and rice, no sauce": what a food comes without is none
    # of its words ("a hot dog on a bun" is no bun-less hot dog)
    without = word_stems([" ".join(_WITHOUT.findall(row[3].lower())) for row in rows])
    stems = [bag - lacks for bag, lacks in zip(stems, without, strict=True)]
    parts = [_first_part(row[3]) for row in rows]
    first = word_stems(parts)
    heads = word_stems([_head_word(part) for part in parts])
    counts = Counter(stem for bag in stems for stem in bag)
    total = max(len(rows), 1)
    weight = {stem: math.log(total / (1 + n)) for stem, n in counts.items()}
    postings: dict[str, list[int]] = defaultdict(list)
    for i, bag in enumerate(stems):
        for stem in bag:
            postings[stem].append(i)
    return _Index(
        signature=signature,
        stems=stems,
        first=first,
        heads=heads,
        ids=[row[0] for row in rows],
        survey=[row[2] == FNDDS_SOURCE for row in rows],
        weight=dict(weight),
        postings=dict(postings),
    )


_WITHOUT = re.compile(r"\b(?:no|without|not)\s+([a-z]+(?:\s+[a-z]+)?)")


def _first_part(name: str) -> str:
    """What a catalog name says the food is: "Pizza" of "Pizza, cheese", "salmon" of "Fish,
    salmon, raw" (a label first is the catalog's filing, not the food)."""
    parts = [part.strip() for part in name.lower().split(",")]
    return next((part for part in parts if part not in LABELS), parts[0])


def _head_word(part: str) -> str:
    """The last word of a name's first part before "with", "or", "in", "on", or "and" unless
    a dish word closes it: "sauce" of "enchilada sauce", "pizza" of "pizza with pepperoni",
    "whiskey" of "whiskey and cola", "sandwich" of "ham and cheese sandwich"."""
    first = re.split(r"\s+(?:with|or|in|on)\s+", part)[0]
    before, _, after = first.partition(" and ")
    if not after.split() or after.split()[-1].lower() not in DISH_WORDS:
        first = before  # "Whiskey and cola": whiskey; "Ham and cheese sandwich": the sandwich
    words = first.split()
    return words[-1] if words else ""


def word_stems(words: list[str]) -> list[frozenset[str]]:
    """Each word's catalog stems ("thin-crust" -> {"thin", "crust"}; "the" -> none). Two words
    the catalog writes as one ("baby food" is "Babyfood", "soy milk" "Soymilk") each have the
    stems of the one word."""
    if not words:
        return []
    joined = {
        i + 1: one
        for i in range(len(words) - 1)
        for phrase, one in _ONE_WORD.items()
        if re.fullmatch(phrase, f"{words[i]} {words[i + 1]}".lower())
    }
    asked = [*words, *(joined[i] for i in sorted(joined))]
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT coalesce(food_search_key(w), '') FROM unnest(%s::text[]) WITH ORDINALITY"
            " AS t(w, n) ORDER BY n",
            [asked],
        )
        stems = [frozenset(row[0].split()) for row in cursor.fetchall()]
    for k, i in enumerate(sorted(joined)):
        stems[i - 1] = stems[i] = stems[len(words) + k]
    return stems[: len(words)]


# The search's phrases that the catalog writes as one word ("soymilk", "babyfood", "lowfat").
_ONE_WORD = {phrase: one for phrase, one in PHRASES.items() if " " not in one}


def covering_foods(
    words: list[str], head: int | None = None, weak: frozenset[int] = frozenset()
) -> list[Covering]:
    """The public catalog's foods whose names the words cover best, best first, when the cover
    is confident: a food whose name is at least half said (less, when it says first the head word),
    by words that say something. `head` is the index of the item's head word: it must be in the
    name, and a name that says it first wins ("Pizza with pepperoni" over "Pepperoni" for
    "pepperoni pizza"; "a sweet and crunchy treat" is no sweet potato). The `weak` words only
    describe ("crisp", "sweet"): they choose among foods of the item's kind ("Potatoes, sweet",
    "Cream, sour"), never another kind ("Crisp, apple" for "a crisp raw apple")."""
    per_word = word_stems(words)
    index = _current()
    said = {stem for stems in per_word for stem in stems if stem in index.weight}
    if not said:
        return []
    heads = per_word[head] & said if head is not None and head < len(per_word) else frozenset()
    if head is not None and per_word[head] and not heads:
        return []  # the word that says what the item is, the catalog does not know
    strong = {stem for n, stems in enumerate(per_word) if n not in weak for stem in stems}
    only_weak = frozenset(said - strong)
    said_weight = sum(index.weight[s] for s in said)
    scores: dict[int, float] = {}
    for stem in said:
        for i in index.postings[stem]:
            if i not in scores:
                scores[i] = _score(index, i, said, said_weight, heads, only_weak)
    best = sorted((i for i in scores if scores[i] > 0), key=lambda i: -scores[i])[:CANDIDATES]
    foods = {food.id: food for food in _public().filter(id__in=[index.ids[i] for i in best])}
    known = tuple(n for n, stems in enumerate(per_word) if stems & said)
    found = [
        Covering(
            food=foods[index.ids[i]],
            covered=tuple(n for n, stems in enumerate(per_word) if stems & index.stems[i]),
            score=scores[i],
            known=known,
        )
        for i in best
        if index.ids[i] in foods
    ]
    # Foods scored alike: the one naming more of what was said first ("Ham sandwich on white,
    # with cheese" before "Cheese sandwich" for "a sandwich loaded with ham and cheese").
    tied = [c for c in found if c.score >= found[0].score * TIED] if found else []
    naming = {n for n, word in enumerate(words) if n not in weak and not says_how_made(word)}
    tied.sort(key=lambda c: (-len(naming.intersection(c.covered)), -c.score))
    return tied + found[len(tied) :]


def _score(index: _Index, i: int, said, said_weight: float, heads, weak=frozenset()) -> float:
    name = index.stems[i]
    if heads and not heads <= name:
        return 0.0  # "a sweet and crunchy treat" is no sweet potato: the head word is named
    if weak and not (heads and heads <= index.heads[i]):
        said = said - weak  # "crisp" of "a crisp raw apple" is no "Crisp, apple"
    first = index.first[i]
    matched = sum(index.weight[s] for s in name & said)
    whole = sum(index.weight[s] for s in name) or 1.0
    if first & said:  # "Whiskey and cola" for "cola": a food partly said is another food
        whole += sum(index.weight.get(s, 0.0) for s in first - said)
    least = MIN_NAME_COVERED_WITH_HEAD if heads and heads <= first else MIN_NAME_COVERED
    if matched < MIN_MATCHED or matched / whole < least:
        return 0.0
    score = matched / (whole**NAME_WEIGHT * said_weight ** (1 - NAME_WEIGHT))
    if heads and heads <= index.heads[i]:  # "Pizza with pepperoni" for "pepperoni pizza"
        score *= HEAD_FIRST_BONUS
    elif heads and heads <= first:
        score *= HEAD_BONUS
    return score * (SURVEY_BONUS if index.survey[i] else 1.0)
