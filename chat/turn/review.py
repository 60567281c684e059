"""Review before logging: the items a held reply would log, and the user's answer to them.

A reply that asks before it writes (an implausible amount, a turn that writes too much at once:
chat.turn.execute.settle) keeps its calls in its metadata under "confirm". Here they
are shown as items, one per call, whose amount, unit and meal may be changed or which may be
left out; `review_confirm` logs what the user kept, through the same tools and services, in one
transaction, and adds the rows to the reply so its undo takes them back. `review_cancel` logs
nothing. Either answers a review once: a second one finds it resolved.

    review_confirm(user, message_id, edits=[{"index": 0, "quantity": 1}])
"""

from __future__ import annotations

import copy
import dataclasses
import json

from django.core.exceptions import ValidationError
from django.db import transaction

from chat.models import ChatMessage
from chat.tools import ToolContext, check_tool
from chat.tools.base import Written
from chat.tools.food import external_food_kcal
from chat.turn.types import ReplyRefused, own_reply_locked, said_logged, too_old
from nutrition import services as food_services

CANCELLED = "Cancelled: nothing was logged."
# The arguments a user may change on an item, per call: the amount, its unit and the meal.
EDITABLE = ("quantity", "unit", "meal_type")
_NAMES = ("food_name", "exercise_name", "name", "measurement_name")


class ReviewRefused(ReplyRefused):
    pass


@dataclasses.dataclass
class Reviewed:
    message: str
    entries: list[dict]
    resolved: str  # "logged" | "cancelled"

    def as_dict(self) -> dict:
        return dataclasses.asdict(self)


def _arguments(call) -> dict:
    arguments = call[1] if len(call) > 1 else {}
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments)
        except ValueError:
            arguments = {}
    return dict(arguments) if isinstance(arguments, dict) else {}


def _kcal(user, tool: str, name: str, arguments: dict) -> int | None:
    """About how many kcal an item is as listed: by the catalog, as logging it would count it, or
    by a photo's estimate; None when that can't be told without saving it."""
    try:
        if tool == "log_food" and user is not None and name:
            facts = food_services.food_facts(
                user=user,
                name=name,
                quantity=arguments.get("quantity"),
                unit=arguments.get("unit") or None,
            )
            calories = facts.values.get("calories") if facts is not None else None
            return None if calories is None else round(calories)
        if tool == "log_external_food" and arguments.get("calories") is not None:
            return round(external_food_kcal(arguments))
    except (ValidationError, TypeError, ValueError):
        return None
    return None


def review_items(pending: dict | None, *, user=None) -> list[dict]:
    """The items a held reply would log, in the words and numbers the user may change, with
    about how many kcal each is (for `user`'s catalog, when given)."""
    items = []
    for index, call in enumerate((pending or {}).get("calls") or []):
        arguments = _arguments(call)
        name = next((arguments[k] for k in _NAMES if arguments.get(k)), "")
        items.append(
            {
                "index": index,
                "name": str(name),
                "quantity": arguments.get("quantity"),
                "unit": arguments.get("unit") or "",
                "meal_type": arguments.get("meal_type") or "",
                "editable": call[0] in ("log_food", "log_external_food"),
                "kcal": _kcal(user, call[0], str(name), arguments),
            }
        )
    return items


def pending_review(message: ChatMessage) -> dict | None:
    """The review a reply waits on ({"items", "question"}), or None when it waits on nothing."""
    pending = (message.metadata or {}).get("confirm")
    if not isinstance(pending, dict) or pending.get("resolved") or too_old(pending):
        return None
    items = review_items(pending, user=message.user)
    return {"items": items, "question": pending.get("question") or ""}


def _locked(user, message_id) -> tuple[ChatMessage, dict, dict]:
    message = own_reply_locked(user, message_id, ReviewRefused)
    meta = dict(message.metadata or {})
    pending = meta.get("confirm")
    if not isinstance(pending, dict):
        raise ReviewRefused("That reply has nothing waiting to be logged.", "nothing_to_review")
    if pending.get("resolved"):
        raise ReviewRefused("That reply was answered already.", "already_resolved")
    if too_old(pending):
        raise ReviewRefused(
            "That list is too old to log now. Tell me again what to log.", "expired"
        )
    return message, meta, pending


def _item_name(call: list) -> str:
    arguments = call[1] or {}
    return str(arguments.get("food_name") or arguments.get("exercise_name") or "the item")


def _edited_calls(pending: dict, edits: list[dict] | None) -> list[list]:
    calls = [[call[0], _arguments(call)] for call in copy.deepcopy(pending.get("calls") or [])]
    removed, seen = set(), set()
    for edit in edits or []:
        index = edit.get("index")
        if not isinstance(index, int) or not 0 <= index < len(calls):
            raise ReviewRefused(f"There is no item {index} in that list.", "bad_item")
        if index in seen:  # which of two changes was meant is not ours to guess
            raise ReviewRefused(
                f"Item {index + 1} ({_item_name(calls[index])}) is changed twice; send one "
                "change per item.",
                "bad_item",
            )
        seen.add(index)
        if edit.get("remove"):
            removed.add(index)
            continue
        name, arguments = calls[index]
        for field in EDITABLE:
            if field in edit and edit[field] not in (None, ""):
                if name not in ("log_food", "log_external_food"):
                    raise ReviewRefused("That item's amount can't be changed here.", "bad_item")
                arguments[field] = edit[field]
    return [call for i, call in enumerate(calls) if i not in removed]


def review_confirm(user, message_id, *, edits: list[dict] | None = None, source="api") -> Reviewed:
    """Log the held items of the user's reply `message_id`, with their edits, at once; the rows
    join the reply's entries so undo takes them back."""
    with transaction.atomic():
        message, meta, pending = _locked(user, message_id)
        calls = _edited_calls(pending, edits)
        ctx = ToolContext.for_user(user, source=source, confirmed=True)
        # one list, one answer: each item is checked first, and nothing of it is logged when
        # one cannot be; a tool that refuses only once done costs only its own item
        checked = [check_tool(ctx, name, arguments) for name, arguments in calls]
        refused = [c.result.message for c in checked if not c.result.ok]
        if refused:
            raise ReviewRefused("Not logged: " + " ".join(refused), "refused")
        written: list[Written] = []
        late: list[str] = []  # a tool that tells only once done (a custom food's numbers)
        for c in checked:
            result = c.commit()
            if result.ok:
                written.extend(result.written)
            else:  # it wrote nothing; what the others wrote stays, and the reply says so
                late.append(result.message)
        if late and not written:
            raise ReviewRefused("Not logged: " + " ".join(late), "refused")
        entries = [w.as_dict() for w in written]
        said = said_logged(user, written) if written else "Nothing was left to log."
        if late:
            said = f"{said} Not logged: {' '.join(late)}"
        pending["resolved"] = "yes"
        pending["said"] = said
        meta["confirm"] = pending
        response = dict(meta.get("response") or {})
        response["entries"] = [*(response.get("entries") or []), *entries]
        if entries:
            response["action"] = "logged"
        meta["response"] = response
        message.metadata = meta
        message.save(update_fields=["metadata"])
    return Reviewed(message=said, entries=entries, resolved="logged")


def review_cancel(user, message_id) -> Reviewed:
    """Answer the held items of the user's reply `message_id` with no: nothing is logged."""
    with transaction.atomic():
        message, meta, pending = _locked(user, message_id)
        pending["resolved"] = "no"
        pending["said"] = CANCELLED
        meta["confirm"] = pending
        message.metadata = meta
        message.save(update_fields=["metadata"])
    return Reviewed(message=CANCELLED, entries=[], resolved="cancelled")
