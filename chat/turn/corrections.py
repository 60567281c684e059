"""Corrections Sparky makes itself, offline and in front of any model. What a correction refers
to is resolved once among what the conversation saved (chat.turn.memory.refer); from it this
proposes the calls that put it right (an edit, a delete, a swap, one more, a check-in value saved
again) or the question which entry was meant, and the one executor (chat.turn.execute) checks and
writes them, with undo; nothing is ever logged a second time. When nothing recent fits, the
message goes on to the next answerer."""

from __future__ import annotations

import dataclasses
import math

from django.core.exceptions import ObjectDoesNotExist

from chat.models import ChatMessage
from chat.reading.correction import Correction
from chat.reading.message import Reading
from chat.tools.base import Written
from chat.turn.execute import carry_out
from chat.turn.memory import CUSTOM, Referred, Remembered, refer
from chat.turn.types import CoachResponse, Turn
from chat.turn.undo import UndoRefused, reply_undo
from measurements.fields import CHECKIN
from nutrition.services import entry_nutrients
from nutrition.units import a_weight, unit_text

_EDIT = {"food": "edit_food_entry", "exercise": "edit_exercise_entry"}
_DELETE = {"food": "delete_food_entry", "exercise": "delete_exercise_entry"}


@dataclasses.dataclass(frozen=True)
class _Proposal:
    """What Sparky would do for a correction: the calls to make (for the executor), or a reply
    to take back (an undo), or only words (which one? logged already; nothing to undo). `fix`
    names what the reply says was done; `before` the amounts the entries had."""

    calls: tuple[tuple[str, dict], ...] = ()
    undo: ChatMessage | None = None
    message: str | None = None
    correction: Correction | None = None
    entries: tuple[Remembered, ...] = ()
    before: dict = dataclasses.field(default_factory=dict)
    checkin: bool = False


def correct(turn: Turn) -> CoachResponse | None:
    """The correction the message asks for, done; None when it asks none, or names nothing
    the conversation saved (another answerer reads it then). A message that says a slip about
    a food just saved, but that Sparky cannot read as a correction, is asked about rather than
    logged a second time."""
    if turn.image is not None:
        return None
    referred = refer(turn.user, turn.history, turn.reading)
    proposal = _proposal(turn.reading, referred)
    if proposal is None:
        return None
    return _carried_out(turn, proposal)


def _proposal(reading: Reading, referred: Referred) -> _Proposal | None:
    correction = referred.correction
    if correction is None:  # "hang on, scale said 63.4, i swapped the digits"
        found = _checkin_fix(reading, referred)
    elif correction.action == "undo":
        found = _undo(referred)
    elif correction.action == "again":
        found = _again(referred)
    elif referred.amended:  # a report of the entry said again: its amount, never a check-in
        found = _changed(referred)
    elif _of_an_entry(reading, referred):
        found = _not_as_said(reading, referred) or _changed(referred)
    else:
        found = _checkin_fix(reading, referred) or _changed(referred)
    return found or _not_twice(referred)


def _of_an_entry(reading: Reading, referred: Referred) -> bool:
    """Whether a change puts right a food or workout rather than a check-in. Types and words
    decide, never which was logged last alone: a duration or distance is a workout's; words that
    name an entry ("walk was 45", "the toast was 2") name it; words naming something else than a
    check-in field name no check-in. Said with no name, the number goes where the value it says
    was wrong is ("80 not 70"), else to the value it is nearest ("make that 50" of a 45-minute
    ride, not of an 80 kg weigh-in)."""
    correction = referred.correction
    if reading.fields:
        return False
    if correction.minutes is not None or correction.distance:
        return True
    if correction.target:
        return bool(referred.entries) or not reading.units
    chosen = referred.entries
    if len(chosen) != 1 or not referred.checkins:
        return False
    now = _value(chosen[0])
    old = [value for value, _ in referred.checkins.values()]
    if reading.denied:
        return _holds(now, reading.denied) and not any(_holds(o, reading.denied) for o in old)
    said = [n for n in reading.values if n not in old]
    if not said or not now or not said[0] or not any(old):
        return False
    distance = abs(math.log(said[0] / now))
    return distance < min(abs(math.log(said[0] / o)) for o in old if o)


def _value(entry: Remembered, distance: bool = False) -> float:
    """The number a bare correction of an entry changes: a workout's minutes (its distance, for
    a change of distance), a food's amount."""
    row = entry.row
    if entry.kind == "exercise":
        return float((row.distance or 0) if distance else row.duration_minutes)
    return float(row.quantity)


def _holds(value: float, said: tuple[float, ...]) -> bool:
    return any(abs(value - n) < 0.01 for n in said)


def _not_as_said(reading: Reading, referred: Referred) -> _Proposal | None:
    """Sure or silent: "bench was 80 not 70" of a bench press logged as 9 minutes says a value
    the entry does not hold, so Sparky asks rather than guess which number was meant."""
    correction, chosen = referred.correction, referred.entries
    if not reading.denied or len(chosen) != 1:
        return None
    row = chosen[0].row
    if chosen[0].kind == "food" and correction.unit and correction.unit != row.unit:
        return None  # "200 g not 150 g" of a cup: another unit, not comparable
    if _holds(_value(chosen[0], correction.distance), reading.denied):
        return None
    said = " or ".join(f"{n:g}" for n in reading.denied)
    name = correction.target or _short(chosen[0])
    example = "45 min" if chosen[0].kind == "exercise" else "2"
    return _Proposal(
        message=f"Your {name} is logged as {_amount(chosen[0])}, with no {said} in it, so I "
        f"changed nothing. Say what it should be, e.g. 'the {name} was {example}'."
    )


def _not_twice(referred: Referred) -> _Proposal | None:
    """ "oh wait the eggs, hmm 3 really": a slip said of a food a recent reply saved, in words
    no rule reads. Logging it would put the food in the diary twice; Sparky asks instead."""
    again = referred.logged_again
    if not again:
        return None
    listed = "; ".join(_line(e) for e in again)
    return _Proposal(
        message=f"You logged that already ({listed}), so I didn't add it again. To change it, "
        f"say e.g. 'the {_short(again[0])} was 2' or 'delete the {_short(again[0])}'; to add "
        "more, say 'one more'."
    )


def _changed(referred: Referred) -> _Proposal | None:
    """The entries named changed as the correction says; which one, when it can't tell."""
    correction, chosen = referred.correction, referred.entries
    if not chosen:
        return None
    several_ok = correction.meal is not None and (
        not correction.target or " and " in correction.target
    )
    if len(chosen) > 1 and not (several_ok or referred.each):
        return _which(chosen)
    return _edits(correction, chosen)


def _edits(correction: Correction, chosen) -> _Proposal | None:
    calls = tuple(call for entry in chosen for call in _calls(correction, entry))
    if not calls:
        return None
    before = {str(e.row.id): _amount(e) for e in chosen}
    return _Proposal(calls=calls, correction=correction, entries=tuple(chosen), before=before)


def _undo(referred: Referred) -> _Proposal:
    """Take back the newest reply's saves (the one whose entries the words name, if they name
    any), through the same undo as the reply's button; or only the entry the message names."""
    if referred.correction.action == "delete" and referred.entries:
        return _edits(referred.correction, referred.entries)
    if referred.last_saved_nothing:
        return _Proposal(
            message="Your last message saved nothing, so there is nothing to undo. What you "
            "logged before it stays; every entry in the diary beside the chat has Delete."
        )
    if referred.reply is None:
        return _Proposal(
            message="There is nothing recent of yours to undo. Every entry in the diary beside "
            "the chat has Delete."
        )
    return _Proposal(undo=referred.reply)


def _again(referred: Referred) -> _Proposal | None:
    """More of what was just logged, as it was logged: "another one" (one more of the last
    food), "2 more slices", "another glass" (of water, when water was the last), "same again"
    (all the last reply saved, in the same amounts). None when nothing recent fits: the message
    is then read as food of its own ("another orange" with no orange before)."""
    quantity = referred.correction.quantity
    if referred.water:
        return _Proposal(calls=(("log_water", {"glasses": int(quantity or 1)}),))
    if not referred.entries:
        return None
    return _Proposal(calls=tuple(_again_call(e, quantity) for e in referred.entries))


# A value put right is near the one it replaces (a slip of a key or two digits swapped): at most
# this factor either way, when several fields could take it.
_NEAR = 2.0


def _checkin_fix(reading: Reading, referred: Referred) -> _Proposal | None:
    """A number put right in a check-in a recent reply saved ("typo, 81.4", "its 59 not 95, fat
    fingers", "wrong, 10,500 steps", "the weight should be 76.5"): the same day's field saved
    again with it. The message must say it fixes something (a correction's signal, or "not" the
    old value), and the number must fit one field: the one it names, the only one saved, or the
    one whose value it is near."""
    correction = referred.correction
    if correction is not None and (correction.meal or correction.action not in ("change", "swap")):
        return None
    if correction is None and not reading.slip:
        return None
    saved = referred.checkins
    if not saved:
        return None
    old = {name: value for name, (value, _) in saved.items()}
    numbers = [n for n in reading.values if n not in old.values()]
    if not numbers:
        return None
    value = numbers[0]
    fields = list(saved)
    if reading.fields:
        fields = [f for f in fields if f in reading.fields]
    if len(fields) > 1:
        near = [f for f in fields if old[f] and 1 / _NEAR <= value / old[f] <= _NEAR]
        fields = sorted(near, key=lambda f: abs(math.log(value / old[f])))[:1]
    if len(fields) != 1:
        return None
    if reading.denied and not _holds(old[fields[0]], reading.denied):
        return None  # "80 not 70" of a weight of 88: not this value
    day = saved[fields[0]][1] or "today"
    if fields[0].startswith(CUSTOM):  # one of the user's own measurements, by its name
        args = {"name": fields[0].removeprefix(CUSTOM), "value": value, "date": day}
        return _Proposal(calls=(("log_custom_measurement", args),), checkin=True)
    field = CHECKIN[fields[0]]
    args = {field.name: value, "date": day}
    if (unit := reading.units.get(field.kind.name)) and field.kind.argument:
        args[field.kind.argument] = unit
    return _Proposal(calls=(("log_checkin", args),), checkin=True)


def _which(chosen) -> _Proposal:
    listed = "; ".join(f"{n}. {_line(e)}" for n, e in enumerate(chosen, 1))
    return _Proposal(
        message=f"Which one did you mean? {listed}. Say it with its name, e.g. 'the "
        f"{_short(chosen[0])} was ...'. Nothing was changed."
    )


def _carried_out(turn: Turn, proposal: _Proposal) -> CoachResponse:
    """The proposal done, and the reply that says so in plain words."""
    if proposal.message is not None:
        return CoachResponse(action="none", engine="sparky", message=proposal.message)
    if proposal.undo is not None:
        return _undone(turn, proposal.undo)
    if proposal.checkin and turn.reading.kind != "change":
        # read against what was saved, "its 59 not 95" is a fix, not a negation
        turn.reading = dataclasses.replace(turn.reading, kind="change")
    outcome = carry_out(turn, list(proposal.calls))
    if outcome.refused:
        reasons = " ".join(_refusal(c) for c in outcome.refused)
        return CoachResponse(action="none", engine="sparky", message=f"Nothing changed: {reasons}")
    if outcome.question:
        return CoachResponse(action="confirm", engine="sparky", message=outcome.question)
    said = " ".join(outcome.said)
    if proposal.checkin and said:
        said = f"Fixed: {said[0].lower()}{said[1:]}"
    elif proposal.correction is not None:
        said = _said(proposal) or said
    return CoachResponse(action="logged", engine="sparky", message=said)


def _said(proposal: _Proposal) -> str:
    """What was done, in plain words: "The toast is now 2 slices (128 kcal), not 1 slice (64
    kcal)."; "" to keep the tools' own lines."""
    correction = proposal.correction
    parts = []
    for entry in proposal.entries:
        name = correction.target or _short(entry)
        before = proposal.before[str(entry.row.id)]
        if correction.action == "delete":
            parts.append(f"Deleted the {name}, {before}.")
            continue
        if correction.action == "swap":
            return ""
        try:
            entry.row.refresh_from_db()
        except ObjectDoesNotExist:
            return ""
        if correction.meal and correction.quantity is None:
            parts.append(f"Moved the {name} to {correction.meal}.")
        else:
            verb = "are" if name.endswith("s") and not name.endswith("ss") else "is"
            parts.append(f"The {name} {verb} now {_amount(entry)}, not {before}.")
    return " ".join(parts)


def _undone(turn: Turn, reply: ChatMessage) -> CoachResponse:
    try:
        undone = reply_undo(turn.user, reply.id)
    except UndoRefused as exc:
        return CoachResponse(action="none", engine="sparky", message=str(exc))
    for entry in (reply.metadata.get("response") or {}).get("entries") or []:
        what = str(entry.get("chip") or entry.get("summary") or "").split(" · ")[0]
        turn.written.append(
            Written(
                kind="undone",
                id=str(entry.get("id")),
                summary=str(entry.get("summary") or ""),
                date=entry.get("date"),
                chip=f"Undone: {what}",
            )
        )
    return CoachResponse(action="logged", engine="sparky", message=undone.message)


def _calls(correction: Correction, entry: Remembered) -> list[tuple[str, dict]]:
    row, kind = entry.row, entry.kind
    if correction.action == "delete":
        return [(_DELETE[kind], {"entry_id": str(row.id)})]
    if correction.action == "swap":
        log = {
            "food_name": correction.food,
            "meal_type": row.meal_type,
            "date": row.entry_date.isoformat(),
        }
        if correction.quantity is not None:  # "it was 500 ml of oj": its amount as said
            log["quantity"] = correction.quantity
            if correction.unit:
                log["unit"] = correction.unit
        elif correction.target and correction.food.endswith(correction.target):
            # "the rice was white": a kind of the same food, as much as the entry held
            log["quantity"] = float(row.quantity)
            if row.unit:
                log["unit"] = row.unit
        else:  # "it was cheese pizza, not pepperoni": as many, or as much by weight
            log["quantity"] = float(row.quantity)
            if row.unit and a_weight(row.unit):
                log["unit"] = row.unit
        return [(_DELETE[kind], {"entry_id": str(row.id)}), ("log_food", log)]
    if kind == "exercise" and correction.distance:
        # "it was more like 4 miles": the distance, and the minutes at the same pace
        changes = {"distance": correction.quantity, "distance_unit": correction.unit}
        if row.distance and (row.distance_unit or "km") == correction.unit:
            pace = row.duration_minutes / float(row.distance)
            changes["duration_minutes"] = round(pace * correction.quantity)
        return [(_EDIT[kind], {"entry_id": str(row.id), **changes})]
    if kind == "exercise":
        minutes = correction.minutes
        if minutes is None and correction.quantity is not None and not correction.unit:
            minutes = correction.quantity  # "the run was 40"
        if minutes is None and correction.factor:  # "it was twice as long"
            minutes = round(row.duration_minutes * correction.factor)
        if minutes is None:
            return []
        return [(_EDIT[kind], {"entry_id": str(row.id), "duration_minutes": minutes})]
    changes: dict = {}
    if correction.meal:
        changes["meal_type"] = correction.meal
    if correction.quantity is not None:
        changes["quantity"] = correction.quantity
        if correction.unit:
            changes["unit"] = correction.unit
    elif correction.factor:  # "double the rice": as much again, in the entry's own unit
        changes["quantity"] = round(float(row.quantity) * correction.factor, 2)
    if not changes:
        return []
    return [(_EDIT[kind], {"entry_id": str(row.id), **changes})]


def _again_call(entry: Remembered, quantity: float | None) -> tuple[str, dict]:
    row = entry.row
    if entry.kind == "exercise":
        return (
            "log_exercise",
            {"exercise_id": str(row.exercise_id), "duration_minutes": row.duration_minutes},
        )
    args = {
        "food_id": str(row.food_id),
        "food_name": row.food.name,
        "quantity": float(row.quantity) if quantity is None else quantity,
        "meal_type": row.meal_type,
    }
    if row.unit:
        args["unit"] = row.unit
    return ("log_food", args)


def _amount(entry: Remembered) -> str:
    """An entry's amount and calories as a reply says them: "1 slice (64 kcal)", "30 min"."""
    row = entry.row
    if entry.kind == "exercise":
        return f"{row.duration_minutes} min"
    kcal = entry_nutrients(row).get("calories")
    unit = f" {unit_text(row.quantity, row.unit)}" if row.unit else ""
    return f"{float(row.quantity):g}{unit}" + (f" ({round(kcal)} kcal)" if kcal is not None else "")


def _refusal(checked) -> str:
    """Why a call was refused, in the user's words: a food the catalog lacks by its name (the
    tool's own message is meant for a model)."""
    if checked.result.options or checked.result.data.get("refused"):
        name = (checked.arguments or {}).get("food_name")
        return f"I couldn't find {name!r} in the food catalog." if name else "I couldn't do that."
    return checked.result.message


def _short(entry: Remembered) -> str:
    return entry.names[0].split(",")[0].lower()


def _line(entry: Remembered) -> str:
    row = entry.row
    if entry.kind == "food":
        unit = f" {row.unit}" if row.unit else ""
        return f"{float(row.quantity):g}{unit} {entry.names[0]} ({row.meal_type})"
    return f"{entry.names[0]} {row.duration_minutes} min"
