"""A reply to options Sparky offered: a number picks one, `manual: ...` gives the user's own
numbers, with no model call (the options themselves are chat.turn.offers')."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction

from chat.models import ChatMessage
from chat.tools import ToolContext, run_tool
from chat.tools.food import external_food_kcal
from chat.turn import offers
from chat.turn.execute import bulk_question
from chat.turn.types import CoachResponse, Turn, said_logged, too_old
from nutrition import services as food_services


def resolve_confirmation(turn: Turn) -> CoachResponse | None:
    """A yes or no to the confirmation the last reply asked for; None for anything else (the
    confirmation then lapses: a new request is what the user sent)."""
    yes, no = turn.reading.answer == "yes", turn.reading.answer == "no"
    previous = turn.previous
    if previous is None or not (yes or no):
        return None
    with transaction.atomic():
        locked = (
            ChatMessage.objects.for_user(turn.user).select_for_update().filter(pk=previous.pk)
        ).first()
        meta = (locked.metadata or {}) if locked is not None else {}
        pending = meta.get("confirm")
        if not isinstance(pending, dict) or pending.get("resolved"):
            return None
        if too_old(pending):
            return None
        pending["resolved"] = "yes" if yes else "no"
        meta["confirm"] = pending
        ChatMessage.objects.for_user(turn.user).filter(pk=locked.pk).update(metadata=meta)
        if no:
            return CoachResponse(action="none", engine="confirm", message="OK, nothing was saved.")
        ctx = ToolContext.for_user(turn.user, source=turn.source, confirmed=True)
        lines = []
        for name, arguments in pending.get("calls") or []:
            result = run_tool(ctx, name, arguments)
            turn.record(name, result)
            lines.append(result.message if result.ok else f"Not saved: {result.message}")
    return CoachResponse(
        action="logged" if turn.written else "none",
        engine="confirm",
        message="\n".join(lines) or "Nothing was left to save.",
    )


def _held_if_too_much(turn: Turn, data: dict, number, manual) -> CoachResponse | None:
    """A pick of the user's own numbers over a turn's limit (nutrition.services.bulk_problem,
    e.g. 'manual: 5000 cal') is not logged at once: its call waits for a yes, as a turn's do
    (the coach shows it as the review card)."""
    option = data["options"][number - 1] if number is not None else None
    arguments = offers.own_numbers_call(user=turn.user, data=data, option=option, text=manual)
    if arguments is None:
        return None
    kcal = external_food_kcal(arguments)
    problem = food_services.bulk_problem(entries=1, kcal=kcal)
    if problem is None:
        return None
    question = bulk_question(problem, [f"{arguments['food_name']} ({kcal:,.0f} kcal)"])
    turn.wait_for([["log_external_food", arguments]], question)
    return CoachResponse(
        action="confirm",
        engine="options",
        message=question,
        categories=[data["kind"]],
    )


def resolve_pick(turn: Turn) -> CoachResponse | None:
    number, manual = turn.reading.pick, turn.reading.manual
    if number is None and manual is None:
        return None
    previous = turn.previous
    meta = (previous.metadata or {}) if previous else {}
    if meta.get("options") is None:
        if manual is not None:
            # Numbers without a name to put them on: never read as food words ("20g protein"
            # is no 20 g of protein-fortified spaghetti).
            return CoachResponse(
                action="none",
                engine="options",
                message=(
                    "'manual:' fills in your own numbers for something I couldn't find, so tell "
                    "me first what it was (e.g. 'a protein bar for lunch'); if I don't know it, "
                    "reply with 'manual: 300 cal, 20g protein'. Nothing was saved."
                ),
            )
        # A bare number right after options were used up is a late pick, not a new request.
        offered_before = any(
            (m.metadata or {}).get("options") for m in turn.history if m.message_type == "assistant"
        )
        if not offered_before:
            return None  # no options were offered: a plain new request
    guide = CoachResponse(
        action="none",
        engine="options",
        message=(
            "Please reply with the number of one of the options above, or with your own values "
            "(e.g. 'manual: 250 cal, 10g protein'), or tell me what you'd like to do."
        ),
    )
    with transaction.atomic():
        # Lock the offer and read it again: a pick sent twice at once (a double tap, two tabs) is
        # applied once; the second waits here, then finds the options resolved.
        locked = (
            ChatMessage.objects.for_user(turn.user).select_for_update().filter(pk=previous.pk)
        ).first()
        meta = (locked.metadata or {}) if locked is not None else {}
        data = offers.pending_options(locked)
        if data is None or too_old(data):
            guide.message = (
                "Those options are no longer open. Tell me again what you'd like to log, and I'll "
                "look it up."
            )
            return guide
        try:
            if number is not None and not 1 <= number <= len(data["options"]):
                return guide
            held = _held_if_too_much(turn, data, number, manual)
            if held is not None:
                data["resolved"] = True
                meta["options"] = data
                ChatMessage.objects.for_user(turn.user).filter(pk=locked.pk).update(metadata=meta)
                return held
            if number is not None:
                written = offers.apply_option(
                    user=turn.user, data=data, option=data["options"][number - 1]
                )
            else:
                written = offers.apply_manual(user=turn.user, data=data, text=manual)
        except ValidationError as exc:
            return CoachResponse(
                action="none",
                engine="options",
                message=" ".join(exc.messages) + " Nothing was saved.",
            )
        turn.written.extend(written)
        data["resolved"] = True
        meta["options"] = data
        ChatMessage.objects.for_user(turn.user).filter(pk=locked.pk).update(metadata=meta)
    return CoachResponse(
        action="selected",
        engine="options",
        message=said_logged(turn.user, written),
        categories=[data["kind"]],
    )
