"""The one executor of a turn's writes. Engines propose tool calls (the parser's intents, a model's
intent JSON, a model's tool calls); each call is checked without writing (chat.tools.check_tool:
the tool offered, its arguments, its grounding in the message, and what a planning tool would
write); then the batch is either held for the user — a call to confirm (an implausible amount),
too much at once (nutrition.services.bulk_problem), or the user's wish to review what is logged —
with nothing written, or committed at once in one transaction, each call recorded on the turn.

Nothing here writes to find out: whatever is asked is asked before anything is saved.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from chat.tools import Checked
from chat.turn.types import Turn
from nutrition.models import FoodEntry
from nutrition.services import bulk_problem, entry_nutrients
from sparky.services import preferences_for

# The rows the user may review before they are saved (their preference), and the rows a turn
# adds to the diary, counted against bulk_problem.
REVIEWED_KINDS = ("food_entry", "exercise_entry")
_ENTRY_KINDS = ("food_entry", "exercise_entry", "checkin")
# Loggers that say their row only once done (no plan): each adds one food entry.
_UNPLANNED_LOGGERS = {"log_external_food"}
REVIEW_QUESTION = (
    "Here is what I would log. Nothing was saved yet: check it, then log it or cancel."
)


def question_for(turn: Turn, batch: list[Checked]) -> str | None:
    """What the user must answer before this batch is written, or None: a call's own question
    (an amount out of range), the turn's size, or their wish to review what is logged."""
    asks = [c.result.confirm for c in batch if c.result.confirm]
    if asks:
        return _confirm_question(asks)
    return _bulk_question(turn, batch) or _review_question(turn, batch)


def _confirm_question(asks: list[str]) -> str:
    return (
        f"{' '.join(asks)}\nNothing was saved yet. Log it as it is? Reply yes, or say the amount "
        "again."
    )


def settle(turn: Turn, batch: list[Checked]) -> str | None:
    """Hold the batch (nothing written; its calls wait in `turn.pending_confirmation` for a yes)
    and return the question, or commit it in one transaction and return None. Either way each
    call is recorded on the turn."""
    question = question_for(turn, batch)
    if question:
        hold(turn, batch, question)
        return question
    commit(turn, batch)
    return None


def hold(turn: Turn, batch: list[Checked], question: str) -> None:
    """Nothing of the batch is written: its calls wait for the user's yes to `question`."""
    _wait(turn, [[c.name, c.raw] for c in batch if c.keeps or c.result.confirm], question)
    for c in batch:
        turn.record(c.name, c.result.held(), c.raw)


def _wait(turn: Turn, calls: list[list], question: str) -> None:
    turn.pending_confirmation = {
        "calls": (turn.pending_confirmation or {}).get("calls", []) + calls,
        "question": question,
        "created_at": timezone.now().isoformat(),
    }


def commit(turn: Turn, batch: list[Checked]) -> None:
    """Write every call of the batch at once, then record each on the turn."""
    with transaction.atomic():
        for c in batch:
            c.commit()
    late = []  # a tool that tells only when done that an amount needs the user's yes
    for c in batch:
        turn.record(c.name, c.done, c.raw)
        if c.deferred and c.done.confirm:
            late.append(c)
    if late:
        question = _confirm_question([c.done.confirm for c in late])
        _wait(turn, [[c.name, c.raw] for c in late], question)
    turn.announce_saved()  # saved for good: its chips may be shown now


def _bulk_question(turn: Turn, batch: list[Checked]) -> str | None:
    earlier = [w for w in turn.written if w.kind in _ENTRY_KINDS]
    rows = [w for c in batch if c.keeps for w in c.result.written if w.kind in _ENTRY_KINDS]
    unsaid = sum(1 for c in batch if c.deferred and c.name in _UNPLANNED_LOGGERS)
    food_ids = [w.id for w in earlier if w.kind == "food_entry"]
    kcal = sum(
        (entry_nutrients(e).get("calories") or 0)
        for e in FoodEntry.objects.for_user(turn.user)
        .filter(pk__in=food_ids)
        .select_related("food", "variant")
    )
    kcal += sum(
        (entry_nutrients(row).get("calories") or 0)
        for c in batch
        if c.keeps
        for row in c.result.rows
        if isinstance(row, FoodEntry)
    )
    problem = bulk_problem(entries=len(earlier) + len(rows) + unsaid, kcal=kcal)
    if problem is None:
        return None
    shown = [w.summary for w in [*earlier, *rows]]
    listed = "; ".join(shown[:12]) + ("; ..." if len(shown) > 12 else "")
    return (
        f"{problem} Nothing was saved yet. It would log: {listed}.\n"
        "Log all of it? Reply yes, or no to cancel."
    )


def _review_question(turn: Turn, batch: list[Checked]) -> str | None:
    """The user's preference to check what a turn logs (every turn, or a photo's) before it is
    saved."""
    reviewed = any(
        w.kind in REVIEWED_KINDS for c in batch if c.keeps for w in c.result.written
    ) or any(c.deferred and c.name in _UNPLANNED_LOGGERS for c in batch)
    if not reviewed:
        return None
    prefs = preferences_for(turn.user)
    if prefs.review_before_logging or (turn.image is not None and prefs.review_photos):
        return REVIEW_QUESTION
    return None
