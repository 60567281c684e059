"""The words of activities, read once from exercise/words/activities.toml: the name Sparky logs an
activity by, the words people use for it (verb forms included: "ran", "swam", "biked"), and the
term the exercise catalog is searched with when it differs from the name. The offline parser,
the keyword classifier and the exercise search all read this one list. The distance units and
their spellings come from exercise/words/distances.toml."""

from __future__ import annotations

import tomllib
from decimal import Decimal
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

with (_FILE.parent / "distances.toml").open("rb") as handle:
    _DISTANCES = tomllib.load(handle)

# The units a distance is logged in: ("km", "mi", "m").
DISTANCE_UNITS: tuple[str, ...] = tuple(_DISTANCES)
# Unit -> km.
KM_PER_UNIT: dict[str, Decimal] = {unit: Decimal(d["km"]) for unit, d in _DISTANCES.items()}
# Spelling -> unit ("kms" -> "km", "metres" -> "m").
DISTANCE_SPELLINGS: dict[str, str] = {
    word: unit for unit, d in _DISTANCES.items() for word in d["words"]
}
