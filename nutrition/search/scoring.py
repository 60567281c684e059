"""Scoring a candidate name by where the query's words stand in it: the head, the tail, the
aside; the form it is eaten in; the penalties and credits that order names a person means."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from math import log2

from nutrition.search.knowledge import (
    BRAND,
    COMPOUND_GROUPS,
    COMPOUND_STEMS,
    COOKED_GROUPS,
    COOKED_WORDS,
    DISH_WORDS,
    FORM_WORDS,
    GENERIC,
    IMITATION_WORDS,
    LABELS,
    LIGHT_STEMS,
    LIGHTLY_TRIVIAL,
    METHOD_PHRASES,
    METHOD_STEMS,
    NEUTRAL_WORDS,
    OFFAL_STEMS,
    PRODUCT_WORDS,
    READY_WORDS,
    SNACK_GROUPS,
    SOLD_PHRASES,
    TRIVIAL_STEMS,
    UNCOOKED_WORDS,
)
from nutrition.search.query import _WORDS, Candidate, Query
from sparky.words import singular

BRAND_BONUS = 0.05


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
    # A guessed correction or a kind of food lists foods but logs none without asking; a kind
    # the everyday table names a food for ("soup", "berries") is that food.
    kind = q.kind and not c.preferred
    c.complete = complete and not (q.described or kind or (matched & q.guesses))
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
    if c.survey and {singular(w) for w in layout.words} & DISH_WORDS - {
        singular(w) for w in q.words
    }:
        penalty += SURVEY_OTHER_DISH_PENALTY  # "chicken tacos" are no "Taco or tostada salad"
    if c.survey and (q.kind or not c.servings):
        # a survey food is first when it is a dish our portion table serves ("taco", "chicken
        # noodle soup"); a single food SR28 has too, with its household measures, is SR28's
        # ("rice" is a cup of SR28's rice, not the survey's "Rice, cooked"); a kind of food
        # ("fish") lists SR28's kinds first, not "Gefilte fish"
        penalty += SURVEY_PENALTY
    return penalty
