"""The check-in's fields, each declared once (measurements/words/checkins.toml), as one spec.

    from measurements.fields import CHECKIN
    CHECKIN["weight"].label            # "Weight"
    CHECKIN["waist"].kind.argument     # "length_unit": the parameter a unit is given in
    [f.name for f in CHECKIN.values()] # the fields in the order they are shown

The services check values with it (ranges, whole numbers, one field above another); the API's
serializers, the model's tool, the intent schema, the prompts, the diary and the chat's answers are
built from it instead of naming fields again.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from measurements import vocabulary


@dataclass(frozen=True)
class UnitKind:
    """A kind of unit check-in values are kept in: weight (kg, lb), length (cm, inches)..."""

    name: str
    # What a value may be given in; ranges are written in the first.
    units: tuple[str, ...]
    # The API's and the tool's parameter naming the unit a value was given in ("weight_unit").
    argument: str | None = None
    argument_help: str = ""
    # The UserPreferences field naming the unit values are kept in; None: always units[0].
    preference: str | None = None
    # How much a series may drift across its span (a share of its mean) and still read as steady.
    steady: float = 0.01

    @property
    def base(self) -> str:
        return self.units[0]

    def kept(self, prefs) -> str:
        """The unit values of this kind are stored in: the user's preference, else the only one."""
        return getattr(prefs, self.preference) if self.preference else self.base


@dataclass(frozen=True)
class Field:
    """One check-in field: a column of CheckInMeasurement."""

    name: str
    kind: UnitKind
    low: Decimal
    high: Decimal
    label: str
    help: str
    words: tuple[str, ...]
    # Other names a model writes for it as a JSON key or type ("neck_circumference").
    keys: tuple[str, ...] = ()
    whole: bool = False
    # Whether the diary draws its last 30 days as a chart.
    chart: bool = False
    # Whether the progress summary after a check-in shows it.
    summary: bool = False
    # Another field this one must be higher than when both are known.
    above: str | None = None


def _kinds(table: dict) -> dict[str, UnitKind]:
    body_units = {"weight": vocabulary.WEIGHT_UNITS, "length": vocabulary.LENGTH_UNITS}
    return {
        name: UnitKind(
            name=name,
            units=tuple(spec.get("units") or body_units[name]),
            argument=spec.get("argument"),
            argument_help=spec.get("help", ""),
            preference=spec.get("preference"),
            steady=spec.get("steady", 0.01),
        )
        for name, spec in table.items()
    }


def _fields(data: dict) -> dict[str, Field]:
    kinds = _kinds(data["units"])
    return {
        name: Field(
            name=name,
            kind=kinds[spec["unit"]],
            low=Decimal(str(spec["range"][0])),
            high=Decimal(str(spec["range"][1])),
            label=spec["label"],
            help=spec["help"],
            words=tuple(spec["words"]),
            keys=tuple(spec.get("keys", ())),
            whole=spec.get("whole", False),
            chart=spec.get("chart", False),
            summary=spec.get("summary", False),
            above=spec.get("above"),
        )
        for name, spec in data["fields"].items()
    }


@dataclass(frozen=True)
class Reading:
    """Several fields said as one reading ("bp 120/80"): the fields in the order said."""

    name: str
    label: str
    fields: tuple[str, ...]
    words: tuple[str, ...]
    # How it is written, for a message that asks for it ("120/80").
    example: str = ""


CHECKIN: dict[str, Field] = _fields(vocabulary.CHECKIN_SPEC)
READINGS: dict[str, Reading] = {
    name: Reading(
        name=name,
        label=spec["label"],
        fields=tuple(spec["fields"]),
        words=tuple(spec["words"]),
        example=spec.get("example", ""),
    )
    for name, spec in vocabulary.CHECKIN_SPEC.get("readings", {}).items()
}
# The kinds of unit the fields are kept in, in the order their first field is shown.
KINDS: tuple[UnitKind, ...] = tuple({f.kind.name: f.kind for f in CHECKIN.values()}.values())


def of_kind(kind: UnitKind) -> list[Field]:
    return [f for f in CHECKIN.values() if f.kind == kind]


def unit_arguments() -> dict[str, UnitKind]:
    """The unit parameters ("weight_unit", "length_unit") and the kind each names."""
    return {kind.argument: kind for kind in KINDS if kind.argument}


def last_of_kind(field: Field) -> bool:
    """Whether a field is the last of its kind, where a listing puts the kind's unit parameter
    (weight, weight_unit, neck, waist, hips, length_unit, steps)."""
    return of_kind(field.kind)[-1] == field


def argument_help(kind: UnitKind) -> str:
    return kind.argument_help.format(fields="/".join(f.name for f in of_kind(kind)))


def asked(words: list[str]) -> list[tuple[str, tuple[Field, ...]]]:
    """What the words of a message name of the check-in, in the order named: (label, fields) of a
    reading ("blood pressure" -> systolic and diastolic) or of a field ("waist")."""
    out: list[tuple[str, tuple[Field, ...]]] = []
    for word in words:
        reading = next((r for r in READINGS.values() if word in r.words), None)
        if reading:
            named = (reading.label, tuple(CHECKIN[name] for name in reading.fields))
        elif word in vocabulary.CHECKIN_WORDS:
            field = CHECKIN[vocabulary.CHECKIN_WORDS[word]]
            named = (field.label, (field,))
        else:
            continue
        if named not in out:
            out.append(named)
    return out


def everything() -> list[tuple[str, tuple[Field, ...]]]:
    """Every field of the check-in as `asked` gives them, a reading's under its label, in the
    order they are shown: what "show me my measurements" reads."""
    out: list[tuple[str, tuple[Field, ...]]] = []
    for name, field in CHECKIN.items():
        reading = next((r for r in READINGS.values() if name in r.fields), None)
        if reading is None:
            out.append((field.label, (field,)))
        elif name == reading.fields[0]:
            out.append((reading.label, tuple(CHECKIN[n] for n in reading.fields)))
    return out


def readings_in(names) -> list[Reading]:
    """The readings whose every field is among `names` ("bp 120/80" gave both of its fields)."""
    return [r for r in READINGS.values() if set(r.fields) <= set(names)]


def and_list(words: list[str], last: str = "and") -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} {last} {words[-1]}"


def names(last: str = "and") -> str:
    """The fields as a list in words, a reading's under its label: "weight, neck, waist, hips,
    steps and blood pressure (systolic, diastolic)"."""
    shown: list[str] = []
    for name in CHECKIN:
        reading = next((r for r in READINGS.values() if name in r.fields), None)
        if reading is None:
            shown.append(name)
        elif name == reading.fields[0]:
            shown.append(f"{reading.label.lower()} ({', '.join(reading.fields)})")
    return and_list(shown, last)
