"""Taking back one write: the state a row was left in, and putting it back as it was.

A chat reply records, for every row it wrote, the fields as it left them ("after") and, where it
changed a row, as they were ("before"). Undo goes through the owning domain's service, which
calls these with its own user-scoped queryset: a row that no longer holds what the reply left
(edited since) is kept as it is, and undo says so.
"""

from __future__ import annotations

import datetime as dt
import uuid
from decimal import Decimal

# What undo of one row came to.
DONE = "done"
CHANGED = "changed"  # edited since the reply: kept
GONE = "gone"  # deleted since the reply: nothing to take back


def plain(value):
    """A stored value as JSON keeps it and compares it (two decimals, ISO dates, UUID text)."""
    if isinstance(value, Decimal):
        return float(round(value, 2))
    if isinstance(value, float):
        return round(value, 2)
    if isinstance(value, dt.date | dt.datetime):
        return value.isoformat()
    if isinstance(value, uuid.UUID):
        return str(value)
    return value


def row_state(row, fields) -> dict:
    """The named fields of a row (attribute names: `food_id` for a foreign key)."""
    return {name: plain(getattr(row, name)) for name in fields}


def holds(row, state: dict | None) -> bool:
    """Whether the row still holds the state a write left it in (no state: anything goes)."""
    return not state or row_state(row, state) == state


def assign(row, state: dict) -> None:
    """Set the row's fields from a stored state, each converted back by its model field."""
    for name, value in state.items():
        field = row._meta.get_field(name)
        setattr(row, name, None if value is None else field.to_python(value))


def take_back(queryset, row_id, after: dict | None) -> str:
    """Delete a row a write created, unless it was changed or deleted since."""
    row = queryset.select_for_update().filter(pk=row_id).first()
    if row is None:
        return GONE
    if not holds(row, after):
        return CHANGED
    row.delete()
    return DONE


def put_back(queryset, row_id, before: dict, after: dict | None) -> str:
    """Give a row a write changed its earlier values, unless it was changed again since."""
    row = queryset.select_for_update().filter(pk=row_id).first()
    if row is None:
        return GONE
    if not holds(row, after):
        return CHANGED
    assign(row, before)
    row.full_clean()
    row.save()
    return DONE


def recreate(model, user, row_id, state: dict) -> str:
    """Bring back, with its own id, a row a write deleted (unless it is back already)."""
    if model.objects.filter(pk=row_id).exists():
        return CHANGED
    row = model(pk=row_id, user=user)
    assign(row, state)
    row.full_clean()
    row.save(force_insert=True)
    return DONE


def undo_row(model, user, row_id, undo: dict) -> str | None:
    """Take back one write of a user's row of `model` by its op (a row created, changed or
    deleted); None for an op that is not one of these."""
    mine = model.objects.for_user(user)
    op = undo.get("op")
    if op == "delete":
        return take_back(mine, row_id, undo.get("after"))
    if op == "restore":
        return put_back(mine, row_id, undo["before"], undo.get("after"))
    if op == "recreate":
        return recreate(model, user, row_id, undo["row"])
    return None


def take_back_unused(model, user, row_id, *, entries, via: str) -> str:
    """Delete a custom food or exercise (`model`) of the user's that a write created, unless it
    is gone or logged since: rows of `entries` point at it through their field `via`, the user's
    or anyone's it was shared with."""
    row = model.objects.owned_by(user).filter(is_custom=True, pk=row_id).first()
    if row is None:
        return GONE
    if entries.objects.filter(**{via: row}).exists():
        return CHANGED
    row.delete()
    return DONE
