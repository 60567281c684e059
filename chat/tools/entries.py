"""The diary entries the food and exercise tools find, change and delete, the same way for both:
by id, or by name and day, asking which one when several fit; a change and a delete each say
what they did and how to take it back."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from sparky.rows import row_state

from .base import ToolResult, Written
from .lookup import Ambiguous, find_own_row


@dataclasses.dataclass(frozen=True)
class Entries:
    """One domain's diary entries as its edit and delete tools handle them."""

    kind: str  # food | exercise
    label: str  # the argument that names an entry: food_name | exercise_name
    queryset: Callable  # (user) -> the user's entries, with what their lines read
    name_of: Callable  # the name a call's label is matched against
    chip_name: Callable  # the entry's name on a chip
    fields: tuple[str, ...]  # what undo compares and restores
    line: Callable  # the entry as a reply says it
    written: Callable  # (entry, before=state) -> the Written of an entry the call changed
    update: Callable  # the domain's service: (user=, entry_id=, **changes) -> the entry
    delete: Callable  # the domain's service: (user=, entry_id=)

    def find(self, ctx, args):
        """The user's entry the call names, or the result asking which one when several fit."""
        try:
            return find_own_row(
                ctx=ctx,
                queryset=self.queryset(ctx.user),
                entry_id=args.get("entry_id"),
                name=args.get(self.label),
                date=args.get("date"),
                label=self.label,
                name_of=self.name_of,
                kind=f"{self.kind} entry",
            )
        except Ambiguous as many:
            listing = "; ".join(f"{self.line(r)} [id {r.id}]" for r in many.candidates)
            return ToolResult(
                ok=False,
                message=(
                    f"Several {self.kind} entries match: {listing}. Ask the user which one, then "
                    "use its id."
                ),
            )

    def change(self, ctx, entry, changes: dict) -> ToolResult:
        """Change `entry` by `changes`; the reply says it as it was and as it is."""
        before, state = self.line(entry), row_state(entry, self.fields)
        entry = self.update(user=ctx.user, entry_id=entry.id, **changes)
        written = self.written(entry, before=state)
        message = f"Changed {before} to {written.summary}."
        return ToolResult(ok=True, message=message, written=[written])

    def remove(self, ctx, args) -> ToolResult:
        """Delete the entry the call names; undo recreates it."""
        entry = self.find(ctx, args)
        if isinstance(entry, ToolResult):
            return entry
        line, state = self.line(entry), row_state(entry, self.fields)
        self.delete(user=ctx.user, entry_id=entry.id)
        written = Written(
            kind=f"{self.kind}_entry_deleted",
            id=str(entry.id),
            summary=line,
            date=entry.entry_date.isoformat() if entry.entry_date else None,
            chip=f"Deleted {self.chip_name(entry)}",
            undo={"op": "recreate", "row": state},
        )
        return ToolResult(ok=True, message=f"Deleted {line}.", written=[written])
