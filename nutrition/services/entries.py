"""The food diary: an entry logged, picked from options, changed or deleted, and the checks
that keep it plausible."""

from __future__ import annotations

import dataclasses
import re
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import transaction

from nutrition import search, units
from nutrition.models import (
    ESTIMATE_SOURCE,
    NUTRIENTS,
    Food,
    FoodEntry,
    FoodVariant,
)
from nutrition.search import cover
from nutrition.services.foods import (
    _same_custom_food,
    food_create_custom,
    food_find_best,
    food_get,
)
from nutrition.services.values import (
    CRUMB_COUNT,
    CRUMB_GRAMS,
    IMPLAUSIBLE_KCAL,
    TURN_MAX_ENTRIES,
    TURN_MAX_KCAL,
    clean_meal_type,
)
from sparky.dates import parse_day
from sparky.services import storable_name, storable_text, uuid_pk, visible_row

# --- diary ---------------------------------------------------------------------------------------


@transaction.atomic
def food_entry_prepare(
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

    The entry comes back checked and not saved: what `food_entry_create` would write, for a
    caller that decides after seeing it (the chat's executor) and saves it with
    `food_entry_save`.
    """
    food = _visible_food(user, food)
    day = parse_day(user, entry_date)
    meal = clean_meal_type(meal_type, user=user)
    chosen = _variant_of(food, variant)
    portion, quantity, unit = _portion(food, quantity, unit, chosen, unsized, several)
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
    return entry


def food_entry_save(entry: FoodEntry) -> FoodEntry:
    """Save an entry `food_entry_prepare` checked."""
    entry.save(force_insert=True)
    return entry


def food_entry_create(**kwargs) -> FoodEntry:
    """Log a food into the user's diary at once (food_entry_prepare says what is refused)."""
    return food_entry_save(food_entry_prepare(**kwargs))


def food_covering(
    *,
    words: list[str],
    quantity=1,
    unit=None,
    head: int | None = None,
    weak=frozenset(),
):
    """The public catalog's food that a told item's words ("thin-crust pepperoni pizza from the
    cafeteria") cover best and that the amount can be logged in, with which words it covers; None
    when no cover is confident (nutrition.search.cover).

    When the words it covers are a short name ("bacon", "black coffee"), the food search's
    choice for that name comes first: it knows the plain, common food a person means by it. When
    no name is covered ("cola" is "Soft drink, cola") or none the amount can be logged in ("a
    bowl of oatmeal"), the search is asked for the words ending at the head, its synonyms too
    ("oatmeal" is "Cereals, oats, ... cooked"). `weak` words only describe (cover.covering_foods).
    A head word the catalog also calls otherwise is read both ways, and the name that covers
    more of what was said wins ("a frankfurter on a white bun" is "Hot dog sandwich, on white
    bun").
    """
    found = _covering(words, quantity, unit, head, frozenset(weak))
    for other in _head_synonyms(words, head):
        said = [*words[:head], *other, *words[head + 1 :]]
        end = head + len(other) - 1
        shifted = frozenset(n if n < head else n + end - head for n in weak)
        alternative = _covering(said, quantity, unit, end, shifted)
        if alternative is None:
            continue

        def back(indices, end=end):  # the alternative's words as the words said
            return tuple(sorted({n if n < head else max(head, n - end + head) for n in indices}))

        covered = back(alternative.covered)
        if found is None or len(covered) > len(found.covered):
            # "a frankfurter on a white bun": "Hot dog sandwich, on white bun" names it all
            found = dataclasses.replace(alternative, covered=covered, known=back(alternative.known))
    return found


def _head_synonyms(words: list[str], head: int | None) -> list[list[str]]:
    """The other names of the head word the catalog uses ("hot dog" for "frankfurter")."""
    if head is None or head >= len(words) or not _WORD.fullmatch(words[head]):
        return []
    [stems] = cover.word_stems([words[head]])
    return [
        other.split() for stem in stems for other in search.SYNONYMS.get(stem, ()) if " " in other
    ]


def _covering(words, quantity, unit, head, weak):
    coverings = cover.covering_foods(list(words), head=head, weak=frozenset(weak))
    if coverings:
        best = coverings[0]
        phrase = [w for w in words[best.covered[0] : best.covered[-1] + 1] if _WORD.fullmatch(w)]
        if 1 <= len(phrase) <= SHORT_NAME:
            found = search.best_food(user=search.PUBLIC, name=" ".join(phrase), unit=unit)
            if found is not None and _names(found, phrase) and _loggable(found, quantity, unit):
                return dataclasses.replace(best, food=found)
        for covering in coverings:
            if covering.score < best.score * NEAR_BEST:
                break
            if _loggable(covering.food, quantity, unit):
                return covering
    for start in range(max(0, head + 1 - SHORT_NAME), head + 1) if head is not None else ():
        phrase = words[start : head + 1]
        if not all(_WORD.fullmatch(w) for w in phrase) or phrase[0] in ("of", "the"):
            continue
        found = search.best_food(user=search.PUBLIC, name=" ".join(phrase), unit=unit)
        if (
            found is not None
            and _names(found, [words[head]], synonyms=True)
            and _loggable(found, quantity, unit)
        ):
            return cover.Covering(food=found, covered=tuple(range(start, head + 1)), score=0.0)
    return None


_WORD = re.compile(r"[a-z][a-z'-]*")  # "reduced-fat", "grandma's"; not "," or "2%"
NEAR_BEST = 0.75  # a covering scored this far below the best one is another food
SHORT_NAME = 3  # words


def _names(food, words: list[str], synonyms: bool = False) -> bool:
    """Whether the food's name holds a word said ("finish" is no "Gefilte fish", whatever the
    search's spelling fixes make of it), or with `synonyms` one the search takes for it
    ("oatmeal" for "Cereals, oats")."""
    if synonyms:  # "oj" is "orange juice"
        words = [search.spelled_out(" ".join(words))]
    name, *said = cover.word_stems([food.name, *words])
    stems = set().union(*said)
    if synonyms:
        stems |= {
            s
            for stem in tuple(stems)
            for other in search.SYNONYMS.get(stem, ())
            for s in other.split()
        }
    return bool(stems & name)


def _loggable(food, quantity, unit) -> bool:
    unweighed = not units.weighable(unit) and units.survey_grams(food, unit) is None
    if units.kept_by_weight(food) and unweighed:
        return False  # a blind 100 g of a survey food: never chosen unweighed
    try:
        _portion(food, quantity, unit, None, False, False)
    except ValidationError:
        return False  # "a tbsp" of a dressing kept only per 100 g
    return True


def _portion(food, quantity, unit, chosen, unsized, several):
    """(portion, quantity, unit) of an amount of a food, as it will be logged."""
    if chosen is None and units.kept_by_weight(food):
        # "a medium fruit muffin" weighs what its kin's medium ones weigh, "a can" of a survey
        # soft drink what its 12 fl oz do
        grams = units.survey_grams(food, unit)
        if grams is not None:
            quantity, unit = units.clean_quantity(quantity) * grams, "g"
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
    return portion, quantity, unit


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
    name = storable_name(" ".join(str(option["name"]).split()), field="The food name")
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
    *,
    user,
    entry_id,
    quantity=None,
    unit=None,
    meal_type=None,
    entry_date=None,
    food=None,
    food_name: str | None = None,
) -> FoodEntry:
    """Change an entry's food, amount, unit, meal or day; what is not given stays.

    The food is one the user may see (`food`, a Food or its id) or the confident match of
    `food_name`; a new food keeps the amount and unit when they fit it, and is refused with the
    units it takes when they do not.
    """
    entry = (
        FoodEntry.objects.for_user(user)
        .select_related("food", "variant")
        .select_for_update(of=("self",))
        .get(pk=uuid_pk(entry_id, FoodEntry))
    )
    name = (food_name or "").strip()
    if all(v is None for v in (quantity, unit, meal_type, entry_date, food)) and not name:
        raise ValidationError(
            "Say what to change: food, quantity, unit, meal_type or entry_date.",
            code="no_changes",
        )
    new_food = _food_to_change_to(user, food, name)
    changed_food = new_food is not None and new_food.pk != entry.food_id
    if changed_food:
        entry.food = new_food
    if quantity is not None or unit is not None or changed_food:
        # the entry's own unit said again ("2 slices" of a slice) keeps its size of it
        same_unit = unit is None or units.parse_unit(unit) == units.parse_unit(entry.unit)
        keep_variant = same_unit and not changed_food
        amount = entry.quantity if quantity is None else quantity
        asked = entry.unit if same_unit else unit
        portion = units.portion(
            food=entry.food,
            quantity=amount,
            unit=asked,
            variant=entry.variant if keep_variant else None,
        )
        _check_plausible(entry.food, portion, amount, asked)
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


def _food_to_change_to(user, food, name: str) -> Food | None:
    """The food an edit names: the one given (if the user may see it), else the confident match
    of its name, else None (no change asked)."""
    if food is not None:
        return _visible_food(user, food)
    if not name:
        return None
    found = food_find_best(user=user, name=name)
    if found is None:
        raise ValidationError(
            f"No food matching {name[:100]!r} was found; try its name as the catalog writes it.",
            code="food_not_found",
        )
    return found


@transaction.atomic
def food_entry_delete(*, user, entry_id) -> None:
    entry = FoodEntry.objects.for_user(user).get(pk=uuid_pk(entry_id, FoodEntry))
    entry.delete()


def _visible_food(user, food) -> Food:
    return visible_row(
        lambda pk: food_get(user=user, food_id=pk),
        food,
        refused="That food is not in the catalog or your foods; search for it again.",
        code="food_not_found",
    )


def _variant_of(food: Food, variant) -> FoodVariant | None:
    if variant is None:
        return None
    variant_id = variant.pk if isinstance(variant, FoodVariant) else variant
    try:
        return FoodVariant.objects.get(pk=uuid_pk(variant_id, FoodVariant), food=food)
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
        if units.a_drink(food):
            density = Decimal(1)  # "16 fl oz of Monster": a survey drink weighs a gram an ml
        elif units.a_spoonable_dish(food) and units.dish_density() is not None:
            density = units.dish_density()  # "a cup of chicken enchiladas": as SR28's entrées
        else:
            raise problem
    amount = units.clean_quantity(quantity) * asked.factor * ml_per
    return (amount * density).quantize(Decimal(1)), "g"


def food_option_kcal(*, option: dict, quantity=None) -> Decimal:
    """The kcal food_option_add would log for `quantity` (in the option's serving unit; one
    serving if None) of an option whose numbers are for its serving_size, written nowhere: what
    a turn counts against TURN_MAX_KCAL before a food of the user's own is made. An option whose
    numbers cannot be read counts 0 here (logging it refuses it with the reason)."""
    try:
        calories = Decimal(str(option.get("calories") or 0))
        size = Decimal(str(option.get("serving_size") or 1))
        amount = size if quantity is None else Decimal(str(quantity))
        kcal = calories * amount / size
    except (ArithmeticError, TypeError, ValueError):
        return Decimal(0)
    return kcal if kcal.is_finite() and kcal > 0 else Decimal(0)


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
        f"{said} of {food.readable_name} is {kcal:,.1f} kcal, a crumb rather than a helping. Did "
        f"you mean 1 {units.unit_text(1, portion.unit)} ({kcal / amount:,.0f} kcal)? Say the "
        "amount again, or confirm to log it as it is.",
        code="implausible",
    )
