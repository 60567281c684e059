"""Corrections Sparky makes itself, offline and in front of any model: the entry a correction
names is found among what the conversation saved (chat.turn.memory), and changed, deleted or
swapped through the diary's own tools and the one executor (chat.turn.execute), with undo; it is
never logged a second time. When it can't tell which entry, it asks, naming the candidates; when
nothing recent fits, the message goes on to the next answerer."""

from __future__ import annotations

import dataclasses
import math

from chat.reading.correction import WORKOUT_WORDS, Correction, says_a_slip, values_said
from chat.reading.replies import numeric_reply
from chat.tools import check_tool
from chat.tools.base import Written
from chat.turn.engines.dispatch import allowed_tools, gate
from chat.turn.execute import settle
from chat.turn.memory import (
    FITS,
    Remembered,
    fit,
    in_diary,
    in_order,
    last_saved,
    mentioned,
    named,
    recent_replies,
    remembered,
)
from chat.turn.types import CoachResponse, Turn
from chat.turn.undo import UndoRefused, reply_undo
from measurements import fields as checkin_fields
from measurements.fields import CHECKIN
from measurements.units import parse_unit
from nutrition.services import entry_nutrients, food_find_best
from nutrition.units import unit_text
from nutrition.vocabulary import KIND_WORDS
from sparky.words import singular

_EDIT = {"food": "edit_food_entry", "exercise": "edit_exercise_entry"}
_DELETE = {"food": "delete_food_entry", "exercise": "delete_exercise_entry"}


def correct(turn: Turn) -> CoachResponse | None:
    """The correction the message asks for, done; None when it asks none, or names nothing
    the conversation saved (another answerer reads it then). A message that says a slip about
    a food just saved, but that Sparky cannot read as a correction, is asked about rather than
    logged a second time."""
    if turn.image is not None:
        return None
    return _corrected(turn) or _not_twice(turn)


def _not_twice(turn: Turn) -> CoachResponse | None:
    """ "oh wait the eggs, hmm 3 really": a slip said of a food a recent reply saved, in words
    no rule reads. Logging it would put the food in the diary twice; Sparky asks instead."""
    reading = turn.reading
    if reading.kind in ("change",) or not says_a_slip(reading.text):
        return None
    said = [
        (i.data.get("food_name") if i.name == "log_food" else i.data.get("exercise_name"), kind)
        for i in reading.logs
        for kind in [{"log_food": "food", "log_exercise": "exercise"}.get(i.name)]
        if kind
    ]
    entries = remembered(turn.user, turn.history)
    again = [e for name, kind in said if name for e in named(entries, name, kind)[:1]]
    if not again:
        return None
    listed = "; ".join(_line(e) for e in again)
    return CoachResponse(
        action="none",
        engine="sparky",
        message=f"You logged that already ({listed}), so I didn't add it again. To change it, "
        f"say e.g. 'the {_short(again[0])} was 2' or 'delete the {_short(again[0])}'; to add "
        "more, say 'one more'.",
    )


def _corrected(turn: Turn) -> CoachResponse | None:
    correction = turn.reading.correction
    if correction is None:  # "hang on, scale said 63.4, i swapped the digits"
        return _checkin_fix(turn, None)
    if correction.action == "undo":
        return _undo(turn, correction)
    if correction.action == "again":
        return _again(turn, correction)
    if (fixed := _checkin_fix(turn, correction)) is not None:
        return fixed
    entries = remembered(turn.user, turn.history)
    kind = "exercise" if correction.minutes is not None or correction.distance else None
    if correction.action == "swap":
        kind = "food"
    said = set((correction.target or "").split())
    if said & WORKOUT_WORDS and not named(entries, correction.target, "exercise"):
        kind = "exercise"  # "delete that workout", "the last session"
        correction = dataclasses.replace(correction, target=None)
    elif "last" in said:  # "that last one", "the last thing i logged"
        correction = dataclasses.replace(correction, target=None)
    if correction.action == "delete" and not correction.target:
        # "there was no rice, can you remove it": the entry the message names elsewhere
        chosen = mentioned(last_saved(entries, kind), turn.text)
        if chosen:
            return _changed(turn, correction, chosen)
    if correction.target and (n := numeric_reply(correction.target)):
        chosen = in_order(entries)[n - 1 : n]  # "the first one was 2 cups"
    elif correction.target and " and " in correction.target:  # "pasta + garlic bread"
        parts = [named(entries, part, kind)[:1] for part in correction.target.split(" and ")]
        chosen = [e for found in parts for e in found] if all(parts) else []
    elif correction.target:
        chosen = named(entries, correction.target, kind)
    else:
        chosen = last_saved(entries, kind)
    if not chosen and _what_it_was(turn.user, correction):
        # "it was a tangerine" names no entry: the food just logged was a tangerine
        chosen = last_saved(entries, "food")
        if chosen and any(in_diary(turn.user, e.row.entry_date, correction.target) for e in chosen):
            return None  # "make that 3 eggs" of eggs logged elsewhere: not this entry's food
        correction = dataclasses.replace(correction, action="swap")
    if chosen and _another_food(turn.user, correction, chosen):
        # "the coffee was a tea": the entry named was another food
        correction = dataclasses.replace(correction, action="swap")
    if correction.action == "swap" and chosen:
        correction = _kind_of(turn.user, correction, chosen[0])
    if not chosen:
        return None
    several_ok = correction.meal is not None and (
        not correction.target or " and " in correction.target
    )
    if len(chosen) > 1 and not several_ok:
        return _which(chosen)
    return _changed(turn, correction, chosen)


def _changed(turn: Turn, correction: Correction, chosen: list[Remembered]) -> CoachResponse | None:
    """The chosen entries changed as the correction says, and the reply that says how."""
    calls = [call for entry in chosen for call in _calls(correction, entry)]
    if not calls:
        return None
    before = {str(e.row.id): _amount(e) for e in chosen}
    response = _done(turn, calls)
    if response.action == "logged":
        response.message = _said(turn, correction, chosen, before) or response.message
    return response


def _another_food(user, correction: Correction, chosen: list[Remembered]) -> bool:
    """Whether a change names, besides the entry, a food the entry is not ("the coffee was a
    tea"), one the catalog knows."""
    if correction.action != "change" or not correction.food or correction.meal:
        return False
    if correction.food == correction.target:
        return False  # "make it 3 eggs": the food named is the entry
    fits = any(fit(correction.food, name) >= FITS for e in chosen for name in e.names)
    return not fits and food_find_best(user=user, name=correction.food) is not None


def _kind_of(user, correction: Correction, entry: Remembered) -> Correction:
    """A swap to a kind of the entry's food said alone ("the rice was white", "they were whole
    wheat"): the kind with the entry's own word for it ("white rice", "whole wheat bread")."""
    if correction.food not in KIND_WORDS:
        return correction  # "the coffee was a tea": a food of its own
    food = correction.target or entry.names[0].split(",")[0].lower()
    kind = f"{correction.food} {food}"
    if food_find_best(user=user, name=kind) is None:
        return correction
    return dataclasses.replace(correction, food=kind, target=food)


def _what_it_was(user, correction: Correction) -> bool:
    """Whether a change of amount read from a food ("it was a tangerine", "no it was 500 ml of
    oj") says what the last food was, once no entry is that food: the catalog must know it."""
    return (
        correction.action == "change"
        and bool(correction.food)
        and correction.meal is None
        and food_find_best(user=user, name=correction.target or "") is not None
    )


def _amount(entry: Remembered) -> str:
    """An entry's amount and calories as a reply says them: "1 slice (64 kcal)", "30 min"."""
    row = entry.row
    if entry.kind == "exercise":
        return f"{row.duration_minutes} min"
    kcal = entry_nutrients(row).get("calories")
    unit = f" {unit_text(row.quantity, row.unit)}" if row.unit else ""
    return f"{float(row.quantity):g}{unit}" + (f" ({round(kcal)} kcal)" if kcal is not None else "")


def _said(turn: Turn, correction: Correction, chosen: list[Remembered], before: dict) -> str:
    """What was done, in plain words: "The toast is now 2 slices (128 kcal), not 1 slice (64
    kcal)."; "" to keep the tools' own lines."""
    fresh = remembered(turn.user, turn.history)
    now = {str(e.row.id): e for e in fresh}
    parts = []
    for entry in chosen:
        name = correction.target or _short(entry)
        after = now.get(str(entry.row.id))
        if correction.action == "delete":
            parts.append(f"Deleted the {name}, {before[str(entry.row.id)]}.")
        elif correction.action == "swap" or after is None:
            return ""
        elif correction.meal and correction.quantity is None:
            parts.append(f"Moved the {name} to {correction.meal}.")
        else:
            parts.append(f"The {name} is now {_amount(after)}, not {before[str(entry.row.id)]}.")
    return " ".join(parts)


# Recent replies a check-in fix looks back through: the weigh-in may be two messages back.
_CHECKIN_REPLIES = 3
# A value put right is near the one it replaces (a slip of a key or two digits swapped): at most
# this factor either way, when several fields could take it.
_NEAR = 2.0


def _checkin_fix(turn: Turn, correction: Correction | None) -> CoachResponse | None:
    """A number put right in a check-in a recent reply saved ("typo, 81.4", "its 59 not 95, fat
    fingers", "wrong, 10,500 steps", "the weight should be 76.5"): the same day's field saved
    again with it. The message must say it fixes something (a correction's signal, or "not" the
    old value), and the number must fit one field: the one it names, the only one saved, or the
    one whose value it is near."""
    if correction is not None and (correction.meal or correction.action not in ("change", "swap")):
        return None
    reading = turn.reading
    if correction is None and not says_a_slip(reading.text):
        return None
    saved = _saved_checkins(turn)
    if not saved:
        return None
    old = {name: value for name, (value, _) in saved.items()}
    numbers = [n for n in values_said(reading.text) if n not in old.values()]
    if not numbers:
        return None
    value = numbers[0]
    fields = list(saved)
    asked = checkin_fields.asked(reading.text.lower().split())
    named_fields = [field.name for _, found in asked for field in found]
    if named_fields:
        fields = [f for f in fields if f in named_fields]
    if len(fields) > 1:
        near = [f for f in fields if old[f] and 1 / _NEAR <= value / old[f] <= _NEAR]
        fields = sorted(near, key=lambda f: abs(math.log(value / old[f])))[:1]
    if len(fields) != 1:
        return None
    field = CHECKIN[fields[0]]
    if reading.kind != "change":  # read against what was saved, "its 59 not 95" is a fix
        turn.reading = dataclasses.replace(reading, kind="change")
    args = {field.name: value, "date": saved[field.name][1] or "today"}
    unit = correction.unit if correction is not None else None
    unit = parse_unit(field.kind.name, unit, "") if unit else ""
    if unit and field.kind.argument:
        args[field.kind.argument] = unit
    response = _done(turn, [("log_checkin", args)])
    if response.action == "logged":
        response.message = f"Fixed: {response.message[0].lower()}{response.message[1:]}"
    return response


def _saved_checkins(turn: Turn) -> dict[str, tuple[float, str | None]]:
    """The check-in values recent replies saved, by field, with the day each was for; the
    newest reply's value wins."""
    values: dict[str, tuple[float, str | None]] = {}
    for reply in recent_replies(turn.user, turn.history)[:_CHECKIN_REPLIES]:
        for entry in (reply.metadata.get("response") or {}).get("entries") or []:
            if not isinstance(entry, dict) or entry.get("kind") != "checkin":
                continue
            after = (entry.get("undo") or {}).get("after") or {}
            for name, value in after.items():
                if name in CHECKIN and value is not None and name not in values:
                    try:
                        values[name] = (float(value), entry.get("date"))
                    except (TypeError, ValueError):
                        continue
    return values


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
        if minutes is None:
            return []
        return [(_EDIT[kind], {"entry_id": str(row.id), "duration_minutes": minutes})]
    changes: dict = {}
    if correction.meal:
        changes["meal_type"] = correction.meal
    if correction.quantity is not None:
        changes["quantity"] = correction.quantity
        if correction.unit and singular(correction.unit) != singular(row.unit or ""):
            changes["unit"] = correction.unit  # the same unit keeps the entry's own size of it
    if not changes:
        return []
    return [(_EDIT[kind], {"entry_id": str(row.id), **changes})]


def _done(turn: Turn, calls: list[tuple[str, dict]]) -> CoachResponse:
    ctx = gate(turn, origin="parser")  # Sparky's own reading of the message
    allowed = allowed_tools(turn)
    batch = [check_tool(ctx, name, args, allowed=allowed) for name, args in calls]
    refused = [_refusal(c) for c in batch if not c.result.ok and not c.result.confirm]
    if refused:
        for c in batch:
            turn.record(c.name, c.result, c.raw)
        return CoachResponse(
            action="none", engine="sparky", message="Nothing changed: " + " ".join(refused)
        )
    question = settle(turn, batch)
    if question:
        return CoachResponse(action="confirm", engine="sparky", message=question)
    said = [c.done.message for c in batch if c.done is not None and c.done.message]
    return CoachResponse(action="logged", engine="sparky", message=" ".join(said))


def _refusal(checked) -> str:
    """Why a call was refused, in the user's words: a food the catalog lacks by its name (the
    tool's own message is meant for a model)."""
    if checked.result.options or checked.result.data.get("refused"):
        name = (checked.arguments or {}).get("food_name")
        return f"I couldn't find {name!r} in the food catalog." if name else "I couldn't do that."
    return checked.result.message


def _which(chosen: list[Remembered]) -> CoachResponse:
    listed = "; ".join(f"{n}. {_line(e)}" for n, e in enumerate(chosen, 1))
    return CoachResponse(
        action="none",
        engine="sparky",
        message=f"Which one did you mean? {listed}. Say it with its name, e.g. 'the "
        f"{_short(chosen[0])} was ...'. Nothing was changed.",
    )


def _short(entry: Remembered) -> str:
    return entry.names[0].split(",")[0].lower()


def _line(entry: Remembered) -> str:
    row = entry.row
    if entry.kind == "food":
        unit = f" {row.unit}" if row.unit else ""
        return f"{float(row.quantity):g}{unit} {entry.names[0]} ({row.meal_type})"
    return f"{entry.names[0]} {row.duration_minutes} min"


def _says(reply, word: str) -> bool:
    entries = ((reply.metadata or {}).get("response") or {}).get("entries") or []
    return any(word in str(e.get("summary") or "").lower() for e in entries if isinstance(e, dict))


def _undo(turn: Turn, correction: Correction) -> CoachResponse | None:
    """Take back the newest reply's saves (the one whose entries the words name, if they name
    any), through the same undo as the reply's button."""
    replies = recent_replies(turn.user, turn.history)
    if not correction.target:
        # "there was no rice, can you remove it": only the entry the message names
        entries = remembered(turn.user, turn.history)
        if chosen := mentioned(last_saved(entries), turn.text):
            return _changed(turn, dataclasses.replace(correction, action="delete"), chosen)
    if correction.target:
        fits = named(remembered(turn.user, turn.history), correction.target)
        word = correction.target.split()[-1]  # "the water": a reply whose saves say water
        replies = [e.reply for e in fits[:1]] or [r for r in replies if _says(r, word)][:1]
    if not replies:
        return CoachResponse(
            action="none",
            engine="sparky",
            message="There is nothing recent of yours to undo. Every entry in the diary beside "
            "the chat has Delete.",
        )
    reply = replies[0]
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


def _again(turn: Turn, correction: Correction) -> CoachResponse | None:
    """More of what was just logged, as it was logged: "another one" (one more of the last
    food), "2 more slices", "another glass" (of water, when water was the last), "same again"
    (all the last reply saved, in the same amounts). None when nothing recent fits: the message
    is then read as food of its own ("another orange" with no orange before)."""
    replies = recent_replies(turn.user, turn.history)
    if not replies:
        return None
    saved = (replies[0].metadata.get("response") or {}).get("entries") or []
    water = [e for e in saved if isinstance(e, dict) and e.get("kind") == "water"]
    entries = remembered(turn.user, turn.history)
    if correction.target:
        chosen = (
            named(entries, correction.target, "food")
            or [e for e in last_saved(entries, "food") if _counted_in(e, correction.target)][:1]
        )
        if not chosen and water and _counted_in(None, correction.target):
            return _done(turn, [("log_water", {"glasses": int(correction.quantity or 1)})])
    elif water and (not entries or entries[0].reply.pk != replies[0].pk):
        return _done(turn, [("log_water", {"glasses": int(correction.quantity or 1)})])
    else:
        chosen = last_saved(entries)
        if correction.quantity is not None:
            chosen = chosen[-1:]  # "another one": the last thing named
    if not chosen:
        return None
    return _done(turn, [_again_call(e, correction.quantity) for e in chosen])


def _counted_in(entry: Remembered | None, word: str) -> bool:
    """Whether `word` is the unit an entry was counted in ("another slice" of 2 slices of
    pizza); with no entry, whether it counts water ("another glass")."""
    said = singular(word.split()[-1])
    if entry is None:
        return said in ("glass", "bottle", "water", "cup")
    return bool(entry.row.unit) and singular(entry.row.unit.split()[0]) == said


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
