"""The diary panel (the day's food, exercise, water and measurements against the goals), its
entry edits, and the diary's settings pages (preferences, daily goals).

Thin function views: parse a form, call a service, render. A request from htmx gets the fragment
it swaps (a `{% partialdef %}` of the page template); any other request gets the whole page, so
every link and form also works without JavaScript.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import functools
import math
import uuid
from decimal import Decimal

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST
from django_htmx.http import reswap, retarget

from diary import services as diary_services
from diary.forms import (
    CheckinValueForm,
    CustomMeasurementForm,
    ExerciseEntryForm,
    FoodEntryForm,
    GoalsForm,
    PreferencesForm,
    WaterForm,
)
from diary.selectors import daily_summary
from exercise import services as exercise_services
from exercise.models import ExerciseEntry
from exercise.selectors import exercise_diary
from measurements import selectors as measurement_selectors
from measurements import services as measurement_services
from measurements.fields import CHECKIN
from measurements.models import CheckInMeasurement, CustomMeasurement
from nutrition import intakes
from nutrition import selectors as food_selectors
from nutrition import services as food_services
from nutrition import units as food_units
from nutrition.models import (
    MICRONUTRIENTS,
    NUTRIENTS,
    FoodEntry,
    MealType,
    UserGoal,
    UsualMeal,
)
from nutrition.selectors import food_diary
from nutrition.units import unit_text
from sparky import services
from sparky.dates import format_day, parse_day, today_for
from sparky.forms import attach_service_error

TREND_DAYS = 30
MAX_CUSTOM_CHARTS = 4


# --- the diary ---------------------------------------------------------------------------------


def diary_day(request) -> dt.date:
    """The day asked for in ?date=, else today; never a future day."""
    try:
        return parse_day(request.user, request.GET.get("date") or None)
    except ValidationError:
        return today_for(request.user)


def plain_number(value, places: int = 2) -> str:
    """80.400 -> "80.4", 100.000 -> "100": stored decimals as a person writes them."""
    if value is None:
        return ""
    text = f"{Decimal(value):.{places}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def _number(value) -> float:
    return float(value or 0)


def _ring(consumed, goal) -> dict:
    """Geometry of a progress ring (r = 42 in a 100 x 100 view box)."""
    circumference = 2 * math.pi * 42
    consumed = _number(consumed)
    goal = _number(goal) if goal is not None else None
    percent = round(consumed * 100 / goal) if goal else None
    share = min(consumed / goal, 1) if goal else 0
    return {
        "consumed": round(consumed),
        "goal": round(goal) if goal is not None else None,
        "percent": percent,
        "over": bool(goal) and consumed > goal,
        "circumference": f"{circumference:.2f}",
        "dash": f"{circumference * share:.2f}",
    }


def _bars(summary: dict) -> list[dict]:
    bars = []
    for key, label in (("protein", "Protein"), ("carbs", "Carbs"), ("fat", "Fat")):
        row = summary["nutrients"][key]
        goal = row["goal"]
        consumed = _number(row["consumed"])
        percent = row["percent"]
        bars.append(
            {
                "key": key,
                "label": label,
                "consumed": round(consumed),
                "goal": round(goal) if goal is not None else None,
                "percent": percent,
                "width": min(percent, 100) if percent is not None else 0,
                "over": percent is not None and percent > 100,
                "unit": row["unit"],
            }
        )
    return bars


def trend_chart(points: list[tuple[dt.date, Decimal]], *, end: dt.date, days: int, unit: str):
    """A line chart as SVG coordinates, drawn by the template (no chart library needed).

    x is the day within the window (so gaps between weigh-ins show as gaps in time), y is scaled
    to the values' own range with some headroom.
    """
    if not points:
        return None
    width, height, pad_x, pad_y = 300, 120, 34, 14
    start = end - dt.timedelta(days=days - 1)
    values = [float(v) for _, v in points]
    low, high = min(values), max(values)
    if high - low < 1e-9:
        low, high = low - 1, high + 1
    margin = (high - low) * 0.1
    low, high = low - margin, high + margin

    def x(day: dt.date) -> float:
        return pad_x + (width - pad_x - 8) * ((day - start).days / max(days - 1, 1))

    def y(value: float) -> float:
        return height - pad_y - (height - 2 * pad_y) * ((value - low) / (high - low))

    dots = [
        {"x": f"{x(d):.1f}", "y": f"{y(float(v)):.1f}", "label": f"{d.isoformat()}: {v:g} {unit}"}
        for d, v in points
    ]
    first, last = values[0], values[-1]
    return {
        "width": width,
        "height": height,
        "points": " ".join(f"{dot['x']},{dot['y']}" for dot in dots),
        "dots": dots,
        "axis": [
            {"y": f"{y(value):.1f}", "label": f"{value:.1f}".rstrip("0").rstrip(".")}
            for value in (low + margin, high - margin)
        ],
        "baseline": height - pad_y,
        "left": pad_x,
        "right": width - 8,
        "start": start,
        "end": end,
        "first": f"{first:g}",
        "last": f"{last:g}",
        "change": f"{last - first:+.1f}",
        "unit": unit,
        "count": len(points),
    }


def _food_meals(user, day: dt.date) -> list[dict]:
    labels = dict(MealType.choices)
    meals = []
    day_before = food_diary(user=user, day=day - dt.timedelta(days=1))
    usual = set(UsualMeal.objects.for_user(user).values_list("meal_type", flat=True))
    for meal, rows in food_diary(user=user, day=day).items():
        entries = [
            {
                "id": row["id"],
                "name": row["food_name"],
                "full_name": row["food_full_name"],
                "estimate": row.get("estimate", False),
                "quantity": plain_number(row["quantity"]),
                "unit": unit_text(row["quantity"], row["unit"] or row["serving"] or "serving"),
                "grams": plain_number(row["grams"], 0) if row.get("grams") else "",
                "calories": round(_number(row["calories"])),
            }
            for row in rows
        ]
        meals.append(
            {
                "key": meal,
                "label": labels.get(meal, meal.title()),
                "entries": entries,
                "calories": sum(e["calories"] for e in entries),
                # an empty meal the day before had: one click logs that meal again
                "repeatable": not entries and bool(day_before.get(meal)),
                # an empty meal with a usual one saved: one click logs the usual
                "usual": not entries and meal in usual,
                "has_usual": meal in usual,
            }
        )
    return meals


def _nutrients_panel(user, day: dt.date) -> dict:
    """The Nutrients panel: each vitamin, mineral and limit of the day against its reference
    (nutrition.selectors.nutrient_intakes), by group, as the template draws it."""
    rows = food_selectors.nutrient_intakes(user=user, start=day)
    person = food_selectors.reference_person(user)
    basis = f"Reference intakes for {person}" if person else "Daily Values on food labels"
    groups = []
    for key, label in intakes.GROUP_LABELS.items():
        shown = []
        for row in rows:
            if row.group != key:
                continue
            percent = row.percent if row.known else None
            shown.append(
                {
                    "key": row.nutrient,
                    "label": row.label,
                    "amount": intakes.amount_text(row.amount) if row.amount is not None else "",
                    "reference": intakes.amount_text(row.reference),
                    "unit": row.unit,
                    "known": row.known,
                    "percent": percent,
                    "width": min(percent, 100) if percent is not None else 0,
                    "status": row.status,
                    "ceiling": row.kind == intakes.CEILING,
                    "goal": row.basis == "goal",
                    "coverage": round(row.coverage * 100),
                }
            )
        groups.append({"key": key, "label": label, "rows": shown})
    return {
        "logged": bool(rows) and rows[0].days_logged > 0,
        "groups": groups,
        "basis": basis,
        "personal": person is not None,
    }


def _measurement_rows(summary: dict, day: dt.date) -> list[dict]:
    """The day's check-in values and custom measurements, each with its edit and delete links."""
    found = summary["measurements"]
    rows = []
    checkin = found.get("checkin") or {}
    on_day = f"?date={day.isoformat()}"
    for field in CHECKIN.values():
        if checkin.get(field.name) is not None:
            unit = found.get(field.kind.argument) or field.kind.base  # steps are counted in steps
            value = plain_number(checkin[field.name])
            rows.append(
                {
                    "label": field.label,
                    "value": value,
                    "unit": unit,
                    "row_id": f"checkin-{field.name}",
                    "edit_href": reverse("diary_checkin_edit", args=[field.name]) + on_day,
                    "delete_href": reverse("diary_checkin_delete", args=[field.name]) + on_day,
                }
            )
    for item in found.get("custom") or []:
        hour = f" at {item['entry_hour']:02d}:00" if item.get("entry_hour") is not None else ""
        rows.append(
            {
                "label": item["category"] + hour,
                "value": plain_number(item["value"]),
                "unit": item.get("unit") or "",
                "row_id": f"measurement-{item['id']}",
                "edit_href": reverse("diary_measurement_edit", args=[item["id"]]),
                "delete_href": reverse("diary_measurement_delete", args=[item["id"]]),
            }
        )
    return rows


def diary_context(user, day: dt.date) -> dict:
    """Everything the diary panel shows for one day."""
    summary = daily_summary(user=user, day=day)
    today = today_for(user)
    prefs = services.preferences_for(user)
    charts = []
    for field in CHECKIN.values():
        if not field.chart:
            continue
        points = measurement_selectors.checkin_trend(user=user, field=field.name, days=TREND_DAYS)
        unit = measurement_selectors.kept_unit(field.name, prefs)
        chart = trend_chart(points, end=today, days=TREND_DAYS, unit=unit)
        if chart:
            charts.append({"title": field.label, "slug": field.name, "chart": chart})
    for category in measurement_selectors.custom_categories(user=user)[:MAX_CUSTOM_CHARTS]:
        rows = measurement_selectors.custom_trend(
            user=user, category_name=category.name, days=TREND_DAYS
        )
        # Several readings a day (hourly categories) collapse to the day's last one here.
        per_day = {row["date"]: row["value"] for row in rows}
        chart = trend_chart(
            sorted(per_day.items()), end=today, days=TREND_DAYS, unit=category.unit or ""
        )
        if chart:
            charts.append({"title": category.name, "slug": f"custom-{category.pk}", "chart": chart})
    calories = summary["calories"]
    remaining = None if calories["remaining"] is None else round(calories["remaining"])
    meals = _food_meals(user, day)
    water = summary["water"]
    return {
        "day": day,
        "day_label": format_day(day, services.preferences_for(user).date_format),
        "is_today": day == today,
        "previous_day": day - dt.timedelta(days=1),
        "next_day": day + dt.timedelta(days=1) if day < today else None,
        "summary": summary,
        "ring": _ring(calories["consumed"], calories["goal"]),
        "remaining": remaining,
        "over_by": -remaining if remaining is not None and remaining < 0 else 0,
        "burned": calories["burned"],
        "bars": _bars(summary),
        "meals": meals,
        # the foods logged most this month, one click each (the amount of their latest entry)
        "frequent": food_selectors.frequent_foods(user=user, days=30, limit=5),
        "food_count": sum(len(meal["entries"]) for meal in meals),
        "exercise": exercise_diary(user=user, day=day),
        "water": water,
        # One cup per glass of the goal (or of what was drunk, if more), capped for the layout.
        "glasses": [
            i < water["glasses"] for i in range(min(max(water["goal"], water["glasses"]), 16))
        ],
        "measurements": _measurement_rows(summary, day),
        "nutrients": _nutrients_panel(user, day),
        "charts": charts,
        "has_goals": summary["goal_source"] is not None,
    }


def _diary_response(request, day: dt.date, *, status: int = 200):
    context = {"diary": diary_context(request.user, day)}
    if request.htmx:
        return render(request, "diary/panel.html#panel", context, status=status)
    return render(request, "diary/page.html", context, status=status)


def _back_to_diary(request, day: dt.date):
    """After a write: the refreshed panel for htmx, a redirect for a plain form post."""
    if request.htmx:
        return _diary_response(request, day)
    return HttpResponseRedirect(f"{reverse('diary')}?date={day.isoformat()}")


@login_required
def diary(request):
    return _diary_response(request, diary_day(request))


def _own_food_entry(request, entry_id) -> FoodEntry:
    return get_object_or_404(
        FoodEntry.objects.for_user(request.user).select_related("food"), pk=entry_id
    )


def _own_exercise_entry(request, entry_id) -> ExerciseEntry:
    return get_object_or_404(
        ExerciseEntry.objects.for_user(request.user).select_related("exercise"), pk=entry_id
    )


def _entry_form_response(request, template: str, context: dict, *, status: int = 200):
    if request.htmx:
        response = render(request, f"{template}#form", context, status=status)
        if status != 200:
            # The form posts into the whole panel; a refusal goes back into the row instead.
            retarget(response, f"#{context['row_id']}")
            reswap(response, "outerHTML")
        return response
    return render(request, template, context, status=status)


def _entry_edit(request, entry, form, save, *, context: dict, fields=None):
    """An entry's edit form (diary/entry_form.html, `context` names the entry and its edit URL):
    a valid post is saved by `save(cleaned_data)` and the diary comes back; a refusal of the
    service stays on the form (422), next to the field it is about."""
    status = 200
    action = reverse(context["edit_url"], args=context.get("edit_args"))
    context = {**context, "action": action + context.get("edit_query", "")}
    if request.method == "POST":
        if form.is_valid():
            try:
                saved = save(form.cleaned_data)
            except ValidationError as exc:
                attach_service_error(form, exc, fields)
            else:
                # the diary of the day the row is on now (an edit may have moved it)
                return _back_to_diary(request, getattr(saved, "entry_date", entry.entry_date))
        status = 422
    context = {"form": form, "entry": entry, **context}
    return _entry_form_response(request, "diary/entry_form.html", context, status=status)


def _entry_delete(own_entry, delete):
    """The view deleting one of the user's entries (`own_entry`, through the service `delete`)."""

    @login_required
    @require_POST
    def view(request, entry_id: uuid.UUID):
        entry = own_entry(request, entry_id)
        delete(user=request.user, entry_id=entry.id)
        return _back_to_diary(request, entry.entry_date)

    return view


_DAY_ERRORS = {"future_date": "entry_date", "invalid_date": "entry_date"}


def _changed(form, name: str, value):
    """A field's value when the user changed it, else None (the service keeps what is stored);
    a field left blank keeps it too."""
    return value if name in form.changed_data and value not in ("", None) else None


@login_required
@require_http_methods(["GET", "POST"])
def food_entry_edit(request, entry_id: uuid.UUID):
    """Change a food entry's food, amount, unit, meal or day (nutrition's food_entry_update)."""
    entry = _own_food_entry(request, entry_id)
    unit = entry.unit or entry.food.serving_unit or "serving"
    initial = {
        "food": entry.food.readable_name,
        "quantity": plain_number(entry.quantity, 3),
        "unit": unit,
        "meal_type": entry.meal_type,
        "entry_date": entry.entry_date,
    }
    units_list = f"units-{entry.id}"
    form = FoodEntryForm(request.POST or None, initial=initial, units_list=units_list)
    return _entry_edit(
        request,
        entry,
        form,
        lambda data: food_services.food_entry_update(
            user=request.user,
            entry_id=entry.id,
            food_name=_changed(form, "food", data["food"]),
            quantity=data["quantity"],
            unit=_changed(form, "unit", data["unit"]),
            meal_type=data["meal_type"],
            entry_date=data["entry_date"] or None,
        ),
        context={
            "title": "Edit entry",
            "name": entry.food.readable_name,
            "full_name": entry.food.name,
            "edit_url": "diary_food_edit",
            "edit_args": [entry.id],
            "row_id": f"food-{entry.id}",
            "units_list": units_list,
            "units": dict.fromkeys([unit, *food_units.available_units(entry.food)]),
        },
        fields={
            "implausible": "quantity",
            "invalid_quantity": "quantity",
            "unknown_unit": "unit",
            "food_not_found": "food",
            **_DAY_ERRORS,
        },
    )


food_entry_delete = _entry_delete(_own_food_entry, food_services.food_entry_delete)


@login_required
@require_http_methods(["GET", "POST"])
def exercise_entry_edit(request, entry_id: uuid.UUID):
    """Change a workout's activity, minutes, calories or day (exercise_entry_update)."""
    entry = _own_exercise_entry(request, entry_id)
    initial = {
        "exercise": entry.exercise.name,
        "duration_minutes": entry.duration_minutes,
        "calories_burned": entry.calories_burned,
        "entry_date": entry.entry_date,
    }
    form = ExerciseEntryForm(request.POST or None, initial=initial)
    return _entry_edit(
        request,
        entry,
        form,
        lambda data: exercise_services.exercise_entry_update(
            user=request.user,
            entry_id=entry.id,
            exercise_name=_changed(form, "exercise", data["exercise"]),
            duration_minutes=data["duration_minutes"],
            calories_burned=_changed(form, "calories_burned", data["calories_burned"]),
            entry_date=data["entry_date"] or None,
        ),
        context={
            "title": "Edit exercise",
            "name": entry.exercise.name,
            "edit_url": "diary_exercise_edit",
            "edit_args": [entry.id],
            "row_id": f"exercise-{entry.id}",
        },
        fields={
            "exercise_not_found": "exercise",
            "invalid_duration": "duration_minutes",
            "implausible_duration": "duration_minutes",
            "implausible_day": "duration_minutes",
            "implausible_speed": "duration_minutes",
            "implausible_calories": "calories_burned",
            **_DAY_ERRORS,
        },
    )


exercise_entry_delete = _entry_delete(_own_exercise_entry, exercise_services.exercise_entry_delete)


# --- check-in values, water and custom measurements ----------------------------------------------


def _own_checkin_value(request, day: dt.date, field: str):
    """The user's check-in of `day` holding a value of `field`, else 404."""
    if field not in CHECKIN:
        raise Http404("No such check-in value.")
    return get_object_or_404(
        CheckInMeasurement.objects.for_user(request.user),
        entry_date=day,
        **{f"{field}__isnull": False},
    )


@login_required
@require_http_methods(["GET", "POST"])
def checkin_value_edit(request, field: str):
    """Correct one value of the diary day's check-in (measurements.services.checkin_upsert)."""
    day = diary_day(request)
    row = _own_checkin_value(request, day, field)
    spec = CHECKIN[field]
    prefs = services.preferences_for(request.user)
    unit = measurement_selectors.kept_unit(field, prefs)
    initial = {"value": plain_number(getattr(row, field))}
    form = CheckinValueForm(request.POST or None, initial=initial)

    def save(data):
        given = {field: data["value"]}
        if spec.kind.argument:
            given[spec.kind.argument] = unit
        return measurement_services.checkin_upsert(user=request.user, entry_date=day, **given)

    return _entry_edit(
        request,
        row,
        form,
        save,
        context={
            "title": f"Edit {spec.label.lower()}",
            "name": spec.label,
            "edit_url": "diary_checkin_edit",
            "edit_args": [field],
            "edit_query": f"?date={day.isoformat()}",
            "row_id": f"checkin-{field}",
            "value_unit": unit,
        },
        fields={
            f"implausible_{spec.kind.name}": "value",
            "implausible_order": "value",
            "invalid": "value",
        },
    )


@login_required
@require_POST
def checkin_value_delete(request, field: str):
    row = _own_checkin_value(request, diary_day(request), field)
    measurement_services.checkin_clear(user=request.user, entry_date=row.entry_date, field=field)
    return _back_to_diary(request, row.entry_date)


@login_required
@require_http_methods(["GET", "POST"])
def water_edit(request):
    """Set the diary day's glasses of water to a number (nutrition.services.water_set)."""
    day = diary_day(request)
    glasses = daily_summary(user=request.user, day=day)["water"]["glasses"]
    form = WaterForm(request.POST or None, initial={"glasses": glasses})
    return _entry_edit(
        request,
        _DayRow(day),
        form,
        lambda data: food_services.water_set(
            user=request.user, glasses=data["glasses"], entry_date=day
        ),
        context={
            "title": "Edit water",
            "name": "Water",
            "edit_url": "diary_water_edit",
            "edit_query": f"?date={day.isoformat()}",
            "row_id": "water-row",
        },
        fields={"invalid_quantity": "glasses"},
    )


class _DayRow:
    """What an edit form needs of a row that is a whole day (the day's water)."""

    def __init__(self, day: dt.date):
        self.entry_date = day


def _own_measurement(request, measurement_id) -> CustomMeasurement:
    return get_object_or_404(
        CustomMeasurement.objects.for_user(request.user).select_related("category"),
        pk=measurement_id,
    )


@login_required
@require_http_methods(["GET", "POST"])
def custom_measurement_edit(request, entry_id: uuid.UUID):
    """Correct a value of one of the user's own measurements, or move it to another day."""
    row = _own_measurement(request, entry_id)
    initial = {"value": plain_number(row.value, 4), "entry_date": row.entry_date}
    form = CustomMeasurementForm(request.POST or None, initial=initial)
    return _entry_edit(
        request,
        row,
        form,
        lambda data: measurement_services.custom_measurement_update(
            user=request.user,
            measurement_id=row.id,
            value=data["value"],
            entry_date=_changed(form, "entry_date", data["entry_date"]),
        ),
        context={
            "title": f"Edit {row.category.name}",
            "name": row.category.name,
            "edit_url": "diary_measurement_edit",
            "edit_args": [row.id],
            "row_id": f"measurement-{row.id}",
            "value_unit": row.category.unit,
        },
        fields={"out_of_range": "value", "duplicate_entry": "entry_date", **_DAY_ERRORS},
    )


custom_measurement_delete = _entry_delete(
    _own_measurement,
    lambda *, user, entry_id: measurement_services.custom_measurement_delete(
        user=user, measurement_id=entry_id
    ),
)


def _diary_button(write):
    """A button of the diary panel: a signed-in POST whose `write(request, day)` writes on the
    diary's day, then the diary of that day comes back."""

    @login_required
    @require_POST
    @functools.wraps(write)
    def view(request):
        day = diary_day(request)
        write(request, day)
        return _back_to_diary(request, day)

    return view


@contextlib.contextmanager
def _refusal_on_page(request):
    """A diary button's write: a refusal of the service is said on the page it goes back to."""
    try:
        yield
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))


@_diary_button
def meal_repeat(request, day: dt.date) -> None:
    """Log the day before's meal again on the diary's day (nutrition.services.meal_repeat)."""
    meal = request.POST.get("meal") or None
    with _refusal_on_page(request):  # the day before's meal went meanwhile
        food_services.meal_repeat(
            user=request.user, from_date=day - dt.timedelta(days=1), meal=meal, entry_date=day
        )


@_diary_button
def usual_meal(request, day: dt.date) -> None:
    """Log the usual meal into the diary's day, or save the day's meal as the usual one."""
    meal = request.POST.get("meal") or None
    with _refusal_on_page(request):
        if request.POST.get("action") == "save":
            food_services.usual_meal_save(user=request.user, meal=meal, from_date=day)
        else:
            food_services.usual_meal_log(user=request.user, meal=meal, entry_date=day)


@_diary_button
def quick_add(request, day: dt.date) -> None:
    """Log one of the frequent foods again, with the amount the user usually logs of it."""
    wanted = request.POST.get("food", "")
    frequent = food_selectors.frequent_foods(user=request.user, days=30, limit=5)
    found = next((f for f in frequent if str(f["food_id"]) == wanted), None)
    if found is None:
        raise Http404("That food is not one of your frequent ones.")
    with _refusal_on_page(request):
        food_services.food_entry_create(
            user=request.user,
            food=food_services.food_get(user=request.user, food_id=found["food_id"]),
            quantity=found["usual_quantity"],
            unit=found["usual_unit"],
            entry_date=day,
        )


@_diary_button
def water_change(request, day: dt.date) -> None:
    step = request.POST.get("change", "1")
    if step == "-1":
        current = daily_summary(user=request.user, day=day)["water"]["glasses"]
        food_services.water_set(user=request.user, glasses=max(current - 1, 0), entry_date=day)
    else:
        food_services.water_add(user=request.user, glasses=1, entry_date=day)


# --- settings: AI services ---------------------------------------------------------------------


# --- settings: preferences and goals -----------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def preferences(request):
    prefs = services.preferences_for(request.user)
    initial = {
        "date_format": prefs.date_format,
        "default_weight_unit": prefs.default_weight_unit,
        "default_measurement_unit": prefs.default_measurement_unit,
        "time_zone": request.user.time_zone,
        "auto_clear_history": prefs.auto_clear_history or "never",
        "system_prompt": prefs.system_prompt or "",
        "dietary_notes": prefs.dietary_notes or "",
        "review_before_logging": prefs.review_before_logging,
        "review_photos": prefs.review_photos,
        "sex": prefs.sex,
        "birth_year": prefs.birth_year,
    }
    form = PreferencesForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            diary_services.preferences_update(user=request.user, **form.cleaned_data)
        except ValidationError as exc:
            attach_service_error(form, exc)
        else:
            messages.success(request, "Preferences saved.")
            return redirect("settings_preferences")
    return render(request, "settings/preferences.html", {"form": form, "tab": "preferences"})


def _goal_fields() -> list[str]:
    return list(GoalsForm.base_fields)


@login_required
@require_http_methods(["GET", "POST"])
def goals(request):
    current = UserGoal.objects.for_user(request.user).filter(goal_date__isnull=True).first()
    initial = {}
    if current is not None:
        for name in _goal_fields():
            if name in MICRONUTRIENTS:
                value = current.micronutrients.get(name)
                value = None if value is None else Decimal(value)
            else:
                value = getattr(current, name)
            initial[name] = plain_number(value, 3) if isinstance(value, Decimal) else value
    form = GoalsForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            food_services.goal_set(user=request.user, goal_date=None, **form.cleaned_data)
        except ValidationError as exc:
            attach_service_error(form, exc)
        else:
            messages.success(request, "Daily goals saved.")
            return redirect("settings_goals")
    return render(
        request,
        "settings/goals.html",
        {"form": form, "tab": "goals", "nutrient_count": len(NUTRIENTS)},
    )
