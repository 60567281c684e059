"""Measurements' words, read once from measurements/words/*.toml: the check-in fields and the
words for them, the body units and their spellings, and the words for a length of time. The
services, the diary, the offline parser, the model's intents and exercise search read these; a
word measurements should know is added to a file, not written out again in code
(tests/config/test_words_have_one_home.py)."""

from __future__ import annotations

import tomllib
from pathlib import Path

WORDS_DIR = Path(__file__).resolve().parent / "words"


def _load(name: str) -> dict:
    with (WORDS_DIR / f"{name}.toml").open("rb") as handle:
        return tomllib.load(handle)


def _spellings(table: dict[str, list[str]]) -> dict[str, str]:
    return {spelling: unit for unit, spellings in table.items() for spelling in spellings}


# The check-in fields as declared, each with its unit, range, label, help and words: read into
# measurements.fields.CHECKIN, the spec everything else reads.
CHECKIN_SPEC = _load("checkins")
# The standard check-in fields, in the order they are shown.
CHECKIN_FIELDS: tuple[str, ...] = tuple(CHECKIN_SPEC["fields"])
# Field -> the kind of unit it is kept in: "weight", "length" or "steps".
FIELD_UNIT_KINDS: dict[str, str] = {
    name: spec["unit"] for name, spec in CHECKIN_SPEC["fields"].items()
}
# What names the check-in as a whole ("measurements", "check-ins").
CHECKIN_NAMES: frozenset[str] = frozenset(CHECKIN_SPEC["checkin"]["words"])
# Word -> the field it names ("weighed" -> "weight", "hip" -> "hips").
CHECKIN_WORDS: dict[str, str] = {
    word: name for name, spec in CHECKIN_SPEC["fields"].items() for word in spec["words"]
}
# Word -> the fields a reading of several numbers fills, in the order they are said
# ("bp" -> ("systolic", "diastolic") for "bp 120/80").
CHECKIN_READINGS: dict[str, tuple[str, ...]] = {
    word: tuple(spec["fields"])
    for spec in CHECKIN_SPEC.get("readings", {}).values()
    for word in spec["words"]
}

_units = _load("units")
# The units a weight and a length are kept in: ("kg", "lb"), ("cm", "inches").
WEIGHT_UNITS: tuple[str, ...] = tuple(_units["weight"])
LENGTH_UNITS: tuple[str, ...] = tuple(_units["length"])
# Spelling -> unit ("kilos" -> "kg", '"' -> "inches").
WEIGHT_SPELLINGS: dict[str, str] = _spellings(_units["weight"])
LENGTH_SPELLINGS: dict[str, str] = _spellings(_units["length"])

_durations = _load("durations")
HOURS: frozenset[str] = frozenset(_durations["hours"])
MINUTES: frozenset[str] = frozenset(_durations["minutes"])
# "m": minutes after hours or as a duration's unit, metres after a bare number.
MINUTES_IN_A_DURATION: frozenset[str] = frozenset(_durations["minutes_in_a_duration"])

_custom = _load("custom")
# Word -> (the custom category it names, its default unit or None): "rhr" -> Resting heart rate.
CUSTOM_WORDS: dict[str, tuple[str, str | None]] = {
    word: (name, unit or None) for word, (name, unit) in _custom["custom_words"].items()
}
# Examples of custom measurements, for the API, the services' messages and the model.
CUSTOM_EXAMPLES: tuple[str, ...] = tuple(_custom["examples"])
# A unit written after a custom measurement's value -> how it is kept ("mmhg" -> "mmHg").
CUSTOM_UNITS: dict[str, str] = dict(_custom["custom_units"])
