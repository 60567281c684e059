"""What Sparky says when asked about the user's body over a period: each named check-in reading
("weight", "waist", "blood pressure") day by day in the user's units, with how it moved; every
reading kept over the period ("show me my measurements"); and how far the latest weigh-in is
from a weight ("how far am i from 55kg"). Nothing is logged."""

from __future__ import annotations

import datetime as dt
from decimal import ROUND_HALF_UP, Decimal

from measurements import fields as checkin_fields
from measurements.fields import Field
from measurements.models import CheckInMeasurement, CustomMeasurement
from measurements.selectors import kept_unit
from measurements.units import convert, convert_weight, unit_of
from sparky.dates import today_for
from sparky.services import preferences_for


def _value(value) -> str:
    return f"{Decimal(value).normalize():f}"


def _reading(fields: tuple[Field, ...], row, unit: str, kept: str | None = None) -> str:
    """A row's value of a reading with its unit: "58.4 kg", "118/76 mmHg", "9,000 steps";
    converted from `kept` (the unit it is kept in) when that is another unit."""
    values = [_in(f, getattr(row, f.name), kept, unit) for f in fields]
    said = [f"{int(v):,}" if f.whole else _value(v) for f, v in zip(fields, values, strict=True)]
    return "/".join(said) + f" {unit}"


def _in(field: Field, value, kept: str | None, unit: str):
    """`value`, kept in `kept`, in `unit` to a tenth; as it is when `kept` is None or `unit`."""
    if kept is None or kept == unit:
        return value
    return Decimal(convert(field.kind.name, Decimal(value), kept, unit)).quantize(
        _TENTH, rounding=ROUND_HALF_UP
    )


def _series(
    label: str,
    fields: tuple[Field, ...],
    found: list,
    unit: str,
    *,
    dated: bool = True,
    kept: str | None = None,
) -> str:
    """One reading over the days found, oldest first: "weight 82 kg on Mon 30 Nov, 81.4 kg on
    Fri 4 Dec (down 0.6 kg)"; without the day when `dated` is False (one day, said before)."""
    said = [
        _reading(fields, row, unit, kept) + (f" on {row.entry_date:%a %-d %b}" if dated else "")
        for row in found
    ]
    # "9,000 steps on Thu 3 Dec", never "steps 9,000 steps"
    line = ", ".join(said) if unit == label.lower() else f"{label.lower()} {', '.join(said)}"
    if len(fields) == 1 and len(found) >= 2:
        first, last = (
            _in(fields[0], getattr(r, fields[0].name), kept, unit) for r in (found[0], found[-1])
        )
        change = Decimal(last) - Decimal(first)
        if change:
            way = "down" if change < 0 else "up"
            line += f" ({way} {_value(abs(change))} {unit})"
        else:
            line += " (no change)"
    return line


def history_answer(
    user,
    named: list[tuple[str, tuple[Field, ...]]],
    start: dt.date | None,
    end: dt.date,
    when: str,
    unit: str | None = None,
) -> str:
    """The readings `named` ((label, fields), as measurements.fields.asked gives them) from
    `start` to `end`, oldest first; `start` None asks for the latest reading on or before `end`.
    `when` names the period ("This week"); `unit`, a unit asked for ("pounds"), is the unit the
    readings of its kind are told in."""
    prefs = preferences_for(user)
    rows = CheckInMeasurement.objects.for_user(user).filter(entry_date__lte=end)
    parts = []
    for label, fields in named:
        having = rows.filter(**{f"{f.name}__isnull": False for f in fields})
        if start is None:
            latest = having.order_by("-entry_date").first()
            found = [latest] if latest else []
        else:
            found = list(having.filter(entry_date__gte=start).order_by("entry_date"))
        if not found:
            parts.append(f"no {label.lower()} recorded")
            continue
        kept = kept_unit(fields[-1].name, prefs)
        asked = unit_of(fields[-1].kind, unit) if unit else None
        parts.append(_series(label, fields, found, asked or kept, kept=kept))
    lead = "Latest" if start is None else when
    return f"{lead}: " + "; ".join(parts) + "."


def checkins_answer(user, start: dt.date | None, end: dt.date, when: str) -> str:
    """Every reading the user kept from `start` to `end` ("show me my measurements"): each
    check-in field with a value, oldest first and with how it moved, then their own
    measurements (sleep, mood...); `when` names the period, `start` None the latest check-in's
    day. With none, says so and names the last check-in before."""
    prefs = preferences_for(user)
    if start is None:  # "my latest measurements": the last day with a check-in
        last = (
            CheckInMeasurement.objects.for_user(user)
            .filter(entry_date__lte=end)
            .order_by("-entry_date")
            .first()
        )
        if last is None:
            return "No check-ins recorded yet."
        start = end = last.entry_date
        when = f"Latest ({end:%a %-d %b})"
    rows = CheckInMeasurement.objects.for_user(user).between(start, end).order_by("entry_date")
    parts = []
    for label, fields in checkin_fields.everything():
        found = [row for row in rows if all(getattr(row, f.name) is not None for f in fields)]
        if found:
            unit = kept_unit(fields[-1].name, prefs)
            parts.append(_series(label, fields, found, unit, dated=start != end))
    custom = (
        CustomMeasurement.objects.for_user(user)
        .between(start, end)
        .select_related("category")
        .order_by("category__name", "entry_date", "entry_hour", "entry_timestamp")
    )
    kept: dict[str, list[str]] = {}
    for row in custom:
        unit = f" {row.category.unit}" if row.category.unit else ""
        said = f"{_value(row.value)}{unit}" + (
            f" on {row.entry_date:%a %-d %b}" if start != end else ""
        )
        kept.setdefault(row.category.name.lower(), []).append(said)
    parts += [f"{name} {', '.join(values)}" for name, values in kept.items()]
    if parts:
        return f"{when}: " + "; ".join(parts) + "."
    period = f"{when[0].lower()}{when[1:]}"
    text = f"No check-ins {'in ' if period.startswith('the ') else ''}{period}."
    earlier = (
        CheckInMeasurement.objects.for_user(user)
        .filter(entry_date__lt=start)
        .order_by("-entry_date")
    )
    for row in earlier[:1]:
        said = [
            _series(label, fields, [row], kept_unit(fields[-1].name, prefs), dated=False)
            for label, fields in checkin_fields.everything()
            if all(getattr(row, f.name) is not None for f in fields)
        ]
        if said:
            text += f" The last one before, on {row.entry_date:%a %-d %b}: {', '.join(said)}."
    return text


_TENTH = Decimal("0.1")


def _tenths(value: Decimal) -> str:
    return _value(Decimal(value).quantize(_TENTH, rounding=ROUND_HALF_UP))


def to_weight_answer(user, target: Decimal | None, unit: str | None) -> str:
    """How far the latest weigh-in is from `target` (in `unit`, else the user's weight unit),
    in the user's unit: "You're 3.4 kg above 55 kg: your latest weigh-in is 58.4 kg, on Thu 3
    Dec." Without a target (Sparky keeps no goal weight), the latest weigh-in and how to ask."""
    prefs = preferences_for(user)
    kept = kept_unit("weight", prefs)
    latest = (
        CheckInMeasurement.objects.for_user(user)
        .filter(weight__isnull=False, entry_date__lte=today_for(user))
        .order_by("-entry_date")
        .first()
    )
    said = None
    if target is not None:
        unit = unit or kept
        said = f"{_value(target)} {unit}"
        target = convert_weight(Decimal(target), unit, kept)
        if unit != kept:
            said += f" ({_tenths(target)} {kept})"
    if latest is None:
        way = f"how far you are from {said}" if said else "how far you are from a goal weight"
        return (
            f"There's no weigh-in recorded yet, so I can't say {way}. Tell me your weight "
            f"(e.g. 'weight 80 {kept}') and ask again."
        )
    weight = Decimal(latest.weight)
    now = f"your latest weigh-in is {_value(weight)} {kept}, on {latest.entry_date:%a %-d %b}"
    if target is None:
        return (
            f"{now[0].upper()}{now[1:]}. I don't keep a goal weight: tell me the number ('how far "
            f"am I from 70 {kept}') and I'll work out the way there."
        )
    gap = (weight - target).quantize(_TENTH, rounding=ROUND_HALF_UP)
    if not gap:
        return f"You're at {said}: {now}."
    way = "above" if gap > 0 else "below"
    return f"You're {_value(abs(gap))} {kept} {way} {said}: {now}."
