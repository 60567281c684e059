"""What the conversation remembers: the entries Sparky's recent replies saved, newest first, as
they are now in the diary. "the toast", "that", "the last one", "undo that" are read against it
(chat.turn.corrections); small models never carry ids, and neither does the user."""

from __future__ import annotations

import dataclasses
import re

from chat.models import ChatMessage
from chat.tools.lookup import name_score
from exercise.models import ExerciseEntry
from nutrition.models import FoodEntry
from nutrition.services import food_words_spelled

# The replies looked back through: about the last few things said.
REPLIES = 6
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


def remembered(user, history: list[ChatMessage]) -> list[Remembered]:
    """The food and exercise entries recent replies saved that are still in the diary, newest
    reply first (its entries in the order it saved them)."""
    out: list[Remembered] = []
    seen: set[str] = set()
    asked = _asked(history)
    for reply in recent_replies(user, history):
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
        alone = [e for e in said if sum(o.reply.pk == e.reply.pk for o in entries) == 1]
        return alone  # of a reply that saved several, the words can't tell which
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
