"""The one executor of a turn's writes. Engines propose tool calls (the parser's intents, a model's
intent JSON, a model's tool calls); each call is checked without writing (chat.tools.check_tool:
the tool offered, its arguments, its grounding in the message, and what a planning tool would
write); then the batch is either held for the user — a call to confirm (an implausible amount),
too much at once (nutrition.services.bulk_problem), or the user's wish to review what is logged —
with nothing written, or committed at once in one transaction, each call recorded on the turn.

Nothing here writes to find out: whatever is asked is asked before anything is saved.
"""

from __future__ import annotations

import dataclasses

from django.db import transaction

from chat.tools import Checked, ToolContext, ToolSet, build_chatbot_tools, check_tool
from chat.tools.food import external_food_kcal
from chat.tools.grounding import Said
from chat.turn.types import Turn
from nutrition.models import FoodEntry
from nutrition.services import bulk_problem, entry_nutrients

# The rows the user may review before they are saved (their preference), and the rows a turn
# adds to the diary, counted against bulk_problem.
REVIEWED_KINDS = ("food_entry", "exercise_entry")
_ENTRY_KINDS = ("food_entry", "exercise_entry", "checkin")
# Loggers that say their row only once done (no plan): each adds one food entry, of the kcal
# its arguments give (a custom food's "about 5000 cal" counts before it is made).
_UNPLANNED_LOGGERS = {"log_external_food": external_food_kcal}
REVIEW_QUESTION = (
    "Here is what I would log. Nothing was saved yet: check it, then log it or cancel."
)


def allowed_tools(turn: Turn) -> ToolSet | None:
    """The tools this turn may run: those of the categories the user ticked (Manual), or any
    (Auto: the categories a model is shown are a focus, not a limit)."""
    if turn.manual is None:
        return None
    return build_chatbot_tools(turn.user, "full", turn.manual)


def gate(turn: Turn, *, origin: str, profile: str = "full") -> ToolContext:
    """The context every call of this turn runs in: who asks (`origin`: parser, intent-json or
    model; `profile`: a small model's details are grounded strictly) and what the user said, for
    the grounding check."""
    said = Said.of(turn.text, image=turn.image is not None, reading=turn.reading, origin=origin)
    return ToolContext.for_user(
        turn.user, image=turn.image, source=turn.source, said=said, profile=profile
    )


@dataclasses.dataclass(frozen=True)
class Outcome:
    """What came of proposed calls: those refused on checking (then nothing was written), the
    question the batch waits on (nothing written either), or the lines of what was done."""

    refused: tuple[Checked, ...] = ()
    question: str | None = None
    said: tuple[str, ...] = ()


def carry_out(turn: Turn, calls: list[tuple[str, dict]], *, origin: str = "parser") -> Outcome:
    """Calls Sparky proposes itself (a correction, one more of something), checked in the turn's
    context and then held or written as one batch; if any is refused, none is written."""
    ctx = gate(turn, origin=origin)
    allowed = allowed_tools(turn)
    batch = [check_tool(ctx, name, args, allowed=allowed) for name, args in calls]
    refused = tuple(c for c in batch if not c.result.ok and not c.result.confirm)
    question = settle(turn, batch, write=not refused)
    if refused or question:
        return Outcome(refused=refused, question=question)
    return Outcome(said=tuple(c.done.message for c in batch if c.done and c.done.message))


def question_for(turn: Turn, batch: list[Checked]) -> str | None:
    """What the user must answer before this batch is written, or None: a call's own question
    (an amount out of range), the turn's size, or their wish to review what is logged."""
    asks = [c.result.confirm for c in batch if c.result.confirm]
    if asks:
        return CONFIRM_QUESTION.format(asks=" ".join(asks))
    return _bulk_question(turn, batch) or _review_question(turn, batch)


# A question of amounts to confirm: "{asks}" are the calls' own questions.
CONFIRM_QUESTION = (
    "{asks}\nNothing was saved yet. Log it as it is? Reply yes, or say the amount again."
)


def settle(turn: Turn, batch: list[Checked], *, write: bool = True) -> str | None:
    """Hold the batch (nothing written; its calls wait in `turn.pending_confirmation` for a yes)
    and return the question, or commit it in one transaction and return None. Either way each
    call is recorded on the turn. `write` False: a call was refused, so none is written."""
    question = question_for(turn, batch) if write else None
    late = _write(batch) if write and not question else None
    turn.settled(batch, held=question, late=late)
    return question


def commit(turn: Turn, batch: list[Checked]) -> None:
    """Write every call of the batch at once, then record each on the turn."""
    turn.settled(batch, late=_write(batch))


def _write(batch: list[Checked]) -> str | None:
    """Every call of the batch done in one transaction; the question of a tool that tells only
    when done that an amount needs the user's yes (nothing of it was kept), if any."""
    with transaction.atomic():
        for c in batch:
            c.commit()
    asks = [c.done.confirm for c in batch if c.deferred and c.done.confirm]
    return CONFIRM_QUESTION.format(asks=" ".join(asks)) if asks else None


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
    kcal += sum(
        _UNPLANNED_LOGGERS[c.name](c.arguments)
        for c in batch
        if c.deferred and c.name in _UNPLANNED_LOGGERS
    )
    problem = bulk_problem(entries=len(earlier) + len(rows) + unsaid, kcal=kcal)
    if problem is None:
        return None
    return bulk_question(problem, [w.summary for w in [*earlier, *rows]])


def bulk_question(problem: str, shown: list[str]) -> str:
    """The question a turn over nutrition.services.bulk_problem's limits waits on."""
    listed = "; ".join(shown[:12]) + ("; ..." if len(shown) > 12 else "")
    it_would = f" It would log: {listed}." if shown else ""
    return f"{problem} Nothing was saved yet.{it_would}\nLog all of it? Reply yes, or no to cancel."


def _review_question(turn: Turn, batch: list[Checked]) -> str | None:
    """The user's preference to check what a turn logs (every turn, or a photo's) before it is
    saved."""
    reviewed = any(
        w.kind in REVIEWED_KINDS for c in batch if c.keeps for w in c.result.written
    ) or any(c.deferred and c.name in _UNPLANNED_LOGGERS for c in batch)
    if not reviewed:
        return None
    prefs = turn.prefs
    if prefs.review_before_logging or (turn.image is not None and prefs.review_photos):
        return REVIEW_QUESTION
    return None
