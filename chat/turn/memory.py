"""What the conversation remembers, and what a correction's words refer to in it: the entries
Sparky's recent replies saved (newest first, as they are now in the diary) and the check-in values
they saved. "the toast", "that", "the last one", "undo that", "another glass", "it was a tangerine"
are resolved here, once a turn (`refer`); chat.turn.corrections decides the change and has the
executor make it. Small models never carry ids, and neither does the user."""

from __future__ import annotations

import dataclasses
import re

from chat.models import ChatMessage
from chat.reading.correction import WORKOUT_WORDS, Correction
from chat.reading.message import Reading
from chat.reading.parser.tokens import take_quantity
from chat.reading.vocabulary import load
from chat.tools.lookup import name_score
from exercise.models import ExerciseEntry
from measurements.fields import CHECKIN
from measurements.models import CustomMeasurement
from nutrition.models import FoodEntry
from nutrition.services import food_find_best, food_words_spelled
from nutrition.vocabulary import KIND_WORDS

# The replies looked back through: about the last few things said.
REPLIES = 6
# Recent replies a check-in fix looks back through: the weigh-in may be two messages back.
CHECKIN_REPLIES = 3
# How well an entry's name must fit the words naming it.
FITS = 0.6


@dataclasses.dataclass(frozen=True)
class Remembered:
    """An entry a recent reply saved, still in the diary: `kind` "food" or "exercise"."""

    kind: str
    row: FoodEntry | ExerciseEntry
    reply: ChatMessage
    # How the reply said it: "a cup of oatmeal" (the user's words for the food).
    phrase: str = ""
    # The message the reply answered: "had a protein shake" names the whey powder it saved.
    asked: str = ""

    @property
    def names(self) -> tuple[str, ...]:
        if self.kind == "food":
            food = self.row.food
            return tuple(n for n in (food.readable_name, food.name, self.phrase) if n)
        return tuple(n for n in (self.row.exercise.name, self.phrase) if n)


_KINDS = {"food_entry": "food", "exercise_entry": "exercise"}


def recent_replies(user, history: list[ChatMessage]) -> list[ChatMessage]:
    """The recent replies that saved something and were not undone, newest first."""
    replies = [
        m
        for m in reversed(history)
        if m.message_type == ChatMessage.Type.ASSISTANT and not (m.metadata or {}).get("undone")
    ][:REPLIES]
    return [m for m in replies if ((m.metadata or {}).get("response") or {}).get("entries")]


def remembered(user, history: list[ChatMessage], replies: list[ChatMessage]) -> list[Remembered]:
    """The food and exercise entries the recent `replies` saved that are still in the diary,
    newest reply first (its entries in the order it saved them)."""
    out: list[Remembered] = []
    seen: set[str] = set()
    asked = _asked(history)
    for reply in replies:
        saved = [
            (_KINDS[e["kind"]], str(e["id"]), _said(e.get("phrase") or ""))
            for e in (reply.metadata["response"]["entries"] or [])
            if isinstance(e, dict) and e.get("kind") in _KINDS and str(e.get("id")) not in seen
        ]
        seen.update(pk for _, pk, _ in saved)
        foods = (
            FoodEntry.objects.for_user(user)
            .select_related("food")
            .in_bulk([pk for kind, pk, _ in saved if kind == "food"], field_name="pk")
        )
        workouts = (
            ExerciseEntry.objects.for_user(user)
            .select_related("exercise")
            .in_bulk([pk for kind, pk, _ in saved if kind == "exercise"], field_name="pk")
        )
        rows = {str(key): row for key, row in (*foods.items(), *workouts.items())}
        for kind, pk, phrase in saved:
            if (row := rows.get(pk)) is not None:
                out.append(Remembered(kind, row, reply, phrase, asked.get(reply.pk, "")))
    return out


def _asked(history: list[ChatMessage]) -> dict:
    """Each reply's pk -> the user's message it answered."""
    asked, last = {}, ""
    for message in history:
        if message.message_type == ChatMessage.Type.USER:
            last = message.content or ""
        elif message.message_type == ChatMessage.Type.ASSISTANT:
            asked[message.pk] = last
    return asked


def _stems(text: str) -> set[str]:
    return {w[:5] if len(w) > 5 else w for w in re.findall(r"[a-z]+", text.lower()) if len(w) > 2}


def fit(words: str, name: str) -> float:
    """How well the words naming an entry fit its name, 0..1: as a name (chat.tools.lookup), or
    by the stems of its words ("toast" is "White bread, toasted", "the run" is "Running")."""
    said = _stems(food_words_spelled(words))  # "the oj" is the orange juice
    shared = sum(1 for w in said if any(n.startswith(w) or w.startswith(n) for n in _stems(name)))
    return max(name_score(words, name), shared / len(said) if said else 0.0)


def _said(phrase: str) -> str:
    """The words of a reply's phrase without its numbers: "2 large eggs (143 kcal)" -> "large
    eggs"."""
    return " ".join(re.sub(r"\([^)]*\)|\d+(?:\.\d+)?", " ", phrase).split())


def named(entries: list[Remembered], words: str, kind: str | None = None) -> list[Remembered]:
    """The remembered entries `words` name ("toast", "the run"), best fits first; the newest
    reply's entry wins a tie."""
    scored = [
        (max(fit(words, n) for n in e.names), i, e)
        for i, e in enumerate(entries)
        if kind is None or e.kind == kind
    ]
    scored = [s for s in scored if s[0] >= FITS]
    if not scored:  # the user's own words for it: "that shake" of "had a protein shake"
        said = [
            e
            for e in entries
            if (kind is None or e.kind == kind) and e.asked and _said_in(words, e.asked)
        ]
        # of a reply that saved several, the words can't tell which; nor when the message named
        # the entry by its own name, or offered options for another part of it ("a coffee and a
        # donut" saved the coffee: "the donut" is not the coffee)
        alone = [
            e
            for e in said
            if sum(o.reply.pk == e.reply.pk for o in entries) == 1
            and not (e.reply.metadata or {}).get("options")
            and not _said_in(e.names[0].split(",")[0], e.asked)
        ]
        return alone
    best = max(s[0] for s in scored)
    return [e for score, _, e in sorted(scored, key=lambda s: (-s[0], s[1])) if best - score < 0.05]


def last_saved(entries: list[Remembered], kind: str | None = None) -> list[Remembered]:
    """The entries of the newest reply that saved any (of `kind`)."""
    fitting = [e for e in entries if kind is None or e.kind == kind]
    if not fitting:
        return []
    reply = fitting[0].reply
    return [e for e in fitting if e.reply.pk == reply.pk]


def in_order(entries: list[Remembered]) -> list[Remembered]:
    """The entries in the order they were saved, oldest first ("the first one", "the second")."""
    replies: dict = {}
    for entry in entries:
        replies.setdefault(entry.reply.pk, []).append(entry)
    return [entry for saved in reversed(list(replies.values())) for entry in saved]


def in_diary(user, day, words: str) -> bool:
    """Whether the user's diary holds a food on `day` that `words` name ("eggs")."""
    rows = FoodEntry.objects.for_user(user).on_date(day).select_related("food")
    return any(fit(words, row.food.name) >= FITS for row in rows)


def _said_in(words: str, message: str) -> bool:
    """Whether every word naming an entry was in the message that logged it."""
    said = _stems(words)
    return bool(said) and said <= _stems(message)


def mentioned(entries: list[Remembered], text: str) -> list[Remembered]:
    """The entries a message names in passing, by a word of their name or of the user's own
    for them ("there was no rice, remove it"); all of them or none when it names every one."""
    said = _stems(text)
    found = [e for e in entries if any(_stems(name.split(",")[0]) & said for name in e.names)]
    return found if len(found) < len(entries) else []


def _says(reply: ChatMessage, word: str) -> bool:
    entries = ((reply.metadata or {}).get("response") or {}).get("entries") or []
    return any(word in str(e.get("summary") or "").lower() for e in entries if isinstance(e, dict))


# What a custom measurement is remembered by among the check-in's fields: "custom:Body fat".
CUSTOM = "custom:"


def _checkins(user, replies: list[ChatMessage]) -> dict[str, tuple[float, str | None]]:
    """The check-in values recent replies saved, by field, with the day each was for, and the
    user's own measurements (`CUSTOM` and their name: "typo 21%" of a body fat); the newest
    reply's value wins."""
    values: dict[str, tuple[float, str | None]] = {}
    custom: list[str] = []
    for reply in replies[:CHECKIN_REPLIES]:
        for entry in (reply.metadata.get("response") or {}).get("entries") or []:
            if isinstance(entry, dict) and entry.get("kind") == "custom_measurement":
                custom.append(str(entry.get("id")))
            if not isinstance(entry, dict) or entry.get("kind") != "checkin":
                continue
            after = (entry.get("undo") or {}).get("after") or {}
            for name, value in after.items():
                if name in CHECKIN and value is not None and name not in values:
                    try:
                        values[name] = (float(value), entry.get("date"))
                    except (TypeError, ValueError):
                        continue
    rows = CustomMeasurement.objects.for_user(user).select_related("category").in_bulk(custom)
    found = {str(pk): row for pk, row in rows.items()}
    for pk in custom:  # newest first, as the replies are
        if (row := found.get(pk)) is not None:
            values.setdefault(CUSTOM + row.category.name, (float(row.value), str(row.entry_date)))
    return values


_REFERRING = load("changes")["correcting"]["parts"]
# "the previous one", "the one before": the entry saved before the last.
_BEFORE_THE_LAST = frozenset(_REFERRING["before_the_last"])
# Words that name all of what was just saved ("both", "all of them"), or the last two.
_BOTH = frozenset(_REFERRING["all_of_them"])
# What "another glass" counts when water was the last thing saved.
_WATER_UNITS = tuple(_REFERRING["water_units"])


def _counted_in(entry: Remembered | None, word: str) -> bool:
    """Whether `word` is the unit an entry was counted in ("another slice" of 2 slices of
    pizza); with no entry, whether it counts water ("another glass")."""
    said = word.split()[-1]
    units = _WATER_UNITS if entry is None else (entry.row.unit or "").split()[:1]
    return any(_same_word(said, unit) for unit in units)


def _same_word(said: str, word: str) -> bool:
    """One word, in any number: "slices" is "slice", "glasses" "glass", "cups" "cup"."""
    a, b = _stems(said), _stems(word)
    return bool(a and b) and all(any(x.startswith(y) or y.startswith(x) for y in b) for x in a)


@dataclasses.dataclass(frozen=True)
class Referred:
    """What a message refers to among what the conversation saved, resolved once a turn.

    `correction` is the one read, as the references make it: "it was a tangerine" of a banana
    just logged is a swap, "delete that workout" names no food. `entries` are the entries it
    names (more than one: Sparky asks which, unless the message moves them all); `reply` the
    reply an undo takes back; `water` whether "another glass" means water. `checkins` are the
    check-in values recent replies saved (a typo's number is put right in them), and
    `logged_again` the entries a message that says a slip names again ("oh wait the eggs, hmm
    3 really"), so they are not logged twice."""

    correction: Correction | None = None
    entries: tuple[Remembered, ...] = ()
    reply: ChatMessage | None = None
    water: bool = False
    checkins: dict = dataclasses.field(default_factory=dict)
    logged_again: tuple[Remembered, ...] = ()
    # Whether the message names each of `entries` ("there was no rice or beans, remove them"):
    # then all are changed, and Sparky does not ask which.
    each: bool = False
    # Whether the correction was read from a report of the entry said again with another amount
    # ("nope, 50 min swim"), not from the reader's own correction.
    amended: bool = False
    # Whether Sparky's last reply saved nothing of what the message before asked to log: an
    # "undo that" is of it, and there is nothing to take back.
    last_saved_nothing: bool = False


def refer(user, history: list[ChatMessage], reading: Reading) -> Referred:
    """What the message's correction (and its slip, if it says one) refers to."""
    replies = recent_replies(user, history)
    entries = remembered(user, history, replies)
    referred = Referred(
        correction=reading.correction,
        checkins=_checkins(user, replies),
        logged_again=tuple(_logged_again(entries, reading)),
    )
    correction = reading.correction
    if correction is not None and correction.of_meal:  # "the eggs from breakfast"
        entries = [e for e in entries if e.kind == "food" and e.row.meal_type == correction.of_meal]
    if correction is None and (amended := _amended(entries, reading)):
        correction, entry = amended
        return dataclasses.replace(
            referred, correction=correction, entries=(entry,), amended=True, logged_again=()
        )
    if correction is None or not replies:
        return referred
    if correction.action == "undo":
        return _undo_refers(referred, entries, replies, history, correction, reading.text)
    if correction.action == "again":
        return _again_refers(referred, entries, replies, correction)
    return _change_refers(user, referred, entries, correction, reading.text)


def _amended(entries: list[Remembered], reading: Reading) -> tuple[Correction, Remembered] | None:
    """A food or workout just saved, reported again with another amount after a slip ("nope,
    50 min swim", "weights took 30 mins, not 15", "i only had 100g of the chicken"): a change
    of that entry, never a second one."""
    if reading.kind == "change" or not reading.slip:
        return None
    for intent in reading.logs:
        data = intent.data or {}
        if intent.name == "log_exercise":
            found = named(entries, data.get("exercise_name") or "", "exercise")[:1]
            minutes = data.get("duration_minutes")
            if minutes is None and len(reading.numbers) == 1 and not data.get("distance"):
                minutes = reading.numbers[0]  # "nah swam 45": a workout's bare number is minutes
            if found and minutes and int(minutes) != found[0].row.duration_minutes:
                return Correction("change", minutes=int(minutes)), found[0]
        elif intent.name == "log_food" and data.get("quantity") is not None:
            found = named(entries, data.get("food_name") or "", "food")[:1]
            if not found:
                continue
            row = found[0].row
            quantity, unit = float(data["quantity"]), data.get("unit")
            if quantity != float(row.quantity) or (unit and not _same_word(unit, row.unit or "")):
                return Correction("change", quantity=quantity, unit=unit), found[0]
    return None


def _logged_again(entries: list[Remembered], reading: Reading) -> list[Remembered]:
    if reading.kind == "change" or not reading.slip:
        return []
    said = [
        (i.data.get("food_name") if i.name == "log_food" else i.data.get("exercise_name"), kind)
        for i in reading.logs
        for kind in [{"log_food": "food", "log_exercise": "exercise"}.get(i.name)]
        if kind
    ]
    return [e for name, kind in said if name for e in named(entries, name, kind)[:1]]


def _undo_refers(referred, entries, replies, history, correction: Correction, text) -> Referred:
    """The newest reply's saves (the one whose entries the words name, if they name any); or,
    with no words for it, only the entry the message names elsewhere ("there was no rice, can
    you remove it")."""
    if not correction.target and (chosen := mentioned(last_saved(entries), text)):
        delete = dataclasses.replace(correction, action="delete")
        return dataclasses.replace(referred, correction=delete, entries=tuple(chosen), each=True)
    if correction.target:
        fits = named(entries, correction.target)
        word = correction.target.split()[-1]  # "the water": a reply whose saves say water
        replies = [e.reply for e in fits[:1]] or [r for r in replies if _says(r, word)][:1]
    elif _tried_and_saved_nothing(history):
        # "a kitkat" went unlogged: "undo that" is of it, not of the soup before
        return dataclasses.replace(referred, last_saved_nothing=True)
    return dataclasses.replace(referred, reply=replies[0] if replies else None)


def _tried_and_saved_nothing(history: list[ChatMessage]) -> bool:
    """Whether Sparky's last reply answered a message it could not log (options, a question,
    nothing understood) and saved nothing."""
    assistant = ChatMessage.Type.ASSISTANT
    last = next((m for m in reversed(history) if m.message_type == assistant), None)
    response = ((last.metadata or {}).get("response") or {}) if last is not None else {}
    return response.get("action") in ("none", "options", "confirm") and not response.get("entries")


def _again_refers(referred, entries, replies, correction: Correction) -> Referred:
    """What "another one", "2 more slices", "another glass", "same again" mean: the last food
    named or counted so, water when water was the last, or all the last reply saved."""
    saved = (replies[0].metadata.get("response") or {}).get("entries") or []
    water = any(isinstance(e, dict) and e.get("kind") == "water" for e in saved)
    if correction.target:
        chosen = (
            named(entries, correction.target, "food")
            or [e for e in last_saved(entries, "food") if _counted_in(e, correction.target)][:1]
        )
        if not chosen and water and _counted_in(None, correction.target):
            return dataclasses.replace(referred, water=True)
    elif water and (not entries or entries[0].reply.pk != replies[0].pk):
        return dataclasses.replace(referred, water=True)
    else:
        chosen = last_saved(entries)
        if correction.quantity is not None:
            chosen = chosen[-1:]  # "another one": the last thing named
    return dataclasses.replace(referred, entries=tuple(chosen))


def _change_refers(user, referred, entries, correction: Correction, text: str) -> Referred:
    """The entries a change, delete, swap or move names, and the correction as they make it."""
    kind = "exercise" if correction.minutes is not None or correction.distance else None
    if correction.action == "swap":
        kind = "food"
    said = set((correction.target or "").split())
    if said & WORKOUT_WORDS and not named(entries, correction.target, "exercise"):
        kind = "exercise"  # "delete that workout", "the last session"
        correction = dataclasses.replace(correction, target=None)
    elif "last" in said:  # "that last one", "the last thing i logged"
        correction = dataclasses.replace(correction, target=None)
    before_the_last = bool(said & _BEFORE_THE_LAST) and len(entries) > 1
    if before_the_last:  # "the previous one was a tea": the entry before the last
        correction = dataclasses.replace(correction, target=None)
    counted = list(said - {"last", "the", "things", "ones", "entries"})  # "the last two"
    count = (
        take_quantity(counted, 0, articles=False)[0]
        if "last" in said and len(counted) == 1
        else None
    )
    if count and count == int(count) and count > 1:  # "the last two", "the last 3 things"
        count = int(count)
        chosen = tuple(e for e in entries if kind is None or e.kind == kind)[:count]
        correction = dataclasses.replace(correction, target=None)  # "remove the last two"
        return dataclasses.replace(referred, correction=correction, entries=chosen, each=True)
    if said and said <= _BOTH:  # "move both to breakfast", "all of them were lunch"
        # of one reply that saved several, all it saved ("a cappuccino and a croissant" may be
        # three rows); else the last two things saved
        chosen = last_saved(entries, kind)
        if "both" in said and len(chosen) < 2:
            chosen = [e for e in entries if kind is None or e.kind == kind][:2]
        correction = dataclasses.replace(correction, target=None)
        chosen = tuple(chosen)
        return dataclasses.replace(referred, correction=correction, entries=chosen, each=True)
    chosen: list[Remembered] = []
    if correction.action == "delete" and not correction.target:
        # "there was no rice, can you remove it": the entry the message names elsewhere
        chosen = mentioned(last_saved(entries, kind), text)
    if chosen:
        return dataclasses.replace(
            referred, correction=correction, entries=tuple(chosen), each=True
        )
    if before_the_last:
        chosen = [entries[1]]
    elif correction.target and (n := correction.ordinal):
        chosen = in_order(entries)[n - 1 : n]  # "the first one was 2 cups"
    elif correction.target and " and " in correction.target:  # "pasta + garlic bread"
        parts = [named(entries, part, kind)[:1] for part in correction.target.split(" and ")]
        chosen = [e for found in parts for e in found] if all(parts) else []
    elif correction.target:
        chosen = named(entries, correction.target, kind)
    else:
        chosen = last_saved(entries, kind)
    if not chosen and _what_it_was(user, correction):
        # "it was a tangerine" names no entry: the food just logged was a tangerine
        chosen = last_saved(entries, "food")
        if chosen and any(in_diary(user, e.row.entry_date, correction.target) for e in chosen):
            return referred  # "make that 3 eggs" of eggs logged elsewhere: not this entry's food
        correction = dataclasses.replace(correction, action="swap")
    if chosen and _another_food(user, correction, chosen):
        # "the coffee was a tea": the entry named was another food
        correction = dataclasses.replace(correction, action="swap")
    if correction.action == "swap" and chosen:
        correction = _kind_of(user, correction, chosen[0])
    return dataclasses.replace(referred, correction=correction, entries=tuple(chosen))


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
