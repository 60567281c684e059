"""Scoring an evaluation set: what a message put in the diary, held against what it should have.

A case is one JSON object per line of a `.jsonl` file:

    {"id": "pretzels-small-bag", "text": "a small bag of pretzels", "tags": ["container"],
     "expect": {"food": {"entries": 1, "kcal": [90, 180]}}}

`before` (optional) lists messages sent first, unscored (a pick needs its options; "same again"
needs a first meal). `expect` says what the scored message writes; every domain it does not name
must receive nothing, so `"expect": {}` means "nothing at all is written":

- food: entries (exact count), kcal [low, high] for all the message's entries together,
  names (a word each entry's food name must contain, in order), meal (every entry's meal).
- exercise: entries, minutes [low, high] in all, kcal [low, high] in all.
- checkin: {"weight": [low, high], "waist": [...], "steps": [...]} in the user's units (kg, cm).
- custom: {"Sleep": [low, high]} by category name (case-insensitive).
- water: glasses added.
- goals: {"calories": 2000, "protein": 150} values of the default goal after the message.
- asks: true when the reply must ask something back (options, a confirmation) with nothing written
  unless `food`/... say otherwise.

Added later, all optional (a case without them is judged exactly as before):

- reply: texts the reply must contain, case-insensitive; an item that is a list is satisfied by any
  one of its texts: `"reply": [["coke", "cola"], "100"]` (the refusal names the item and the amount;
  "82.5 kg" for units on numbers).
- offers: words for the options the reply lists (CoachResponse.options): every option's name must
  contain at least one of them, case-insensitive ("turkey sandwich" may offer a sandwich or a sub,
  never plain roast turkey). No options at all passes; pair it with `asks` to require a question.
- asks: "options" is stricter than true: the reply must list options to pick from (action
  "options", e.g. a dish the catalog lacks), not merely refuse. asks: false forbids asking back
  (action "options" or "confirm"): "my son had 3 pancakes" is no food to look up.
- food.kcal_offered: N, after a `before` that ended with options: the food written must have the
  calories option N showed (within 2 % or 2 kcal), "a pick logs exactly what it showed".
- diary: what the user's whole diary holds after the scored message, `before` turns' entries
  included, for a message that changes what is there (a correction, an undo, "one more"), however
  it got there (an entry edited in place, or removed and written again). A domain it names is
  judged on the diary instead of on what the message added:
  `"diary": {"food": {"entries": 2, "kcal": [250, 420], "names": ["toast", "egg"]}}`.
  food: entries (a count, or [low, high]), kcal [low, high] of all entries, names (words each
  found in a different entry's food name, in any order), meal (every entry's meal), meals
  ({"lunch": 1, "breakfast": 2}: entries per meal); exercise: entries, minutes, kcal in all;
  checkin: {"weight": [low, high]}: every value held for the field (one a day) in range, at least
  one; water: glasses in all (a number or [low, high]).

For questions (question_cases.jsonl):

- reply_number: [low, high, unit]: a number in the reply, followed by that unit ("kcal", "g",
  "mg", "glass", "min", "kg", or "left" for "1,895 left"), is within the range; without a unit,
  any number of the reply. Numbers may carry thousands commas ("2,000").
  Numbers that are part of a date or a time of day ("2026-12-02", "7:30", "7pm") are not read.
- reply_not: texts the reply must not contain ("apple" when only lunch was asked about).

Every reply of every set, the `before` turns' replies included, is also checked for machinery
(`machinery`, the patterns in MACHINERY): a model file or server address, a tool's name, an
escalation notice, a step count, an exception, raw JSON: a case whose replies show any fails,
whatever else it got right, and `report` counts those replies on their own line ("machinery: N
replies"). It also counts the messages that report nothing (a case whose `expect` names no diary
domain: questions, advice, small talk, wishes, plans, negations, other people) that wrote anything
anyway ("nothing-writes: N of M"; a case that expects a question back, `asks`, is about something
reported and is not counted); `before` turns run first on the same user, so a question about
the user's own data is asked of what they logged.

Unknown keys in `expect` (or in its food/exercise parts) are refused when the file is loaded, so a
misspelt expectation cannot pass silently.

A case passes when every expectation holds. `judge` returns what did not, in plain words.

`evaluate(cases)` runs a set the way bench/diary_eval.py and tests/evals/test_diary_eval.py do: each
case as a fresh user (UTC, default preferences) in a transaction that is rolled back afterwards, at
a fixed moment (FROZEN_AT, a Wednesday 12:30 UTC, so a bare "a banana" is lunch), through the
coach's `handle_turn` (offline when no AI service is configured). A message the coach refuses before
the turn starts (TurnRejected: empty, too long) counts as a reply with action "none"; a crash is a
failed case, never an aborted run. `tag_scores` and `report` summarise the results.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import re
import traceback
import uuid
from collections.abc import Callable, Iterable
from decimal import Decimal
from pathlib import Path

HERE = Path(__file__).resolve().parent
DIARY_CASES = HERE / "diary_cases.jsonl"
# The sets, by the name bench/diary_eval.py and bench/model_eval.py take with --set.
SETS = {
    "diary": DIARY_CASES,
    "model": HERE / "model_cases.jsonl",
    "questions": HERE / "question_cases.jsonl",
    # Written apart from the parser and never to be tuned on (its file says why): no floor.
    "unseen": HERE / "unseen_question_cases.jsonl",
    # Meals told in sentences, written apart from the reader (its file says how): floored.
    "told": HERE / "told_meal_cases.jsonl",
    # A second batch of told meals, written apart from the reader and measured once: no floor yet.
    "told2": HERE / "told_meal_cases_2.jsonl",
    # Conversations (corrections, questions per domain, advice, wishes, plans) written apart from
    # the reader, NOT TO BE TUNED ON (its file says why): floored at its first measure.
    "conversation": HERE / "conversation_cases.jsonl",
    # A second conversation set, written apart from the reader after the first was tuned on, NOT
    # TO BE TUNED ON (its file says why): floored at its first measure.
    "conversation2": HERE / "conversation_cases_2.jsonl",
    # A third conversation set, written apart from the reader like the second, as a DEVELOPMENT
    # set: read and tuned on (its file says so), floored at its first measure.
    "conversation3": HERE / "conversation_cases_3.jsonl",
    # A fourth, UNSEEN conversation set (its file says why), floored at its first measure.
    "conversation4": HERE / "conversation_cases_4.jsonl",
    # A fifth conversation set (issue 45), written by an outsider in everyday voices (slang, typos,
    # British and Australian words, gym notation, rambling, sloppy corrections): measured once
    # unread, then a DEVELOPMENT set (its file says so).
    "conversation5": HERE / "conversation_cases_5.jsonl",
    # A sixth conversation set (issue 45), written by an outsider in everyday voices (dictation,
    # regional Englishes, gym shorthand, combos, decimal commas): UNSEEN, NOT TO BE TUNED ON.
    "conversation6": HERE / "conversation_cases_6.jsonl",
}
FROZEN_AT = dt.datetime(2026, 12, 2, 12, 30, tzinfo=dt.UTC)  # a Wednesday, lunch time
EXPECT_KEYS = frozenset(
    {
        "food", "exercise", "checkin", "custom", "water", "goals", "asks", "reply", "offers",
        "reply_number", "reply_not", "diary",
    }
)  # fmt: skip
# What a user must never read: the machinery behind an answer. One list, checked on every reply of
# every set (diary, real-model, questions), offline and with a model; the tools' own names are
# added from the registry (`tool_names`). In order: model files, paths and server addresses; the
# agent loop's notes (a server named by its kind, "answered as if", step counts); escalation
# notices; the word "tool" itself (a user logs food, they do not call tools); raw JSON; Python
# tracebacks and exception names.
MACHINERY = (
    re.compile(r"\.gguf\b|/root/|/home/|\.cache/|https?://(127\.0\.0\.1|localhost)", re.I),
    re.compile(r"OpenAI-compatible server|answered as if|without a final answer", re.I),
    re.compile(r"\bI stopped after\b|\b\d+ steps without\b", re.I),
    re.compile(r"\bEnabled (food|exercise|checkin|goals|coaching|vision|profile|reports)\b"),
    re.compile(r"Their tools are available|sparky_enable_tools|was not offered on this step"),
    re.compile(r"\btools?\b", re.I),
    re.compile(r"\{\s*\""),
    re.compile(
        r"Traceback \(most recent call last\)|\b[A-Z]\w*(Error|Exception)\b|\bException\b|\bError:"
    ),
)
# Dates and times of day, blanked before reply_number reads a reply's numbers.
_DATES_AND_TIMES = re.compile(
    r"\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}:\d{2}(?:\s*[ap]\.?m\.?)?|\b\d{1,2}\s*[ap]\.?m\b", re.I
)
# The diary domains a case's `expect` may name; a case naming none reports nothing done.
WRITE_DOMAINS = ("food", "exercise", "checkin", "custom", "water", "goals")
_UNITS = {
    "kcal": r"(?:kcal|cal|cals|calories)\b",
    "g": r"(?:g|grams?)\b",
    "mg": r"(?:mg|milligrams?)\b",
    "glass": r"(?:glass|glasses)\b",
    "min": r"(?:min|mins|minutes)\b",
    "kg": r"(?:kg|kilos?)\b",
    "left": r"(?:kcal\s+)?(?:left|remaining)\b",
}
_NUMBER = r"(?<![\w.])(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)"


def tool_names() -> list[str]:
    from chat.tools import ENABLE_TOOL_NAME
    from chat.tools.base import registry

    return [*registry(), ENABLE_TOOL_NAME]


def machinery(reply: str) -> list[str]:
    """The machinery a reply shows, as found; empty when it reads as plain words."""
    found = [m.group(0) for pattern in MACHINERY if (m := pattern.search(reply))]
    found += [name for name in tool_names() if re.search(rf"\b{re.escape(name)}\b", reply)]
    return found


FOOD_KEYS = frozenset({"entries", "kcal", "names", "meal", "kcal_offered"})
EXERCISE_KEYS = frozenset({"entries", "minutes", "kcal"})
DIARY_KEYS = {
    "food": frozenset({"entries", "kcal", "names", "meal", "meals"}),
    "exercise": EXERCISE_KEYS,
    "checkin": None,
    "water": None,
}
GOAL_FIELDS = ("calories", "protein", "carbs", "fat", "water_goal")


@dataclasses.dataclass(frozen=True)
class Case:
    id: str
    text: str
    expect: dict
    before: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()

    @classmethod
    def from_dict(cls, data: dict) -> Case:
        unknown = set(data) - {"id", "text", "expect", "before", "tags", "note"}
        if unknown:
            raise ValueError(f"case {data.get('id')!r}: unknown keys {sorted(unknown)}")
        _check_expect(data.get("id"), data["expect"])
        return cls(
            id=data["id"],
            text=data["text"],
            expect=data["expect"],
            before=tuple(data.get("before") or ()),
            tags=tuple(data.get("tags") or ()),
        )


def _check_expect(case_id, expect) -> None:
    if not isinstance(expect, dict):
        raise ValueError(f"case {case_id!r}: expect must be an object")
    problems = sorted(set(expect) - EXPECT_KEYS)
    for part, keys in (("food", FOOD_KEYS), ("exercise", EXERCISE_KEYS)):
        if isinstance(expect.get(part), dict):
            problems += [f"{part}.{k}" for k in sorted(set(expect[part]) - keys)]
    diary = expect.get("diary")
    if diary is not None:
        if not isinstance(diary, dict):
            raise ValueError(f"case {case_id!r}: diary must be an object")
        problems += [f"diary.{k}" for k in sorted(set(diary) - set(DIARY_KEYS))]
        for part, keys in DIARY_KEYS.items():
            if keys is not None and isinstance(diary.get(part), dict):
                problems += [f"diary.{part}.{k}" for k in sorted(set(diary[part]) - keys)]
    if problems:
        raise ValueError(f"case {case_id!r}: unknown expectations {problems}")


def load_cases(path: Path | str, tag: str | None = None) -> list[Case]:
    cases = []
    seen = set()
    for number, line in enumerate(Path(path).read_text().splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("//"):
            continue
        try:
            case = Case.from_dict(json.loads(line))
        except (ValueError, KeyError) as exc:
            raise ValueError(f"{path}:{number}: {exc}") from None
        if case.id in seen:
            raise ValueError(f"{path}:{number}: duplicate id {case.id!r}")
        seen.add(case.id)
        if tag is None or tag in case.tags:
            cases.append(case)
    return cases


@dataclasses.dataclass
class Diary:
    """What one user's diary holds, in a form two snapshots can be compared in."""

    food: dict[str, dict]  # entry id -> {name, kcal, meal, date}
    exercise: dict[str, dict]  # entry id -> {name, minutes, kcal}
    checkin: dict[tuple, Decimal | None]  # (date, field) -> value
    custom: dict[tuple, Decimal]  # (category name lowercased, date, hour) -> value
    water: dict[str, int]  # date -> glasses
    goals: dict[str, Decimal | None]  # default goal field -> value


def snapshot(user) -> Diary:
    from exercise.models import ExerciseEntry
    from measurements.models import CheckInMeasurement, CustomMeasurement
    from measurements.vocabulary import CHECKIN_FIELDS
    from nutrition.models import FoodEntry, UserGoal, WaterIntake
    from nutrition.services import entry_nutrients

    food = {}
    for entry in FoodEntry.objects.for_user(user).select_related("food", "variant"):
        kcal = entry_nutrients(entry).get("calories")
        food[str(entry.id)] = {
            "name": entry.food.name,
            "kcal": float(kcal or 0),
            "meal": entry.meal_type,
            "date": entry.entry_date.isoformat(),
            "quantity": float(entry.quantity),
            "unit": entry.unit,
        }
    exercise = {
        str(e.id): {
            "name": e.exercise.name,
            "minutes": e.duration_minutes,
            "kcal": e.calories_burned,
        }
        for e in ExerciseEntry.objects.for_user(user).select_related("exercise")
    }
    checkin = {}
    for row in CheckInMeasurement.objects.for_user(user):
        for name in CHECKIN_FIELDS:
            checkin[(row.entry_date.isoformat(), name)] = getattr(row, name)
    custom = {
        (m.category.name.lower(), m.entry_date.isoformat(), m.entry_hour): m.value
        for m in CustomMeasurement.objects.for_user(user).select_related("category")
    }
    water = {
        w.entry_date.isoformat(): w.glasses_consumed for w in WaterIntake.objects.for_user(user)
    }
    goal = UserGoal.objects.for_user(user).filter(goal_date__isnull=True).first()
    goals = {name: getattr(goal, name) if goal else None for name in GOAL_FIELDS}
    return Diary(food, exercise, checkin, custom, water, goals)


@dataclasses.dataclass
class Outcome:
    """What a message changed in the diary, and what Sparky answered."""

    food: list[dict]
    exercise: list[dict]
    checkin: dict[str, float]
    custom: dict[str, float]
    water: int
    goals: dict[str, float]
    reply: str = ""
    action: str = ""
    options: list[dict] = dataclasses.field(default_factory=list)  # what the reply offers
    offered: list[dict] = dataclasses.field(default_factory=list)  # what the last `before` offered
    earlier: list[str] = dataclasses.field(default_factory=list)  # the `before` turns' replies
    diary: Diary | None = None  # the whole diary after the scored message
    touched: bool = False  # the scored message added, changed or removed anything

    @property
    def machinery(self) -> list[tuple[str, list[str]]]:
        """(reply, what it shows) for every reply of the case that shows machinery."""
        return [(r, found) for r in [*self.earlier, self.reply] if (found := machinery(r))]

    @property
    def wrote_anything(self) -> bool:
        return bool(
            self.food or self.exercise or self.checkin or self.custom or self.water or self.goals
        )

    def describe(self) -> str:
        parts = []
        for e in self.food:
            parts.append(
                f"food {e['quantity']:g} {e['unit'] or ''} {e['name']} {e['kcal']:.0f} kcal"
            )
        for e in self.exercise:
            parts.append(f"exercise {e['name']} {e['minutes']} min {e['kcal']} kcal")
        parts += [f"{k} {v:g}" for k, v in self.checkin.items()]
        parts += [f"custom {k} {v:g}" for k, v in self.custom.items()]
        if self.water:
            parts.append(f"water +{self.water}")
        parts += [f"goal {k} {v:g}" for k, v in self.goals.items()]
        return "; ".join(parts) or "nothing"


def changes(before: Diary, after: Diary) -> Outcome:
    food = [v for k, v in after.food.items() if k not in before.food]
    exercise = [v for k, v in after.exercise.items() if k not in before.exercise]
    checkin = {
        key[1]: float(value)
        for key, value in after.checkin.items()
        if value is not None and before.checkin.get(key) != value
    }
    custom = {
        key[0]: float(value)
        for key, value in after.custom.items()
        if before.custom.get(key) != value
    }
    water = sum(after.water.values()) - sum(before.water.values())
    goals = {
        name: float(value)
        for name, value in after.goals.items()
        if value is not None and before.goals.get(name) != value
    }
    return Outcome(food, exercise, checkin, custom, water, goals)


def _within(value: float, bounds) -> bool:
    if isinstance(bounds, int | float):
        return abs(value - bounds) < 1e-6
    low, high = bounds
    return low <= value <= high


def judge(case: Case, outcome: Outcome) -> list[str]:
    """What is wrong with this outcome for this case; empty when it passes."""
    want = case.expect
    problems: list[str] = []
    whole = want.get("diary") or {}
    if whole:
        problems += _diary_problems(whole, outcome.diary)
    food = want.get("food")
    if food is None:
        if outcome.food and "food" not in whole:
            problems.append(f"logged food it should not: {outcome.describe()}")
    else:
        if "entries" in food and len(outcome.food) != food["entries"]:
            problems.append(f"{len(outcome.food)} food entries, expected {food['entries']}")
        kcal = sum(e["kcal"] for e in outcome.food)
        if "kcal" in food and not _within(kcal, food["kcal"]):
            problems.append(f"{kcal:.0f} kcal of food, expected {food['kcal']}")
        for word, entry in zip(food.get("names", []), outcome.food, strict=False):
            if word.lower() not in entry["name"].lower():
                problems.append(f"logged {entry['name']!r}, expected a name with {word!r}")
        if "meal" in food and any(e["meal"] != food["meal"] for e in outcome.food):
            problems.append(f"meal {[e['meal'] for e in outcome.food]}, expected {food['meal']}")
        if "kcal_offered" in food:
            problems += _offered_kcal(food["kcal_offered"], kcal, outcome.offered)
    exercise = want.get("exercise")
    if exercise is None:
        if outcome.exercise and "exercise" not in whole:
            problems.append(f"logged exercise it should not: {outcome.describe()}")
    else:
        if "entries" in exercise and len(outcome.exercise) != exercise["entries"]:
            problems.append(
                f"{len(outcome.exercise)} exercise entries, expected {exercise['entries']}"
            )
        minutes = sum(e["minutes"] for e in outcome.exercise)
        if "minutes" in exercise and not _within(minutes, exercise["minutes"]):
            problems.append(f"{minutes} exercise minutes, expected {exercise['minutes']}")
        burned = sum(e["kcal"] for e in outcome.exercise)
        if "kcal" in exercise and not _within(burned, exercise["kcal"]):
            problems.append(f"{burned} kcal burned, expected {exercise['kcal']}")
    for domain in ("checkin", "custom"):
        expected = {k.lower(): v for k, v in (want.get(domain) or {}).items()}
        got = getattr(outcome, domain)
        for name, bounds in expected.items():
            if name not in got:
                problems.append(f"{domain} {name} not logged")
            elif not _within(got[name], bounds):
                problems.append(f"{domain} {name} {got[name]:g}, expected {bounds}")
        extra = sorted(set(got) - set(expected))
        if extra and domain not in whole:
            problems.append(f"{domain} logged it should not: {', '.join(extra)}")
    water = want.get("water", 0)
    if outcome.water != water and ("water" not in whole or "water" in want):
        problems.append(f"water +{outcome.water}, expected +{water}")
    goals = {k: float(v) for k, v in (want.get("goals") or {}).items()}
    if outcome.goals != goals:
        problems.append(f"goals {outcome.goals}, expected {goals}")
    asks = want.get("asks")
    if asks and outcome.action not in ("options", "confirm", "none"):
        problems.append(f"expected a question back, got action {outcome.action!r}")
    elif asks == "options" and outcome.action != "options":
        problems.append(f"expected options to pick from, got action {outcome.action!r}")
    if asks is False and outcome.action in ("options", "confirm"):
        problems.append(f"asked back (action {outcome.action!r}), expected no question")
    problems += _reply_problems(want.get("reply") or [], outcome.reply)
    problems += _offer_problems(want.get("offers") or [], outcome.options)
    if "reply_number" in want:
        problems += _number_problems(want["reply_number"], outcome.reply)
    said = outcome.reply.lower()
    problems += [
        f"reply has {text!r}: {' '.join(outcome.reply.split())[:160]!r}"
        for text in want.get("reply_not") or []
        if text.lower() in said
    ]
    problems += [
        f"machinery in an earlier reply: {m}" for r in outcome.earlier if (m := machinery(r))
    ]
    if shown := machinery(outcome.reply):
        problems.append(f"machinery in the reply: {shown}")
    return problems


def reports_nothing(case: Case) -> bool:
    """A message that reports nothing done: its case expects no diary domain, no change to the
    diary (`diary`) and no question back (a question back is about something reported: a dish to
    pick)."""
    expect = case.expect
    return not set(expect) & {*WRITE_DOMAINS, "diary"} and not expect.get("asks")


def _names_match(words: list[str], names: list[str]) -> bool:
    """Each word matched by a different name that contains it, in any order."""
    taken: dict[int, int] = {}  # name index -> word index

    def place(w: int, seen: set[int]) -> bool:
        for n, name in enumerate(names):
            if n in seen or words[w].lower() not in name.lower():
                continue
            seen.add(n)
            if n not in taken or place(taken[n], seen):
                taken[n] = w
                return True
        return False

    return all(place(w, set()) for w in range(len(words)))


def _diary_problems(whole: dict, diary: Diary | None) -> list[str]:
    """What the whole diary after the message gets wrong against `expect["diary"]`."""
    if diary is None:
        return ["no diary after the message"]
    problems = []
    food = whole.get("food")
    if food is not None:
        entries = list(diary.food.values())
        shown = "; ".join(f"{e['quantity']:g} {e['unit'] or ''} {e['name']}" for e in entries)
        if "entries" in food and not _within(len(entries), food["entries"]):
            problems.append(f"diary has {len(entries)} food entries, expected {food['entries']}")
        kcal = sum(e["kcal"] for e in entries)
        if "kcal" in food and not _within(kcal, food["kcal"]):
            problems.append(f"diary has {kcal:.0f} kcal of food, expected {food['kcal']}")
        names = [e["name"] for e in entries]
        if "names" in food and not _names_match(food["names"], names):
            problems.append(f"diary has {shown or 'no food'}, expected names {food['names']}")
        if "meal" in food and any(e["meal"] != food["meal"] for e in entries):
            problems.append(f"diary meals {[e['meal'] for e in entries]}, expected {food['meal']}")
        if "meals" in food:
            counts = {m: sum(e["meal"] == m for e in entries) for m in {e["meal"] for e in entries}}
            if counts != {m: n for m, n in food["meals"].items() if n}:
                problems.append(f"diary meals {counts}, expected {food['meals']}")
    exercise = whole.get("exercise")
    if exercise is not None:
        entries = list(diary.exercise.values())
        if "entries" in exercise and not _within(len(entries), exercise["entries"]):
            problems.append(
                f"diary has {len(entries)} exercise entries, expected {exercise['entries']}"
            )
        minutes = sum(e["minutes"] or 0 for e in entries)
        if "minutes" in exercise and not _within(minutes, exercise["minutes"]):
            problems.append(f"diary has {minutes} exercise minutes, expected {exercise['minutes']}")
        burned = sum(e["kcal"] or 0 for e in entries)
        if "kcal" in exercise and not _within(burned, exercise["kcal"]):
            problems.append(f"diary has {burned} kcal burned, expected {exercise['kcal']}")
    for name, bounds in (whole.get("checkin") or {}).items():
        values = [float(v) for (_, f), v in diary.checkin.items() if f == name and v is not None]
        if not values or not all(_within(v, bounds) for v in values):
            problems.append(f"diary {name} {values}, expected {bounds}")
    if "water" in whole:
        glasses = sum(diary.water.values())
        if not _within(glasses, whole["water"]):
            problems.append(f"diary has {glasses} glasses of water, expected {whole['water']}")
    return problems


def _number_problems(wanted: list, reply: str) -> list[str]:
    low, high, *unit = wanted
    after = rf"\s*{_UNITS[unit[0]]}" if unit else ""
    plain = _DATES_AND_TIMES.sub(" ", reply)
    numbers = [
        float(m.group(1).replace(",", "")) for m in re.finditer(_NUMBER + after, plain, re.I)
    ]
    if any(low <= n <= high for n in numbers):
        return []
    what = f" {unit[0]}" if unit else ""
    return [
        f"no number{what} in [{low}, {high}] in the reply (found {numbers}): "
        f"{' '.join(reply.split())[:160]!r}"
    ]


def _reply_problems(texts: list, reply: str) -> list[str]:
    said = reply.lower()
    problems = []
    for item in texts:
        choices = [item] if isinstance(item, str) else list(item)
        if not any(choice.lower() in said for choice in choices):
            shown = " or ".join(repr(c) for c in choices)
            problems.append(f"reply lacks {shown}: {' '.join(reply.split())[:160]!r}")
    return problems


def _offer_problems(words: list[str], options: list[dict]) -> list[str]:
    wrong = [
        str(o.get("name", ""))
        for o in options
        if not any(w.lower() in str(o.get("name", "")).lower() for w in words)
    ]
    if words and wrong:
        return [f"offered {wrong}, expected options naming one of {words}"]
    return []


def _offered_kcal(number: int, kcal: float, offered: list[dict]) -> list[str]:
    if not 1 <= number <= len(offered):
        return [f"option {number} was never offered ({len(offered)} options)"]
    shown = offered[number - 1].get("calories")
    if shown is None:
        return [f"option {number} showed no calories"]
    if abs(kcal - float(shown)) > max(2.0, 0.02 * float(shown)):
        return [f"{kcal:.0f} kcal logged, option {number} showed {float(shown):g} kcal"]
    return []


Send = Callable[[object, str], object]  # (user, text) -> CoachResponse


def run_case(user, case: Case, send: Send | None = None) -> Outcome:
    """Send the case's messages as `user` and return what the scored one changed."""
    if send is None:
        from chat.turn.coach import handle_turn

        def send(u, text):
            return handle_turn(u, text)

    offered: list[dict] = []
    earlier: list[str] = []
    for text in case.before:  # the same user: the scored message sees what these logged
        answer = send(user, text)
        offered = list(getattr(answer, "options", None) or [])
        earlier.append(getattr(answer, "message", "") or "")
    before = snapshot(user)
    response = send(user, case.text)
    after = snapshot(user)
    outcome = changes(before, after)
    outcome.diary = after
    outcome.touched = before != after
    outcome.reply = getattr(response, "message", "") or ""
    outcome.action = getattr(response, "action", "") or ""
    outcome.options = list(getattr(response, "options", None) or [])
    outcome.offered = offered
    outcome.earlier = earlier
    return outcome


@dataclasses.dataclass
class Scored:
    case: Case
    outcome: Outcome
    problems: list[str]

    @property
    def passed(self) -> bool:
        return not self.problems


def score(results: Iterable[Scored]) -> tuple[int, int]:
    results = list(results)
    return sum(r.passed for r in results), len(results)


class _Discard(Exception):
    """Raised to roll a case's transaction back."""


@dataclasses.dataclass
class _Refused:
    action: str
    message: str
    options: list | None = None


def _coach_send(user, text):
    from chat.turn.coach import TurnRejected, handle_turn

    try:
        return handle_turn(user, text)
    except TurnRejected as exc:
        return _Refused(action="none", message=str(exc))


def evaluate(
    cases: Iterable[Case],
    *,
    send: Send | None = None,
    at: dt.datetime = FROZEN_AT,
    progress: Callable[[Scored], None] | None = None,
) -> list[Scored]:
    """Every case as a fresh user at `at`, rolled back afterwards (see the module docstring)."""
    import time_machine
    from django.db import transaction

    from sparky.models import User

    results = []
    for case in cases:
        try:
            with transaction.atomic():
                with time_machine.travel(at, tick=True):
                    user = User.objects.create_user(
                        email=f"eval-{uuid.uuid4().hex[:12]}@example.com",
                        password=None,
                        time_zone="UTC",
                    )
                    outcome = run_case(user, case, send or _coach_send)
                scored = Scored(case, outcome, judge(case, outcome))
                raise _Discard
        except _Discard:
            pass
        except Exception as exc:  # a crash fails the case, the run goes on
            last = traceback.format_exception(exc)[-1].strip()
            scored = Scored(case, Outcome([], [], {}, {}, 0, {}), [f"crashed: {last}"])
        results.append(scored)
        if progress is not None:
            progress(scored)
    return results


def tag_scores(results: Iterable[Scored]) -> dict[str, tuple[int, int]]:
    """(passed, total) per tag, tags in alphabetical order."""
    by_tag: dict[str, list[bool]] = {}
    for r in results:
        for tag in r.case.tags:
            by_tag.setdefault(tag, []).append(r.passed)
    return {tag: (sum(v), len(v)) for tag, v in sorted(by_tag.items())}


def report(results: list[Scored], *, failures: bool = False) -> str:
    """Accuracy overall and per tag; with `failures`, each failing case and its problems."""
    passed, total = score(results)
    shown = machinery_replies(results)
    wrote, quiet = nothing_writes(results)
    bad = wrong_writes(results)
    lines = [
        f"overall  {passed}/{total}  {100 * passed / max(total, 1):.1f}%",
        f"machinery: {len(shown)} replies",
        f"nothing-writes: {len(wrote)} of {quiet} messages that report nothing",
        f"wrong writes: {len(bad)}/{total}  {100 * len(bad) / max(total, 1):.1f}%"
        " (misses that changed the diary)",
        "",
    ]
    lines.append(f"{'tag':<14} {'passed':>7} {'total':>6} {'accuracy':>9}")
    for tag, (ok, n) in tag_scores(results).items():
        lines.append(f"{tag:<14} {ok:>7} {n:>6} {100 * ok / n:>8.1f}%")
    if failures:
        for r in results:
            if r.passed:
                continue
            lines += ["", f"FAIL {r.case.id} [{', '.join(r.case.tags)}]: {r.case.text!r}"]
            if r.case.before:
                lines.append(f"  after: {list(r.case.before)!r}")
            lines.append(f"  wrote: {r.outcome.describe()} (action {r.outcome.action!r})")
            lines += [f"  - {problem}" for problem in r.problems]
            reply = " ".join(r.outcome.reply.split())
            if reply:
                lines.append(f"  reply: {reply[:300]}")
        if shown:
            lines += ["", "MACHINERY (every reply that shows it, `before` turns included):"]
            lines += [
                f"  {case_id}: {found} in {' '.join(reply.split())[:200]!r}"
                for case_id, reply, found in shown
            ]
        if wrote:
            lines += ["", "NOTHING-WRITES (a message that reports nothing wrote this):"]
            lines += [f"  {r.case.id}: {r.case.text!r}: {r.outcome.describe()}" for r in wrote]
    return "\n".join(lines)


def machinery_replies(results: Iterable[Scored]) -> list[tuple[str, str, list[str]]]:
    """(case id, reply, what it shows) for every reply of every case that shows machinery."""
    return [(r.case.id, reply, found) for r in results for reply, found in r.outcome.machinery]


def wrong_writes(results: Iterable[Scored]) -> list[Scored]:
    """The misses that changed the diary anyway: a case that failed and whose scored message
    added, changed or removed anything. A miss that only asked, or wrote nothing, is not one:
    sure or silent counts these apart from the misses, since a wrong entry costs more."""
    return [r for r in results if not r.passed and r.outcome.touched]


def nothing_writes(results: Iterable[Scored]) -> tuple[list[Scored], int]:
    """The results of messages that report nothing which wrote anyway, and how many such
    messages there were."""
    quiet = [r for r in results if reports_nothing(r.case)]
    return [r for r in quiet if r.outcome.wrote_anything], len(quiet)


def drop_database(name: str) -> None:
    """Drop a scratch database the bench scripts made (closing Django's connections first)."""
    import psycopg
    from django.conf import settings
    from django.db import connections

    connections.close_all()
    db = settings.DATABASES["default"]
    params = {k: db.get(k.upper()) for k in ("host", "port", "user", "password")}
    with psycopg.connect(
        dbname="postgres", autocommit=True, **{k: v for k, v in params.items() if v}
    ) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
