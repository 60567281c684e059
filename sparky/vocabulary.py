"""The core's words, read once from sparky/words/*.toml: the chat's tool categories, whose slugs
a user's preferences keep (chat.categories reads the rest: labels, descriptions, glosses). A
word list is added to a file, not written out again in code
(tests/config/test_words_have_one_home.py). English helpers are sparky.words."""

from __future__ import annotations

import tomllib
from pathlib import Path

WORDS_DIR = Path(__file__).resolve().parent / "words"

with (WORDS_DIR / "chat_categories.toml").open("rb") as handle:
    _CATEGORIES: list[dict] = tomllib.load(handle)["category"]

# The category slugs, in the registry's order.
CHAT_CATEGORIES: tuple[str, ...] = tuple(c["slug"] for c in _CATEGORIES)
# Slug -> one line the prompts and the escalation tool describe it by.
CHAT_CATEGORY_DESCRIPTIONS: dict[str, str] = {c["slug"]: c["description"] for c in _CATEGORIES}
# Slug -> the same in a few words.
CHAT_CATEGORY_GLOSSES: dict[str, str] = {c["slug"]: c["gloss"] for c in _CATEGORIES}
# Slug -> what the tool selector calls it.
CHAT_CATEGORY_LABELS: dict[str, str] = {c["slug"]: c["label"] for c in _CATEGORIES}
# The core profile's default set.
CORE_CHAT_CATEGORIES: tuple[str, ...] = tuple(c["slug"] for c in _CATEGORIES if c.get("core"))
