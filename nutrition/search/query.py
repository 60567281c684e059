"""Reading a search query: its stems, corrections of typos against the catalog's vocabulary,
synonyms, and the combinations of words to look up."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from django.db import connection

from nutrition.search.knowledge import (
    COOKED_FOODS,
    DESCRIPTIONS,
    DISH_WORDS,
    EVERYDAY,
    FORM_WORDS,
    KINDS,
    PHRASES,
    SYNONYMS,
)

MAX_QUERY_WORDS = 8
# A query word that is not in the vocabulary is replaced by at most this many near words.
CORRECTIONS_PER_WORD = 2
MIN_CORRECTION_SIMILARITY = 0.35

# --- what the words mean ------------------------------------------------------------------------

SYNONYM_QUALITY = 0.95
DESCRIPTION_QUALITY = 0.9


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


# --- reading the query -------------------------------------------------------------------------

_WORDS = re.compile(r"[a-z]+")
_WITH = re.compile(r"\bwith\b")


def spelled_out(text: str) -> str:
    """The words as the catalog writes them ("oj" -> "orange juice", "low-fat" -> "lowfat")."""
    lowered = text.lower()
    for phrase, word in PHRASES.items():
        lowered = re.sub(rf"\b{phrase}\b", word, lowered)
    return lowered


def _parse(text: str) -> Query:
    """The query's stems and, for each, the vocabulary stems that may stand for it."""
    lowered = spelled_out(text)
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
