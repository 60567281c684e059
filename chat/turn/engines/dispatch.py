"""From intents (the offline parser's, or a model's intent JSON) to tool calls: each intent becomes
the calls a model would have made, run through the registry (chat.tools.run_tool) with the turn's
allowed tools (a Manual pick is a ceiling) and the grounding for its origin, so every path to the
diary passes the same gate the agent loop's calls pass: nothing is logged for a message the
turn's reading says reports nothing (a wish, a plan, a negation, a question, someone else's)."""

from __future__ import annotations

from django.core.exceptions import ValidationError

from chat.categories import LABELS
from chat.reading.parser.reading import not_understood
from chat.tools import Checked, check_tool, run_tool
from chat.tools.base import logged_sentence, registry
from chat.turn.answers import answer_question
from chat.turn.engines.machinery import not_an_answer
from chat.turn.execute import allowed_tools, gate, question_for, settle
from chat.turn.types import OFFLINE_HELP, CoachResponse, Turn
from measurements.fields import CHECKIN
from measurements.services import STANDARD_TYPES
from measurements.units import parse_unit
from nutrition.services import food_words_known, meal_to_repeat, usual_meal_items


def intent_calls(intent) -> list[tuple[str, dict]]:
    """The tool calls an intent stands for."""
    data = intent.data or {}
    if intent.name == "log_food":
        keys = ("food_name", "quantity", "unit", "meal_type", "date")
        call = {k: data.get(k) for k in keys}
        if data.get("food_id"):  # the told meal's reader chose the catalog food
            call["food_id"] = data["food_id"]
        return [("log_food", call)]
    if intent.name == "log_exercise":
        keys = ("exercise_name", "duration_minutes", "distance", "distance_unit", "date")
        return [("log_exercise", {k: data.get(k) for k in keys})]
    if intent.name == "set_goals":  # offline only: the parser's goal sentences
        return [("set_goals", dict(data))]
    if intent.name == "log_external":  # offline only: "a burger, about 600 cal"
        return [("log_external_food", {k: v for k, v in data.items() if v is not None})]
    if intent.name == "log_water":
        return [("log_water", {"glasses": data.get("glasses_consumed"), "date": data.get("date")})]
    if intent.name == "log_measurement":
        calls: list[tuple[str, dict]] = []
        by_date: dict = {}
        for m in data.get("measurements") or []:
            kind = (m.get("type") or "").lower()
            unit = (m.get("unit") or "").lower() or None
            if kind == "custom":
                calls.append(
                    (
                        "log_custom_measurement",
                        {
                            "name": m.get("name"),
                            "value": m.get("value"),
                            "unit": m.get("unit"),
                            "date": m.get("date"),
                        },
                    )
                )
                continue
            args = by_date.setdefault(m.get("date"), {"date": m.get("date")})
            args[kind] = m.get("value")
            field = CHECKIN.get(kind)
            given_in = field.kind if field is not None else None
            if unit and given_in is not None and given_in.argument:
                try:  # the tool's enums ("kg"/"lb"); an odd unit is left for it to refuse
                    args[given_in.argument] = parse_unit(given_in.name, unit, unit)
                except ValidationError:
                    args[given_in.argument] = unit
        calls[:0] = [("log_checkin", args) for args in by_date.values()]
        return calls
    return []


def _repeat_calls(turn: Turn, data: dict, lines: list[str]) -> list[tuple[str, dict]]:
    """log_food calls that log a meal of another day again, today, as it was logged there (the
    rule of what is repeated is nutrition's: `meal_to_repeat`)."""
    try:
        to_meal, entries = meal_to_repeat(
            user=turn.user,
            from_date=data.get("from"),
            meal=data.get("meal"),
            to_meal=data.get("to_meal"),
        )
    except ValidationError as exc:
        plain = exc.code in ("same_meal", "nothing_to_repeat")
        lines.append(exc.messages[0] if plain else f"Not saved: {exc.messages[0]}")
        return []
    return [
        (
            "log_food",
            {
                "food_name": entry.food.name,
                "food_id": str(entry.food_id),
                "quantity": float(entry.quantity),
                "unit": entry.unit,
                "meal_type": to_meal,
            },
        )
        for entry in entries
    ]


def _usual_calls(turn: Turn, data: dict, lines: list[str]) -> list[tuple[str, dict]]:
    """log_food calls for each item of the user's usual meal, as it was saved."""
    try:
        meal, items = usual_meal_items(user=turn.user, meal=data.get("meal"))
    except ValidationError as exc:
        lines.append(exc.messages[0])
        return []
    return [
        (
            "log_food",
            {
                "food_name": item["food"].name,
                "food_id": str(item["food"].id),
                "quantity": float(item["quantity"]),
                "unit": item["unit"],
                "meal_type": data.get("to_meal") or meal,
            },
        )
        for item in items
    ]


def _names_food(args: dict) -> bool:
    """Whether every word of a bare name is in some food's name ("fruit", "nuts"), so options
    make sense; "watched football" or "lol" were not food."""
    return food_words_known(str(args.get("food_name") or ""))


# What the user reads when their message reports nothing and an engine asked to log something.
NOTHING_LOGGED = {
    "negation": "Nothing logged: you said you didn't have it.",
    "plan": "Nothing logged yet: tell me once it's done and I'll log it.",
    "wish": "Nothing logged: that sounds like something you'd like to do, not something done.",
    "habit": "Nothing logged: tell me what you had today and I'll log it.",
    "others": "Nothing logged: I log only your own food and activity.",
    "chat": "Nothing logged.",
}


# A negation of a workout ("skipped the gym today") is no food not had.
_NOT_DONE = "Nothing logged: you said you didn't do it."


def nothing_logged(reading) -> str:
    """What the user reads when their message reports nothing, in the words of its domain."""
    said = reading.categories
    if reading.kind == "negation" and "exercise" in said and "food" not in said:
        return _NOT_DONE
    return NOTHING_LOGGED[reading.kind]


def _switched_off(name: str) -> str:
    tool = registry().get(name)
    label = LABELS.get(tool.category, tool.category) if tool is not None else "That category"
    return (
        f"Not saved: {label} is switched off (you chose Manual). Tick {label}, or switch to Auto, "
        "to log it."
    )


def _line(turn: Turn, lines: list[str], name: str, result) -> None:
    refused = result.data.get("refused") if not result.ok else None
    if refused == "not_offered":
        if (line := _switched_off(name)) not in lines:
            lines.append(line)
        return
    if refused == "ungrounded":
        reading = turn.reading
        if reading is not None and reading.reports_nothing and not reading.asks:
            line = nothing_logged(reading)
        else:
            line = "Nothing logged: I couldn't match that to what you said."
        if line not in lines:
            lines.append(line)
        return
    if result.confirm:
        lines.append(result.confirm)
    elif _only_logged(turn, result):  # joined with the turn's other logged rows: one sentence
        if LOGGED not in lines:
            lines.append(LOGGED)
    elif result.ok or not result.options:
        lines.append(result.message if result.ok else f"Not saved: {result.message}")


_CHECKIN_FIELDS = frozenset(STANDARD_TYPES)
# Where the turn's "Logged ..." sentence goes among its lines.
LOGGED = "\x00logged"


def _only_logged(turn: Turn, result) -> bool:
    """Whether a call's whole message is the sentence of the rows it logged."""
    rows = result.written
    if not (result.ok and rows and all(w.phrase for w in rows)):
        return False
    return result.message == logged_sentence(rows, turn.user)


def said_lines(turn: Turn, lines: list[str]) -> str:
    """The reply's lines, the rows logged by the turn joined into one sentence where the first
    of them was."""
    rows = [w for w in turn.written if w.phrase]
    sentence = logged_sentence(rows, turn.user) if rows else ""
    return "\n".join(sentence if line == LOGGED else line for line in lines if line)


def dispatch_intents(
    turn: Turn, intents, *, engine: str, bare_food=False, only_if_sure=False, profile="full"
) -> CoachResponse | None:
    """Run what the intents propose through the executor (chat.turn.execute): every call
    checked, then held for the user or written at once. `only_if_sure` (Sparky reading first in
    front of a model): None, with nothing written, unless every call is a plain save or the
    diary's own refusal, with nothing to choose from or to confirm."""
    origin = "intent-json" if engine == "intent-json" else "parser"
    ctx = gate(turn, origin=origin, profile=profile if origin == "intent-json" else "full")
    lines: list = []
    batch, hunches, answered = check_intents(turn, ctx, intents, lines, bare_food)
    if only_if_sure and not _sure(turn, batch, hunches):
        return None
    question = settle(turn, batch)
    if question:  # out of range or too much at once: nothing written, the user is asked
        return CoachResponse(action="confirm", message=question, engine=engine)
    if hunches and not turn.written:
        # Bare words the catalog does not know were probably not food at all.
        return CoachResponse(
            action="none", engine=engine, message=f"{not_understood(turn.text)} {OFFLINE_HELP}"
        )
    for checked in hunches:
        turn.record(checked.name, checked.result, checked.raw)
        lines.append(checked)
    said: list[str] = []
    for line in lines:
        if isinstance(line, Checked):
            _note(turn, ctx, said, line)
        else:
            said.append(line)
    if not said and not turn.option_requests:
        said.append(f"Sorry, I didn't understand that. {OFFLINE_HELP}")
    action = "logged" if turn.written else ("answered" if answered else "none")
    return CoachResponse(action=action, message=said_lines(turn, said), engine=engine)


def _sure(turn: Turn, batch: list[Checked], hunches: list[Checked]) -> bool:
    """Whether a batch saves (or is refused by the diary's rules: "-3 is not an amount", as sure
    an answer as a save) with nothing for the user to choose or confirm: a food to choose or an
    amount to confirm is a question a model may read better."""
    results = [c.result for c in [*batch, *hunches]]
    if any(r.options or r.confirm for r in results):
        return False
    refused = any(not r.ok and not r.data.get("refused") for r in results)
    saves = any(c.keeps for c in batch)
    if not (saves or refused or turn.reading.diary_command):
        return False
    return question_for(turn, batch) is None


def check_intents(turn: Turn, ctx, intents, lines: list, bare_food: bool = False):
    """Each intent's calls, checked and nothing written: (the batch to settle, the calls held
    back as hunches — bare words that may not be food —, whether a question was answered).
    `lines` gets the reply's lines in order, a checked call standing for its own line."""
    answered = False
    allowed = allowed_tools(turn)
    batch: list[Checked] = []
    hunches: list[Checked] = []
    for intent in intents:
        if intent.name in ("ask_question", "chat"):
            answered = True
            lines.append(_answer_line(turn, intent.response))
            continue
        if intent.name == "repeat_meal":  # offline only: "same breakfast as yesterday"
            calls = _repeat_calls(turn, intent.data, lines)
        elif intent.name == "usual_meal":  # "log my usual breakfast"
            calls = _usual_calls(turn, intent.data, lines)
        elif intent.name == "save_usual_meal":  # "save this as my usual breakfast"
            calls = [("update_preferences", {"save_usual_meal": intent.data.get("meal") or ""})]
        else:
            calls = intent_calls(intent)
        for name, args in calls:
            checked = check_tool(ctx, name, args, allowed=allowed)
            result = checked.result
            hunch = bare_food or intent.tentative
            if hunch and not result.ok and not result.confirm and not _names_food(args):
                if intent.tentative and not bare_food:  # a part of the message, not all of it
                    lines.append(
                        f"I couldn't tell what {args.get('food_name')!r} was, so I left it out."
                    )
                    continue
                hunches.append(checked)  # food only if another name of it was
                continue
            batch.append(checked)
            lines.append(checked)
    return batch, hunches, answered


def _answer_line(turn: Turn, response: str | None) -> str:
    """The line answering what a message asks or says: the engine's own words, unless they say
    the message back or refuse it; then Sparky's own reply to small talk, or its answer."""
    if turn.reading is None or (response and not not_an_answer(response, turn.reading)):
        return response.strip() if response else answer_question(user=turn.user, text=turn.text)
    social = [i.response for i in turn.reading.parse.intents if i.name == "chat" and i.response]
    if social:
        return social[0].strip()
    if turn.reading.kind in NOTHING_LOGGED and not turn.reading.asks:
        return nothing_logged(turn.reading)
    return answer_question(user=turn.user, text=turn.text)


def _note(turn: Turn, ctx, lines: list[str], checked: Checked) -> None:
    """The line a call's result gives the reply. A check-in refused whole is tried field by
    field: one refused value must not cost the others."""
    result = checked.done or checked.result
    args = checked.arguments or {}
    several = len(_CHECKIN_FIELDS & set(args)) > 1
    if checked.name == "log_checkin" and not result.ok and several and not result.data:
        turn.refusals.remove(result.message)  # not news: each value is said on its own
        for field in _CHECKIN_FIELDS & set(args):
            alone = {k: v for k, v in args.items() if k not in _CHECKIN_FIELDS - {field}}
            one = run_tool(ctx, checked.name, alone)
            turn.record(checked.name, one)
            _line(turn, lines, checked.name, one)
        turn.announce_saved()
        return
    _line(turn, lines, checked.name, result)
