"""Meals again: yesterday's breakfast repeated, and the user's usual meals saved and logged."""

from __future__ import annotations

import uuid
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import transaction

from nutrition.models import (
    Food,
    FoodEntry,
    FoodVariant,
    UsualMeal,
)
from nutrition.services.entries import food_entry_create
from nutrition.services.values import clean_meal_type
from sparky.dates import parse_day, today_for


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
