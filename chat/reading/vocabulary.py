"""Chat's own words, read once from the TOML files in chat/reading/parser/words/: English and the
way people talk to a coach, never a domain's things (those come from the domains' vocabularies).
This module reads the files for every reader of a message; chat.reading.parser.vocabulary names
the parser's lists, and the keyword classifier, which sits below the parser, reads its lists here.

    from chat.reading.vocabulary import KEYWORDS
    KEYWORDS["food"]["eating"]  # frozenset({"ate", "eat", ...})
"""

from __future__ import annotations

import tomllib
from pathlib import Path

WORDS_DIR = Path(__file__).resolve().parent / "parser" / "words"


def load(name: str) -> dict:
    """One words file, as TOML reads it."""
    with (WORDS_DIR / f"{name}.toml").open("rb") as handle:
        return tomllib.load(handle)


GOAL_WORDS: frozenset[str] = frozenset(load("goals")["goal_words"])

# The keyword classifier's words, by category and list, and its guards: (category, a sequence of
# word lists, or of an activity's name standing for its words) for phrases that look like that
# category but are not.
_keywords = load("keywords")
KEYWORDS: dict[str, dict[str, frozenset[str]]] = {
    category: {name: frozenset(words) for name, words in lists.items()}
    for category, lists in _keywords.items()
    if category != "guard"
}
KEYWORD_GUARDS: tuple[tuple[str, tuple[frozenset[str] | str, ...]], ...] = tuple(
    (g["category"], tuple(w if isinstance(w, str) else frozenset(w) for w in g["words"]))
    for g in _keywords["guard"]
)

# How people ask: for advice, for their own numbers, for a search, for a food's facts.
ASKING: dict = load("questions")

# Short answers to the reply before: "yes", "no", and what refers back ("one more", "the same").
_talk = load("talk")["answers"]
YES: frozenset[str] = frozenset(_talk["yes"])
NO: frozenset[str] = frozenset(_talk["no"])
REFERRING: frozenset[str] = frozenset(_talk["referring"])
FOLLOW_UP: frozenset[str] = frozenset(_talk["follow_up"])
PICKING: frozenset[str] = frozenset(_talk["picking"])

# What a model's reply says: claims of saving, offers to, and talk about the machinery.
_replies = load("replies")
CLAIMS: dict[str, frozenset[str]] = {k: frozenset(w) for k, w in _replies["claims"].items()}
MACHINERY: dict[str, frozenset[str]] = {
    k: frozenset(w) for k, w in _replies["machinery"].items() if k != "turned"
}
# A person's words as a reply says them back to them ("you" for "I").
TURNED: dict[str, str] = dict(_replies["machinery"]["turned"])
