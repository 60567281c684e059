"""Which tracker wrote a file, told from its first line (or, for JSON, its "format")."""

from __future__ import annotations

import json
from types import ModuleType

from diary.imports import (
    cronometer,
    loseit,
    myfitnesspal,
    myfitnesspal_exercise,
    myfitnesspal_measurements,
    sparky,
)
from diary.imports.rows import Parsed, csv_rows

# In the order they are tried: Cronometer's and Lose It!'s headers are the more specific.
CSV_FORMATS: tuple[ModuleType, ...] = (
    cronometer,
    loseit,
    myfitnesspal,
    myfitnesspal_exercise,
    myfitnesspal_measurements,
)
NAMES = {
    "cronometer": "Cronometer",
    "loseit": "Lose It!",
    "myfitnesspal": "MyFitnessPal",
    "sparky": "Sparky",
}
EXPECTED = (
    "a MyFitnessPal Nutrition Summary (Date, Meal, Calories, Fat (g), ..., Protein (g)), "
    "Exercise Summary (Date, Exercise, ..., Exercise Calories, Exercise Minutes, ...) "
    "or Measurement Summary (Date, Weight, ...), "
    "a Cronometer servings export (Day, Group, Food Name, Amount, Energy (kcal), ...), "
    "a Lose It! food log (Date, Name, Type, Quantity, Units, Calories, ...) "
    "or a Sparky JSON export"
)


def detect(text: str) -> ModuleType | None:
    """The module that reads `text` (its SOURCE says which tracker wrote it), or None."""
    stripped = text.lstrip()
    if stripped.startswith("{"):
        try:
            return sparky if sparky.recognises_json(json.loads(stripped)) else None
        except ValueError:
            return None
    header, _rows = csv_rows(text[:10_000].split("\n", 1)[0] + "\n")
    for module in CSV_FORMATS:
        if module.recognises(header):
            return module
    return None


def parse(text: str) -> Parsed:
    """The rows of a file `detect` knows (the same reading at the preview and at the run)."""
    module = detect(text)
    if module is None:
        raise ValueError("parse() needs a file detect() knows")
    return module.parse(text)
