"""What Sparky says when asked what was eaten or how much water was drunk over several days, or
whether the user gets enough of a nutrient ("am I getting enough iron?"). Nothing is logged.

    intake_answer(user, intake_nutrient("enough b12?"), start=monday, end=today, when="This week")
    -> "This week: 1.9 µg of vitamin B12 a day on average (4 days logged), 79% of the 2.4 µg
        recommended for a woman of 30 (US Dietary Reference Intakes): 0.5 µg short."
"""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter

from django.db.models import CharField, Count, F, FloatField, Func, Value
from django.db.models.fields.json import KeyTextTransform
from django.db.models.functions import Cast, Lower

from nutrition import intakes, vocabulary
from nutrition.models import (
    MICRONUTRIENTS,
    Food,
    FoodEntry,
    FoodVariant,
    WaterIntake,
    nutrient_unit,
)
from nutrition.selectors import (
    NutrientIntake,
    food_diary,
    nutrient_intakes,
    reference_intakes_for,
    reference_person,
)
from nutrition.services import goal_for
from sparky.dates import today_for
from sparky.services import preferences_for

# Over more days than this, what was eaten is told as the foods had most often, not day by day.
_DAY_BY_DAY = 7
_OFTEN_SHOWN = 5


def eaten_answer(user, start: dt.date, end: dt.date, when: str) -> str:
    """What was eaten from `start` to `end`: each day's foods and calories (a week or less), or
    the foods had most often (longer), with a day's average. `when` names the period."""
    days = sorted(
        set(
            FoodEntry.objects.for_user(user)
            .filter(entry_date__gte=start, entry_date__lte=end)
            .values_list("entry_date", flat=True)
        )
    )
    if not days:
        return f"{when}: nothing logged."
    lines, totals, often = [], [], Counter()
    for day in days:
        rows = [row for meal in food_diary(user=user, day=day).values() for row in meal]
        total = sum(float(row["calories"] or 0) for row in rows)
        names = list(dict.fromkeys(row["food_name"] for row in rows))
        totals.append(total)
        often.update(names)
        lines.append(f"{day:%a %-d %b}: {', '.join(names)} ({round(total):,} kcal)")
    count = len(days)
    average = (
        f"{round(sum(totals) / count):,} kcal a day on average over the {count} "
        f"day{'s' if count != 1 else ''} logged"
    )
    if count <= _DAY_BY_DAY:
        return f"{when}: " + "; ".join(lines) + f". {average[0].upper()}{average[1:]}."
    most = ", ".join(
        f"{name} ({times} day{'s' if times != 1 else ''})"
        for name, times in often.most_common(_OFTEN_SHOWN)
    )
    return f"{when}: {average}; most often {most}."


def water_answer(user, start: dt.date, end: dt.date, when: str) -> str:
    """Glasses of water from `start` to `end`: the total, each day's, and a day's average."""
    rows = list(
        WaterIntake.objects.for_user(user)
        .filter(entry_date__gte=start, entry_date__lte=end, glasses_consumed__gt=0)
        .order_by("entry_date")
    )
    if not rows:
        return f"{when}: no water logged."
    total = sum(r.glasses_consumed for r in rows)
    days = (end - start).days + 1
    each = ", ".join(f"{r.glasses_consumed} on {r.entry_date:%a %-d %b}" for r in rows)
    glasses = "glass" if total == 1 else "glasses"
    return (
        f"{when}: {total} {glasses} of water in all ({each}), {total / days:.1f} a day on "
        f"average over {days} days."
    )


# Drinks a day for adults, in litres: about 80% of the US National Academies' adequate intake of
# water (3.7 L for men, 2.7 L for women), the rest coming from food.
_DRINKS_LITRES = {"male": 3.0, "female": 2.2}
_GLASS_LITRES = 0.25


def guide_answer(user, nutrient: str) -> str:
    """How much of water or of a nutrient a day is right for this user ("how much water should
    i drink a day"), in plain words: the general guide for adults, and the user's own goal or
    reference. Nothing is logged."""
    prefs = preferences_for(user)
    if nutrient == "water":
        litres = _DRINKS_LITRES.get(prefs.sex)
        if litres is None:
            amount = "about 2 to 3 litres (8 to 12 glasses)"
        else:
            amount = f"about {litres:g} litres (around {round(litres / _GLASS_LITRES)} glasses)"
        text = (
            f"Most adults do well on {amount} of drinks a day, the rest of the water coming from "
            "food; more in hot weather or when you sweat. Being thirsty and dark urine are signs "
            "to drink more."
        )
        goal = goal_for(user=user, day=today_for(user))
        if goal is not None and goal.water_goal:
            text += f" Your goal is {goal.water_goal} glasses a day."
        return text
    reference = reference_intakes_for(user)[nutrient]
    name = vocabulary.NUTRIENT_NAMES.get(nutrient) or intakes.LABELS.get(nutrient, nutrient)
    amount = f"{intakes.amount_text(reference.amount)} {reference.unit} of {name}"
    most = "at most " if reference.kind == intakes.CEILING else ""
    if reference.basis == "goal":
        return f"Your goal is {most}{amount} a day."
    person = reference_person(user)
    if reference.basis == intakes.DRI and person:
        whose = f"what the US Dietary Reference Intakes recommend for {person}"
    else:
        whose = "the Daily Value on food labels"
    text = f"{most}{amount} a day is {whose}."
    return text[0].upper() + text[1:]


# Word -> nutrient for every nutrient with a reference ("fibre" -> dietary_fiber, "b12").
_INTAKE_OF_WORD = {
    word: name
    for table in (vocabulary.NUTRIENT_WORDS, vocabulary.MICRONUTRIENT_WORDS)
    for name, words in table.items()
    if name in intakes.LABELS
    for word in words
}


def intake_nutrient(text: str) -> str | None:
    """The nutrient with a reference intake that `text` names ("am I getting enough iron?" ->
    "iron", "b12" -> "vitamin_b12"), the longest name said winning; None when none is."""
    said = " ".join(re.findall(r"[a-z0-9]+", text.lower()))
    for word in sorted(_INTAKE_OF_WORD, key=len, reverse=True):
        if re.search(rf"\b{re.escape(word)}\b", said):
            return _INTAKE_OF_WORD[word]
    return None


def intake_answer(user, nutrient: str, *, start: dt.date, end: dt.date, when: str) -> str:
    """How much of `nutrient` (a name of nutrition.intakes.GROUPS) the user ate from `start` to
    `end` against their reference (nutrition.selectors.nutrient_intakes), in a sentence; what
    the foods do not record is said to be unknown, never counted as too little."""
    rows = nutrient_intakes(user=user, start=start, end=end)
    row = next(r for r in rows if r.nutrient == nutrient)
    name = _name(row)
    if row.days_logged == 0:
        return f"{when}: no food logged, so nothing to say about {name} yet."
    if not row.known:
        share = round(row.coverage * 100)
        return (
            f"{when}: I can't tell how much {name} you got: only {share}% of the foods you "
            f"logged record it."
        )
    eaten = f"{intakes.amount_text(row.amount)} {row.unit} of {name}"
    if row.days_logged > 1 or start != end:
        eaten += f" a day on average ({row.days_logged} days logged)"
    reference = f"{intakes.amount_text(row.reference)} {row.unit}"
    return f"{when}: {eaten}, {_against(row, reference, reference_person(user))}."


def _name(row: NutrientIntake) -> str:
    """ "iron", "vitamin B12", "thiamin": the nutrient as a sentence says it."""
    if row.nutrient in vocabulary.NUTRIENT_NAMES:
        return vocabulary.NUTRIENT_NAMES[row.nutrient]
    label = row.label.split(" (")[0]
    return label if label.startswith("Vitamin") else label.lower()


def _against(row: NutrientIntake, reference: str, person: str | None) -> str:
    limit = " limit" if row.kind == intakes.CEILING else ""
    if row.basis == "goal":
        whose = f"your {reference}{limit or ' goal'}"
    elif row.basis == intakes.DRI:
        recommended = f"{limit} recommended" if limit else " recommended"
        whose = f"the {reference}{recommended} for {person} (US Dietary Reference Intakes)"
    else:
        whose = f"the {reference} Daily Value{limit}"
    gap = f"{intakes.amount_text(abs(row.amount - row.reference))} {row.unit}"
    if row.kind == intakes.CEILING:
        if row.status == "high":
            return f"over {whose} by {gap}"
        return f"under {whose} ({row.percent}%)"
    if row.status == "high":
        upper = f"{intakes.amount_text(row.upper)} {row.unit}"
        return f"{row.percent}% of {whose}, and above the upper limit of {upper}"
    if row.status == "low":
        return f"{row.percent}% of {whose}: {gap} short"
    return f"{row.percent}% of {whose}: enough"


# Foods named when asked which are rich in a nutrient: this many, each a different food.
RICH_SHOWN = 5
# A serving suggested holds at least this share of the day's reference, and at most this many
# kcal (past it, a meal or a family pack, not a portion).
_RICH_SHARE = 0.15
_PORTION_KCAL = 600
# Catalog groups whose servings are no food people eat for a nutrient (a spoon of dried thyme
# is rich in iron; a jar of baby food is not what an adult asks about), and words of names that
# are an ingredient, not a food (a cup of dry bran, raw turkey, a protein powder).
_NOT_SUGGESTED = (
    "Spices and Herbs",
    "Baby Foods",
    "Not included in a food category",
    "American Indian/Alaska Native Foods",
)
_NOT_A_DISH = re.compile(
    r"\b(?:raw|crude|dry|dried|powder|dehydrated|mix|infant|supplement|spleen|concentrate|isolate"
    r"|gums?|variety meats|by-products)\b",
    re.I,
)
# A food people know is one the catalog holds in many forms ("Beef, ...", "Spinach, ...",
# "Cereals ready-to-eat, ..."): its head, the name's first part, opens at least this many
# catalog foods. A head found once or twice ("Chrysanthemum, garland") is a rarity.
_KNOWN_HEAD = 10


def _known_heads() -> set[str]:
    """The heads of the foods people know (_KNOWN_HEAD), lower-cased."""
    head = Lower(
        Func(F("name"), Value(","), Value(1), function="split_part", output_field=CharField())
    )
    return set(
        Food.objects.filter(is_custom=False)
        .annotate(head=head)
        .values("head")
        .annotate(n=Count("id"))
        .filter(n__gte=_KNOWN_HEAD)
        .values_list("head", flat=True)
    )


def rich_foods_answer(user, nutrient: str) -> str:
    """Foods rich in `nutrient` ("what foods are high in iron?"): those with the most of it for
    their calories, among household servings of foods people know that give a good share of a
    day's need, each with its serving's amount. Nothing is logged."""
    if nutrient in MICRONUTRIENTS:
        amount = Cast(KeyTextTransform(nutrient, "micronutrients"), FloatField())
    else:
        amount = Cast(F(nutrient), FloatField())
    reference = intakes.reference_intakes().get(nutrient)
    least = float(reference.amount) * _RICH_SHARE if reference is not None else 0.0
    servings = (
        FoodVariant.objects.filter(food__is_custom=False, calories__lte=_PORTION_KCAL)
        .exclude(food__food_group__in=_NOT_SUGGESTED)
        .annotate(amount=amount, kcal=Cast(F("calories"), FloatField()))
        .filter(amount__gt=least, kcal__gt=0)
        .annotate(density=F("amount") / F("kcal"))
        .select_related("food")
        .order_by("-density")[:400]
    )
    unit = nutrient_unit(nutrient)
    name = vocabulary.NUTRIENT_NAMES.get(nutrient) or intakes.LABELS.get(nutrient, nutrient)
    known = _known_heads()
    servings = list(servings)
    # foods people know first, in order of richness; rarities only to fill the list
    servings.sort(key=lambda s: s.food.name.split(",")[0].lower() not in known)
    shown, heads = [], set()
    for serving in servings:
        food = serving.food
        head = food.name.split(",")[0].lower()
        if head in heads or _NOT_A_DISH.search(food.name):
            continue
        heads.add(head)
        size = f"{float(serving.serving_size):g} {serving.serving_unit}"
        shown.append(f"{food.readable_name} ({size}): {intakes.amount_text(serving.amount)} {unit}")
        if len(shown) == RICH_SHOWN:
            break
    if not shown:
        return f"The food catalog doesn't record {name} for its foods."
    listed = "; ".join(f"{n}. {line}" for n, line in enumerate(shown, 1))
    return f"Foods rich in {name}, for their calories: {listed}. Nothing was logged."
