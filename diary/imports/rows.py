"""What a parsed import file is: rows to write, each with a stable key, and the rows refused.

    parsed = Parsed(source="cronometer")
    with parsed.row(line=3) as values:         # a RowProblem inside names the row and field
        values["calories"] = number(cells, "Energy (kcal)")
    parsed.add(Row(kind=FOOD_ENTRY, line=3, key=..., values=..., summary=...))

Every format's parser (myfitnesspal, cronometer, loseit, sparky) returns a Parsed; the import
job previews it and writes its rows through the domain services (diary.imports.writers).
"""

from __future__ import annotations

import contextlib
import csv
import dataclasses
import datetime as dt
import hashlib
import io
import json
import re
from decimal import Decimal, InvalidOperation

from django.core.exceptions import ValidationError

from nutrition.services import MEAL_SYNONYMS
from sparky.parsers import MAX_DEPTH, depth

# The kinds of rows an import writes, in the order they are written (foods before the entries
# that use them), with what the preview calls them.
CUSTOM_FOOD = "custom_food"
FOOD_ENTRY = "food_entry"
CUSTOM_EXERCISE = "custom_exercise"
EXERCISE_ENTRY = "exercise_entry"
CHECKIN = "checkin"
CUSTOM_MEASUREMENT = "custom_measurement"
GOAL = "goal"
WATER = "water"
KINDS = {
    CUSTOM_FOOD: ("custom food", "custom foods"),
    FOOD_ENTRY: ("diary food entry", "diary food entries"),
    CUSTOM_EXERCISE: ("custom exercise", "custom exercises"),
    EXERCISE_ENTRY: ("exercise entry", "exercise entries"),
    CHECKIN: ("check-in", "check-ins"),
    CUSTOM_MEASUREMENT: ("custom measurement", "custom measurements"),
    GOAL: ("goal", "goals"),
    WATER: ("day of water", "days of water"),
}


def kind_label(kind: str, count: int) -> str:
    one, many = KINDS[kind]
    return f"{count:,} {one if count == 1 else many}"


class RowProblem(Exception):
    """A value of a row that cannot be imported: which field, and what is expected."""

    def __init__(self, field: str, message: str):
        super().__init__(message)
        self.field = field
        self.message = message


@dataclasses.dataclass(frozen=True)
class RowError:
    line: int
    field: str
    message: str
    # A JSON file's list the row is in ("food_entries"); a CSV file's rows are its lines.
    section: str = ""

    def __str__(self) -> str:
        if not self.line:  # the file as a whole
            return (
                f"The file's {self.field} {self.message}"
                if self.field
                else f"The file {self.message}"
            )
        where = f"Row {self.line} of {self.section}" if self.section else f"Row {self.line}"
        return (
            f"{where}, {self.field}: {self.message}" if self.field else f"{where}: {self.message}"
        )

    def as_dict(self) -> dict:
        return {
            "line": self.line,
            "section": self.section,
            "field": self.field,
            "message": self.message,
            "text": str(self),
        }


@dataclasses.dataclass(frozen=True)
class Row:
    """One thing to write: `values` are the arguments its writer takes."""

    kind: str
    line: int
    key: str
    values: dict
    summary: str
    # A Sparky export's id of the row, by which its entries name a food or an exercise.
    file_id: str = ""

    def as_dict(self) -> dict:
        return {"line": self.line, "kind": self.kind, "summary": self.summary}


@dataclasses.dataclass
class Parsed:
    source: str
    rows: list[Row] = dataclasses.field(default_factory=list)
    errors: list[RowError] = dataclasses.field(default_factory=list)
    # Rows left out on purpose (a row the other tracker marks deleted): (line, why)
    ignored: list[tuple[int, str]] = dataclasses.field(default_factory=list)
    _seen: dict = dataclasses.field(default_factory=dict, repr=False)

    def add(self, row: Row) -> None:
        self.rows.append(row)

    def refuse(self, line: int, field: str, message: str, section: str = "") -> None:
        self.errors.append(RowError(line=line, field=field, message=message, section=section))

    @contextlib.contextmanager
    def row(self, line: int, section: str = ""):
        """Parse one row: a RowProblem raised inside becomes that row's error."""
        try:
            yield
        except RowProblem as problem:
            self.refuse(line, problem.field, problem.message, section)

    def key(self, *parts) -> str:
        """A key of a row from its values, the same on every upload of the file: two identical
        rows (the same food twice at the same meal) get the 1st and the 2nd of that content."""
        content = json.dumps([str(p) for p in parts], ensure_ascii=False)
        digest = hashlib.sha256(content.encode()).hexdigest()[:40]
        self._seen[digest] = self._seen.get(digest, 0) + 1
        return f"{self.source}:{digest}:{self._seen[digest]}"


# A file's JSON nests no deeper than this (a Sparky export: document, section, row, value).
MAX_JSON_DEPTH = MAX_DEPTH


def load_json(text: str, name: str = ""):
    """A file's JSON, or a ValidationError saying why not: not JSON, or nested deeper than
    MAX_JSON_DEPTH (the json module would recurse once per level until RecursionError)."""
    label = name or "The file"
    try:
        document = json.loads(text)
    except RecursionError:
        document = None
        too_deep = True
    except ValueError as exc:
        line, column = getattr(exc, "lineno", 0), getattr(exc, "colno", 0)
        raise ValidationError(
            f"{label} is not valid JSON (it stops making sense at line {line}, column {column}).",
            code="invalid_json",
        ) from None
    else:
        too_deep = depth(document) > MAX_JSON_DEPTH
    if too_deep:
        raise ValidationError(
            f"{label} nests its JSON more than {MAX_JSON_DEPTH} levels deep; a Sparky export "
            "needs 3.",
            code="too_deep",
        )
    return document


# --- reading cells -----------------------------------------------------------------------------


def csv_rows(text: str) -> tuple[list[str], list[tuple[int, dict]]]:
    """The header and the (line number, {column: cell}) of each non-empty row; the header is
    line 1, as a spreadsheet numbers it."""
    reader = csv.reader(io.StringIO(text))
    header = [h.strip() for h in next(reader, [])]
    rows = []
    for cells in reader:
        if not any(c.strip() for c in cells):
            continue
        padded = [*cells, *[""] * (len(header) - len(cells))]
        rows.append((reader.line_num, dict(zip(header, (c.strip() for c in padded), strict=False))))
    return header, rows


# A number of this many digits before the point is no diary's (and int() of "1e999999999"
# would build a billion digits).
LARGEST_DIGITS = 12
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def number(cells: dict, column: str, *, required: bool = False) -> Decimal | None:
    """A cell as a number ("1,234.5" and "" included); a negative or unreadable one is refused
    naming the column."""
    raw = cells.get(column)
    text = ("" if raw is None or isinstance(raw, bool) else str(raw)).replace(",", "").strip()
    if not text:
        if required:
            raise RowProblem(column, "is empty; a number is expected.")
        return None
    try:
        value = Decimal(text)
    except InvalidOperation:
        raise RowProblem(column, f"{text!r} is not a number.") from None
    if not value.is_finite():
        raise RowProblem(column, f"{text!r} is not a number.")
    if value.adjusted() >= LARGEST_DIGITS:
        raise RowProblem(column, f"{text[:40]} is far larger than any value a diary holds.")
    if value < 0:
        raise RowProblem(column, f"{text} is negative; a number of 0 or more is expected.")
    return value


def day(cells: dict, column: str, formats: tuple[str, ...] = ("%Y-%m-%d",)) -> dt.date:
    text = str(cells.get(column) or "").strip()
    if not text:
        raise RowProblem(column, "is empty; a date is expected.")
    for pattern in formats:
        try:
            return dt.datetime.strptime(text, pattern).date()
        except ValueError:
            continue
    written = " or ".join(
        p.replace("%Y", "YYYY").replace("%m", "MM").replace("%d", "DD") for p in formats
    )
    raise RowProblem(column, f"{text!r} is not a date written {written}.")


def visible(value: str, column: str) -> str:
    """`value` when it holds no control character (a zero byte cannot be stored; the others are
    no text either); else the row is refused naming the column."""
    if _CONTROL.search(value):
        raise RowProblem(column, "holds a control character (such as a zero byte), not text.")
    return value


def text(cells: dict, column: str, *, required: bool = False, longest: int = 255) -> str:
    value = visible(" ".join(str(cells.get(column) or "").split()), column)
    if required and not value:
        raise RowProblem(column, "is empty.")
    if len(value) > longest:
        raise RowProblem(column, f"is {len(value)} characters long; at most {longest} fit.")
    return value


def meal(cells: dict, column: str) -> str:
    """breakfast, lunch, dinner or snack from a tracker's meal name; one of its own ("Meal 4",
    "Uncategorized") is a snack."""
    word = " ".join((cells.get(column) or "").lower().split())
    found = MEAL_SYNONYMS.get(word)
    return found.value if found is not None else "snack"


def amount(cells: dict, column: str) -> tuple[Decimal, str]:
    """ "1.50 cup" or "100 g" -> (1.5, "cup"): a positive number and its unit (a serving when
    none is written)."""
    raw = " ".join((cells.get(column) or "").split())
    head, _, unit = raw.partition(" ")
    value = number({column: head}, column, required=True)
    if value == 0:
        raise RowProblem(column, f"{raw!r} is no amount; a positive number is expected.")
    return value, unit.strip() or "serving"


def nutrients_of(cells: dict, columns: dict[str, str]) -> dict[str, Decimal]:
    """{nutrient: value} from the columns that name them ({"Fat (g)": "fat", ...})."""
    found = {}
    for column, nutrient in columns.items():
        value = number(cells, column)
        if value is not None:
            found[nutrient] = value
    return found


def plain(value: Decimal | None) -> str:
    return "" if value is None else format(Decimal(value).normalize(), "f")
