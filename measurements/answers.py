"""What Sparky says when asked about the user's body over a period: each named check-in reading
("weight", "waist", "blood pressure") day by day in the user's units, with how it moved. Nothing
is logged."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from measurements.fields import Field
from measurements.models import CheckInMeasurement
from measurements.selectors import kept_unit
from sparky.services import preferences_for


def _value(value) -> str:
    return f"{Decimal(value).normalize():f}"


def history_answer(
    user, named: list[tuple[str, tuple[Field, ...]]], start: dt.date | None, end: dt.date, when: str
) -> str:
    """The readings `named` ((label, fields), as measurements.fields.asked gives them) from
    `start` to `end`, oldest first; `start` None asks for the latest reading on or before `end`.
    `when` names the period ("This week")."""
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
        unit = kept_unit(fields[-1].name, prefs)
        name = label.lower()
        if not found:
            parts.append(f"no {name} recorded")
            continue
        said = [
            "/".join(_value(getattr(row, f.name)) for f in fields)
            + f" {unit} on {row.entry_date:%a %-d %b}"
            for row in found
        ]
        line = f"{name} {', '.join(said)}"
        if len(fields) == 1 and len(found) >= 2:
            change = Decimal(getattr(found[-1], fields[0].name)) - Decimal(
                getattr(found[0], fields[0].name)
            )
            if change:
                way = "down" if change < 0 else "up"
                line += f" ({way} {_value(abs(change))} {unit})"
            else:
                line += " (no change)"
        parts.append(line)
    lead = "Latest" if start is None else when
    return f"{lead}: " + "; ".join(parts) + "."
