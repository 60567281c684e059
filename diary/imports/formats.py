"""Which tracker wrote a file, told from its first line (or, for JSON, its "format")."""

from __future__ import annotations

import json
from types import ModuleType

from diary.imports import cronometer, loseit, myfitnesspal, sparky
from diary.imports.rows import Parsed, csv_rows

# In the order they are tried: Cronometer's and Lose It!'s headers are the more specific.
CSV_FORMATS: tuple[ModuleType, ...] = (cronometer, loseit, myfitnesspal)
NAMES = {
    "cronometer": "Cronometer",
    "loseit": "Lose It!",
    "myfitnesspal": "MyFitnessPal",
    "sparky": "Sparky",
}
EXPECTED = (
    "a MyFitnessPal Nutrition Summary (Date, Meal, Calories, Fat (g), ..., Protein (g)), "
    "a Cronometer servings export (Day, Group, Food Name, Amount, Energy (kcal), ...), "
    "a Lose It! food log (Date, Name, Type, Quantity, Units, Calories, ...) "
    "or a Sparky JSON export"
)


def detect(text: str) -> str | None:
    """The source that wrote `text` ("myfitnesspal", "cronometer", "loseit", "sparky"), or None."""
    stripped = text.lstrip()
    if stripped.startswith("{"):
        try:
            return sparky.SOURCE if sparky.recognises_json(json.loads(stripped)) else None
        except ValueError:
            return None
    header, _rows = csv_rows(text[:10_000].split("\n", 1)[0] + "\n")
    for module in CSV_FORMATS:
        if module.recognises(header):
            return module.SOURCE
    return None


def parse(source: str, text: str) -> Parsed:
    modules = {m.SOURCE: m for m in (*CSV_FORMATS, sparky)}
    return modules[source].parse(text)
