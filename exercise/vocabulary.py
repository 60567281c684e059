"""The words of activities, read once from exercise/words/activities.toml: the name Sparky logs an
activity by, the words people use for it (verb forms included: "ran", "swam", "biked"), and the
term the exercise catalog is searched with when it differs from the name. The offline parser,
the keyword classifier and the exercise search all read this one list."""

from __future__ import annotations

import tomllib
from pathlib import Path

_FILE = Path(__file__).resolve().parent / "words" / "activities.toml"

with _FILE.open("rb") as handle:
    _ACTIVITIES = tomllib.load(handle)["activity"]

# Activity name -> the words that name it ("Running": "run", "ran", ...).
ACTIVITIES: dict[str, tuple[str, ...]] = {
    a["name"]: tuple(a["words"]) for a in _ACTIVITIES if a.get("name")
}
# Activities counted in sets and reps ("3 sets of squats"), not by the clock.
COUNTED: frozenset[str] = frozenset(a["name"] for a in _ACTIVITIES if a.get("counted"))
# Word -> the term the catalog is searched with ("ran" -> "running", "bike" -> "bicycling").
SEARCH_TERMS: dict[str, str] = {
    word: a.get("search") or a["name"].lower() for a in _ACTIVITIES for word in a["words"]
}
# Every word of every activity, for the keyword classifier.
WORDS: frozenset[str] = frozenset(SEARCH_TERMS)
