"""Which tracker wrote a file, told from its first line (or, for JSON, its "format"), and the
file read into rows: an uploaded zip (MyFitnessPal's export is one) is read file by file.

    text = unpack(uploaded_bytes)            # a zip becomes one bundle of its CSV and JSON files
    detect(text).SOURCE                      # "myfitnesspal"
    read(text, today=today_for(alice))       # Parsed, rows of days still to come refused
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import io
import json
import zipfile
from types import ModuleType

from django.core.exceptions import ValidationError

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
    "a Lose It! food log (Date, Name, Type, Quantity, Units, Calories, ...), "
    "a Sparky JSON export, or a zip of such files"
)
# The files of an uploaded zip, kept as one text: {"format": BUNDLE, "files": [{name, text}]}.
BUNDLE = "sparky-import-bundle"


def decode(content: bytes) -> str:
    for encoding in ("utf-8-sig", "cp1252"):
        try:
            return content.decode(encoding)
        except UnicodeDecodeError:
            continue
    return content.decode("latin-1")


def unpack(content: bytes, *, largest: int) -> str:
    """The text of an uploaded file; a zip's CSV and JSON files Sparky knows as one bundle.
    A zip holding none of them, or more than `largest` bytes unpacked, is refused."""
    if not zipfile.is_zipfile(io.BytesIO(content)):
        return decode(content)
    with zipfile.ZipFile(io.BytesIO(content)) as archive:
        members = [
            m
            for m in archive.infolist()
            if not m.is_dir()
            and m.filename.lower().endswith((".csv", ".json"))
            and not m.filename.startswith("__MACOSX/")
        ]
        if sum(m.file_size for m in members) > largest:
            raise ValidationError(
                f"The zip unpacks to more than {largest // 1024 // 1024} MB; import its files "
                "one by one.",
                code="file_too_large",
            )
        files = [
            {"name": m.filename.rsplit("/", 1)[-1], "text": decode(archive.read(m))}
            for m in members
        ]
    known = [f for f in files if detect(f["text"]) is not None]
    if not known:
        names = ", ".join(f["name"] for f in files) or "no CSV or JSON file"
        raise ValidationError(
            f"The zip holds {names}: none of them is a file Sparky reads; it reads {EXPECTED}.",
            code="unknown_format",
        )
    return json.dumps({"format": BUNDLE, "files": known}, ensure_ascii=False)


def _bundle(text: str) -> list[dict] | None:
    if not text.startswith('{"format": "' + BUNDLE):
        return None
    return json.loads(text)["files"]


def detect(text: str) -> ModuleType | None:
    """The module that reads `text` (its SOURCE says which tracker wrote it; a bundle's first
    file's), or None."""
    files = _bundle(text)
    if files is not None:
        return detect(files[0]["text"])
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


def _refuse_days_to_come(parsed: Parsed, module: ModuleType, today: dt.date) -> None:
    """Entries of a day still to come are refused, as the diary refuses them."""
    kept = []
    for row in parsed.rows:
        day = row.values.get("entry_date")
        if day is not None and day > today:
            parsed.refuse(
                row.line,
                module.DATE_COLUMN,
                f"{day.isoformat()} is in the future; a diary holds days up to today.",
                sparky.SECTION_OF.get(row.kind, "") if module is sparky else "",
            )
        else:
            kept.append(row)
    parsed.rows = kept


def read(text: str, *, today: dt.date) -> Parsed:
    """The rows of a file `detect` knows (the same reading at the preview and at the run); a
    bundle's files one after the other, each error naming its file."""
    files = _bundle(text) or [{"name": "", "text": text}]
    merged = None
    for file in files:
        module = detect(file["text"])
        if module is None:
            raise ValueError("read() needs a file detect() knows")
        parsed = module.parse(file["text"])
        _refuse_days_to_come(parsed, module, today)
        if file["name"]:
            parsed.errors = [
                dataclasses.replace(
                    e, section=f"{file['name']} {e.section}".strip() if e.line else e.section
                )
                for e in parsed.errors
            ]
        if merged is None:
            merged = parsed
        else:
            merged.rows += parsed.rows
            merged.errors += parsed.errors
            merged.ignored += parsed.ignored
    return merged
