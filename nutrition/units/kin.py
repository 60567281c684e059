"""What a piece, a medium one or a slice of a survey food weighs when the catalog keeps it only
per 100 g: as much as its kin weigh (the foods named the same before the first comma, in the
singular or plural, that have household servings of their own).

    kin_grams(muffin_fruit, "medium")   # "Muffins, blueberry" 1 medium = 113 g, ... -> 113

USDA's survey foods (FNDDS) come to us without their portion weights (nutrition.survey), while
SR28 weighs "Muffins, ..." by the medium muffin and "Waffles, ..." by the waffle: public USDA
household measures, read through the same portion rules every food goes through. The median of
the kin is taken when at least KIN_NEEDED of them weigh the amount; else None (the food is
offered, not logged by a guess).
"""

from __future__ import annotations

import re
import statistics
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db.models import Q

from nutrition.models import FNDDS_SOURCE, Food
from nutrition.units.parsing import parse_unit
from nutrition.units.portions import portion
from nutrition.units.sizes import standard_size
from nutrition.units.words import CONTAINERS, MASS_G, VOLUME_ML
from sparky.words import singular

KIN_NEEDED = 2
KIN_READ = 25  # kin asked at most, shortest names first (the plainest of them)


def kept_by_weight(food) -> bool:
    """A survey food with no household serving of its own."""
    return food.source == FNDDS_SOURCE and not food.variants.exists()


# What We Eat in America's drink categories ("Soft drinks", "Fruit drinks", "Coffee", "Beer"...):
# a survey drink weighs about a gram a millilitre (water 1.00, milk 1.03, cola 1.04).
_DRINK_GROUP = re.compile(
    r"drink|coffee|\btea\b|juice|water|beer|wine|liquor|cocktail|milk|beverage|smoothie|shake",
    re.IGNORECASE,
)


def a_drink(food) -> bool:
    """Whether What We Eat in America files the food among drinks."""
    return bool(_DRINK_GROUP.search(food.food_group or ""))


# What We Eat in America's spoonable dishes ("Meat mixed dishes", "Soups, broth-based", "Fried rice
# and lo/chow mein", "Macaroni and cheese"...): served by the cup or the bowl, they weigh what
# SR28's soups and entrées do by the cup.
_DISH_GROUP = re.compile(
    r"mixed dishes|soups|stir-fry|fried rice|mashed potatoes|vegetable dishes|macaroni|"
    r"^rice$|^pasta|chili|stew",
    re.IGNORECASE,
)
# SR28's food groups whose cups are such dishes (their median: 245 g and 240 g a cup)
_DISH_KIN_GROUPS = ("Soups, Sauces, and Gravies", "Meals, Entrees, and Side Dishes")
_DENSITY: dict = {}


def a_spoonable_dish(food) -> bool:
    """Whether What We Eat in America files the survey food among dishes eaten by the cup."""
    return food.source == FNDDS_SOURCE and bool(_DISH_GROUP.search(food.food_group or ""))


def dish_density() -> Decimal | None:
    """Grams a millilitre of a dish eaten by the cup: the median of SR28's soups and entrées
    weighed by the cup (about 1.0), read once per process."""
    if "density" not in _DENSITY:
        from nutrition.models import FoodVariant

        rows = FoodVariant.objects.filter(
            food__source="usda_sr28",
            food__food_group__in=_DISH_KIN_GROUPS,
            gram_weight__gt=0,
            serving_size__gt=0,
            serving_unit__iregex=r"^cups?([ ,(]|$)",
        ).values_list("gram_weight", "serving_size")
        densities = [Decimal(g) / (Decimal(n) * VOLUME_ML["cup"]) for g, n in rows]
        _DENSITY["density"] = (
            Decimal(statistics.median(densities)).quantize(Decimal("0.01")) if densities else None
        )
    return _DENSITY["density"]


def survey_grams(food, unit) -> Decimal | None:
    """Grams of one `unit` of a survey food kept only by weight: a drink by its volume ("a can",
    "a cup", "16.9 fl oz") at a gram a millilitre, anything else by a piece or size its kin
    weigh; None when the unit is a weight (the food takes it as it is) or nothing says."""
    asked = parse_unit(unit)
    if asked.canonical in MASS_G:
        return None
    if a_drink(food):
        ml = None
        if asked.canonical in VOLUME_ML:
            ml = VOLUME_ML[asked.canonical]
        elif asked.canonical in CONTAINERS:
            size = standard_size(food, asked.canonical, drink=True)
            if size is not None and size.unit in VOLUME_ML:
                ml = Decimal(str(size.amount)) * VOLUME_ML[size.unit]
        if ml is not None:
            return (asked.factor * ml).quantize(Decimal(1))
    if asked.canonical in VOLUME_ML:
        return None  # a volume of a food: its kin's density decides (entries._weighed_like_kin)
    return kin_grams(food, unit)


def kin_grams(food, unit) -> Decimal | None:
    """Grams of one `unit` (None: a medium one, else one piece or serving as people count it)
    of `food`, as its kin weigh it; None when too few kin say."""
    if unit is None:
        return _kin_grams(food, "medium") or _kin_grams(food, None)
    return _kin_grams(food, unit)


def _kin_grams(food, unit) -> Decimal | None:
    head = food.name.split(",")[0].strip()
    words = head.split()
    if len(head) < 3 or not words:
        return None
    one = " ".join([*words[:-1], singular(words[-1].lower())])
    forms = {one, f"{one}s", f"{one}es"}
    named = Q()
    for form in forms:
        named |= Q(name__iexact=form) | Q(name__istartswith=f"{form},")
    kin = (
        Food.objects.filter(named, is_custom=False, variants__isnull=False)
        .exclude(pk=food.pk)
        .distinct()
        .order_by("name")
        .prefetch_related("variants")[:KIN_READ]
    )
    weights = []
    for other in kin:
        try:
            found = portion(food=other, quantity=1, unit=unit)
        except ValidationError:
            continue
        if found.grams and found.variant is not None:  # weighed by a household serving
            weights.append(found.grams)
    if len(weights) < KIN_NEEDED:
        return None
    return Decimal(statistics.median(weights)).quantize(Decimal(1))
