"""Foods: the catalog search, the user's own custom foods, and what an amount of a food holds."""

from __future__ import annotations

import dataclasses
import re
from decimal import Decimal, InvalidOperation

from django.core.exceptions import ValidationError
from django.db import transaction

from nutrition import search, units
from nutrition.models import (
    NUTRIENTS,
    Food,
    FoodEntry,
)
from nutrition.services.values import (
    _PLACES,
    FOOD_FIELDS,
    MAX_KCAL_PER_100_G,
    MAX_MACROS_PER_100_G,
    NUTRIENT_MAX,
    SERVING_MAX,
    _amount,
    nutrients_for,
)
from sparky.services import (
    own_custom_row,
    refuse_while_used,
    storable_name,
    storable_text,
    uuid_pk,
)
from sparky.words import singular as words_singular

# --- search --------------------------------------------------------------------------------------


# NUL and lone surrogates cannot be sent to Postgres, even as a query parameter; they never help
# a match, so searches drop them instead of failing with a database error.
_UNSENDABLE = re.compile("[\x00\ud800-\udfff]")


def _searchable(text) -> str:
    return _UNSENDABLE.sub(" ", text) if isinstance(text, str) else text


def food_search(*, user, query: str, limit: int = 10) -> list[Food]:
    """The user's own foods first among similar matches, then public and shared ones; best
    first, each with `.score` (0..1) and `.complete` (every query word matched)."""
    return search.search_foods(user=user, query=_searchable(query), limit=limit)


def food_get(*, user, food_id) -> Food:
    """A food the user may see, else Food.DoesNotExist (an id that is not a UUID included)."""
    food = Food.objects.visible_to(user).filter(pk=uuid_pk(food_id, Food)).first()
    if food is None:
        raise Food.DoesNotExist(f"No food with id {food_id} is yours or in the catalog.")
    return food


def food_options(*, user, query: str, limit: int = 3) -> list[Food]:
    """Foods to offer when `query` is not logged as is: for a dish, only dishes (never one of
    its parts: "turkey sandwich" is never plain roast turkey); else the nearest matches."""
    dishes = search.dish_options(user=user, query=_searchable(query), limit=limit)
    if dishes is not None:
        return dishes
    return food_search(user=user, query=query, limit=limit)


def food_words_known(text: str) -> bool:
    """Whether every word of `text` appears in some food's name (no typo correction needed)."""
    return search.known_words(_searchable(text))


def food_words_spelled(text: str) -> str:
    """The words as the catalog writes them ("oj" -> "orange juice")."""
    return search.spelled_out(text or "")


def food_name_word(word: str) -> bool:
    """Whether some catalog food's name opens with the word ("banana", "oatmeal"): a word that
    can name a food alone, unlike "quick" or "sweet" of "a quick snack"."""
    return words_singular(str(word or "").lower()) in search.opening_words()


def food_named_by_description(name: str, food: Food) -> bool:
    """Whether `food` was found for a one-word `name` that only describes it ("quick" and
    "Cereals, oats, regular and quick"): a match to doubt when a sentence has better readings."""
    return search.describes_only(name, food)


def food_word_says_how_made(word: str) -> bool:
    """Whether a word says how a food was made ("fried", "topped", "made"), naming none."""
    return search.says_how_made(str(word or "").lower())


def food_dish_word(word: str) -> bool:
    """Whether a word names a dish the words before it fill ("sandwich", "soup", "wrap")."""
    return str(word or "").lower() in search.DISH_WORDS


def food_find_best(*, user, name: str, unit=None) -> Food | None:
    """The food to log for `name` when the match is confident, else None (offer options).
    `user` None: the public catalog only. A `unit` of weight or volume lets a food the catalog
    keeps only by weight be chosen (it is weighed, not guessed). A name of one letter or digit
    ("x") names no food: never the nearest match to it."""
    if len(re.sub(r"\W", "", str(name or ""))) < 2:
        return None
    return search.best_food(user=user or search.PUBLIC, name=_searchable(name), unit=unit)


# --- custom foods --------------------------------------------------------------------------------


@transaction.atomic
def food_create_custom(*, user, name: str, serving_size=100, serving_unit="g", **nutrients) -> Food:
    """A food of the user's own, with nutrient values per `serving_size` `serving_unit`.

    Also accepts `barcode` and `shared_with_public`; other unknown fields are refused.
    """
    extra = {k: nutrients.pop(k) for k in ("barcode", "shared_with_public") if k in nutrients}
    food = Food(user=user, is_custom=True, shared_with_public=False)
    _apply_food_fields(
        food,
        {"name": name, "serving_size": serving_size, "serving_unit": serving_unit, **extra},
        nutrients,
    )
    check_per_100_g(food)
    food.full_clean()
    food.save()
    return food


def check_per_100_g(food: Food) -> None:
    """Refuse a food kept by weight whose numbers no food has: more than MAX_KCAL_PER_100_G, or
    more than MAX_MACROS_PER_100_G of protein, carbs and fat together, per 100 g."""
    unit = units.parse_unit(food.serving_unit) if units.a_weight(food.serving_unit) else None
    if unit is None or not food.serving_size:
        return
    grams = Decimal(food.serving_size) * Decimal(str(units.MASS_G[unit.canonical]))
    if grams <= 0:
        return
    per_100 = Decimal(100) / grams
    size = f"{units.clean_quantity(food.serving_size).normalize():f} {food.serving_unit}"
    if food.calories is not None and Decimal(food.calories) * per_100 > MAX_KCAL_PER_100_G:
        kcal = Decimal(food.calories) * per_100
        raise ValidationError(
            f"{food.calories.normalize():f} kcal in {size} would be {kcal:,.0f} kcal per 100 g; "
            f"no food has more than {MAX_KCAL_PER_100_G} (pure fat has about that). Check the "
            "calories and the serving size.",
            code="implausible_energy",
        )
    macros = sum(Decimal(getattr(food, n) or 0) for n in ("protein", "carbs", "fat"))
    if macros * per_100 > MAX_MACROS_PER_100_G:
        raise ValidationError(
            f"{macros.normalize():f} g of protein, carbs and fat in {size} would be "
            f"{macros * per_100:,.0f} g per 100 g, more than the food weighs. Check the grams "
            "and the serving size.",
            code="implausible_macros",
        )


@transaction.atomic
def food_update_custom(*, user, food_id, **fields) -> Food:
    """Change one of the user's own foods. Entries logged with it follow the new values (a fix
    to a custom food is almost always a correction). Shared foods of others are read-only."""
    food = _own_food(user, food_id, for_update=True)
    if not fields:
        raise ValidationError(
            f"Say what to change on {food.name}: {', '.join(FOOD_FIELDS)} or a nutrient.",
            code="no_changes",
        )
    plain = {k: fields.pop(k) for k in FOOD_FIELDS if k in fields}
    _apply_food_fields(food, plain, fields)
    # Staff approved the share as it was: a changed food waits for their approval again.
    food.share_approved = False
    check_per_100_g(food)
    food.full_clean()
    food.save()
    return food


@transaction.atomic
def food_delete_custom(*, user, food_id) -> None:
    """Delete one of the user's own foods, refused while diary entries use it.

    A diary entry keeps pointing at its food (the calories of a past day must not change), so a
    food in use stays; the message says what to do instead.
    """
    food = _own_food(user, food_id, for_update=True)
    refuse_while_used(food, FoodEntry.objects.filter(food=food), user=user, yours="diary entries")
    food.delete()


def _own_food(user, food_id, *, for_update: bool = False) -> Food:
    pk = uuid_pk(food_id, Food)
    return own_custom_row(Food, user, pk, noun="food", for_update=for_update)


def _apply_food_fields(food: Food, fields: dict, nutrients: dict) -> None:
    unknown = sorted(set(nutrients) - set(NUTRIENTS))
    if unknown:
        raise ValidationError(
            f"Unknown food field(s) {', '.join(unknown)}; nutrients are {', '.join(NUTRIENTS)}.",
            code="unknown_field",
        )
    if "name" in fields:
        name = storable_name(" ".join(str(fields["name"] or "").split()), field="The food name")
        if not name:
            raise ValidationError("A food needs a name.", code="invalid_name")
        if len(name) > 255:
            raise ValidationError("A food name can be at most 255 characters.", code="invalid_name")
        food.name = name
    if "serving_size" in fields:
        food.serving_size = _amount(
            fields["serving_size"], "serving_size", SERVING_MAX, positive=True
        )
    if "serving_unit" in fields:
        food.serving_unit = _serving_unit(fields["serving_unit"])
    if "barcode" in fields:
        barcode = str(fields["barcode"] or "").strip() or None
        if barcode is not None and (not barcode.isdigit() or not 8 <= len(barcode) <= 14):
            raise ValidationError(
                f"{barcode!r} is not a barcode; use the 8 to 14 digits under the bars.",
                code="invalid_barcode",
            )
        food.barcode = barcode
    if "shared_with_public" in fields:
        food.shared_with_public = bool(fields["shared_with_public"])
    for name, value in nutrients.items():
        setattr(food, name, None if value is None else _amount(value, name, NUTRIENT_MAX))


def _serving_unit(value) -> str:
    text = storable_text(" ".join(str(value or "").split()), field="The serving unit")
    if not text:
        raise ValidationError(
            "A serving needs a unit, e.g. 'g', 'ml', 'piece' or 'bar'.", code="invalid_unit"
        )
    # Known units are stored in one spelling ("grams" -> "g") so later conversions match them.
    parsed = units.parse_unit(text)
    unit = parsed.canonical if parsed.factor == 1 and parsed.canonical else text.lower()
    if len(unit) > 50:
        raise ValidationError("A serving unit can be at most 50 characters.", code="invalid_unit")
    return unit


def _same_custom_food(user, name, serving_size, serving_unit, calories) -> Food | None:
    try:
        size = Decimal(str(serving_size)).quantize(_PLACES)
        kcal = None if calories is None else Decimal(str(calories)).quantize(_PLACES)
    except (InvalidOperation, ValueError):
        return None  # food_create_custom says what is wrong with the values
    unit = units.parse_unit(serving_unit).canonical or str(serving_unit).strip().lower()
    return (
        Food.objects.owned_by(user)
        .filter(
            is_custom=True,
            name__iexact=name,
            serving_size=size,
            serving_unit=unit,
            calories=kcal,
        )
        .order_by("created_at")
        .first()
    )


# --- what an amount of a food holds ----------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class FoodFacts:
    """What `quantity` `unit` of a food holds, as logging it would count it (nothing saved)."""

    food: Food
    quantity: Decimal
    unit: str
    values: dict[str, Decimal | None]


def food_facts(*, user, name: str, quantity=None, unit=None) -> FoodFacts | None:
    """The nutrients of an amount of the food `name` names, by the same rules as logging it
    (the same food found, the same household measure when no unit is given); None when the
    catalog has no confident match, so nothing else is ever answered for it."""
    rest, moved = units.amount_in_name(name, unit)
    food = food_find_best(user=user, name=name)
    if food is None and (rest, moved) != (name, unit):
        food, unit = food_find_best(user=user, name=rest), moved
    if food is None:
        return None
    last = (name.lower().split() or [""])[-1]
    plural = len(last) > 3 and last.endswith("s") and not last.endswith(("ss", "us", "is"))
    portion = units.portion(
        food=food,
        quantity=1 if quantity is None else quantity,
        unit=unit,
        unsized=quantity is None and not unit,
        several=quantity is None and not unit and plural,
    )
    amount = portion.quantity if portion.quantity is not None else Decimal(str(quantity or 1))
    return FoodFacts(
        food=food,
        quantity=amount,
        unit=portion.unit,
        values=nutrients_for(food, portion.multiplier),
    )
