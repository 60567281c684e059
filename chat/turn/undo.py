"""Undo of one reply: take back, in one transaction, exactly what that reply wrote.

Every row a tool wrote is stored with the reply (its `Written`, with how to take it back). Undo
walks them newest first and hands each to the domain that owns the table; a row edited or
deleted since the reply is left as the user made it, and the answer says so. A reply is undone
once, and only by its owner.
"""

from __future__ import annotations

import dataclasses

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from chat.models import ChatMessage
from chat.turn.summaries import KIND as SUMMARY_KIND
from chat.turn.types import ReplyRefused, own_reply_locked
from exercise import services as exercise_services
from measurements import services as measurement_services
from nutrition import services as food_services
from sparky import rows

_DOMAINS = {
    "food_entry": food_services,
    "food_entry_deleted": food_services,
    "food": food_services,
    "goal": food_services,
    "water": food_services,
    "exercise_entry": exercise_services,
    "exercise_entry_deleted": exercise_services,
    "exercise": exercise_services,
    "checkin": measurement_services,
    "custom_measurement": measurement_services,
}


class UndoRefused(ReplyRefused):
    pass


@dataclasses.dataclass
class Undone:
    taken_back: list[str]
    kept: list[str]
    # The progress notes that followed the reply: their numbers counted what is now gone.
    summaries_removed: list[str] = dataclasses.field(default_factory=list)

    @property
    def message(self) -> str:
        parts = []
        if self.taken_back:
            parts.append("Undone: " + "; ".join(self.taken_back) + ".")
        if self.kept:
            parts.append("Left as it is now: " + "; ".join(self.kept) + ".")
        return " ".join(parts) or "Nothing was left to undo."

    def as_dict(self) -> dict:
        return {"taken_back": self.taken_back, "kept": self.kept, "message": self.message}


def undo_entries(message: ChatMessage) -> list[dict]:
    """The rows a reply wrote that it knows how to take back."""
    response = (message.metadata or {}).get("response") or {}
    return [
        e
        for e in response.get("entries") or []
        if isinstance(e, dict) and isinstance(e.get("undo"), dict) and e.get("kind") in _DOMAINS
    ]


def can_undo(message: ChatMessage) -> bool:
    meta = message.metadata or {}
    return (
        message.message_type == ChatMessage.Type.ASSISTANT
        and not meta.get("undone")
        and bool(undo_entries(message))
    )


def reply_undo(user, message_id) -> Undone:
    """Take back what the user's reply `message_id` wrote; UndoRefused says why not."""
    with transaction.atomic():
        message = own_reply_locked(user, message_id, UndoRefused)
        if (message.metadata or {}).get("undone"):
            raise UndoRefused("That reply was undone already.", "already_undone")
        entries = undo_entries(message)
        if not entries:
            raise UndoRefused("That reply saved nothing to undo.", "nothing_to_undo")
        done = Undone(taken_back=[], kept=[])
        for entry in reversed(entries):
            what = str(entry.get("summary") or entry["kind"]).split(" (", 1)[0]
            try:
                with transaction.atomic():
                    outcome = _DOMAINS[entry["kind"]].undo_write(
                        user=user, kind=entry["kind"], row_id=entry["id"], undo=entry["undo"]
                    )
            except (ValidationError, IntegrityError):
                outcome = rows.CHANGED
            if outcome == rows.DONE:
                done.taken_back.append(what)
            elif outcome == rows.CHANGED:
                done.kept.append(f"{what} (changed since)")
            else:  # GONE: deleted since, nothing of it left to take back
                done.kept.append(f"{what} (deleted since)")
        done.taken_back.reverse()
        done.kept.reverse()
        notes = ChatMessage.objects.for_user(user).filter(
            metadata__kind=SUMMARY_KIND, metadata__summary_for=str(message.id)
        )
        done.summaries_removed = [str(pk) for pk in notes.values_list("id", flat=True)]
        notes.delete()
        meta = dict(message.metadata or {})
        meta["undone"] = {"at": timezone.now().isoformat(), **done.as_dict()}
        message.metadata = meta
        message.save(update_fields=["metadata"])
    return done
