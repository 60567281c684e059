"""Which tracker wrote a file, told from its first line (or, for JSON, its "format"), and the
file read into rows: an uploaded zip (MyFitnessPal's export is one) is read file by file.

    text = unpack(uploaded_bytes)            # a zip becomes one bundle of its CSV and JSON files
    detect(text).SOURCE                      # "myfitnesspal"
    read(text, today=today_for(alice))       # Parsed, rows of days still to come refused
"""

from __future__ import annotations

import codecs
import csv
import dataclasses
import datetime as dt
import io
import json
import zipfile
import zlib
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
from diary.imports.rows import Parsed, csv_rows, load_json
from sparky.dates import diary_day_problem

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


# A zip is read member by member, its sizes counted as they are unpacked (a member's header may
# say less than it holds): at most this many files Sparky reads.
MAX_MEMBERS = 50
_ZIP_BROKEN = (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, RuntimeError, OSError)


def decode(content: bytes) -> str:
    if content.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:  # Excel's "Unicode text": every other byte a zero
            return content.decode("utf-16")
        except UnicodeDecodeError:
            pass
    for encoding in ("utf-8-sig", "cp1252"):
        try:
            return content.decode(encoding)
        except UnicodeDecodeError:
            continue
    return content.decode("latin-1")


def _refuse_nul(text: str, name: str) -> None:
    """A zero byte is no text (Postgres cannot store it): the file is refused naming the line
    and, in a CSV file, the column where the first one is."""
    at = text.find("\x00")
    if at < 0:
        return
    line = text.count("\n", 0, at) + 1
    line_start = text.rfind("\n", 0, at) + 1
    where = f"line {line}"
    if not text.lstrip().startswith(("{", "[")):
        header = next(csv.reader([text[: text.find("\n") if "\n" in text else len(text)]]), [])
        before = next(csv.reader([text[line_start:at]]), [""])
        column = len(before) - 1
        label = header[column].strip() if line > 1 and column < len(header) else ""
        where += f", column {label or column + 1}"
    raise ValidationError(
        f"{name or 'The file'}, {where}: holds a zero byte (NUL), which is not text. Remove it, "
        "or save the file again as CSV (UTF-8), and import it again.",
        code="control_character",
    )


def _member_text(archive: zipfile.ZipFile, member: zipfile.ZipInfo, budget: int) -> bytes:
    """A zip member's bytes, counted as they are unpacked: more than `budget` is refused
    whatever its header says, and a member that does not unpack (a flipped byte, a wrong CRC,
    a size that lies) is refused by name."""
    name = member.filename.rsplit("/", 1)[-1]
    out = io.BytesIO()
    try:
        with archive.open(member) as stream:
            while chunk := stream.read(64 * 1024):
                if out.tell() + len(chunk) > budget:
                    raise ValidationError(
                        f"The zip unpacks to more than {budget_mb(budget)}; import its files one "
                        "by one.",
                        code="file_too_large",
                    )
                out.write(chunk)
    except _ZIP_BROKEN:
        raise ValidationError(
            f"The zip is damaged: {name} cannot be unpacked (its data does not match its "
            "header). Make the zip again, or import the file inside it on its own.",
            code="damaged_zip",
        ) from None
    if out.tell() != member.file_size:
        raise ValidationError(
            f"The zip is damaged: {name} says it holds {member.file_size:,} bytes but unpacks to "
            f"{out.tell():,}. Make the zip again, or import the file inside it on its own.",
            code="damaged_zip",
        )
    return out.getvalue()


def budget_mb(size: int) -> str:
    return f"{size // 1024 // 1024} MB"


def unpack(content: bytes, *, largest: int) -> str:
    """The text of an uploaded file; a zip's CSV and JSON files Sparky knows as one bundle.
    A zip holding none of them, more than MAX_MEMBERS of them, more than `largest` bytes
    unpacked (counted as they unpack), or a member that does not unpack, is refused; so is a
    zero byte in any file's text."""
    if not zipfile.is_zipfile(io.BytesIO(content)):
        text = decode(content)
        _refuse_nul(text, "")
        return text
    try:
        archive = zipfile.ZipFile(io.BytesIO(content))
    except _ZIP_BROKEN:
        raise ValidationError(
            "The zip is damaged: its list of files cannot be read. Make the zip again.",
            code="damaged_zip",
        ) from None
    with archive:
        members = [
            m
            for m in archive.infolist()
            if not m.is_dir()
            and m.filename.lower().endswith((".csv", ".json"))
            and not m.filename.startswith("__MACOSX/")
        ]
        if len(members) > MAX_MEMBERS:
            raise ValidationError(
                f"The zip holds {len(members):,} CSV and JSON files; at most {MAX_MEMBERS} are "
                "read from one zip.",
                code="too_many_files",
            )
        if sum(m.file_size for m in members) > largest:
            raise ValidationError(
                f"The zip unpacks to more than {budget_mb(largest)}; import its files one by one.",
                code="file_too_large",
            )
        files, budget = [], largest
        for member in members:
            data = _member_text(archive, member, budget)
            budget -= len(data)
            name = member.filename.rsplit("/", 1)[-1]
            text = decode(data)
            _refuse_nul(text, name)
            files.append({"name": name, "text": text})
    known = [f for f in files if _detect_file(f["text"], f["name"]) is not None]
    if not known:
        names = ", ".join(f["name"] for f in files) or "no CSV or JSON file"
        raise ValidationError(
            f"The zip holds {names}: none of them is a file Sparky reads; it reads {EXPECTED}.",
            code="unknown_format",
        )
    return json.dumps({"format": BUNDLE, "files": known}, ensure_ascii=False)


def _bundle(text: str) -> list[dict] | None:
    """A bundle's files ({"name", "text"} each, none of them a bundle), or None when `text` is
    not a bundle. A bundle is what unpack makes of a zip; one written by hand is checked the
    same way, and refused (ValidationError) where it is not that shape."""
    if not text.lstrip().startswith("{") or BUNDLE not in text[:200]:
        return None
    document = load_json(text)
    if not isinstance(document, dict) or document.get("format") != BUNDLE:
        return None
    files = document.get("files")
    shape = 'a list of {"name": "...", "text": "..."} objects, one per file'
    if not isinstance(files, list) or not files:
        said = "missing" if files is None else f"{type(files).__name__} {str(files)[:40]!r}"
        raise ValidationError(
            f'The bundle\'s "files" is {said}; it must be {shape}.', code="bad_bundle"
        )
    if len(files) > MAX_MEMBERS:
        raise ValidationError(
            f"The bundle holds {len(files):,} files; at most {MAX_MEMBERS} are read at once.",
            code="too_many_files",
        )
    for number, file in enumerate(files, start=1):
        if not (
            isinstance(file, dict)
            and isinstance(file.get("name", ""), str)
            and isinstance(file.get("text"), str)
        ):
            raise ValidationError(
                f'File {number} of the bundle is not {{"name": "...", "text": "..."}} with the '
                "file's text as a string.",
                code="bad_bundle",
            )
        name = file.get("name") or f"file {number}"
        _refuse_nul(file["text"], name)
        if file["text"].lstrip().startswith("{") and BUNDLE in file["text"][:200]:
            raise ValidationError(
                f"{name} is a bundle inside a bundle; send the files themselves.",
                code="bad_bundle",
            )
    return [{"name": str(f.get("name") or ""), "text": f["text"]} for f in files]


def _detect_file(text: str, name: str = "") -> ModuleType | None:
    stripped = text.lstrip()
    if stripped.startswith("{"):
        document = load_json(stripped, name)
        return sparky if sparky.recognises_json(document) else None
    try:
        header, _rows = csv_rows(text[:10_000].split("\n", 1)[0] + "\n")
    except csv.Error:
        return None
    for module in CSV_FORMATS:
        if module.recognises(header):
            return module
    return None


def detect(text: str) -> ModuleType | None:
    """The module that reads `text` (its SOURCE says which tracker wrote it; a bundle's first
    file's), or None. JSON nested too deep, or a bundle not of a bundle's shape, is refused
    (ValidationError)."""
    files = _bundle(text)
    if files is not None:
        return _detect_file(files[0]["text"], files[0]["name"])
    return _detect_file(text)


def _refuse_days_out_of_reach(parsed: Parsed, module: ModuleType, today: dt.date) -> None:
    """Entries of a day still to come, or before the diary's first day, are refused with the
    diary's own rule (sparky.dates.diary_day_problem), so the preview refuses what the run
    would."""
    kept = []
    for row in parsed.rows:
        day = row.values.get("entry_date")
        problem = None if day is None else diary_day_problem(day, today=today)
        if problem is not None:
            parsed.refuse(
                row.line,
                module.DATE_COLUMN,
                problem,
                sparky.SECTION_OF.get(row.kind, "") if module is sparky else "",
            )
        else:
            kept.append(row)
    parsed.rows = kept


def _parse(module: ModuleType, text: str, name: str) -> Parsed:
    try:
        return module.parse(text)
    except csv.Error as exc:
        parsed = Parsed(source=module.SOURCE)
        where = f"{name or 'The file'}"
        if "field larger than field limit" in str(exc):
            problem = f"holds a cell longer than {csv.field_size_limit():,} characters"
        else:
            problem = "has a line that is not CSV (a quote left open?)"
        parsed.refuse(0, "", f"{problem}; {where} cannot be read further.")
        return parsed


def read(text: str, *, today: dt.date) -> Parsed:
    """The rows of a file `detect` knows (the same reading at the preview and at the run); a
    bundle's files one after the other, each error naming its file."""
    files = _bundle(text) or [{"name": "", "text": text}]
    merged = None
    for file in files:
        module = _detect_file(file["text"], file["name"])
        if module is None:
            parsed = Parsed(source="")
            parsed.refuse(0, "", f"{file['name'] or 'file'} is not a file Sparky reads.")
        else:
            parsed = _parse(module, file["text"], file["name"])
            _refuse_days_out_of_reach(parsed, module, today)
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
