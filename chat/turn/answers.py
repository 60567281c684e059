"""Answers to questions about the user's own day, without a model (the offline engine).

"How many calories did I eat today?", "how much protein yesterday?", "did I drink enough water?":
read from the same daily summary every other surface uses, and say it plainly.
"""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal

from django.core.exceptions import ValidationError

from chat.reading.message import question_kind, search_subject, wants_advice
from chat.reading.parser.food import FoodItem, food_item
from chat.reading.parser.tokens import spelled_out, tokenise
from chat.reading.question import Period, Question, period_of
from chat.reading.vocabulary import ASKING
from chat.tools.base import ToolContext
from chat.tools.reports import weekly_report
from diary.selectors import daily_summary
from exercise import answers as exercise_answers
from exercise.phrases import activity_words
from exercise.selectors import exercise_diary
from measurements import answers as body_answers
from measurements import fields as checkin_fields
from measurements import vocabulary as body
from measurements.selectors import measurements_for, weight_trend
from nutrition import services as food_services
from nutrition import vocabulary as food_words
from nutrition.answers import (
    eaten_answer,
    guide_answer,
    intake_answer,
    rich_foods_answer,
    water_answer,
)
from nutrition.models import nutrient_unit
from nutrition.selectors import food_diary
from nutrition.units import SIZES, unit_text
from nutrition.vocabulary import MEAL_NAMES, MEALS
from sparky.dates import parse_day, today_for
from sparky.words import alternation, words_pattern


def _ci(pattern: str) -> re.Pattern:
    """A pattern that ignores case, as people type."""
    return re.compile(pattern, re.IGNORECASE)


_ASKED = ASKING["answers"]
_FACTS = _ASKED["facts"]


def _either(*pairs: tuple) -> re.Pattern:
    """Any of the pairs: a word of the first list, then later a word of the second."""
    return _ci(
        "|".join(rf"\b{alternation(first)}\b.*\b{alternation(then)}\b" for first, then in pairs)
    )


# A question about the day's numbers, by topic: the nutrients by nutrition's words, the rest by
# the answers' own.
_TOPICS = {
    **{
        n: words_pattern(food_words.NUTRIENT_WORDS[n])
        for n in ("protein", "carbs", "fat", "dietary_fiber", "sugars", "sodium")
    },
    "water": words_pattern({*food_words.WATER_WORDS, *_ASKED["topics"]["water"]}),
    **{topic: words_pattern(_ASKED["topics"][topic]) for topic in ("steps", "exercise")},
    "weight": words_pattern(_ASKED["topics"]["weight"]),
    "calories": words_pattern({*food_words.CALORIE_WORDS, *_ASKED["topics"]["calories"]}),
}


def _n(value, digits=0) -> str:
    if value is None:
        return "?"
    value = float(value)
    return f"{value:,.{digits}f}" if digits else f"{round(value):,}"


def _nutrient_line(summary: dict, name: str, label: str) -> str:
    row = summary["nutrients"][name]
    text = f"{label} {_n(row['consumed'], 1)} {row['unit']}"
    if row["goal"] is not None:
        text += f" of {_n(row['goal'], 1)} {row['unit']} ({row['percent']}%)"
        left = (row["goal"] or 0) - (row["consumed"] or 0)
        if left > 0:
            text += f", {_n(left, 1)} {row['unit']} to go"
    return text


def calories_line(summary: dict) -> str:
    cal = summary["calories"]
    text = f"{_n(cal['consumed'])} kcal eaten"
    if cal["burned"]:
        text += f", {_n(cal['burned'])} burned"
    if cal["goal"] is not None:
        text += f"; goal {_n(cal['goal'])}"
        if cal["goal"]:  # "what % of my calories have i eaten": the share of the goal eaten
            text += f" ({round(float(cal['consumed'] or 0) * 100 / float(cal['goal']))}% eaten)"
        if (cal["remaining"] or 0) < 0:  # never "-8,180 left"
            text += f", over by {_n(-cal['remaining'])}"
        else:
            text += f", {_n(cal['remaining'])} left"
    return text


_WEEK = words_pattern(_ASKED["week"])


def _week_answer(user) -> str:
    """The week in numbers, from the same report the weekly_report tool gives a model."""
    report = weekly_report(ToolContext.for_user(user), {"date": "today"})
    days = report.data["days"]
    minutes = sum(d["exercise_minutes"] or 0 for d in days)
    burned = sum(d["burned"] or 0 for d in days)
    text = report.message.rstrip(".")
    if minutes:
        text += f"; {minutes} min of exercise, {_n(burned)} kcal burned"
        done: dict[str, int] = {}
        for d in days:
            for row in exercise_diary(user=user, day=dt.date.fromisoformat(str(d["date"]))):
                name = activity_words(row["name"])
                done[name] = done.get(name, 0) + (row["duration_minutes"] or 0)
        text += " (" + ", ".join(f"{name} {m} min" for name, m in done.items()) + ")"
    water = sum(d["water"] or 0 for d in days)
    if water:
        text += f"; {water} glasses of water in all"
    return f"This week, {text}."


_WHAT_EATEN = _either(*((p["first"], p["then"]) for p in _ASKED["what_eaten"]))
_MEALS = MEALS
# Meal -> the words that name it ("supper", "brunch"), said once or of several days.
_MEAL_SAID = {
    meal: words_pattern((w for w, m in MEAL_NAMES.items() if m == meal), plural=True)
    for meal in MEALS
}
# "how much did I eat" wants the numbers; "what should I eat" wants advice, not the diary.
_ADVICE = words_pattern(_ASKED["advice"])


# "how many calories was my breakfast", "did i log my dinner", "what was my last meal"
_A_MEAL = _ci(
    rf"\b{alternation(_ASKED['before_meal'])}\s+{alternation(MEAL_NAMES, plural=True)}\b"
    rf"|\b{alternation(MEAL_NAMES)}\s+{alternation(_ASKED['after_meal'])}\b"
)
_LAST_MEAL = _ci(rf"\b{alternation(_ASKED['last'])}\s+{alternation(_ASKED['last_what'])}\b")
# What a custom measurement is asked by, by the measurements' words: "how much sleep did i get",
# "how long did I sleep", "what was my pulse".
_ASKED_MEASURE = {
    name.lower(): words_pattern(
        {name.lower(), *(w for w, (n, _) in body.CUSTOM_WORDS.items() if n == name)}
    )
    for name in {n for n, _ in body.CUSTOM_WORDS.values()}
}


def _custom_answer(user, day, text: str) -> str | None:
    """The day's value of a measurement of the user's own the question names."""
    rows = measurements_for(user=user, day=day)["custom"]
    for row in reversed(rows):  # the latest first
        name = row["category"].lower()
        asked = _ASKED_MEASURE.get(name) or _ci(rf"\b{re.escape(name)}\b")
        if asked.search(text):
            unit = f" {row['unit']}" if row["unit"] else ""
            return f"{name} {Decimal(row['value']).normalize():f}{unit}"
    return None


def _checkin_answer(user, text: str) -> str | None:
    """The values of the check-in fields a question names that the day's topics do not answer
    (weight and steps have lines of their own) over the days it asks about: "what was my blood
    pressure this week?", from the body's history (measurements.answers)."""
    named = [
        (label, fields)
        for label, fields in checkin_fields.asked(tokenise(text))
        if not any(field.name in _TOPICS for field in fields)
    ]
    if not named:
        return None
    start, end, when = period_of(text).dates(today_for(user))
    return body_answers.history_answer(user, named, start, end, when)


def _weight_line(user, weight, unit: str) -> str:
    """Today's weight and how it moved over the month: "weight 90.1 kg, down 0.4 kg from 90.5 kg
    on 1 Dec"."""
    trend = weight_trend(user=user, days=30)
    if weight is None and not trend:
        return "no weigh-in recorded"
    if weight is None:
        day, weight = trend[-1]
        text = f"no weigh-in today; the latest is {_n(weight, 1)} {unit} on {day:%-d %b}"
    else:
        text = f"weight {_n(weight, 1)} {unit}"
    if len(trend) >= 2:
        first_day, first = trend[0]
        change = Decimal(weight) - Decimal(first)
        way = "down" if change < 0 else "up"
        if change:
            text += f", {way} {_n(abs(change), 1)} {unit} from {_n(first, 1)} {unit} on "
            text += f"{first_day:%-d %b}"
        else:
            text += f", the same as on {first_day:%-d %b}"
    return text


def _eaten_answer(user, day, label: str, text: str) -> str:
    """What was eaten on the day, meal by meal (one meal when the question names it)."""
    asked_meal = next((m for m in _MEALS if _MEAL_SAID[m].search(text)), None)
    diary = food_diary(user=user, day=day)
    if asked_meal is None and _LAST_MEAL.search(text):
        asked_meal = next((m for m in reversed(_MEALS) if diary.get(m)), None)
    meals = []
    for meal in _MEALS:
        rows = diary.get(meal) or []
        if not rows or (asked_meal and meal != asked_meal):
            continue
        items = ", ".join(
            f"{float(r['quantity']):g} {unit_text(r['quantity'], r['unit'])} "
            f"{r['food_name']} ({_n(r['calories'])} kcal)".replace("  ", " ")
            for r in rows
        )
        if asked_meal:
            items += f"; {_n(sum(r['calories'] or 0 for r in rows))} kcal for {meal}"
        meals.append(f"{meal}: {items}")
    when = f"{label} ({day.isoformat()})"
    if not meals:
        what = f" for {asked_meal}" if asked_meal else (" yet" if label == "Today" else "")
        return f"{when}: nothing logged{what}."
    total = calories_line(daily_summary(user=user, day=day))
    return f"{when}: " + "; ".join(meals) + f". In all: {total}."


NO_COACHING = (
    "Advice needs an AI service (Settings, AI services: a cloud model or a local Ollama); the "
    "built-in offline parser only logs and reads back your numbers."
)

# --- a food's facts ---------------------------------------------------------------------------

# Where the food sits in a question about it: "is greek yogurt high in protein", "how many
# calories does a banana have", "carbs in 2 slices of bread", "how many calories is a big mac".
_FACT_FOOD = (
    _ci(rf"^\W*{alternation(_FACTS['asking'])}\s+(?P<food>.+?)\s+{alternation(_FACTS['rich'])}\b"),
    _ci(rf"\b(?:does|do)\s+(?P<food>.+?)\s+{alternation(_FACTS['having'])}\b"),
    _ci(rf"\b{alternation(_FACTS['of'])}\s+(?P<food>.+)$"),
    _ci(r"\b(?:is|are)\s+(?P<food>.+)$"),
    # "hard boiled egg calories", "a bagel macros": the food, then what is asked of it
    _ci(
        rf"^\W*(?!{alternation(_FACTS['not_food'])}\b)(?P<food>[a-z][^?!.\d]*?)\s+"
        rf"{alternation(food_words.CALORIE_WORDS | food_words.NUTRITION_WORDS)}"
        rf"(?:\s+{alternation(_FACTS['facts'])})?\W*$"
    ),
)
_FACT_TAIL = _ci(rf"(?:\s+{alternation(_FACTS['tail'])})+\s*$")
# The nutrients a question may ask for, by nutrition's words for them; "fat loss" is no nutrient.
_ASKED_NUTRIENTS = tuple(
    (
        name,
        words_pattern(words)
        if name != "fat"
        else _ci(rf"\b{alternation(words)}\b(?!\s+(loss|burning))"),
    )
    for name, words in food_words.NUTRIENT_WORDS.items()
)
_NUTRIENT_NAMES = food_words.NUTRIENT_NAMES


def _amount(value, name: str) -> str:
    if name == "calories":
        return f"{_n(value)} kcal"
    digits = 0 if value is not None and float(value) >= 10 else 1
    text = f"{_n(value, digits)} {nutrient_unit(name)} of {_NUTRIENT_NAMES[name]}"
    return text.replace(".0 ", " ")


def _fact_phrase(text: str) -> str | None:
    """The food and amount a question asks about ("2 slices of bread"), or None."""
    plain = re.sub(r"[?!.]+\s*$", "", " ".join(text.split()))
    for pattern in _FACT_FOOD:
        found = pattern.search(plain)
        if found is None:
            continue
        phrase = _FACT_TAIL.sub("", found.group("food")).strip(" ,")
        if (after := _AMOUNT_AFTER.match(phrase)) is not None:
            phrase = f"{after.group('amount')} of {after.group('food')}"
        if phrase and not any(rx.fullmatch(phrase) for _, rx in _ASKED_NUTRIENTS):
            return phrase
    return None


# "ketchup, like a tablespoon": the amount said after the food
_AMOUNT_AFTER = _ci(
    rf"^(?P<food>[^,]+),\s*{alternation(_FACTS['hedges'])}?\s*"
    rf"(?P<amount>(?:{alternation(_FACTS['one'])}|\d[\d./]*)\s*[a-z]+)$"
)


def food_fact(user, text: str, *, quiet: bool = False) -> str | None:
    """The answer to a question about a food ("how many carbs are in 2 slices of bread?"): the
    amount asked about (its household measure when none is said), found and counted as logging
    it would; the nutrient asked for first. None when the question names no food; a plain "not
    in the catalog" when the catalog does not know it (never a neighbour's numbers)."""
    phrase = _fact_phrase(text)
    if phrase is None:
        return None
    item = food_item(tokenise(phrase))
    if isinstance(item, FoodItem):
        name = item.data["food_name"]
        quantity = item.data.get("quantity")
        unit = item.data.get("unit")
        said_amount = quantity not in (None, 1) or unit is not None
        quantity = quantity if said_amount else None
    else:
        name, quantity, unit = phrase, None, None
    try:
        facts = food_services.food_facts(user=user, name=name, quantity=quantity, unit=unit)
    except ValidationError:
        facts = None
    if facts is None:
        if quiet:  # asked of a thing that may be no food: the caller says what it can't find
            return None
        return (
            f"I couldn't find {phrase!r} in the food catalog, so I can't give its numbers. Try "
            "another name for it."
        )
    asked = [key for key, rx in _ASKED_NUTRIENTS if rx.search(text)]
    values = facts.values
    first = [n for n in asked if values.get(n) is not None]
    rest = [n for n in ("calories", "protein", "carbs", "fat") if n not in first]
    shown = [_amount(values[n], n) for n in first]
    others = [_amount(values[n], n) for n in rest if values.get(n) is not None]
    what = _helping(facts)
    if shown:
        line = f"{what} has about {_join(shown)}"
        if others:
            line += f" ({', '.join(others)})"
    else:
        missing = ", ".join(_NUTRIENT_NAMES[n] for n in asked)
        name = facts.food.readable_name
        line = f"The catalog has no {missing} figure for {name}; " if asked else ""
        line += f"{what}: {', '.join(others)}"
    return line + ". Nothing was logged."


def _helping(facts) -> str:
    """'2 slices of White bread', '1 medium Avocado'."""
    amount = f"{facts.quantity.normalize():f} {unit_text(facts.quantity, facts.unit)}".strip()
    name = facts.food.readable_name
    if facts.unit and facts.unit.lower().rstrip("s") in name.lower():
        return f"{amount} ({name})"  # "1 croissant (Croissants, butter)"
    sized = not facts.unit or facts.unit in SIZES or facts.unit in ("serving", "piece")
    return f"{amount} {name}" if sized else f"{amount} of {name}"


def _join(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


# --- the catalog ------------------------------------------------------------------------------


def search_answer(user, text: str) -> str | None:
    """The catalog's best matches for a search ("find me oat milk"), with a usual helping's
    calories each; nothing is logged."""
    query = search_subject(text)
    if not query:
        return None
    foods = food_services.food_search(user=user, query=query, limit=5)
    if not foods:
        return f"Nothing in the food catalog matches {query!r}. Try another name for it."
    lines = []
    for n, food in enumerate(foods, 1):
        per = f"{Decimal(food.serving_size).normalize():f} {food.serving_unit}"
        lines.append(f"{n}. {food.readable_name}: {_n(food.calories)} kcal per {per}")
    return (
        f"In the food catalog for {query!r}:\n"
        + "\n".join(lines)
        + "\nNothing was logged; tell me what you had (e.g. 'I had a cup of it') to log it."
    )


def domain_answer(user, question: Question) -> str | None:
    """A question answered from the domain it asks about (chat.reading.question): the exercise
    catalog or the user's workouts, their body's readings, their water; a thing described by
    the exercise catalog, else by the food catalog. None when that domain has no answer."""
    start, end, when = question.period.dates(today_for(user))
    if question.domain == "exercise":
        if question.ask == "search":
            return exercise_answers.search_answer(user, question.subject)
        if question.ask == "detail":
            return exercise_answers.detail_answer(user, question.subject, question.minutes)
        if start is None:  # "when did I last work out": the last 30 days
            start, end, when = Period("month").dates(end)
        return exercise_answers.history_answer(user, start, end, when)
    if question.domain == "body" and question.ask == "to_weight":
        return body_answers.to_weight_answer(user, question.weight, question.weight_unit)
    if question.domain == "body" and question.ask == "all":
        if question.period.name == "day" and not question.period.back:
            start, end, when = Period("month").dates(end)  # "show me my measurements"
        return body_answers.checkins_answer(user, start, end, when)
    if question.domain == "body":
        return body_answers.history_answer(
            user, list(question.named), start, end, when, unit=question.unit
        )
    if question.domain == "water":
        return water_answer(user, start, end, when)
    if question.domain == "food" and question.ask == "rich":
        return rich_foods_answer(user, question.subject)
    if question.domain == "guide":
        return guide_answer(user, question.subject)
    if question.domain == "intake":
        if start is None:
            start, end, when = Period().dates(end)
        return intake_answer(user, question.subject, start=start, end=end, when=when)
    if question.domain == "goals":
        return _goals_answer(user, end, when)
    if question.domain == "thing":
        return exercise_answers.detail_answer(user, question.subject) or food_fact(
            user, f"calories in {question.subject}", quiet=True
        )
    return None


def _goals_answer(user, day, when: str) -> str:
    """The goals that apply on `day`, each with how far the day has come."""
    summary = daily_summary(user=user, day=day)
    lines = [calories_line(summary)] if summary["calories"]["goal"] is not None else []
    lines += [
        _nutrient_line(summary, name, _NUTRIENT_NAMES.get(name, name.replace("_", " ")))
        for name, row in summary["nutrients"].items()
        if name != "calories" and row["goal"] is not None
    ]
    water = summary["water"]
    if water["goal"]:
        lines.append(f"water {water['glasses']} of {water['goal']} glasses")
    if not lines:
        return "You have no goals set yet: set them in Settings, Goals, or tell me one."
    return f"Your goals, {when[0].lower()}{when[1:]}: " + "; ".join(lines) + "."


def answer_for(*, user, reading) -> str | None:
    """Sparky's own answer to a question it reads whole (chat.reading.message): a food's facts, a
    catalog search, the user's own numbers. None when a model should answer (advice, anything
    else) or the question is not one of these after all."""
    text = spelled_out(reading.text)  # "calroies": the words the user meant
    if reading.question is not None and (answer := domain_answer(user, reading.question)):
        return answer
    if reading.kind == "search":
        return search_answer(user, text)
    if reading.kind == "food_question":
        return food_fact(user, text)
    if reading.kind == "data_question":
        return data_answer(user=user, text=text)
    return None


def answer_question(*, user, text: str) -> str:
    text = spelled_out(text)
    kind = question_kind(text)
    found = {"search": search_answer, "food_question": food_fact}.get(kind)
    if found is not None and (answer := found(user, text)) is not None:
        return answer
    if wants_advice(text) and not _WEEK.search(text):
        day = parse_day(user, "today")
        return f"{NO_COACHING} Today so far: {calories_line(daily_summary(user=user, day=day))}."
    if measured := _checkin_answer(user, text):  # "what was my blood pressure this week?"
        return measured
    period = period_of(text)
    eaten = _WHAT_EATEN.search(text) and not _ADVICE.search(text)
    if eaten and period.several_days:  # "what did i eat last month"
        return eaten_answer(user, *period.dates(today_for(user)))
    if _WEEK.search(text):
        return _week_answer(user)
    back = period.back if period.name == "day" else 0
    day = parse_day(user, "yesterday" if back == 1 else "today")
    label = "Yesterday" if back == 1 else "Today"
    if eaten:
        return _eaten_answer(user, day, label, text)
    if _A_MEAL.search(text) or _LAST_MEAL.search(text):  # "how many calories was my breakfast"
        return _eaten_answer(user, day, label, text)
    if measured := _custom_answer(user, day, text):  # "how much sleep did i get"
        return f"{label} ({day.isoformat()}): {measured}."
    summary = daily_summary(user=user, day=day)
    asked = [topic for topic, rx in _TOPICS.items() if rx.search(text)]
    parts = []
    for topic in asked or ["calories", "protein", "water", "exercise"]:
        if topic == "calories":
            parts.append(calories_line(summary))
        elif topic == "water":
            water = summary["water"]
            glasses = "glass" if water["glasses"] == 1 else "glasses"
            left = (water["goal"] or 0) - water["glasses"]
            to_go = f", {left} to go" if water["goal"] and left > 0 else ""
            goal = f" (your goal is {water['goal']}{to_go})" if water["goal"] else ""
            parts.append(f"{water['glasses']} {glasses} of water{goal}")
        elif topic == "exercise":
            ex = summary["exercise"]
            parts.append(
                f"{ex['count']} workouts, {_n(ex['minutes'])} min, {_n(ex['calories_burned'])} kcal"
            )
        elif topic == "weight":
            measured = summary.get("measurements") or {}
            checkin = measured.get("checkin") or {}
            weight = checkin.get("weight")
            unit = measured.get("weight_unit") or "kg"
            parts.append(_weight_line(user, weight, unit))
        elif topic == "steps":
            checkin = (summary.get("measurements") or {}).get("checkin") or {}
            steps = checkin.get("steps")
            parts.append(f"{_n(steps)} steps" if steps is not None else "no steps recorded")
        else:
            names = {
                "protein": "protein",
                "carbs": "carbs",
                "fat": "fat",
                "dietary_fiber": "fiber",
                "sugars": "sugars",
                "sodium": "sodium",
            }
            parts.append(_nutrient_line(summary, topic, names[topic]))
    return f"{label} ({day.isoformat()}): " + "; ".join(parts) + "."


# "how many calories so far", "did I drink enough water", "what's my weight": the diary's numbers.
_ABOUT_MY_DATA = words_pattern(_ASKED["about_my_data"])
_ME = words_pattern(_ASKED["me"])


def data_answer(*, user, text: str) -> str | None:
    """The answer when the question is one the diary or the catalog answers exactly (a food's
    calories, the day's or the week's numbers, what was eaten), else None: advice, opinions and
    anything else are a model's to answer."""
    if wants_advice(text):
        return None
    eaten = _WHAT_EATEN.search(text) and not _ADVICE.search(text)
    numbers = any(rx.search(text) for rx in _TOPICS.values()) and _ABOUT_MY_DATA.search(text)
    week = _WEEK.search(text) and _ME.search(text)
    meal = (_A_MEAL.search(text) or _LAST_MEAL.search(text)) and _ABOUT_MY_DATA.search(text)
    checkin = checkin_fields.asked(tokenise(text)) and _ABOUT_MY_DATA.search(text)
    if eaten or numbers or week or meal or checkin:
        return answer_question(user=user, text=text)
    return None
