"""The words of activities, read once from exercise/words/activities.toml: the name Sparky logs an
activity by, the words people use for it (verb forms included: "ran", "swam", "biked"), and the
term the exercise catalog is searched with when it differs from the name. The offline parser,
the keyword classifier and the exercise search all read this one list. The distance units and
their spellings come from exercise/words/distances.toml."""

from __future__ import annotations

import re
import tomllib
from decimal import Decimal
from pathlib import Path

_FILE = Path(__file__).resolve().parent / "words" / "activities.toml"

with _FILE.open("rb") as handle:
    _DATA = tomllib.load(handle)
_ACTIVITIES = _DATA["activity"]

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
# The words that say a session was done ("walked", "ran"): a report, not a plan.
DONE_WORDS: frozenset[str] = frozenset(
    w for w in WORDS if w.endswith("ed") and " " not in w
) | frozenset(_DATA["irregular_past"])
# Activity name -> the average speed (km/h) no one keeps up over a session of it.
FASTEST_KMH: dict[str, Decimal] = {
    a["name"]: Decimal(str(a["fastest_kmh"])) for a in _ACTIVITIES if "fastest_kmh" in a
}
# Activity name -> the longest session of it anyone does, in hours (others: a day).
LONGEST_HOURS: dict[str, Decimal] = {
    a["name"]: Decimal(str(a["longest_hours"])) for a in _ACTIVITIES if "longest_hours" in a
}


def activity_of(exercise_name: str) -> str | None:
    """The activity an exercise's name is one of ("Walking, 3.5 mph" and "my evening walk" are
    Walking, "bicycling, general" is Cycling), by its words; None when it names none."""
    text = f" {re.sub(r'[^a-z]+', ' ', exercise_name.lower())} "
    for activity in _ACTIVITIES:
        if not activity.get("name"):
            continue
        terms = (*activity["words"], activity.get("search") or activity["name"].lower())
        if any(f" {term} " in text for term in terms):
            return activity["name"]
    return None


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


with (_FILE.parent / "muscles.toml").open("rb") as handle:
    _MUSCLES = tomllib.load(handle)
# Muscle group as the catalog names it -> the words people ask for it by.
MUSCLE_GROUPS: dict[str, tuple[str, ...]] = {
    group: tuple(words) for group, words in _MUSCLES["groups"].items()
}
# Muscle as the catalog names it in an exercise's "Muscles:" -> the words people ask for it by.
MUSCLES: dict[str, tuple[str, ...]] = {
    muscle: tuple(words) for muscle, words in _MUSCLES["muscles"].items()
}
# Equipment as the catalog writes it -> the words people ask for it by ("dumbbells", "db").
EQUIPMENT: dict[str, tuple[str, ...]] = {
    kind: tuple(words) for kind, words in _MUSCLES["equipment"].items()
}
# "no equipment", "bodyweight": exercises that need none of EQUIPMENT.
NO_EQUIPMENT: tuple[str, ...] = tuple(_MUSCLES["no_equipment"]["words"])
