"""Vision tools: the model looks at the turn's photo itself and passes what it sees; the tools
turn that into catalog nutrition (a meal photo) or a saved custom food (a nutrition label).

Neither tool logs a meal from a photo on its own: the meal analysis returns matches for the model
to confirm with the user, and a label is checked for plausibility before it is saved.
"""

from __future__ import annotations

from decimal import Decimal

from django.core.exceptions import ValidationError

from nutrition import services as food_services
from nutrition.models import Food, FoodEntry
from nutrition.services import default_meal
from sparky.dates import today_for

from .base import ToolResult, tool
from .food import food_card, written_custom_food, written_food
from .schema import DATE_ARG, MEAL_ARG, array, boolean, number, obj, string

NO_PHOTO = (
    "No photo is attached to this message, so there is nothing to read. Ask the user to attach "
    "the photo, or log the foods by name with log_food."
)
_MACROS = ("protein", "carbs", "fat")
_SHOWN = ("calories", "protein", "carbs", "fat")
MAX_ITEMS = 12


def _round(value) -> float:
    return round(float(value or 0), 1)


def _amount(item: dict) -> tuple[Decimal, str | None, str]:
    """(quantity, unit, readable amount) of one item the model saw."""
    if item.get("estimated_grams"):
        grams = Decimal(str(item["estimated_grams"]))
        return grams, "g", f"{grams:g} g"
    quantity = Decimal(str(item.get("quantity") or 1))
    unit = (item.get("unit") or "").strip() or None
    return quantity, unit, f"{quantity:g} {unit}" if unit else f"{quantity:g}"


def _nutrition_for(ctx, food, quantity, unit) -> dict:
    # An unsaved entry: the service's own unit conversion, with nothing written.
    draft = FoodEntry(
        user=ctx.user,
        food=food,
        quantity=quantity,
        unit=unit,
        meal_type="snack",
        entry_date=today_for(ctx.user),
    )
    nutrients = food_services.entry_nutrients(draft)
    return {name: nutrients.get(name) or Decimal(0) for name in _SHOWN}


@tool(
    name="analyze_meal_photo",
    category="vision",
    description=(
        "Use when the user sent a photo of a meal. Look at the photo yourself and pass each food "
        "you see with your estimate of its amount (grams if you can). Returns catalog matches with "
        "calories and macros for those amounts and a total. It logs nothing: show the user what "
        "you found, let them correct it, then log each item with log_food."
    ),
    parameters=obj(
        required=["items"],
        items=array(
            "The foods you see in the photo, one per item.",
            obj(
                required=["name"],
                name=string("What the food is, e.g. 'fried egg', 'white rice'."),
                estimated_grams=number("Your estimate of its weight in grams, e.g. 150."),
                quantity=number("Or a count, e.g. 2 (slices, pieces, cups)."),
                unit=string("The unit of quantity, e.g. 'slice', 'cup'. Leave out for pieces."),
            ),
        ),
    ),
    example={
        "items": [
            {"name": "fried egg", "quantity": 2},
            {"name": "white rice", "estimated_grams": 150},
        ]
    },
)
def analyze_meal_photo(ctx, args) -> ToolResult:
    if ctx.image is None:
        return ToolResult(ok=False, message=NO_PHOTO)
    items = [i for i in args["items"] if isinstance(i, dict) and (i.get("name") or "").strip()]
    if not items:
        return ToolResult(ok=False, message="Pass at least one food you see, with its name.")
    if len(items) > MAX_ITEMS:
        return ToolResult(
            ok=False, message=f"That is {len(items)} items; pass at most {MAX_ITEMS} main foods."
        )
    results, total = [], dict.fromkeys(_SHOWN, Decimal(0))
    unmatched = []
    for item in items:
        seen = item["name"].strip()
        quantity, unit, amount = _amount(item)
        row = {"seen": seen, "amount": amount}
        food = food_services.food_find_best(user=ctx.user, name=seen)
        if food is None:
            nearest = food_services.food_search(user=ctx.user, query=seen, limit=3)
            row["match"] = None
            row["nearest"] = [{"food_id": str(f.id), "name": f.name} for f in nearest]
            unmatched.append(seen)
            results.append(row)
            continue
        try:
            nutrition = _nutrition_for(ctx, food, quantity, unit)
        except ValidationError as exc:
            row.update(match=food.name, food_id=str(food.id), problem=" ".join(exc.messages))
            results.append(row)
            continue
        for name in _SHOWN:
            total[name] += nutrition[name]
        row.update(
            match=food.name,
            food_id=str(food.id),
            quantity=float(quantity),
            unit=unit,
            calories=round(float(nutrition["calories"])),
            protein_g=_round(nutrition["protein"]),
            carbs_g=_round(nutrition["carbs"]),
            fat_g=_round(nutrition["fat"]),
        )
        results.append(row)
    matched = len(items) - len(unmatched)
    message = (
        f"Matched {matched} of {len(items)} items, about {round(total['calories'])} kcal in total. "
        "Show this to the user and ask them to confirm or correct it; then log each confirmed "
        "item with log_food (food_name, food_id, quantity, unit)."
    )
    if unmatched:
        message += (
            f" No catalog match for {', '.join(unmatched)}: offer the nearest foods or use "
            "log_external_food with your own estimate once the user confirms."
        )
    return ToolResult(
        ok=True,
        message=message,
        data={
            "items": results,
            "total": {
                "calories": round(float(total["calories"])),
                "protein_g": _round(total["protein"]),
                "carbs_g": _round(total["carbs"]),
                "fat_g": _round(total["fat"]),
            },
        },
    )


_LABEL_EXTRAS = {
    "saturated_fat": number("Saturated fat per serving, g."),
    "trans_fat": number("Trans fat per serving, g."),
    "sugars": number("Sugars per serving, g."),
    "dietary_fiber": number("Fiber per serving, g."),
    "sodium": number("Sodium per serving, mg (salt g x 400)."),
    "cholesterol": number("Cholesterol per serving, mg."),
    "potassium": number("Potassium per serving, mg."),
    "calcium": number("Calcium per serving, mg."),
    "iron": number("Iron per serving, mg."),
}
_GRAM_UNITS = {"g", "gram", "grams"}
# Calories from macros (Atwater 4/4/9) may differ from the printed kcal by label rounding, fiber
# (counted at 2 kcal/g or not at all) and polyols; beyond this the numbers were most likely misread.
LABEL_KCAL_TOLERANCE = 0.2
LABEL_KCAL_SLACK = 20


def _label_problem(args) -> str | None:
    """What makes a label reading implausible, as a question for the user, or None."""
    kcal = float(args["calories"])
    size = float(args["serving_size"])
    unit = args["serving_unit"].strip().lower()
    values = {k: float(args[k]) for k in (*_MACROS, *_LABEL_EXTRAS) if k in args}
    if size <= 0:
        return "The serving size must be more than 0. What serving size does the label print?"
    negative = [k for k, v in {"calories": kcal, **values}.items() if v < 0]
    if negative:
        return f"{', '.join(negative)} cannot be negative. What does the label print?"
    macro_grams = sum(values.get(k, 0) for k in _MACROS)
    if unit in _GRAM_UNITS:
        if macro_grams > size * 1.05:
            return (
                f"Protein, carbs and fat add up to {macro_grams:g} g, more than the {size:g} g "
                "serving. Please check the serving size and macros with the user."
            )
        if kcal > size * 9.2 + 5:
            return (
                f"{kcal:g} kcal in {size:g} g is more than pure fat could hold. Is the kcal figure "
                "per serving, or per 100 g?"
            )
    if any(k in args for k in _MACROS) and not args.get("confirmed"):
        from_macros = 4 * values.get("protein", 0) + 4 * values.get("carbs", 0)
        from_macros += 9 * values.get("fat", 0)
        allowed = max(LABEL_KCAL_SLACK, LABEL_KCAL_TOLERANCE * max(kcal, from_macros))
        if abs(from_macros - kcal) > allowed:
            return (
                f"The label reads {kcal:g} kcal, but its protein, carbs and fat add up to about "
                f"{from_macros:.0f} kcal (4/4/9 per g). Ask the user to check the calories and "
                "macros on the label; if they are printed that way (e.g. the product contains "
                "alcohol), call again with confirmed=true."
            )
    return None


def _same_label(user, name: str, args) -> Food | None:
    """The user's own food saved from this same label before, if any."""
    return (
        Food.objects.owned_by(user)
        .filter(
            is_custom=True,
            name__iexact=name,
            serving_size=Decimal(str(args["serving_size"])),
            calories=Decimal(str(args["calories"])),
        )
        .order_by("created_at")
        .first()
    )


@tool(
    name="scan_nutrition_label",
    category="vision",
    writes=True,
    description=(
        "Use when the user sent a photo of a nutrition facts label. Read the label yourself and "
        "pass the product name, the serving size and the nutrition PER SERVING as printed. Saves "
        "it to the user's foods; with log=true it also logs what they ate."
    ),
    parameters=obj(
        required=["product_name", "serving_size", "serving_unit", "calories"],
        product_name=string("Product name, with brand if shown, e.g. 'Oat Crunch granola'."),
        serving_size=number("The serving size number, e.g. 40. Prefer the gram or ml amount."),
        serving_unit=string("Unit of the serving, e.g. 'g', 'ml', 'bar', 'cup'."),
        calories=number("kcal per serving (not kJ)."),
        protein=number("Protein per serving, g."),
        carbs=number("Total carbohydrates per serving, g."),
        fat=number("Total fat per serving, g."),
        **_LABEL_EXTRAS,
        log=boolean("True to also log it as eaten now."),
        quantity=number("Servings eaten, when logging (default 1)."),
        meal_type=MEAL_ARG,
        date=DATE_ARG,
        confirmed=boolean("True only after the user confirmed unusual numbers are as printed."),
    ),
    example={
        "product_name": "Oat Crunch granola",
        "serving_size": 40,
        "serving_unit": "g",
        "calories": 180,
        "protein": 4,
        "carbs": 28,
        "fat": 6,
    },
)
def scan_nutrition_label(ctx, args) -> ToolResult:
    if ctx.image is None:
        return ToolResult(ok=False, message=NO_PHOTO)
    problem = _label_problem(args)
    if problem:
        return ToolResult(ok=False, message=f"Not saved. {problem}")
    name = " ".join(args["product_name"].split())
    food = _same_label(ctx.user, name, args)
    written = []
    if food is None:
        nutrients = {k: args[k] for k in ("calories", *_MACROS, *_LABEL_EXTRAS) if k in args}
        food = food_services.food_create_custom(
            user=ctx.user,
            name=name,
            serving_size=args["serving_size"],
            serving_unit=args["serving_unit"].strip(),
            **nutrients,
        )
        written.append(written_custom_food(food))
        verb = "Saved"
    else:
        verb = "Already had"  # the same label scanned again: no duplicate food
    card = food_card(food)
    data = {"food": card}
    message = f"{verb} {food.name} in your foods ({card['serving']}, {args['calories']:g} kcal)."
    if args.get("log"):
        servings = Decimal(str(args.get("quantity", 1)))
        entry = food_services.food_entry_create(
            user=ctx.user,
            food=food,
            quantity=servings * Decimal(str(args["serving_size"])),
            unit=food.serving_unit,
            meal_type=args.get("meal_type") or default_meal(ctx.user),
            entry_date=args.get("date"),
        )
        logged = written_food(entry)
        written.append(logged)
        data["entry_id"] = str(entry.id)
        message += f" Logged {logged.summary}."
    return ToolResult(ok=True, message=message, data=data, written=written)
