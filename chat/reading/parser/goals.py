"""Daily goals: "calorie goal 2000", "protein target 150 g and 8 glasses of water"."""

from __future__ import annotations

from chat.reading.parser.measurements import number_near
from chat.reading.parser.state import Reading, When
from chat.reading.parser.tokens import take_quantity, token_at
from chat.reading.parser.vocabulary import GOAL_NUTRIENTS, GOAL_WORDS, MEASUREMENT_FILLER
from measurements.vocabulary import CHECKIN_WORDS, WEIGHT_SPELLINGS

_GOAL_FILLER = MEASUREMENT_FILLER | GOAL_WORDS | {"to", "be", "daily", "per", "day", "a", "set"}


GOALS_HINT = (
    "I can set daily goals for calories, protein, carbs, fat, fiber, sugars, sodium and water, "
    "e.g. 'calorie goal 2000' or 'protein goal 150 g and 8 glasses of water'."
)


# A weight and its units (measurements' words): a goal weight is not a goal Sparky keeps.
_WEIGHT_WORDS = {w for w, field in CHECKIN_WORDS.items() if field == "weight"} | set(
    WEIGHT_SPELLINGS
)


def read_goals(tokens: list[str], when: When, reading: Reading) -> None:
    """'set my calorie goal to 2200', 'goals: 150 g protein and 8 glasses of water'."""
    if any(t in _WEIGHT_WORDS for t in tokens) and not any(t in GOAL_NUTRIENTS for t in tokens):
        reading.errors.append(
            "I don't keep a goal weight; your weigh-ins and 'how is my weight trending?' show "
            "the way there. " + GOALS_HINT
        )
        return
    values: dict[str, float] = {}
    used: set[int] = set()
    for i, token in enumerate(tokens):
        name = GOAL_NUTRIENTS.get(token)
        if name is None or name in values:
            continue
        if name == "fat" and token_at(tokens, i - 1) in ("saturated", "sat"):
            name = "saturated_fat"
        found = number_near(tokens, i, used, _GOAL_FILLER)
        if found is not None:
            value, start, end = found
            used.update(range(start, end + 1))
            values[name] = value
    if not values:
        # "set my goal to 2000": a bare daily number is a calorie goal.
        numbers = [take_quantity(tokens, i, articles=False)[0] for i in range(len(tokens))]
        numbers = [n for n in numbers if n is not None]
        if len(numbers) == 1 and 800 <= numbers[0] <= 10_000:
            values["calories"] = numbers[0]
    if not values:
        reading.errors.append(GOALS_HINT)
        return
    if "water_goal" in values:
        values["water_goal"] = round(values["water_goal"])
    day = when.date or ("today" if {"today's", "todays"} & set(tokens) else None)
    data = {**values, "date": day, "only_for_date": day is not None}
    reading.entries.append(("set_goals", data))
