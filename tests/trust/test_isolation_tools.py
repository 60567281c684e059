"""Every chat tool, called for bob with alice's ids, names and a forged user: nothing of alice's is
read, changed or deleted. The tools come from the registry (`tools_for("full")`), and a tool the
matrix does not call — or an id argument it never aims at alice's rows — fails the coverage test."""

from __future__ import annotations

import json

import pytest
from django.db import transaction

from chat.images import prepare_image
from chat.tools import ToolContext, run_tool, tools_for
from exercise.models import Exercise, ExerciseEntry
from measurements.models import CustomMeasurement
from nutrition.models import Food, FoodEntry
from tests.trust.conftest import (
    CATEGORY_NAME,
    EXERCISE_NAME,
    FOOD_NAME,
    VARIANT_UNIT,
    as_text,
    leaks,
    png_bytes,
    snapshot,
)

pytestmark = pytest.mark.django_db


def forged(w) -> dict:
    """What a prompt-injected model adds to every call: alice as the acting user."""
    alice = str(w.alice.pk)
    return {"user_id": alice, "user": w.alice.email, "owner_id": alice, "account": alice}


def tool_calls(w) -> dict[str, list[dict]]:
    food, entry = str(w.food.pk), str(w.food_entry.pk)
    ex, ex_entry = str(w.exercise.pk), str(w.exercise_entry.pk)
    day = w.day.isoformat()
    return {
        "search_foods": [{"query": "Maple Granola"}, {"query": FOOD_NAME, "limit": 10}],
        "log_food": [
            {"food_name": "granola", "food_id": food, "quantity": 1},
            {"food_name": FOOD_NAME, "unit": VARIANT_UNIT},
            {"food_name": "egg", "food_id": food, "quantity": 2},
        ],
        "log_external_food": [{"food_name": "Bob's burrito", "calories": 650}],
        "food_diary": [{"date": day}],
        "edit_food_entry": [
            {"entry_id": entry, "quantity": 9},
            {"food_name": FOOD_NAME, "date": day, "quantity": 9},
            {"entry_id": entry, "new_date": "yesterday"},
        ],
        "delete_food_entry": [{"entry_id": entry}, {"food_name": "maple granola", "date": day}],
        "create_custom_food": [{"food_name": FOOD_NAME, "calories": 5}],
        "food_details": [{"food_id": food}, {"food_name": FOOD_NAME}],
        "recent_foods": [{"days": 60}],
        "search_exercises": [{"query": "Sword Dance"}, {"query": EXERCISE_NAME}],
        "log_exercise": [
            {"exercise_id": ex, "duration_minutes": 5},
            {"exercise_name": EXERCISE_NAME, "duration_minutes": 5},
        ],
        "exercise_diary": [{"date": day}],
        "edit_exercise_entry": [
            {"entry_id": ex_entry, "duration_minutes": 99},
            {"exercise_name": EXERCISE_NAME, "date": day, "duration_minutes": 99},
        ],
        "delete_exercise_entry": [
            {"entry_id": ex_entry},
            {"exercise_name": "sword dance", "date": day},
        ],
        "create_custom_exercise": [{"name": EXERCISE_NAME, "calories_per_hour": 100}],
        "log_checkin": [{"weight": 90, "weight_unit": "kg", "date": day}],
        "log_custom_measurement": [{"name": CATEGORY_NAME, "value": 1}],
        "log_water": [{"glasses": 1, "date": day}],
        "set_water": [{"glasses": 0, "date": day}],
        "get_checkins": [{"days": 90}, {"date": day}],
        "get_goals": [{"date": day}],
        "set_goals": [{"calories": 1500, "only_for_date": True, "date": day}],
        "daily_summary": [{"date": day}],
        "goal_progress": [{"days": 31}],
        "coaching_snapshot": [{}],
        "nutrient_gaps": [{"days": 30}],
        "analyze_meal_photo": [
            {"items": [{"name": FOOD_NAME, "estimated_grams": 50}, {"name": "granola"}]}
        ],
        "scan_nutrition_label": [
            {
                "product_name": FOOD_NAME,
                "serving_size": 100,
                "serving_unit": "g",
                "calories": 451,
                "log": True,
            }
        ],
        "get_preferences": [{}],
        "update_preferences": [{"add_dietary_note": "no plums", "time_zone": "Europe/Berlin"}],
        "weekly_report": [{"date": day}],
        "nutrition_trend": [{"days": 90}, {"nutrient": "protein", "days": 90}],
        "measurement_trend": [
            {"measurement": "weight", "days": 365},
            {"measurement": "Glucose", "days": 365},
            {"measurement": CATEGORY_NAME},
        ],
        "logging_streak": [{}],
        "exercise_report": [{"days": 90}],
    }


def test_every_tool_and_every_id_argument_is_in_the_matrix(alice_world):
    w = alice_world
    calls = tool_calls(w)
    names = [t.name for t in tools_for("full")]
    assert sorted(set(names) - set(calls)) == [], "add these tools to the isolation matrix"
    assert sorted(set(calls) - set(names)) == [], "the matrix names tools that no longer exist"
    alice_ids = set(w.ids)
    for t in tools_for("full"):
        for arg in t.parameters.get("properties", {}):
            if arg.endswith("_id"):
                aimed = [c for c in calls[t.name] if str(c.get(arg)) in alice_ids]
                assert aimed, f"{t.name}({arg}=...) is never called with one of alice's ids"


@pytest.fixture
def bob_ctx(bob):
    # With a photo attached, so the vision tools run past their "no photo" answer.
    return ToolContext.for_user(bob, image=prepare_image(png_bytes(), user=bob))


def _run_all(ctx, w, *, each=None) -> int:
    ran = 0
    for name, calls in tool_calls(w).items():
        for args in calls:
            result = run_tool(ctx, name, json.dumps({**args, **forged(w)}))
            ran += 1
            if each is not None:
                each(name, args, result)
    return ran


def test_no_tool_shows_bob_anything_of_alices(alice_world, bob_ctx):
    """Each call on its own, against alice's untouched world (rolled back after it), so nothing
    bob's earlier calls wrote can be mistaken for hers."""
    w = alice_world
    problems = []

    def each(name, args, result):
        shown = as_text(result.for_model()) + as_text([x.as_dict() for x in result.written])
        found = leaks(shown, w, given=json.dumps(args))
        if found:
            problems.append(f"{name}({args}): alice's {found} in {shown[:300]}")
        if "failed unexpectedly" in result.message:
            problems.append(f"{name}({args}) crashed: {result.message}")

    ran = 0
    for name, calls in tool_calls(w).items():
        for args in calls:
            with transaction.atomic():
                result = run_tool(bob_ctx, name, json.dumps({**args, **forged(w)}))
                each(name, args, result)
                ran += 1
                transaction.set_rollback(True)
    assert ran > 40
    assert problems == [], "\n".join(problems)


def test_no_tool_changes_or_deletes_anything_of_alices(alice_world, bob, bob_ctx):
    """All the calls one after another, as a long injected conversation would make them."""
    w = alice_world
    before = snapshot(w.alice)
    _run_all(bob_ctx, w)
    assert snapshot(w.alice) == before
    # Whatever bob wrote is his, and none of it points at alice's rows.
    assert not FoodEntry.objects.filter(food=w.food).exclude(user=w.alice).exists()
    assert not FoodEntry.objects.filter(variant=w.variant).exclude(user=w.alice).exists()
    assert not ExerciseEntry.objects.filter(exercise=w.exercise).exclude(user=w.alice).exists()
    assert not CustomMeasurement.objects.filter(category=w.category).exclude(user=w.alice).exists()
    assert Food.objects.filter(name=FOOD_NAME, user=bob).count() >= 1  # bob's own namesake
    assert Exercise.objects.filter(name=EXERCISE_NAME, user=bob).count() == 1


def test_an_edit_by_alices_entry_id_tells_bob_he_has_no_such_entry(alice_world, bob_ctx):
    w = alice_world
    result = run_tool(bob_ctx, "edit_food_entry", {"entry_id": str(w.food_entry.pk), "quantity": 9})
    assert not result.ok
    assert result.message == (
        f"You have no food entry with id {w.food_entry.pk}. Nothing was saved."
    )
    deleted = run_tool(bob_ctx, "delete_exercise_entry", {"entry_id": str(w.exercise_entry.pk)})
    assert not deleted.ok and "You have no exercise entry with id" in deleted.message
    assert FoodEntry.objects.get(pk=w.food_entry.pk).quantity == w.food_entry.quantity
    assert ExerciseEntry.objects.filter(pk=w.exercise_entry.pk).exists()


def test_logging_with_alices_food_id_is_refused_and_logs_nothing(alice_world, bob, bob_ctx):
    """A forged food_id is refused as no such food; the name is not tried instead."""
    w = alice_world
    result = run_tool(
        bob_ctx, "log_food", {"food_name": "egg", "food_id": str(w.food.pk), "quantity": 2}
    )
    assert not result.ok and "No food with id" in result.message
    assert not FoodEntry.objects.filter(user=bob).exists()
