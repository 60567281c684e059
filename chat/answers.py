"""Answers to questions about the user's own day, without a model (the offline engine).

"How many calories did I eat today?", "how much protein yesterday?", "did I drink enough water?":
read from the same daily summary every other surface uses, and say it plainly.
"""

from __future__ import annotations

import re

from django.core.exceptions import ValidationError

from chat.tools.base import ToolContext
from chat.tools.reports import weekly_report
from diary.selectors import daily_summary
from nutrition import services as food_services
from nutrition import units
from nutrition.selectors import food_diary
from nutrition.units import unit_text
from sparky.dates import parse_day

_TOPICS = {
    "protein": re.compile(r"\bprotein\b", re.I),
    "carbs": re.compile(r"\bcarb(s|ohydrates?)?\b", re.I),
    "fat": re.compile(r"\bfats?\b", re.I),
    "dietary_fiber": re.compile(r"\bfib(er|re)\b", re.I),
    "sugars": re.compile(r"\bsugars?\b", re.I),
    "sodium": re.compile(r"\b(sodium|salt)\b", re.I),
    "water": re.compile(r"\b(water|hydrat\w*|glasses)\b", re.I),
    "exercise": re.compile(r"\b(exercis\w*|burn(ed|t)?|workouts?|active|steps)\b", re.I),
    "weight": re.compile(r"\b(weigh\w*)\b", re.I),
    "calories": re.compile(r"\b(calories|kcal|cals?|eat|ate|eaten)\b", re.I),
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
    return text


def calories_line(summary: dict) -> str:
    cal = summary["calories"]
    text = f"{_n(cal['consumed'])} kcal eaten"
    if cal["burned"]:
        text += f", {_n(cal['burned'])} burned"
    if cal["goal"] is not None:
        text += f"; goal {_n(cal['goal'])}, {_n(cal['remaining'])} left"
    return text


_WEEK = re.compile(r"\b(week|weekly|7 days|seven days)\b", re.I)


def _week_answer(user) -> str:
    """The week in numbers, from the same report the weekly_report tool gives a model."""
    report = weekly_report(ToolContext.for_user(user), {"date": "today"})
    days = report.data["days"]
    minutes = sum(d["exercise_minutes"] or 0 for d in days)
    burned = sum(d["burned"] or 0 for d in days)
    text = report.message.rstrip(".")
    if minutes:
        text += f"; {minutes} min of exercise, {_n(burned)} kcal burned"
    water = sum(d["water"] or 0 for d in days)
    if water:
        text += f"; {water} glasses of water in all"
    return f"This week, {text}."


_WHAT_EATEN = re.compile(
    r"\bwhat\b.*\b(eat|ate|eaten|had|have)\b|\b(show|list)\b.*\b(diary|food|meals?|ate)\b"
    r"|\bwhat('s| is)\b.*\bdiary\b|\bwhat\b.*\b(logged|tracked)\b",
    re.I,
)
_MEALS = ("breakfast", "lunch", "dinner", "snack")
# "how much did I eat" wants the numbers; "what should I eat" wants advice, not the diary.
_ADVICE = re.compile(r"\b(how|should|could|can|would|recommend|suggest|ideas?|good)\b", re.I)


def _eaten_answer(user, day, label: str, text: str) -> str:
    """What was eaten on the day, meal by meal (one meal when the question names it)."""
    asked_meal = next((m for m in _MEALS if re.search(rf"\b{m}s?\b", text, re.I)), None)
    if asked_meal is None and re.search(r"\bsupper\b", text, re.I):
        asked_meal = "dinner"
    diary = food_diary(user=user, day=day)
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
        meals.append(f"{meal}: {items}")
    when = f"{label} ({day.isoformat()})"
    if not meals:
        what = f" for {asked_meal}" if asked_meal else (" yet" if label == "Today" else "")
        return f"{when}: nothing logged{what}."
    total = calories_line(daily_summary(user=user, day=day))
    return f"{when}: " + "; ".join(meals) + f". In all: {total}."


# Questions that want advice rather than the user's numbers: the offline engine cannot coach.
_COACHING = re.compile(
    r"\b(how (do|can|should) (i|we)|should (i|we)|tips?|advice|recommend\w*|suggest\w*|"
    r"ideas?|healthy|healthier|good for|bad for|is it ok|better)\b",
    re.I,
)


def wants_advice(text: str) -> bool:
    """Whether a message asks for advice, which needs a model, rather than the user's numbers."""
    return bool(_COACHING.search(text or ""))


NO_COACHING = (
    "Advice needs an AI service (Settings, AI services: a cloud model or a local Ollama); the "
    "built-in offline parser only logs and reads back your numbers."
)


# "how many calories in a banana?", "calories in 2 eggs", "how much protein is in an avocado":
# a question about a food, not about the day.
_FOOD_QUESTION = re.compile(
    r"\b(?:calories|kcal|cals?|protein|carbs|fat)\s+(?:are\s+|is\s+)?(?:there\s+)?in\s+"
    r"(?:an?\s+|one\s+|the\s+)?(?P<food>[a-z][a-z '&-]{1,60}?)\s*\??\s*$",
    re.I,
)


def _food_answer(user, text: str) -> str | None:
    """The calories and macros of a food's usual helping, or None when it isn't one."""
    m = _FOOD_QUESTION.search(text.strip())
    if m is None:
        return None
    name = m.group("food").strip()
    food = food_services.food_find_best(user=user, name=name)
    if food is None:
        return None
    try:
        portion = units.portion(food=food, quantity=1, unit=None, unsized=True)
    except ValidationError:
        return None
    values = food_services.nutrients_for(food, portion.multiplier)
    amount = f"{portion.quantity.normalize():f} {unit_text(portion.quantity, portion.unit)}"
    macros = ", ".join(
        f"{_n(values[k], 1)} g {label}"
        for k, label in (("protein", "protein"), ("carbs", "carbs"), ("fat", "fat"))
        if values.get(k) is not None
    )
    return (
        f"{amount.strip()} of {food.name} ({name}): {_n(values.get('calories'))} kcal"
        + (f", {macros}" if macros else "")
        + ". Nothing was logged; say 'I had ...' to log it."
    )


def answer_question(*, user, text: str) -> str:
    if (about_food := _food_answer(user, text)) is not None:
        return about_food
    if _COACHING.search(text) and not _WEEK.search(text):
        day = parse_day(user, "today")
        return f"{NO_COACHING} Today so far: {calories_line(daily_summary(user=user, day=day))}."
    if _WEEK.search(text):
        return _week_answer(user)
    day_word = "yesterday" if re.search(r"\byesterday\b", text, re.I) else "today"
    day = parse_day(user, day_word)
    label = "Yesterday" if day_word == "yesterday" else "Today"
    if _WHAT_EATEN.search(text) and not _ADVICE.search(text):
        return _eaten_answer(user, day, label, text)
    summary = daily_summary(user=user, day=day)
    asked = [topic for topic, rx in _TOPICS.items() if rx.search(text)]
    parts = []
    for topic in asked or ["calories", "protein", "water", "exercise"]:
        if topic == "calories":
            parts.append(calories_line(summary))
        elif topic == "water":
            water = summary["water"]
            parts.append(f"water {water['glasses']} of {water['goal']} glasses")
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
            parts.append(
                f"weight {_n(weight, 1)} {unit}" if weight is not None else "no weigh-in recorded"
            )
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
_ABOUT_MY_DATA = re.compile(
    r"\b(how (much|many)|did i|have i|what('s| is| was) my|my total|in total|so far|today|"
    r"yesterday)\b",
    re.I,
)


def data_answer(*, user, text: str) -> str | None:
    """The answer when the question is one the diary or the catalog answers exactly (a food's
    calories, the day's or the week's numbers, what was eaten), else None: advice, opinions and
    anything else are a model's to answer."""
    if (about_food := _food_answer(user, text)) is not None:
        return about_food
    if _FOOD_QUESTION.search(text.strip()) or wants_advice(text):
        return None
    eaten = _WHAT_EATEN.search(text) and not _ADVICE.search(text)
    numbers = any(rx.search(text) for rx in _TOPICS.values()) and _ABOUT_MY_DATA.search(text)
    week = _WEEK.search(text) and re.search(r"\b(my|i|i'm|i've)\b", text, re.I)
    if eaten or numbers or week:
        return answer_question(user=user, text=text)
    return None
