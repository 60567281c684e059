"""What a question asks and of which domain, read from its words: the exercise catalog (by
muscle, "what can i do for my triceps") or the user's workouts, their body's readings over a
period and in the unit asked, their water or a nutrient over several days, a day's guide ("how
much water should i drink a day"), foods rich in a nutrient, or a thing to describe ("what is a
burpee", "how do you do a romanian deadlift"). The days come from one list of period words
("yday", "since monday", "last month", "history"). Read once with the message
(chat.reading.message.Reading.question); chat.turn.answers answers it from the domain it names.
`asked_as` says when a message said without a verb is a question all the same ("water since
monday", "total carbs today", "high fiber foods"): such a message never logs.

A question this does not place (a food's facts, the day's numbers, what was eaten, advice) has
no Question: those are read as before, by the Reading's kind.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from decimal import Decimal

from chat.reading.parser.vocabulary import DONE, EATING, LOG_VERBS
from chat.reading.vocabulary import ASKING
from exercise import vocabulary as exercise_words
from measurements import fields as checkin_fields
from measurements import vocabulary as body_words
from measurements import vocabulary as durations
from measurements.units import unit_of
from nutrition import vocabulary as food_words
from nutrition.answers import intake_nutrient
from sparky.dates import WEEKDAYS
from sparky.words import alternation, words_pattern

_WORDS = ASKING["question"]
_EXERCISE = words_pattern({*_WORDS["exercise"], *exercise_words.WORDS})
_MUSCLES = words_pattern(
    {
        w
        for table in (exercise_words.MUSCLE_GROUPS, exercise_words.MUSCLES)
        for words in table.values()
        for w in words
    }
)
_TRAIN_FOR = words_pattern(_WORDS["train_for"])
# "how do you do a romanian deadlift": the exercise to describe.
_HOW_TO_DO = re.compile(
    rf"^\W*(?:{alternation(_WORDS['how_to_do'])})\s+(?:an?\s+|the\s+|my\s+)?"
    r"(?P<subject>[a-z][\w\s'-]*?)\s*[?.!]*$",
    re.I,
)
# "what muscles do lunges work", "what do squats target": the exercise whose muscles are asked.
_WORKS_WHAT = re.compile(
    rf"^\W*(?:what|which)\s+(?:(?:{alternation(_WORDS['muscles'])})\s+)?(?:do|does)\s+"
    rf"(?:an?\s+|the\s+)?(?P<subject>[a-z][\w\s'-]*?)\s+(?:{alternation(_WORDS['works'])})\b",
    re.I,
)
_ME = words_pattern(_WORDS["me"])
_BURN = words_pattern(_WORDS["burn"])
_WATER = words_pattern(food_words.WATER_WORDS)
_GOALS = words_pattern(_WORDS["goals"])
_NUTRIENTS = words_pattern(
    {*food_words.NUTRIENT_OF_WORD, *food_words.CALORIE_WORDS, *food_words.WATER_WORDS}
)
_NOT_A_NAME = words_pattern(_WORDS["not_a_name"])
_DESCRIBE = re.compile(
    rf"^\W*(?:{alternation(_WORDS['describe'])})\s+(?:an?\s+|the\s+)?(?P<subject>[a-z][\w\s'-]*?)"
    r"\s*[?.!]*$",
    re.I,
)
# "how many calories does swimming burn", "calories burned rowing"
_BURNING = re.compile(
    rf"\b(?:{alternation(_WORDS['burn_before'])})\s+(?P<subject>[a-z][\w\s'-]*?)\s+"
    rf"(?:{alternation(_WORDS['burn'])})\b"
    rf"|\b(?:{alternation(_WORDS['burn'])})\s+(?:(?:{alternation(_WORDS['burn_after'])})\s+)?"
    r"(?P<after>[a-z][\w\s'-]*?)\s*[?.!]*$",
    re.I,
)
_PERIODS = {name: words_pattern(words) for name, words in _WORDS["periods"].items()}
# "30 min", "an hour", "45 minutes", "1.5 hrs": how long a burn is asked for.
_DURATION = re.compile(
    rf"\b(?P<n>\d+(?:\.\d+)?|an?|one|half an?)\s*(?P<unit>{alternation(durations.MINUTES)}"
    rf"|{alternation(durations.HOURS)})\b"
)
_RICH = words_pattern(_WORDS["rich"])
_INTAKE = words_pattern(_WORDS["intake"])
_FOODS = words_pattern(_WORDS["foods"])
_NEED = words_pattern(_WORDS["need"])
_LEFT = words_pattern(_WORDS["left"])
_TOTAL = words_pattern(_WORDS["total"])
_HOW_MUCH_OF = re.compile(r"\bhow\s+(?:much|many)\b")
_HOW_MUCH = re.compile(rf"\b(?:{alternation(_WORDS['how_much'])})\b")
# The activities' words, longest first: "how long would i have to swim" names swimming.
_ACTIVITY = re.compile(
    rf"\b(?P<word>{alternation(sorted(exercise_words.SEARCH_TERMS, key=len, reverse=True))})\b"
)
_SINCE = re.compile(rf"\bsince\s+(?:last\s+)?(?P<day>{alternation(WEEKDAYS)})\b", re.I)
_SINCE_YESTERDAY = re.compile(r"\bsince\s+yesterday\b", re.I)
_WEIGHT_CHANGE = words_pattern(_WORDS["weight_change"])
# "show me my measurements", "what have my check-ins been": the check-in as a whole.
_CHECKIN = words_pattern(body_words.CHECKIN_NAMES)
_TO_WEIGHT = words_pattern(_WORDS["to_weight"])
_GOAL_WEIGHT = words_pattern(_WORDS["goal_weight"])
# "55kg", "140 lbs", "70.5 kilos": a weight said with its unit.
_A_WEIGHT = re.compile(
    rf"(?<![\w.])(?P<n>\d+(?:[.,]\d+)?)\s*(?P<unit>{alternation(body_words.WEIGHT_SPELLINGS)})\b",
    re.I,
)
_BARE_NUMBER = re.compile(r"(?<![\w.])(?P<n>\d+(?:[.,]\d+)?)(?![\w.])")


@dataclasses.dataclass(frozen=True)
class Period:
    """The days a question asks about: "day" (today or `back` days ago), "week", "month" (the
    last 30 days), "last_month" (the calendar month before), "since" a weekday, or "latest" (the
    last record, whenever it was)."""

    name: str = "day"
    back: int = 0
    weekday: str | None = None

    def dates(self, today: dt.date) -> tuple[dt.date | None, dt.date, str]:
        """(first day or None for "latest", last day, how a reply names the period)."""
        if self.name == "week":
            start = today - dt.timedelta(days=6)
            return start, today, f"This week ({start:%-d %b} to {today:%-d %b})"
        if self.name == "last_month":
            end = today.replace(day=1) - dt.timedelta(days=1)
            return end.replace(day=1), end, f"Last month ({end:%B %Y})"
        if self.name == "month":
            start = today - dt.timedelta(days=29)
            return start, today, f"The last 30 days ({start:%-d %b} to {today:%-d %b})"
        if self.name == "since" and self.weekday is None:  # "since yesterday"
            start = today - dt.timedelta(days=self.back)
            return start, today, "Since yesterday" if self.back == 1 else f"Since {start:%a %-d %b}"
        if self.name == "since":
            back = (today.weekday() - WEEKDAYS.index(self.weekday)) % 7 or 7
            start = today - dt.timedelta(days=back)
            return start, today, f"Since {start:%A %-d %b}"
        if self.name == "latest":
            return None, today, "Latest"
        day = today - dt.timedelta(days=self.back)
        label = "Today" if self.back == 0 else "Yesterday"
        return day, day, f"{label} ({day.isoformat()})"

    @property
    def several_days(self) -> bool:
        return self.name in ("week", "month", "last_month", "since")


def minutes_in(text: str) -> int | None:
    """The minutes a question gives ("30 min of cycling", "an hour", "1.5 hours"), if any."""
    found = _DURATION.search(text.lower())
    if found is None:
        return None
    n = found.group("n")
    amount = {"a": 1, "an": 1, "one": 1}.get(n, 0.5 if n.startswith("half") else None)
    amount = float(n) if amount is None else amount
    per = 60 if found.group("unit") in durations.HOURS else 1
    return round(amount * per) or None


_EXERCISES = words_pattern(_WORDS["exercises"])
_EQUIPMENT = words_pattern(
    {w for words in exercise_words.EQUIPMENT.values() for w in words}
    | set(exercise_words.NO_EQUIPMENT)
)
_DONE_TODAY = re.compile(rf"\b(?:{alternation(_WORDS['done_today'])})\b|\d")
# "i worked my legs", "my back hurts from work": said of what was done, not asked.
_ME_DONE = words_pattern(_WORDS["me_done"])


def exercises_asked(text: str) -> bool:
    """Whether a message asks for exercises by muscle or equipment ("any chest exercises i can
    do with just dumbbells", "exercises for lower back without equipment"), not about the
    user's own workouts."""
    lowered = text.lower()
    return bool(
        _EXERCISES.search(lowered)
        and (_MUSCLES.search(lowered) or _EQUIPMENT.search(lowered))
        and not _DONE_TODAY.search(lowered)
    )


def training_asked(text: str) -> bool:
    """Whether a question asks how to train a muscle it names, without the word exercise ("what
    can i do for my triceps", "how do i build my glutes"), not what the user did."""
    lowered = text.lower()
    return bool(
        _MUSCLES.search(lowered)
        and _TRAIN_FOR.search(lowered)
        and not _DONE_TODAY.search(lowered)
        and not _ME_DONE.search(lowered)
    )


def period_asked(text: str, tokens) -> bool:
    """Whether a message without a verb asks for a record over days or its total ("water since
    monday", "steps this week?", "waist measurement history pls", "total carbs today"): a
    domain's record named with a period no entry is logged for (several days, the latest, a
    history) or a word of totals, no number and nothing done."""
    lowered = text.lower()
    period = period_of(lowered)
    unsaid = lowered  # "water over the last 7 days": the period's own number is no amount
    for said in _PERIODS.values():
        unsaid = said.sub(" ", unsaid)
    over_days = period.several_days or period.name == "latest"
    if not (over_days or _TOTAL.search(lowered)) or re.search(r"\d", unsaid):
        return False  # "total carbs today": a total is asked, whatever the period
    if _tells_done(tokens):
        return False  # "walked every day this week", "log water since monday"
    return bool(
        _WATER.search(lowered)
        or _NUTRIENTS.search(lowered)
        or _EXERCISE.search(lowered)
        or _CHECKIN.search(lowered)
        or checkin_fields.asked(list(tokens))
    )


def rich_asked(text: str) -> bool:
    """Whether a message asks for foods rich in a nutrient ("high fiber foods", "good sources of
    calcium"), whatever its grammar: a nutrient, a word of richness, foods, and no number."""
    lowered = text.lower()
    return bool(
        intake_nutrient(lowered)
        and _RICH.search(lowered)
        and _FOODS.search(lowered)
        and not re.search(r"\d", lowered)
        and not _tells_done(re.findall(r"[a-z']+", lowered))
    )


def _tells_done(tokens) -> bool:
    """Whether words say something was done or ask it logged: "walked", "had", "log"."""
    return any(t in DONE or t in LOG_VERBS or t in EATING for t in tokens)


def asked_as(text: str, tokens, kind: str) -> str | None:
    """The kind of question a message of `kind` is whatever its grammar, else None: a burn
    asked ("if i swim for an hour how much would i burn"), exercises asked for ("any chest
    exercises i can do with just dumbbells"); said as a report, exercises for a muscle ("proper
    form for squats"), foods rich in a nutrient ("high fiber foods") or a record over days
    ("water this week"). A wish, a plan, a negation stay what they are."""
    if burn_asked(text):
        return "question"
    if exercises_asked(text):
        return "search"
    if kind not in ("report", "chat"):
        return None
    if training_asked(text) or _HOW_TO_DO.match(text):
        return "question"
    if rich_asked(text):
        return "food_question"
    if period_asked(text, tokens):
        return "data_question"
    return None


def burn_asked(text: str) -> str | None:
    """The activity a question asks the burn of ("how many cals does 30 min of cycling burn",
    "if i swim for an hour how much would i burn"), as the catalog is searched for it; None
    when it asks none."""
    lowered = text.lower()
    if not (_BURN.search(lowered) and _HOW_MUCH.search(lowered)):
        return None
    found = _ACTIVITY.search(lowered)
    return exercise_words.SEARCH_TERMS[found.group("word")] if found else None


@dataclasses.dataclass(frozen=True)
class Question:
    """domain: "exercise", "body", "water", "goals", "food" (foods rich in a nutrient), "intake"
    (the user's of a nutrient), "guide" (a day's reference of water or a nutrient) or "thing"
    (the catalogs decide which);
    ask: "search", "detail" or "history"; subject: what is searched or described."""

    domain: str
    ask: str
    period: Period
    subject: str | None = None
    # For "body": the check-in readings named, as measurements.fields.asked gives them.
    named: tuple = ()
    # For an exercise's burn: over how many minutes ("30 min of cycling").
    minutes: int | None = None
    # For the way to a weight ("how far am i from 55kg"): the weight and the unit said, if any.
    weight: Decimal | None = None
    weight_unit: str | None = None
    # The unit an answer is asked in ("how much do i weigh in pounds" -> "pounds"), as said.
    unit: str | None = None


def checkins_asked(text: str) -> bool:
    """Whether a message asks for the user's check-ins as a whole ("show me my measurements",
    "my measurement history"), not one reading of them and not a reading to log."""
    return bool(
        _CHECKIN.search(text)
        and _ME.search(text)
        and not re.search(r"\d", text)
        and not checkin_fields.asked(text.lower().split())
    )


def weight_asked(text: str) -> tuple[Decimal | None, str | None] | None:
    """The weight a question asks the way to ("how far am i from 55kg" -> (55, "kg"), "how far
    from my target" -> (None, None)), or None when it asks no such thing. A nutrient's goal
    ("how far from my protein goal") is not a weight."""
    lowered = text.lower()
    if not _TO_WEIGHT.search(lowered) or _NUTRIENTS.search(lowered):
        return None
    if found := _A_WEIGHT.search(lowered):
        return Decimal(found.group("n").replace(",", ".")), body_words.WEIGHT_SPELLINGS[
            found.group("unit")
        ]
    named = _GOAL_WEIGHT.search(lowered)
    numbers = _BARE_NUMBER.findall(lowered)
    if named and len(numbers) == 1:  # "how far am i from my goal weight of 60"
        return Decimal(numbers[0].replace(",", ".")), None
    return (None, None) if named else None


_IN_A_UNIT = re.compile(
    rf"\b(?:{alternation(_WORDS['in_a_unit'])})\s+(?P<unit>[a-z][a-z ]*?)\s*[?.!]*$"
)


def _unit_asked(text: str, named) -> str | None:
    """The unit a question asks its answer in, said last ("in pounds", "in cm"), when it is a
    unit of a reading it names; else None."""
    found = _IN_A_UNIT.search(text.lower())
    if found is None:
        return None
    said = found.group("unit")
    kinds = {field.kind.name: field.kind for _, fields in named for field in fields}
    return said if any(unit_of(kind, said) for kind in kinds.values()) else None


def period_of(text: str) -> Period:
    if found := _SINCE.search(text):
        return Period("since", weekday=found.group("day").lower())
    if _SINCE_YESTERDAY.search(text):
        return Period("since", back=1)
    for name in ("latest", "last_month", "week", "month", "yesterday"):
        if _PERIODS[name].search(text):
            return Period("day", back=1) if name == "yesterday" else Period(name)
    return Period()


def read_question(text: str, tokens, kind: str, search: str | None) -> Question | None:
    """The Question a message asks, or None when it is not one this module places. `kind` is
    the Reading's kind and `search` the subject of a catalog search, if it is one."""
    if kind not in ("search", "food_question", "data_question", "question", "advice"):
        return None
    period = period_of(text)
    described = _DESCRIBE.match(text)
    mine = bool(_ME.search(described.group("subject") if described else text))
    # "steps this week?": the user's own record, asked without "my"
    own = mine or (kind == "data_question" and (period.several_days or period.name == "latest"))
    nutrient = intake_nutrient(text)
    asks_of_one = text.lower().split()[:1] in (["is"], ["are"], ["does"], ["do"], ["has"])
    # "how much water should i drink a day"; "how much more protein do i need today" asks what
    # is left of the user's own day
    needed = _HOW_MUCH_OF.search(text.lower()) and _NEED.search(text) and not _LEFT.search(text)
    if needed and (_WATER.search(text) or nutrient):  # "how much water should i drink a day"
        return Question("guide", "detail", period, subject=nutrient or "water")
    if nutrient and _RICH.search(text) and not asks_of_one and (_FOODS.search(text) or not mine):
        return Question("food", "rich", period, subject=nutrient)  # "foods high in iron"
    if nutrient and mine and _INTAKE.search(text):
        return Question("intake", "detail", period, subject=nutrient)  # "enough iron?"
    if nutrient and own and period.several_days:  # "protein this week", "my fiber since monday"
        return Question("intake", "detail", period, subject=nutrient)
    if (activity := burn_asked(text)) and not re.search(r"\b(?:did|have|today)\b", text.lower()):
        return Question("exercise", "detail", period, subject=activity, minutes=minutes_in(text))
    if exercises_asked(text) or training_asked(text):
        return Question("exercise", "search", period, subject=text)
    if shown := _HOW_TO_DO.match(text) or _WORKS_WHAT.match(text):
        return Question("exercise", "detail", period, subject=shown.group("subject").strip())
    if _EXERCISE.search(text):
        if _MUSCLES.search(text) and not mine:
            return Question("exercise", "search", period, subject=text)
        if search:
            return Question("exercise", "search", period, subject=search)
        if own and kind != "advice":
            return Question("exercise", "history", period)
        if burning := _BURNING.search(text):
            subject = burning.group("subject") or burning.group("after")
            return Question("exercise", "detail", period, subject=subject.strip())
        if described and not _NOT_A_NAME.search(described.group("subject")):
            return Question("exercise", "detail", period, subject=described.group("subject"))
        return None
    if kind == "advice":
        return None
    if (weight := weight_asked(text)) is not None:
        return Question("body", "to_weight", period, weight=weight[0], weight_unit=weight[1])
    if checkins_asked(text):
        return Question("body", "all", period)
    named = tuple(checkin_fields.asked(list(tokens)))
    if not named and mine and _WEIGHT_CHANGE.search(text):  # "how much have i dropped"
        named = tuple(checkin_fields.asked(["weight"]))
    unit = _unit_asked(text, named)
    if named and own and unit and period.name == "day" and not period.back:
        period = Period("latest")  # "how much do i weigh in pounds": the latest, in pounds
    if named and own and (period.name != "day" or period.back):
        return Question("body", "history", period, named=named, unit=unit)
    if _WATER.search(text) and own and period.several_days:
        return Question("water", "history", period)
    if _GOALS.search(text) and mine and not _NUTRIENTS.search(text):
        return Question("goals", "detail", period)
    subject = described.group("subject") if described else ""
    if subject and not mine and len(subject.split()) <= 3 and not _NOT_A_NAME.search(subject):
        return Question("thing", "detail", period, subject=subject)
    return None
