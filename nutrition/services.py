"""Nutrition writes: custom foods, the food diary, goals and water, and the food search.

These functions are the only writers of their tables. Every one takes the acting user, reads and
writes only what that user may see, validates before it writes (ValidationError with a code and a
message that says what was wrong and what is expected), and runs in one transaction, so a refused
call leaves nothing behind.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
import uuid
from decimal import Decimal, InvalidOperation

from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction

from nutrition import search, units
from nutrition.models import (
    ESTIMATE_SOURCE,
    NUTRIENTS,
    Food,
    FoodEntry,
    FoodVariant,
    MealType,
    UserGoal,
    UsualMeal,
    WaterIntake,
)
from sparky import rows
from sparky.dates import now_for, parse_day, today_for
from sparky.services import storable_text

# DecimalField(max_digits=12, decimal_places=3) and (10, 3): the largest values the columns hold.
NUTRIENT_MAX = Decimal("999999999.999")
SERVING_MAX = Decimal("9999999.999")
_PLACES = Decimal("0.001")
# One diary entry above this is almost always a unit mix-up ("75 x 100 g"), never written silently.
IMPLAUSIBLE_KCAL = Decimal(5000)
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

MEAL_SYNONYMS = {
    **dict.fromkeys(["breakfast", "brekkie", "brekky", "morning", "breakfst"], MealType.BREAKFAST),
    # Brunch is eaten late morning in place of lunch; it counts towards lunch.
    **dict.fromkeys(["lunch", "brunch", "luncheon", "midday", "noon"], MealType.LUNCH),
    **dict.fromkeys(
        ["dinner", "supper", "evening", "evening meal", "dinnertime", "tonight"], MealType.DINNER
    ),
    **dict.fromkeys(
        ["snack", "snacks", "snacked", "snacking", "dessert", "treat", "other", "anytime"],
        MealType.SNACK,
    ),
}
# UserGoal calls one nutrient differently from the food columns; both names are accepted.
_GOAL_ALIASES = {"monounsaturated_unsaturated": "monounsaturated_fat"}
GOAL_FIELDS = tuple(_GOAL_ALIASES.get(n, n) for n in NUTRIENTS)
FOOD_FIELDS = ("name", "serving_size", "serving_unit", "barcode", "shared_with_public")


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
    return Food.objects.visible_to(user).get(pk=_uuid(food_id, Food))


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


def food_dish_word(word: str) -> bool:
    """Whether a word names a dish the words before it fill ("sandwich", "soup", "wrap")."""
    return str(word or "").lower() in search.DISH_WORDS


def food_find_best(*, user, name: str) -> Food | None:
    """The food to log for `name` when the match is confident, else None (offer options)."""
    return search.best_food(user=user, name=_searchable(name))


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
    food.full_clean()
    food.save()
    return food


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
    mine = FoodEntry.objects.filter(food=food, user=user).count()
    others = FoodEntry.objects.filter(food=food).exclude(user=user).count()
    if mine or others:
        used = f"{mine} of your diary entries" if mine else ""
        if others:
            used += (" and " if used else "") + "other people who logged it after you shared it"
        raise ValidationError(
            f"{food.name} is used by {used}, so it stays. Delete those entries first"
            + (", or stop sharing it." if others else "."),
            code="in_use",
        )
    food.delete()


def _own_food(user, food_id, *, for_update: bool = False) -> Food:
    pk = _uuid(food_id, Food)
    queryset = Food.objects.owned_by(user).filter(is_custom=True)
    if for_update:
        queryset = queryset.select_for_update()
    try:
        return queryset.get(pk=pk)
    except Food.DoesNotExist:
        shared = Food.objects.visible_to(user).filter(pk=pk).first()
        if shared is None:
            raise
        raise ValidationError(
            f"{shared.name} is not one of your own foods: you can log it but not change or "
            "delete it. Create your own food to adjust it.",
            code="read_only",
        ) from None


def _apply_food_fields(food: Food, fields: dict, nutrients: dict) -> None:
    unknown = sorted(set(nutrients) - set(NUTRIENTS))
    if unknown:
        raise ValidationError(
            f"Unknown food field(s) {', '.join(unknown)}; nutrients are {', '.join(NUTRIENTS)}.",
            code="unknown_field",
        )
    if "name" in fields:
        name = storable_text(" ".join(str(fields["name"] or "").split()), field="The food name")
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


# --- diary ---------------------------------------------------------------------------------------


@transaction.atomic
def food_entry_create(
    *,
    user,
    food,
    quantity=1,
    unit=None,
    meal_type=None,
    entry_date=None,
    variant=None,
    unsized=False,
    several=False,
    confirmed=False,
) -> FoodEntry:
    """Log `quantity` `unit` of a food the user may see into their diary.

    `unit` None means the food's natural unit: pieces of a countable food ("2 eggs" is two large
    eggs), else servings; `unsized` (no count was said: "almonds") takes a household measure
    over a tiny piece such as one almond, and `several` (a plural with no count: "eggs") a
    couple of pieces. Refuses future days, unknown units, absurd amounts, and (code
    'implausible', with the numbers, unless `confirmed` by the user) entries over 5,000 kcal or
    a crumb of a food eaten by the piece ("0.01 eggs").
    """
    food = _visible_food(user, food)
    day = parse_day(user, entry_date)
    meal = clean_meal_type(meal_type, user=user)
    chosen = _variant_of(food, variant)
    try:
        portion = units.portion(
            food=food,
            quantity=quantity,
            unit=unit,
            variant=chosen,
            unsized=unsized,
            several=several,
        )
    except ValidationError as exc:
        if exc.code == "invalid_quantity":  # "-3 eggs", "0 g of pasta": name what was refused
            raise ValidationError(
                f"{food.readable_name}: {' '.join(exc.messages)}", code="invalid_quantity"
            ) from None
        # "a cup of Greek yogurt": SR28 weighs it only by the pot; its kin give grams per cup.
        quantity, unit = _weighed_like_kin(food, quantity, unit, exc)
        portion = units.portion(food=food, quantity=quantity, unit=unit)
    if not confirmed:
        _check_plausible(food, portion, quantity, unit)
    entry = FoodEntry(
        user=user,
        food=food,
        meal_type=meal,
        quantity=portion.quantity,
        unit=portion.unit[:50],
        entry_date=day,
        variant=portion.variant,
    )
    entry.full_clean()
    entry.save()
    return entry


@transaction.atomic
def food_option_add(
    *,
    user,
    option: dict,
    quantity=None,
    unit=None,
    meal_type=None,
    entry_date=None,
    confirmed=False,
) -> FoodEntry:
    """Log an option the coach offered ({name, calories, protein, carbs, fat, serving_size,
    serving_unit, ...nutrients}) as a custom food of the user's; one serving unless a quantity
    is given. Picking the same option again reuses the food instead of making a copy."""
    if not isinstance(option, dict) or not str(option.get("name") or "").strip():
        raise ValidationError("The option has no food name.", code="invalid_option")
    parse_day(user, entry_date)  # refused before a food is created for nothing
    meal_type = clean_meal_type(meal_type, user=user)
    nutrients = {k: option[k] for k in NUTRIENTS if option.get(k) is not None}
    serving_size = option.get("serving_size") or 1
    serving_unit = storable_text(
        str(option.get("serving_unit") or units.SERVING), field="The serving unit"
    )
    name = storable_text(" ".join(str(option["name"]).split()), field="The food name")
    food = _same_custom_food(user, name, serving_size, serving_unit, nutrients.get("calories"))
    if food is None:
        food = food_create_custom(
            user=user,
            name=name,
            serving_size=serving_size,
            serving_unit=serving_unit,
            **nutrients,
        )
        if option.get("estimate"):  # a model's numbers: the diary says so
            food.source = ESTIMATE_SOURCE
            food.save(update_fields=["source"])
    return food_entry_create(
        user=user,
        food=food,
        quantity=1 if quantity is None else quantity,
        unit=unit,
        meal_type=meal_type,
        entry_date=entry_date,
        confirmed=confirmed,
    )


@transaction.atomic
def food_entry_update(
    *, user, entry_id, quantity=None, unit=None, meal_type=None, entry_date=None
) -> FoodEntry:
    """Change an entry's amount, unit, meal or day; what is not given stays."""
    entry = (
        FoodEntry.objects.for_user(user)
        .select_related("food", "variant")
        .select_for_update(of=("self",))
        .get(pk=_uuid(entry_id, FoodEntry))
    )
    if quantity is None and unit is None and meal_type is None and entry_date is None:
        raise ValidationError(
            "Say what to change: quantity, unit, meal_type or entry_date.", code="no_changes"
        )
    if quantity is not None or unit is not None:
        same_unit = unit is None
        portion = units.portion(
            food=entry.food,
            quantity=entry.quantity if quantity is None else quantity,
            unit=entry.unit if same_unit else unit,
            variant=entry.variant if same_unit else None,
        )
        _check_plausible(
            entry.food,
            portion,
            entry.quantity if quantity is None else quantity,
            entry.unit if same_unit else unit,
        )
        entry.quantity, entry.unit, entry.variant = (
            portion.quantity,
            portion.unit[:50],
            portion.variant,
        )
    if meal_type is not None:
        entry.meal_type = clean_meal_type(meal_type)
    if entry_date is not None:
        entry.entry_date = parse_day(user, entry_date)
    entry.full_clean()
    entry.save()
    return entry


@transaction.atomic
def food_entry_delete(*, user, entry_id) -> None:
    entry = FoodEntry.objects.for_user(user).get(pk=_uuid(entry_id, FoodEntry))
    entry.delete()


def meal_to_repeat(*, user, from_date, meal=None, to_meal=None) -> tuple[str, list[FoodEntry]]:
    """The entries of a meal of another day that "same breakfast as yesterday" logs again, and
    the meal they go to today. No meal said is the meal of now ("same as yesterday" at 8 am is
    yesterday's breakfast); "same as yesterday for dinner" is yesterday's dinner as today's.
    Refuses today's own meal and a meal with nothing logged, naming the day."""
    day = parse_day(user, from_date)
    meal = clean_meal_type(meal or to_meal, user=user)
    to_meal = clean_meal_type(to_meal or meal, user=user)
    if day == today_for(user) and to_meal == meal:
        raise ValidationError(
            f"That is today's {meal}; say which day to repeat, e.g. 'same as yesterday'.",
            code="same_meal",
        )
    entries = list(
        FoodEntry.objects.for_user(user)
        .filter(entry_date=day, meal_type=meal)
        .select_related("food", "variant")
        .order_by("created_at")
    )
    if not entries:
        raise ValidationError(
            f"Nothing was logged for {meal} on {day.isoformat()}, so there is nothing to repeat.",
            code="nothing_to_repeat",
        )
    return to_meal, entries


@transaction.atomic
def meal_repeat(*, user, from_date, meal=None, to_meal=None, entry_date=None) -> list[FoodEntry]:
    """Log a meal of another day again (`meal_to_repeat`), as it was logged: each food with its
    amount, unit and serving, into `to_meal` of `entry_date` (today when not given)."""
    to_meal, entries = meal_to_repeat(user=user, from_date=from_date, meal=meal, to_meal=to_meal)
    return [
        food_entry_create(
            user=user,
            food=entry.food,
            quantity=entry.quantity,
            unit=entry.unit,
            variant=entry.variant,
            meal_type=to_meal,
            entry_date=entry_date,
        )
        for entry in entries
    ]


@transaction.atomic
def usual_meal_save(*, user, meal=None, from_date=None) -> UsualMeal:
    """Save a day's meal (today's by default; no meal said: the meal of now) as the user's
    usual one, replacing the one saved before. Refuses a meal with nothing logged."""
    day = parse_day(user, from_date)
    meal = clean_meal_type(meal, user=user)
    entries = list(
        FoodEntry.objects.for_user(user)
        .filter(entry_date=day, meal_type=meal)
        .order_by("created_at")
    )
    if not entries:
        raise ValidationError(
            f"Nothing is logged for {meal} on {day.isoformat()}: log it first, then save it as "
            f"your usual {meal}.",
            code="nothing_to_save",
        )
    items = [
        {
            "food_id": str(e.food_id),
            "variant_id": str(e.variant_id) if e.variant_id else None,
            "quantity": str(e.quantity),
            "unit": e.unit,
        }
        for e in entries
    ]
    usual, _ = UsualMeal.objects.update_or_create(
        user=user, meal_type=meal, defaults={"items": items}
    )
    return usual


def usual_meal_items(*, user, meal=None) -> tuple[str, list[dict]]:
    """The meal and the items of the user's usual one ({food, variant, quantity, unit}), the
    foods they can still see only; refuses a meal never saved as usual."""
    meal = clean_meal_type(meal, user=user)
    usual = UsualMeal.objects.for_user(user).filter(meal_type=meal).first()
    foods = Food.objects.visible_to(user).in_bulk(
        [i["food_id"] for i in (usual.items if usual else [])]
    )
    items = [
        {
            "food": foods[uuid.UUID(i["food_id"])],
            "variant": FoodVariant.objects.filter(pk=i["variant_id"]).first()
            if i.get("variant_id")
            else None,
            "quantity": Decimal(i["quantity"]),
            "unit": i.get("unit"),
        }
        for i in (usual.items if usual else [])
        if uuid.UUID(i["food_id"]) in foods
    ]
    if not items:
        raise ValidationError(
            f"You have no usual {meal} yet: log one, then say 'save this as my usual {meal}'.",
            code="no_usual_meal",
        )
    return meal, items


@transaction.atomic
def usual_meal_log(*, user, meal=None, entry_date=None, to_meal=None) -> list[FoodEntry]:
    """Log the user's usual meal (`usual_meal_items`) into `to_meal` (the same meal by default)
    of `entry_date` (today by default), every item or none."""
    meal, items = usual_meal_items(user=user, meal=meal)
    to_meal = clean_meal_type(to_meal or meal, user=user)
    return [
        food_entry_create(
            user=user,
            food=i["food"],
            quantity=i["quantity"],
            unit=i["unit"],
            variant=i["variant"],
            meal_type=to_meal,
            entry_date=entry_date,
        )
        for i in items
    ]


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


def meal_for_word(word) -> str | None:
    """The meal a word names ("supper" -> "dinner", "brekkie" -> "breakfast"), else None."""
    meal = MEAL_SYNONYMS.get(" ".join(str(word or "").lower().split()))
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


def _visible_food(user, food) -> Food:
    food_id = food.pk if isinstance(food, Food) else food
    try:
        return food_get(user=user, food_id=food_id)
    except Food.DoesNotExist:
        raise ValidationError(
            "That food is not in the catalog or your foods; search for it again.",
            code="food_not_found",
        ) from None


def _variant_of(food: Food, variant) -> FoodVariant | None:
    if variant is None:
        return None
    variant_id = variant.pk if isinstance(variant, FoodVariant) else variant
    try:
        return FoodVariant.objects.get(pk=_uuid(variant_id, FoodVariant), food=food)
    except FoodVariant.DoesNotExist:
        raise ValidationError(
            f"That serving is not one of {food.readable_name}'s servings.", code="unknown_unit"
        ) from None


# Kin say how much a cup weighs when three in four of them agree within 15%.
KIN_SPREAD = Decimal("1.15")


def _weighed_like_kin(food: Food, quantity, unit, problem: ValidationError):
    """A volume of a food kept only by weight, as grams at the density of its kin (foods named
    the same up to the first comma, "Yogurt, ..."), when most agree; else `problem` again."""
    asked = units.parse_unit(unit)
    ml_per = units.VOLUME_ML.get(asked.canonical)
    if asked.canonical in units.CONTAINERS:  # "a bowl of Greek yogurt": 1.5 cups of it
        size = units.standard_size(food, asked.canonical, drink=False)
        if size is not None and size.unit in units.VOLUME_ML:
            ml_per = size.amount * units.VOLUME_ML[size.unit]
    kin_name = food.name.split(",")[0].strip()
    if ml_per is None or getattr(problem, "code", None) != "unknown_unit" or len(kin_name) < 3:
        raise problem
    densities = []
    kin = FoodVariant.objects.filter(
        food__name__istartswith=f"{kin_name},",
        food__is_custom=False,
        gram_weight__gt=0,
        serving_size__gt=0,
        serving_unit__iregex=r"^(cups?|tbsp|fl oz)([ ,(]|$)",
    ).values_list("serving_size", "serving_unit", "gram_weight")[:200]
    for size, serving_unit, grams in kin:
        ml = units.VOLUME_ML.get(units.head_of(serving_unit))
        if ml:
            densities.append(Decimal(grams) / (Decimal(size) * ml))
    densities.sort()
    density = densities[len(densities) // 2] if densities else None
    agree = [d for d in densities if density / KIN_SPREAD <= d <= density * KIN_SPREAD]
    if len(densities) < 3 or len(agree) < len(densities) * 3 / 4:
        raise problem
    amount = units.clean_quantity(quantity) * asked.factor * ml_per
    return (amount * density).quantize(Decimal(1)), "g"


def bulk_problem(*, entries: int, kcal) -> str | None:
    """Why one message's entries need the user's confirmation before they are written (more than
    TURN_MAX_ENTRIES entries, or more than TURN_MAX_KCAL kcal), else None."""
    kcal = Decimal(str(kcal or 0))
    if entries > TURN_MAX_ENTRIES:
        return (
            f"That is {entries} entries ({kcal:,.0f} kcal) in one message, more than "
            f"{TURN_MAX_ENTRIES}."
        )
    if kcal > TURN_MAX_KCAL:
        return (
            f"That is {kcal:,.0f} kcal in one message ({entries} "
            f"entr{'y' if entries == 1 else 'ies'}), more than {TURN_MAX_KCAL:,} kcal."
        )
    return None


def _check_plausible(food: Food, portion: units.Portion, quantity, unit) -> None:
    if food.calories is None:
        return
    kcal = Decimal(food.calories) * portion.multiplier
    _check_crumb(food, portion, kcal)
    if kcal <= IMPLAUSIBLE_KCAL:
        return
    said = units.clean_quantity(quantity).normalize()
    said_unit = " ".join(str(unit).split()) if unit else portion.unit
    asked = units.parse_unit(unit)
    suggestion = ""
    if asked.factor != 1 and asked.canonical:  # "75 x 100 g" was most likely 75 g
        suggestion = f" Did you mean {said:f} {asked.canonical} ({kcal / asked.factor:,.0f} kcal)?"
    elif asked.canonical not in units.MASS_G:  # "75 servings" may have been 75 g
        try:
            grams = units.portion(food=food, quantity=said, unit="g")
        except ValidationError:
            grams = None
        if grams is not None:
            in_grams = Decimal(food.calories) * grams.multiplier
            suggestion = f" Did you mean {said:f} g ({in_grams:,.0f} kcal)?"
    raise ValidationError(
        f"{said:f} x {said_unit} of {food.readable_name} would be {kcal:,.0f} kcal, more than "
        f"anyone eats at once.{suggestion} If another unit or amount was meant, log it with that.",
        code="implausible",
    )


def _check_crumb(food: Food, portion: units.Portion, kcal: Decimal) -> None:
    """A tenth of a piece or serving, or less than a gram, of a food: a slip, not a meal."""
    asked = units.parse_unit(portion.unit)
    measured = asked.canonical in units.MASS_G or asked.canonical in units.VOLUME_ML
    amount = portion.quantity or Decimal(0)
    crumb_count = not measured and asked.canonical != units.KCAL and amount < CRUMB_COUNT
    crumb_weight = portion.grams is not None and portion.grams < CRUMB_GRAMS
    if not (crumb_count or crumb_weight):
        return
    said = f"{amount.normalize():f} {units.unit_text(amount, portion.unit)}".strip()
    raise ValidationError(
        f"{said} of {food.name} is {kcal:,.1f} kcal, a crumb rather than a helping. Did you "
        f"mean 1 {units.unit_text(1, portion.unit)} ({kcal / amount:,.0f} kcal)? Say the amount "
        "again, or confirm to log it as it is.",
        code="implausible",
    )


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


# --- goals ---------------------------------------------------------------------------------------


@transaction.atomic
def goal_set(*, user, goal_date=None, **values) -> UserGoal:
    """Set goals: the default goal when goal_date is None, else the goal of that day (which may
    be in the future: tomorrow's plan). Only the given values change; None clears one."""
    if not values:
        raise ValidationError(
            f"Say which goals to set: {', '.join(GOAL_FIELDS)} or water_goal.", code="no_values"
        )
    changes = {}
    for name, value in values.items():
        field = _GOAL_ALIASES.get(name, name)
        if field == "water_goal":
            changes[field] = None if value is None else _glasses(value, 0, MAX_WATER_GOAL, "goal")
        elif field in GOAL_FIELDS:
            changes[field] = None if value is None else _amount(value, name, NUTRIENT_MAX)
            _check_goal_range(field, changes[field])
        else:
            raise ValidationError(
                f"{name!r} is not a goal; goals are {', '.join(GOAL_FIELDS)} and water_goal.",
                code="unknown_field",
            )
    day = None if goal_date is None else _goal_day(user, goal_date)
    goal = UserGoal.objects.for_user(user).select_for_update().filter(goal_date=day).first()
    if goal is None:
        try:
            with transaction.atomic():  # two first-time setters at once: the second updates
                goal = UserGoal(user=user, goal_date=day, **changes)
                goal.full_clean()
                goal.save()
                return goal
        except IntegrityError:
            goal = UserGoal.objects.for_user(user).select_for_update().get(goal_date=day)
    for field, value in changes.items():
        setattr(goal, field, value)
    goal.full_clean()
    goal.save()
    return goal


# Daily goals a person can follow: 100,000 kcal or 5,000 g of protein is a typo. (A goal of 0
# is allowed for the macros: "no carbs"; calories below 500 are no diet anyone should follow.)
GOAL_RANGES = {
    "calories": (Decimal(500), Decimal(10_000), "kcal"),
    "protein": (Decimal(0), Decimal(1_000), "g"),
    "carbs": (Decimal(0), Decimal(1_500), "g"),
    "fat": (Decimal(0), Decimal(1_000), "g"),
}


def _check_goal_range(field: str, value: Decimal | None) -> None:
    if value is None or field not in GOAL_RANGES:
        return
    low, high, unit = GOAL_RANGES[field]
    if not low <= value <= high:
        raise ValidationError(
            f"A daily {field} goal of {value.normalize():,f} {unit} is not one to follow; "
            f"use {low:,}-{high:,} {unit}.",
            code="out_of_range",
        )


@transaction.atomic
def goal_delete(*, user, goal_date=None) -> None:
    """Remove the default goal (goal_date None) or the goal of one day; UserGoal.DoesNotExist
    when there is none. Days without their own goal then follow the default one again."""
    day = None if goal_date is None else _goal_day(user, goal_date)
    goal = UserGoal.objects.for_user(user).select_for_update().filter(goal_date=day).first()
    if goal is None:
        which = "default goal" if day is None else f"goal for {day.isoformat()}"
        raise UserGoal.DoesNotExist(f"No {which} is set.")
    goal.delete()


def goal_for(*, user, day) -> UserGoal | None:
    """The goal that applies on `day`: that day's own goal, else the default goal, else None."""
    day = day if _is_date(day) else parse_day(user, day)
    goals = UserGoal.objects.for_user(user)
    return goals.filter(goal_date=day).first() or goals.filter(goal_date__isnull=True).first()


def _goal_day(user, value) -> dt.date:
    if _is_date(value):
        return value
    text = str(value).strip().lower()
    if text == "tomorrow":
        return today_for(user) + dt.timedelta(days=1)
    try:
        return parse_day(user, value)
    except ValidationError as exc:
        if exc.code != "future_date":
            raise
        return dt.date.fromisoformat(text[:10])


# --- water ---------------------------------------------------------------------------------------

_WATER_UPSERT = """
INSERT INTO water_intake (id, user_id, entry_date, glasses_consumed, created_at, updated_at)
VALUES (gen_random_uuid(), %s, %s, %s, now(), now())
ON CONFLICT (user_id, entry_date) DO UPDATE
SET glasses_consumed = {new_total}, updated_at = now()
WHERE {new_total} <= %s
RETURNING glasses_consumed
"""


ML_PER_GLASS = 250
# How many glasses one unit of water is. A bottle is taken as 500 ml, the common size.
WATER_GLASSES_PER_UNIT = {
    "glass": 1,
    "cup": 1,
    "mug": 1,
    "bottle": 500 / ML_PER_GLASS,
    **{unit: float(ml) / ML_PER_GLASS for unit, ml in units.VOLUME_ML.items()},
}
WATER_GLASSES_PER_UNIT["cup"] = 1  # "2 cups of water" are two glasses, not 1.9


def water_glasses(amount: float, unit: str | None) -> float | None:
    """Glasses of water in an amount written with a unit ("500 ml", "2 bottles", "1 l");
    no unit is glasses; None for a unit water is not measured in."""
    if unit is None or not str(unit).strip():
        return amount
    word = " ".join(str(unit).lower().split())
    canonical = units.normalize_unit(word) if word not in WATER_GLASSES_PER_UNIT else word
    if canonical not in WATER_GLASSES_PER_UNIT and word.endswith("s"):
        canonical = word[:-1]  # "bottles", "mugs"
    factor = WATER_GLASSES_PER_UNIT.get(canonical)
    return None if factor is None else amount * factor


@transaction.atomic
def water_add(*, user, glasses=1, entry_date=None) -> int:
    """Add glasses of water to a day; returns the day's new total.

    One INSERT ... ON CONFLICT DO UPDATE: concurrent adds never lose a glass.
    """
    count = _glasses(glasses, 1, MAX_GLASSES_PER_ADD, "add")
    day = parse_day(user, entry_date)
    total = _water_upsert(
        user, day, count, "water_intake.glasses_consumed + EXCLUDED.glasses_consumed"
    )
    if total is None:
        raise ValidationError(
            f"That would be more than {MAX_GLASSES_PER_DAY} glasses on {day.isoformat()}; "
            "set the day's total with the right number instead.",
            code="invalid_quantity",
        )
    return total


@transaction.atomic
def water_set(*, user, glasses, entry_date=None) -> int:
    """Set a day's glasses of water (0 clears it); returns the total."""
    count = _glasses(glasses, 0, MAX_GLASSES_PER_DAY, "set")
    day = parse_day(user, entry_date)
    return _water_upsert(user, day, count, "EXCLUDED.glasses_consumed")


def _water_upsert(user, day: dt.date, count: int, new_total: str) -> int | None:
    with connection.cursor() as cursor:
        cursor.execute(
            _WATER_UPSERT.format(new_total=new_total),
            [user.pk, day, count, MAX_GLASSES_PER_DAY],
        )
        row = cursor.fetchone()
    return None if row is None else row[0]


def _glasses(value, low: int, high: int, what: str) -> int:
    problem = {
        "add": f"Water to add must be a whole number of glasses from {low} to {high}",
        "set": f"A day's water must be a whole number of glasses from {low} to {high}",
        "goal": f"A water goal must be a whole number of glasses from {low} to {high}",
    }[what]
    try:
        number = Decimal(str(value).strip())
    except (InvalidOperation, ValueError):
        number = None
    if (
        isinstance(value, bool)
        or number is None
        or not number.is_finite()
        or number != number.to_integral_value()
        or not low <= number <= high
    ):
        raise ValidationError(f"{problem}, not {value!r}.", code="invalid_quantity")
    return int(number)


# --- values --------------------------------------------------------------------------------------


def _amount(value, name: str, maximum: Decimal, positive: bool = False) -> Decimal:
    """A non-negative (or positive) decimal that fits its column, to three places."""
    expected = "a positive number" if positive else "a number of 0 or more"
    try:
        number = Decimal(str(value).strip()) if not isinstance(value, bool) else None
    except (InvalidOperation, ValueError):
        number = None
    if number is None or not number.is_finite():
        raise ValidationError(f"{name} must be {expected}, not {value!r}.", code="invalid_value")
    # The range first: quantizing 1e308 to three places overflows Decimal's precision.
    if number > maximum:
        raise ValidationError(
            f"{name} of {value} is too large; the most it can be is {maximum:,}.",
            code="invalid_value",
        )
    number = number.quantize(_PLACES)
    if number < 0 or (positive and number == 0):
        raise ValidationError(f"{name} must be {expected}, not {value!r}.", code="invalid_value")
    return number


def _uuid(value, model):
    """The id as a UUID; anything else is "no such row", as for an id that does not exist."""
    if isinstance(value, uuid.UUID):
        return value
    try:
        return uuid.UUID(str(value))
    except (ValueError, AttributeError, TypeError):
        raise model.DoesNotExist(f"No {model._meta.verbose_name} with id {value!r}.") from None


def _is_date(value) -> bool:
    return isinstance(value, dt.date) and not isinstance(value, dt.datetime)


# --- undo of one chat reply's writes (chat.undo) -----------------------------------------------


def undo_write(*, user, kind: str, row_id, undo: dict) -> str:
    """Take back one write of the nutrition tables: sparky.rows' DONE, CHANGED or GONE.

    The caller holds the transaction; everything is scoped to the user, so an id from someone
    else's reply finds nothing.
    """
    op = undo.get("op")
    if kind in ("food_entry", "food_entry_deleted", "goal"):
        model = UserGoal if kind == "goal" else FoodEntry
        done = rows.undo_row(model, user, row_id, undo)
        if done is not None:
            return done
    if kind == "food" and op == "delete":
        food = Food.objects.owned_by(user).filter(is_custom=True, pk=row_id).first()
        if food is None:
            return rows.GONE
        if FoodEntry.objects.filter(food=food).exists():
            return rows.CHANGED  # logged since (by the user or someone it is shared with)
        food.delete()
        return rows.DONE
    if kind == "water":
        day = parse_day(user, row_id)
        row = WaterIntake.objects.for_user(user).select_for_update().filter(entry_date=day).first()
        if row is None:
            return rows.GONE
        if op == "water":  # glasses added: take off exactly those, whatever was added since
            added = int(undo.get("added") or 0)
            if row.glasses_consumed < added:
                return rows.CHANGED
            row.glasses_consumed -= added
        elif op == "restore":
            if row.glasses_consumed != undo["after"]["glasses"]:
                return rows.CHANGED
            row.glasses_consumed = int(undo["before"]["glasses"])
        else:
            raise ValueError(f"no undo {op!r} for water")
        row.save(update_fields=["glasses_consumed", "updated_at"])
        return rows.DONE
    raise ValueError(f"no undo {op!r} for {kind!r}")


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
