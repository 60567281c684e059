"""Food tools: search, log (catalog and external), the diary, edits and deletes, custom foods."""

from __future__ import annotations

import dataclasses
import uuid
from decimal import Decimal

from django.core.exceptions import ValidationError

from nutrition import compound, units
from nutrition import selectors as food_selectors
from nutrition import services as food_services
from nutrition.models import NUTRIENTS, FoodEntry
from nutrition.phrases import entry_phrase
from nutrition.services import default_meal
from nutrition.units import unit_text
from nutrition.vocabulary import MEALS
from sparky import words
from sparky.dates import parse_day
from sparky.rows import row_state

from .base import (
    CORE,
    ToolResult,
    Written,
    bounded,
    day_tool,
    logged_sentence,
    tool,
    undo_of,
    written_new,
)
from .entries import Entries
from .schema import DATE_ARG, MEAL_ARG, integer, number, obj, string

# What undo compares and restores of a food entry.
ENTRY_FIELDS = ("food_id", "variant_id", "quantity", "unit", "meal_type", "entry_date")


def _num(value) -> float | None:
    return None if value is None else round(float(value), 1)


def food_card(food) -> dict:
    """What the model needs to know about a food to log it well."""
    card = {
        "food_id": str(food.id),
        "name": food.name,
        "display_name": food.readable_name,  # what to call it when talking to the user
        "serving": f"{_num(food.serving_size) or 1:g} {food.serving_unit or 'serving'}",
        "calories": _num(food.calories),
        "protein_g": _num(food.protein),
        "carbs_g": _num(food.carbs),
        "fat_g": _num(food.fat),
        "custom": bool(food.is_custom),
    }
    variants = [f"{_num(v.serving_size):g} {v.serving_unit}" for v in food.variants.all()[:6]]
    if variants:
        card["household_servings"] = variants
    return card


def entry_line(entry: FoodEntry) -> str:
    kcal = food_services.entry_nutrients(entry).get("calories")
    unit = f" {unit_text(entry.quantity, entry.unit)}" if entry.unit else ""
    kcal_text = f", {round(kcal)} kcal" if kcal is not None else ""
    return (
        f"{float(entry.quantity):g}{unit} {entry.food.readable_name} ({entry.meal_type}, "
        f"{entry.entry_date.isoformat()}{kcal_text})"
    )


def entry_chip(entry: FoodEntry) -> str:
    """The entry in a few words: 'Egg, raw · 143 kcal'."""
    kcal = food_services.entry_nutrients(entry).get("calories")
    return entry.food.readable_name + (f" · {round(kcal)} kcal" if kcal is not None else "")


def _with_full_name(line: str, food) -> str:
    """A chip's tooltip: the reply's line, and the food's full catalog name when it is longer."""
    return line if food.name == food.readable_name else f"{line} · {food.name}"


def written_custom_food(food) -> Written:
    """A food of the user's own that the call created (undo deletes it while nothing uses it)."""
    return written_new("food", food, noun="food")


def written_food(entry: FoodEntry, *, before: dict | None = None) -> Written:
    """A food entry the call created, or (`before` its earlier state) changed."""
    after = row_state(entry, ENTRY_FIELDS)
    kcal = food_services.entry_nutrients(entry).get("calories")
    return Written(
        kind="food_entry",
        id=str(entry.id),
        summary=entry_line(entry),
        date=entry.entry_date.isoformat(),
        chip=entry_chip(entry),
        title=_with_full_name(entry_line(entry), entry.food),
        phrase=entry_phrase(entry, kcal) if before is None else "",
        meal=entry.meal_type,
        undo=undo_of(before, after),
    )


@tool(
    name="search_foods",
    category="food",
    profiles=CORE,
    description="Search the food catalog and the user's foods; returns food_ids and nutrition.",
    parameters=obj(
        required=["query"],
        query=string("e.g. 'greek yogurt'."),
        limit=integer("1 to 10 (default 5)."),
    ),
    example={"query": "oatmeal"},
)
def search_foods(ctx, args) -> ToolResult:
    limit = bounded(args, "limit", 5, 1, 10)
    foods = food_services.food_search(user=ctx.user, query=args["query"], limit=limit)
    if not foods:
        return ToolResult(
            ok=True, message=f"No food matches {args['query']!r}.", data={"foods": []}
        )
    return ToolResult(
        ok=True,
        message=f"{len(foods)} foods match {args['query']!r}.",
        data={"foods": [food_card(f) for f in foods]},
    )


@tool(
    name="log_food",
    category="food",
    profiles=CORE,
    writes=True,
    plans=True,
    description=(
        "Log a food the user ate. food_name is REQUIRED, even with a food_id. One call per item."
    ),
    parameters=obj(
        required=["food_name"],
        food_name=string("REQUIRED. The food as the user said it, e.g. 'scrambled eggs'."),
        quantity=number("Default 1."),
        unit=string("g, oz, ml, cup, tbsp, slice... Omit for pieces: '2 eggs' is quantity 2."),
        meal_type=MEAL_ARG,
        date=DATE_ARG,
        food_id=string("A food_id from search_foods, when you have one."),
    ),
    example={"food_name": "egg", "quantity": 2, "meal_type": "breakfast"},
)
def log_food(ctx, args) -> ToolResult:
    if not _given_id(ctx, args):
        items = compound.split_items(user=ctx.user, name=args["food_name"].strip())
        if len(items) > 1:
            return _log_items(ctx, args, items)
    return _log_one(ctx, args)


def _log_items(ctx, args, items) -> ToolResult:
    """Each item of "coffee with milk" logged on its own; one that fails is named, not lost."""
    lines, written, options, data = [], [], None, {"entries": []}
    plans, rows = [], []
    size = units.parse_unit(args.get("unit")).canonical if args.get("unit") else None
    scale = compound.DRINK_SIZES.get(size, 1.0) if size else 1.0  # "a large latte"
    count = (
        (args.get("quantity") or 1) * scale if not args.get("unit") or size in units.SIZES else 1
    )
    for i, item in enumerate(items):
        sub = {**args, "food_name": item.name}
        if item.quantity is not None:  # its usual amount: a shot, a splash of milk
            sub["quantity"], sub["unit"] = item.quantity * float(count), item.unit
        elif i > 0 or size in units.SIZES:  # the amount said is the main food's; an
            sub.pop("quantity", None)  # accompaniment has its own
            sub.pop("unit", None)
        try:
            result = _log_one(ctx, sub)
        except ValidationError as exc:
            if getattr(exc, "code", None) == "implausible":
                raise  # the whole call waits for the user's confirmation
            result = ToolResult(ok=False, message=f"{item.name}: {' '.join(exc.messages)}")
        if result.ok:
            written += result.written
            plans.append(result.plan)
            rows += result.rows
            data["entries"].append(result.data)
            lines.append(result.message)
        else:
            options = options or result.options
            # the options are shown to the user; the line says only what was not saved
            why = f"{item.name!r} is not in the food catalog." if result.options else result.message
            lines.append(f"Not saved: {why}")
    if written:  # the items saved as one sentence, then what was not
        lines = [logged_sentence(written, ctx.user)] + [
            line for line in lines if line.startswith("Not saved")
        ]
    result = ToolResult(
        ok=bool(written),
        message=" ".join(lines),
        data=data,
        written=written,
        options=options,
        rows=rows,
    )

    def save() -> ToolResult:
        for plan in plans:
            plan()
        return dataclasses.replace(result, plan=None, rows=[])

    result.plan = save
    return result


def _log_one(ctx, args) -> ToolResult:
    name = args["food_name"].strip()
    food = None
    if _given_id(ctx, args):
        # An id names one food: an invented or foreign one is refused, never read as the name.
        food = food_services.food_get(user=ctx.user, food_id=args["food_id"])
    unit = args.get("unit")
    if food is None:
        food, name, unit = _food_and_amount_words(ctx, name, unit)
    request = {
        "food_name": name,
        "quantity": args.get("quantity"),
        "unit": unit,
        "meal_type": args.get("meal_type") or default_meal(ctx.user),
        "date": args.get("date"),
    }
    if food is None:
        parse_day(ctx.user, args.get("date"))  # a future date is refused before any options
        return ToolResult(
            ok=False,
            message=(
                f"{name!r} is not in the food catalog. Sparky will show the user three options to "
                "pick from; do not log it another way. Carry on with any other items."
            ),
            options={"kind": "food", "query": name, "request": request},
        )
    entry = food_services.food_entry_prepare(
        user=ctx.user,
        food=food,
        quantity=args.get("quantity", 1),
        unit=unit,
        meal_type=request["meal_type"],
        entry_date=args.get("date"),
        unsized=_unsized(name, {**args, "unit": unit}),
        several=_several(name, {**args, "unit": unit}),
        confirmed=ctx.confirmed,
    )
    written = written_food(entry)
    result = ToolResult(
        ok=True,
        message=logged_sentence([written], ctx.user),
        data={"entry_id": str(entry.id), "food": food_card(food)},
        written=[written],
        rows=[entry],
    )

    def save() -> ToolResult:
        food_services.food_entry_save(entry)
        return dataclasses.replace(result, plan=None, rows=[])

    result.plan = save
    return result


def _given_id(ctx, args) -> str | None:
    """The food_id a call gives. Words a chat model wrote where an id belongs ("2 eggs", as the
    1.5B does) are no id: its food is found by name. Any other caller's id (MCP, the API) is
    refused as it is when it names no food of the user's or the catalog's."""
    value = args.get("food_id")
    if value and ctx.said is not None:
        try:
            uuid.UUID(str(value))
        except ValueError:
            return None
    return value


def _food_and_amount_words(ctx, name: str, unit):
    """(food or None, name, unit): amount words still in the name ("jumbo egg", "glass of milk",
    "carton of orange juice" with unit "small") move to the unit, unless the food is named by
    them ("big mac")."""
    rest, moved = units.amount_in_name(name, unit)
    if rest == name and moved == unit:
        return food_services.food_find_best(user=ctx.user, name=name, unit=unit), name, unit
    if " of " not in f" {name.lower()} ":
        whole = food_services.food_find_best(user=ctx.user, name=name, unit=unit)
        first = name.lower().split()[0]
        if whole is not None and first in whole.name.lower():
            return whole, name, unit
    return food_services.food_find_best(user=ctx.user, name=rest, unit=moved), rest, moved


def _several(name: str, args: dict) -> bool:
    """A plural with no count ("eggs", "had pancakes"): a couple of them."""
    if args.get("unit") or args.get("quantity") not in (None, 1):
        return False
    last = (name.lower().split() or [""])[-1]
    return len(last) > 3 and last.endswith("s") and not last.endswith(("ss", "us", "is"))


def _unsized(name: str, args: dict) -> bool:
    """No count was said: no quantity, or the default 1 of a plural ("almonds", "grapes")."""
    if args.get("unit"):
        return False
    quantity = args.get("quantity")
    if quantity is None:
        return True
    last = (name.lower().split() or [""])[-1]
    return quantity == 1 and words.singular(last) != last


_NUTRIENT_ARGS = {
    "saturated_fat": number(None),
    "dietary_fiber": number(None),
    "sugars": number(None),
    "sodium": number("mg."),
}


# The numbers of a food a log_external_food call carries.
OWN_NUMBERS = ("calories", "protein", "carbs", "fat", *_NUTRIENT_ARGS)


def _nutrition_from(args) -> dict:
    out = {
        "calories": args["calories"],
        "protein": args.get("protein", 0),
        "carbs": args.get("carbs", 0),
        "fat": args.get("fat", 0),
    }
    out.update({k: args[k] for k in _NUTRIENT_ARGS if k in args})
    return out


def _external_option(args) -> tuple[dict, Decimal]:
    """The option log_external_food logs, and how much of its serving unit."""
    option = {
        "name": str(args.get("food_name") or "").strip(),
        "serving_size": args.get("serving_size", 1),
        "serving_unit": args.get("serving_unit", "serving"),
        **_nutrition_from(args),
    }
    quantity = Decimal(str(args.get("quantity", 1))) * Decimal(str(option["serving_size"]))
    return option, quantity


def external_food_kcal(args) -> Decimal:
    """The kcal a log_external_food call would log, before it is done (the turn's size, the
    review card): nutrition.services.food_option_kcal of its option."""
    try:
        option, quantity = _external_option(args)
    except (ArithmeticError, KeyError, TypeError, ValueError):
        return Decimal(0)
    return food_services.food_option_kcal(option=option, quantity=quantity)


@tool(
    name="log_external_food",
    category="food",
    profiles=CORE,
    writes=True,
    description=(
        "Log a food the catalog lacks (a restaurant dish, a product) with nutrition for ONE "
        "serving: kcal, grams of protein, carbs, fat. food_name is REQUIRED."
    ),
    parameters=obj(
        required=["food_name", "calories"],
        food_name=string("REQUIRED. e.g. 'chicken burrito'."),
        calories=number(None),
        protein=number(None),
        carbs=number(None),
        fat=number(None),
        serving_size=number("Default 1."),
        serving_unit=string("e.g. 'g', 'piece' (default 'serving')."),
        quantity=number("Servings eaten (default 1)."),
        meal_type=MEAL_ARG,
        date=DATE_ARG,
        **_NUTRIENT_ARGS,
    ),
    example={
        "food_name": "chicken burrito",
        "calories": 650,
        "protein": 35,
        "carbs": 70,
        "fat": 22,
    },
)
def log_external_food(ctx, args) -> ToolResult:
    option, quantity = _external_option(args)
    entry = food_services.food_option_add(
        user=ctx.user,
        confirmed=ctx.confirmed,
        option=option,
        quantity=quantity,
        unit=option["serving_unit"],
        meal_type=args.get("meal_type") or default_meal(ctx.user),
        entry_date=args.get("date"),
    )
    written = written_food(entry)
    return ToolResult(
        ok=True,
        message=f"Logged {written.summary} as a custom food.",
        data={"entry_id": str(entry.id), "food_id": str(entry.food_id)},
        written=[written],
    )


@day_tool(
    name="food_diary",
    category="food",
    profiles=CORE,
    description=(
        "Read the user's food diary for a day: every entry by meal, with calories and macros."
    ),
)
def food_diary(ctx, day) -> ToolResult:
    diary = food_selectors.food_diary(user=ctx.user, day=day)
    totals = food_selectors.nutrition_totals(user=ctx.user, day=day)
    count = sum(len(items) for items in diary.values())
    return ToolResult(
        ok=True,
        message=f"{words.counted(count, 'food entry')} on {day.isoformat()}.",
        data={
            "date": day,
            "meals": diary,
            "totals": {k: totals.get(k) for k in ("calories", "protein", "carbs", "fat")},
        },
    )


ENTRIES = Entries(
    kind="food",
    label="food_name",
    queryset=lambda user: FoodEntry.objects.for_user(user).select_related("food"),
    name_of=lambda entry: entry.food.name,
    chip_name=lambda entry: entry.food.readable_name,
    fields=ENTRY_FIELDS,
    line=entry_line,
    written=written_food,
    update=food_services.food_entry_update,
    delete=food_services.food_entry_delete,
)


@tool(
    name="edit_food_entry",
    category="food",
    profiles=CORE,
    writes=True,
    description=(
        "Change a logged food entry (amount, unit, meal, day). Identify it by entry_id, or by "
        "food_name and date."
    ),
    parameters=obj(
        entry_id=string(None),
        food_name=string("The logged food, e.g. 'eggs'."),
        date=DATE_ARG,
        quantity=number(None),
        unit=string(None),
        meal_type=string(None, enum=list(MEALS)),
        new_date=string("Move it to this day."),
    ),
    example={"food_name": "eggs", "date": "today", "quantity": 3},
)
def edit_food_entry(ctx, args) -> ToolResult:
    entry = ENTRIES.find(ctx, args)
    if isinstance(entry, ToolResult):
        return entry
    changes = {k: args[k] for k in ("quantity", "unit", "meal_type") if k in args}
    if "new_date" in args:
        changes["entry_date"] = args["new_date"]
    if not changes:
        return ToolResult(
            ok=False, message="Say what to change: quantity, unit, meal_type or new_date."
        )
    return ENTRIES.change(ctx, entry, changes)


@tool(
    name="delete_food_entry",
    category="food",
    profiles=CORE,
    writes=True,
    description=(
        "Delete a food entry, only when the user asks. Identify it by entry_id, or by food_name "
        "and date."
    ),
    parameters=obj(
        entry_id=string(None),
        food_name=string(None),
        date=DATE_ARG,
    ),
    example={"food_name": "banana", "date": "today"},
)
def delete_food_entry(ctx, args) -> ToolResult:
    return ENTRIES.remove(ctx, args)


@tool(
    name="create_custom_food",
    category="food",
    writes=True,
    description=(
        "Save a new food to the user's own foods (without logging it), with nutrition for one "
        "serving."
    ),
    parameters=obj(
        required=["food_name", "calories"],
        food_name=string("Name of the food."),
        calories=number("kcal per serving."),
        protein=number("Protein per serving, g."),
        carbs=number("Carbohydrates per serving, g."),
        fat=number("Fat per serving, g."),
        serving_size=number("Serving size (default 100)."),
        serving_unit=string("Serving unit (default 'g')."),
        **_NUTRIENT_ARGS,
    ),
    example={
        "food_name": "protein bar",
        "calories": 210,
        "protein": 20,
        "serving_size": 1,
        "serving_unit": "bar",
    },
)
def create_custom_food(ctx, args) -> ToolResult:
    food = food_services.food_create_custom(
        user=ctx.user,
        name=args["food_name"].strip(),
        serving_size=args.get("serving_size", 100),
        serving_unit=args.get("serving_unit", "g"),
        **_nutrition_from(args),
    )
    return ToolResult(
        ok=True,
        message=f"Saved {food.name} to your foods.",
        data={"food": food_card(food)},
        written=[written_custom_food(food)],
    )


@tool(
    name="food_details",
    category="food",
    description=(
        "Full nutrition of one food (every nutrient per serving, household servings). Give a "
        "food_id or a food_name."
    ),
    parameters=obj(food_id=string("A food_id."), food_name=string("A food name.")),
    example={"food_name": "banana"},
)
def food_details(ctx, args) -> ToolResult:
    food = None
    if args.get("food_id"):  # an id names one food: one not found is refused, not a name's
        food = food_services.food_get(user=ctx.user, food_id=args["food_id"])
    if food is None and args.get("food_name"):
        food = food_services.food_find_best(user=ctx.user, name=args["food_name"])
    if food is None:
        return ToolResult(ok=False, message="No such food. Try search_foods.")
    card = food_card(food)
    card["nutrients"] = {k: _num(getattr(food, k)) for k in NUTRIENTS}
    return ToolResult(ok=True, message=f"Nutrition of {food.name}.", data={"food": card})


@tool(
    name="recent_foods",
    category="food",
    description="The foods the user logged most often recently, to log a usual meal quickly.",
    parameters=obj(days=integer("How many days back, 1 to 60 (default 14).")),
    example={"days": 14},
)
def recent_foods(ctx, args) -> ToolResult:
    days = bounded(args, "days", 14, 1, 60)
    rows = food_selectors.frequent_foods(user=ctx.user, days=days, limit=10)
    return ToolResult(
        ok=True,
        message=f"{len(rows)} foods logged in the last {days} days.",
        data={"foods": rows},
    )
