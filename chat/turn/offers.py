"""Not-found food or exercise -> three options, a numbered list, and the user's pick.

Options come from the configured model (a secondary request with the original request and the
user's preferences as context) or, offline or when that request fails, from the catalog's nearest
matches. They are stored in the assistant message's metadata; the next message resolves them
deterministically: a number picks one, `manual: ...` logs the user's own numbers, anything else is a
new request.
"""

from __future__ import annotations

import json
import logging
import re

from django.core.exceptions import ValidationError
from django.utils import timezone

from aiservices import llm
from chat.tools import exercise as exercise_tools
from chat.tools import food as food_tools
from chat.turn.prompts import template
from chat.turn.types import CoachResponse, Turn
from exercise import services as exercise_services
from exercise.services import exercise_search
from measurements.services import latest_weight_kg
from nutrition import services as food_services
from nutrition import units
from nutrition import vocabulary as food_words
from sparky.words import alternation

logger = logging.getLogger(__name__)

MAX_OPTIONS = 3


# --- generating ------------------------------------------------------------------------------


def _json_object(text: str) -> dict | None:
    text = (text or "").strip()
    fence = re.search(r"```(?:json)?\s*(.*?)```", text, flags=re.S)
    if fence:
        text = fence.group(1)
    start, end = text.find("{"), text.rfind("}")
    if start < 0 or end <= start:
        return None
    try:
        value = json.loads(text[start : end + 1])
    except json.JSONDecodeError:
        return None
    return value if isinstance(value, dict) else None


def _number(value, *, low=0.0, high=None) -> float | None:
    try:
        num = float(value)
    except (TypeError, ValueError):
        return None
    if num != num or num < low or (high is not None and num > high):  # NaN or out of range
        return None
    return round(num, 2)


FOOD_FIELDS = (
    "calories",
    "protein",
    "carbs",
    "fat",
    "saturated_fat",
    "dietary_fiber",
    "sugars",
    "sodium",
)


def clean_food_option(raw) -> dict | None:
    if not isinstance(raw, dict) or not str(raw.get("name", "")).strip():
        return None
    option = {"name": str(raw["name"]).strip()[:120]}
    for field in FOOD_FIELDS:
        limit = 5000 if field == "sodium" else 3000
        value = _number(raw.get(field), high=limit)
        if value is not None:
            option[field] = value
    if "calories" not in option:
        return None
    option["serving_size"] = _number(raw.get("serving_size"), low=0.01, high=5000) or 1
    option["serving_unit"] = str(raw.get("serving_unit") or "serving").strip()[:40]
    return option


def clean_exercise_option(raw) -> dict | None:
    if not isinstance(raw, dict) or not str(raw.get("name", "")).strip():
        return None
    cph = _number(raw.get("calories_per_hour"), low=1, high=2000)
    if cph is None:
        return None
    category = str(raw.get("category") or "general").strip().lower()[:40]
    return {
        "name": str(raw["name"]).strip()[:120],
        "calories_per_hour": round(cph),
        "category": category,
    }


def generate_options(
    *,
    user,
    kind: str,
    query: str,
    request_text: str,
    config=None,
    request: dict | None = None,
    dietary_notes: str = "",
) -> tuple[list, str]:
    """Up to three options and where they came from ('model' or 'catalog'); a model is told the
    user's `dietary_notes`."""
    if config is not None:
        try:
            options = _options_from_model(
                user=user,
                kind=kind,
                query=query,
                request_text=request_text,
                config=config,
                dietary_notes=dietary_notes,
            )
            if options:
                return options, "model"
        except Exception as exc:  # a failed secondary request falls back to the catalog
            logger.info("option generation failed: %s", type(exc).__name__)
    return _options_from_catalog(user=user, kind=kind, query=query, request=request), "catalog"


def _options_from_model(*, user, kind, query, request_text, config, dietary_notes) -> list[dict]:
    context = {"request": request_text, kind: query}
    if dietary_notes:
        context["dietary_notes"] = dietary_notes
    if kind == "exercise":
        weight = latest_weight_kg(user=user)
        context["body_weight_kg"] = float(weight) if weight else None
    result = llm.complete(
        config,
        messages=[
            {"role": "system", "content": template(f"{kind}-options")},
            {"role": "user", "content": json.dumps(context)},
        ],
        max_tokens=600,
        temperature=0.3,
    )
    data = _json_object(llm.strip_reasoning(result.text)) or {}
    raw = data.get(f"{kind}_options") or data.get("options") or []
    clean = clean_food_option if kind == "food" else clean_exercise_option
    options = [o for o in (clean(r) for r in raw if r) if o][:MAX_OPTIONS]
    for option in options:
        option["estimate"] = True  # the model's numbers, not the catalog's: said so everywhere
    return options


def _options_from_catalog(*, user, kind, query, request=None) -> list[dict]:
    if kind == "food":
        foods = food_services.food_options(user=user, query=query, limit=MAX_OPTIONS)
        options = [_food_option(f, request or {}) for f in foods]
        # Two options with one short name would look alike: those show their full names.
        shown = [o["name"] for o in options]
        for food, option in zip(foods, options, strict=True):
            if shown.count(option["name"]) > 1:
                option["name"] = food.name
        return options

    found = exercise_search(user=user, query=query, limit=MAX_OPTIONS)
    return [
        {
            "name": e.name,
            "exercise_id": str(e.id),
            "calories_per_hour": e.calories_per_hour,
            "category": e.category or "general",
        }
        for e in found
    ]


def _food_option(food, request: dict) -> dict:
    """A catalog food as an option: the amount the request asked for (its natural helping when
    none was said, "1 piece", never a bare 100 g), with that amount's nutrients. A pick logs
    exactly this amount (`apply_option`)."""
    quantity, unit = request.get("quantity") or 1, request.get("unit")
    portion = None
    for asked in (unit, None) if unit else (None,):
        try:
            portion = units.portion(food=food, quantity=quantity, unit=asked)
            break
        except ValidationError:
            continue
    option = {"name": food.readable_name, "full_name": food.name, "food_id": str(food.id)}
    if portion is None:  # the stored serving
        option.update(
            serving_size=float(food.serving_size or 100), serving_unit=food.serving_unit or "g"
        )
        values = {k: getattr(food, k) for k in ("calories", "protein", "carbs", "fat")}
    else:
        option.update(
            serving_size=float(portion.quantity),
            serving_unit=units.unit_text(portion.quantity, portion.unit),
            quantity=float(portion.quantity),
            unit=portion.unit,
            variant_id=str(portion.variant.id) if portion.variant is not None else None,
        )
        values = food_services.nutrients_for(food, portion.multiplier)
    for key in ("calories", "protein", "carbs", "fat"):
        value = values.get(key)
        option[key] = round(float(value), 1) if value is not None else None
    return option


def describe_option(kind: str, option: dict) -> str:
    if kind == "food":
        serving = f"{option.get('serving_size', 1):g} {option.get('serving_unit', 'serving')}"
        macros = ", ".join(
            f"{option[k]:g} g {label}"
            for k, label in (("protein", "protein"), ("carbs", "carbs"), ("fat", "fat"))
            if option.get(k) is not None
        )
        kcal = option.get("calories")
        kcal_text = f"{round(kcal)} kcal" if kcal is not None else "kcal unknown"
        name = option["name"] + (" (estimate)" if option.get("estimate") else "")
        return f"{name} — {serving}: {kcal_text}" + (f", {macros}" if macros else "")
    cph = option.get("calories_per_hour")
    return f"{option['name']} — about {cph} kcal per hour" if cph else option["name"]


def options_message(kind: str, query: str, options: list[dict]) -> str:
    noun = "food" if kind == "food" else "exercise"
    if not options:
        example = (
            "manual: 250 cal, 10g protein, 30g carbs, 8g fat"
            if kind == "food"
            else "manual: 300 cal per hour"
        )
        return (
            f"I couldn't find {query!r} in the {noun} database. To log it with your own numbers, "
            f"reply with something like '{example}'."
        )
    lines = [f"I couldn't find {query!r} in the {noun} database. Did you mean one of these?"]
    lines += [f"{i}. {describe_option(kind, o)}" for i, o in enumerate(options, 1)]
    if kind == "food":
        lines.append(
            "Reply with a number to log it, or with your own values, e.g. "
            "'manual: 250 cal, 10g protein, 30g carbs, 8g fat'."
        )
    else:
        lines.append("Reply with a number to log it, or e.g. 'manual: 300 cal per hour'.")
    return "\n".join(lines)


def options_metadata(
    kind: str, query: str, request: dict, options: list[dict], source: str
) -> dict:
    return {
        "kind": kind,
        "query": query,
        "request": request,
        "options": options,
        "source": source,
        "created_at": timezone.now().isoformat(),
    }


def pending_options(message) -> dict | None:
    """Options of an assistant message that are still open for a reply, else None."""
    meta = (message.metadata or {}) if message is not None else {}
    data = meta.get("options")
    if (
        not isinstance(data, dict)
        or data.get("resolved")
        or not isinstance(data.get("options"), list)
    ):
        return None
    return data


# --- applying --------------------------------------------------------------------------------


def _workout_said(request: dict) -> dict:
    """What the user said of a workout besides its name: how long, how far, which day."""
    return {
        "duration_minutes": request.get("duration_minutes"),
        "distance": request.get("distance"),
        "distance_unit": request.get("distance_unit"),
        "entry_date": request.get("date"),
    }


def apply_option(*, user, data: dict, option: dict):
    """Log the chosen option; returns the Written rows. Raises ValidationError on bad input."""
    request = data.get("request") or {}
    if data["kind"] == "food":
        quantity = request.get("quantity") or 1
        unit = request.get("unit")
        meal = request.get("meal_type") or food_services.default_meal(user)
        if option.get("food_id") and option.get("quantity") is not None:
            # exactly the amount the option showed
            food = food_services.food_get(user=user, food_id=option["food_id"])
            entry = food_services.food_entry_create(
                user=user,
                food=food,
                quantity=option["quantity"],
                unit=option.get("unit"),
                variant=option.get("variant_id"),
                meal_type=meal,
                entry_date=request.get("date"),
            )
        elif option.get("food_id"):
            food = food_services.food_get(user=user, food_id=option["food_id"])
            said = {"quantity": quantity, "meal_type": meal, "entry_date": request.get("date")}
            try:
                entry = food_services.food_entry_create(user=user, food=food, unit=unit, **said)
            except ValidationError as exc:
                if getattr(exc, "code", None) != "unknown_unit":
                    raise  # a unit the food doesn't have: its own serving instead
                entry = food_services.food_entry_create(user=user, food=food, unit=None, **said)
        else:
            if unit and unit == option.get("serving_unit"):
                amount = float(quantity)
            else:  # a count of servings
                amount = float(quantity) * float(option.get("serving_size") or 1)
            entry = food_services.food_option_add(
                user=user,
                option=option,
                quantity=amount,
                unit=option.get("serving_unit"),
                meal_type=meal,
                entry_date=request.get("date"),
            )
        return [food_tools.written_food(entry)]

    common = {**_workout_said(request), "notes": request.get("notes")}
    if option.get("exercise_id"):
        exercise = exercise_services.exercise_get(user=user, exercise_id=option["exercise_id"])
        entry = exercise_services.exercise_entry_create(user=user, exercise=exercise, **common)
    else:
        entry = exercise_services.exercise_option_add(user=user, option=option, **common)
    return [exercise_tools.written_exercise(entry)]


# What a food of the user's own is told by: "100 cal, 5g protein, 10g carbs" (nutrition's words).
_NUTRIENT_WORDS = {
    name: food_words.NUTRIENT_WORDS[name]
    for name in (
        "calories", "protein", "carbs", "fat", "saturated_fat", "dietary_fiber", "sugars", "sodium",
    )
}  # fmt: skip
# The units a nutrient's amount is said in: calories, grams, milligrams.
_MANUAL_UNITS = {w for w, unit in food_words.ALIASES.items() if unit in ("kcal", "g", "mg")}
_MANUAL_ITEM = re.compile(
    rf"(\d+(?:[.,]\d+)?)\s*({alternation(_MANUAL_UNITS)})?\s*(?:of\s+)?"
    r"([a-z][a-z ]*?)?\s*(?=,|;|\band\b|$)",
    re.I,
)


def parse_manual(text: str) -> dict:
    """{'calories': 100, 'protein': 5, ...} from '100 cal, 5g protein, 10g carbs'."""
    found: dict[str, float] = {}
    per_hour = bool(re.search(r"(per|an|/)\s*(hour|hr|h)\b", text, re.I))
    for number, unit, word in _MANUAL_ITEM.findall(text):
        value = float(number.replace(",", "."))
        label = (word or "").strip().lower()
        unit = (unit or "").lower()
        name = None
        for key, words in _NUTRIENT_WORDS.items():
            if label in words or any(label.startswith(w) for w in words if " " in w):
                name = key
                break
        if name is None and unit in food_words.CALORIE_WORDS:
            name = "calories"
        if name is None:
            continue
        if value < 0 or value > 10000:
            raise ValidationError(f"{value:g} is not a plausible amount of {name}.")
        found[name] = value
    if per_hour:
        found["per_hour"] = True
    if "calories" not in found:
        raise ValidationError(
            "I need at least the calories, e.g. 'manual: 250 cal, 10g protein, 30g carbs, 8g fat'.",
            code="manual_needs_calories",
        )
    return found


def own_numbers_call(*, user, data: dict, option: dict | None = None, text: str | None = None):
    """A food pick of the user's own numbers (`manual: ...`, or an option with no catalog food)
    as the log_external_food call that logs the same entry, so a pick that is too much at once
    waits for a yes like any turn's calls; None for a catalog food or a workout."""
    if data["kind"] != "food" or (option is not None and option.get("food_id")):
        return None
    request = data.get("request") or {}
    quantity = request.get("quantity") or 1
    if option is None:
        values = {k: v for k, v in parse_manual(text or "").items() if k != "per_hour"}
        option = {"name": data["query"], "serving_size": 1, "serving_unit": "serving", **values}
    elif request.get("unit") and request.get("unit") == option.get("serving_unit"):
        quantity = float(quantity) / float(option.get("serving_size") or 1)  # amounts, not counts
    numbers = {k: option[k] for k in food_tools.OWN_NUMBERS if option.get(k) is not None}
    arguments = {
        "food_name": option["name"],
        **numbers,
        "serving_size": option.get("serving_size") or 1,
        "serving_unit": option.get("serving_unit") or "serving",
        "quantity": quantity,
        "meal_type": request.get("meal_type") or food_services.default_meal(user),
        "date": request.get("date"),
    }
    return {k: v for k, v in arguments.items() if v is not None}


def apply_manual(*, user, data: dict, text: str):
    values = parse_manual(text)
    request = data.get("request") or {}
    if data["kind"] == "food":
        option = {"name": data["query"], "serving_size": 1, "serving_unit": "serving"}
        option.update({k: v for k, v in values.items() if k != "per_hour"})
        entry = food_services.food_option_add(
            user=user,
            option=option,
            quantity=request.get("quantity") or 1,
            unit="serving",
            meal_type=request.get("meal_type") or food_services.default_meal(user),
            entry_date=request.get("date"),
        )
        return [food_tools.written_food(entry)]

    common = _workout_said(request)
    if values.get("per_hour"):
        option = {
            "name": data["query"],
            "calories_per_hour": values["calories"],
            "category": "general",
        }
        entry = exercise_services.exercise_option_add(user=user, option=option, **common)
    else:
        option = {"name": data["query"], "calories_per_hour": None, "category": "general"}
        entry = exercise_services.exercise_option_add(
            user=user, option=option, calories_burned=values["calories"], **common
        )
    return [exercise_tools.written_exercise(entry)]


def attach_options(turn: Turn, response: CoachResponse, config) -> None:
    """The options the turn's first not-found food or exercise asks for, on its reply."""
    request = turn.option_requests[0]
    found, source = generate_options(
        user=turn.user,
        kind=request["kind"],
        query=request["query"],
        request_text=turn.text,
        config=config,
        dietary_notes=turn.prefs.dietary_notes if config is not None else "",
        request=request.get("request") or {},
    )
    turn.option_requests[0] = options_metadata(
        request["kind"], request["query"], request.get("request") or {}, found, source
    )
    listing = options_message(request["kind"], request["query"], found)
    others = [r["query"] for r in turn.option_requests[1:]]
    if others:
        listing += f"\n(I also couldn't find: {', '.join(others)}. Ask me about them next.)"
    response.message = f"{response.message}\n\n{listing}".strip() if response.message else listing
    response.options = found
    if not turn.written:
        response.action = "options"
