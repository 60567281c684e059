"""Tool categories a message needs, for the classifier when no AI service is configured."""

from __future__ import annotations

import logging

from chat.categories import CATEGORIES as ALL_CATEGORIES
from chat.reading.classify import keyword_categories
from chat.reading.parser.exercise import exercise_at
from chat.reading.parser.reading import parse_message
from chat.reading.parser.tokens import tokenise
from chat.reading.parser.vocabulary import INTENT_CATEGORIES

logger = logging.getLogger(__name__)


# The categories a message can need offline, in the registry's order: no photos, no preferences.
CATEGORIES = tuple(c for c in ALL_CATEGORIES if c not in {"vision", "profile"})


def guess_categories(text: str, *, reading=None) -> list[str]:
    """Tool categories a message needs, by the keyword rules (chat.reading.classify) and by what it
    would log; [] when unsure. `reading`: the turn's reading of this text (chat.reading.message), so
    nothing is read twice."""
    if not isinstance(text, str) or not text.strip():
        return []
    try:
        tokens = list(reading.tokens) if reading is not None else tokenise(text)
        parsed = reading.parse if reading is not None else parse_message(text)
        found = {
            INTENT_CATEGORIES[intent.name]
            for intent in ([] if parsed.bare_food else parsed.intents)  # a bare name: unsure
            if intent.name in INTENT_CATEGORIES
        }
        # the same keyword rules as with a model
        found.update(reading.categories if reading is not None else keyword_categories(text))
        if any(exercise_at(tokens, i) for i in range(len(tokens))):
            found.add("exercise")
    except Exception:  # classification is a hint; never fail the turn over it
        logger.exception("offline classifier failed on %r", text[:200])
        return []
    return [category for category in CATEGORIES if category in found]
