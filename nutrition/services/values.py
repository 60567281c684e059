"""Nutrition's shared values: column limits, meal words, a row's nutrients, and the checks of
an amount, an id and a date."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal, InvalidOperation

from django.core.exceptions import ValidationError

from nutrition import units, vocabulary
from nutrition.models import (
    MICRONUTRIENTS,
    NUTRIENTS,
    PUBLIC_NAMES,
    Food,
    FoodEntry,
    MealType,
)
from sparky.dates import now_for
from sparky.words import as_written

# DecimalField(max_digits=12, decimal_places=3) and (10, 3): the largest values the columns hold.
NUTRIENT_MAX = Decimal("999999999.999")
SERVING_MAX = Decimal("9999999.999")
_PLACES = Decimal("0.001")
# One diary entry above this is almost always a unit mix-up ("75 x 100 g"), never written silently.
IMPLAUSIBLE_KCAL = Decimal(5000)
# No food holds more than this per 100 g: fat, the densest, is about 900 kcal, and protein, carbs
# and fat together weigh no more than the food. A food of the user's own kept by weight is
# refused above either (a per-serving number typed as per-100 g, a slip of a digit).
MAX_KCAL_PER_100_G = Decimal(900)
MAX_MACROS_PER_100_G = Decimal(100)
# Below these an entry is a crumb, not what anyone eats of a food logged by the piece or the
# serving ("0.01 eggs"): a tenth of a piece, or a gram.
CRUMB_COUNT = Decimal("0.1")
CRUMB_GRAMS = Decimal(1)
# One message that would write more entries or more calories than this asks first: a pasted week
# or a typo'd count ("30 big macs") is confirmed before anything is written.
TURN_MAX_ENTRIES = 8
TURN_MAX_KCAL = Decimal(2500)  # more than a day's energy for most adults
MAX_GLASSES_PER_ADD = 50
MAX_GLASSES_PER_DAY = 100
MAX_WATER_GOAL = 100

# Word -> meal ("supper" -> dinner, "brekkie" -> breakfast): nutrition/words/meals.toml.
MEAL_SYNONYMS = {word: MealType(meal) for word, meal in vocabulary.MEAL_WORDS.items()}
# UserGoal calls one nutrient differently from the food columns; both names are accepted.
_GOAL_ALIASES = PUBLIC_NAMES
GOAL_FIELDS = tuple(_GOAL_ALIASES.get(n, n) for n in NUTRIENTS)
FOOD_FIELDS = ("name", "serving_size", "serving_unit", "barcode", "shared_with_public")


def entry_nutrients(entry: FoodEntry) -> dict[str, Decimal | None]:
    """Every nutrient in NUTRIENTS for the amount logged; None where the food has no value.

    Works on unsaved entries too (a draft to show before logging); a unit the food cannot take
    raises the same ValidationError as logging it would.
    """
    portion = units.portion(
        food=entry.food, quantity=entry.quantity, unit=entry.unit, variant=entry.variant
    )
    return nutrients_for(entry.food, portion.multiplier)


def nutrients_for(food: Food, multiplier: Decimal) -> dict[str, Decimal | None]:
    """The food's stored nutrients times `multiplier`, to three places; None stays None."""
    out = {}
    for name in NUTRIENTS:
        value = getattr(food, name)
        out[name] = None if value is None else (Decimal(value) * multiplier).quantize(_PLACES)
    return out


def micronutrients_for(food: Food, multiplier: Decimal) -> dict[str, Decimal | None]:
    """Every nutrient in MICRONUTRIENTS of the food times `multiplier`, to three places; None
    where the food does not record it (custom foods, mostly): unknown, never zero."""
    stored = food.micronutrients or {}
    out = {}
    for name in MICRONUTRIENTS:
        value = stored.get(name)
        out[name] = None if value is None else (Decimal(str(value)) * multiplier).quantize(_PLACES)
    return out


def entry_micronutrients(entry: FoodEntry) -> dict[str, Decimal | None]:
    """entry_nutrients for MICRONUTRIENTS: the amount logged of each, None where unknown."""
    portion = units.portion(
        food=entry.food, quantity=entry.quantity, unit=entry.unit, variant=entry.variant
    )
    return micronutrients_for(entry.food, portion.multiplier)


def meal_for_word(word, *, last_after_for: bool = False) -> str | None:
    """The meal a word names ("supper" -> "dinner", "brekkie" -> "breakfast"), else None;
    `last_after_for`: the word is said last, after "for", where "tea" is the evening meal."""
    said = " ".join(str(word or "").lower().split())
    meal = MEAL_SYNONYMS.get(said)
    if meal is None and last_after_for:
        return vocabulary.MEAL_LAST_AFTER_FOR.get(said)
    return meal.value if meal is not None else None


def default_meal(user) -> str:
    """The meal an entry logged without one most likely belongs to, at the user's local time:
    breakfast until 10:30, lunch until 15:00, a snack until 17:30, dinner until 22:00, else a
    snack. Chat, the API and the web all log a meal-less entry here."""
    now = now_for(user)
    minutes = now.hour * 60 + now.minute
    if 4 * 60 <= minutes < 10 * 60 + 30:
        return MealType.BREAKFAST.value
    if minutes < 15 * 60:
        return MealType.LUNCH.value if minutes >= 10 * 60 + 30 else MealType.SNACK.value
    if minutes < 17 * 60 + 30:
        return MealType.SNACK.value
    if minutes < 22 * 60:
        return MealType.DINNER.value
    return MealType.SNACK.value


def clean_meal_type(value, *, user=None) -> str:
    """breakfast, lunch, dinner or snack from what a person or model wrote ("Brunch", "supper");
    no meal is the meal of the user's local time (a snack when no user is given)."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return default_meal(user) if user is not None else MealType.SNACK.value
    key = " ".join(str(value).lower().split())
    meal = MEAL_SYNONYMS.get(key)
    if meal is None:
        raise ValidationError(
            f"{value!r} is not a meal; use breakfast, lunch, dinner or snack.",
            code="invalid_meal_type",
        )
    return meal.value


# --- values --------------------------------------------------------------------------------------


def _amount(value, name: str, maximum: Decimal, positive: bool = False) -> Decimal:
    """A non-negative (or positive) decimal that fits its column, to three places (`name` said
    as words in the message: "serving_size" is "Serving size")."""
    name = name.replace("_", " ")
    name = name[:1].upper() + name[1:]
    expected = "a positive number" if positive else "a number of 0 or more"
    try:
        number = Decimal(str(value).strip()) if not isinstance(value, bool) else None
    except (InvalidOperation, ValueError):
        number = None
    if number is None or not number.is_finite():
        raise ValidationError(
            f"{name} must be {expected}, not {as_written(value)}.", code="invalid_value"
        )
    # The range first: quantizing 1e308 to three places overflows Decimal's precision.
    if number > maximum:
        raise ValidationError(
            f"{name} of {as_written(number)} is too large; the most it can be is {maximum:,}.",
            code="invalid_value",
        )
    number = number.quantize(_PLACES)
    if number < 0 or (positive and number == 0):
        raise ValidationError(
            f"{name} must be {expected}, not {as_written(value)}.", code="invalid_value"
        )
    return number


def _is_date(value) -> bool:
    return isinstance(value, dt.date) and not isinstance(value, dt.datetime)
