"""The tool registry: profiles, surfaces, plain schemas, and how calls are run."""

import json

import pytest

from chat.categories import CATEGORIES, CORE_CATEGORIES
from chat.tools import (
    ENABLE_TOOL_NAME,
    ToolContext,
    active_tool_names,
    build_chat_tool_surface,
    build_chatbot_tools,
    run_tool,
    tools_for,
)
from chat.tools.base import registry
from exercise.models import ExerciseEntry
from nutrition.models import FoodEntry

FORBIDDEN_SCHEMA_KEYS = {
    "pattern",
    "anyOf",
    "oneOf",
    "allOf",
    "$ref",
    "additionalProperties",
    "format",
    "const",
}


def test_the_full_profile_has_35_domain_tools_and_core_19():
    assert len(tools_for("full")) == 35
    assert len(tools_for("core")) == 19
    assert {t.category for t in tools_for("core")} == set(CORE_CATEGORIES)
    assert {t.name for t in tools_for("core")} <= {t.name for t in tools_for("full")}


def test_every_category_has_tools():
    for slug in CATEGORIES:
        assert tools_for("full", [slug]), slug


def _walk(schema):
    yield schema
    for value in schema.get("properties", {}).values():
        yield from _walk(value)
    if "items" in schema:
        yield from _walk(schema["items"])


@pytest.mark.parametrize("name", sorted(registry()))
def test_schemas_are_plain_json_schema_every_provider_accepts(name):
    tool = registry()[name]
    assert tool.parameters["type"] == "object"
    for node in _walk(tool.parameters):
        assert not FORBIDDEN_SCHEMA_KEYS & set(node), (name, node)
        assert isinstance(node.get("type"), str), (name, node)
    assert tool.description and len(tool.description) < 400
    assert tool.example is not None
    json.dumps(tool.spec())


def test_log_food_and_log_external_food_require_food_name_and_say_so():
    for name in ("log_food", "log_external_food"):
        params = registry()[name].parameters
        assert "food_name" in params["required"]
        assert "REQUIRED" in params["properties"]["food_name"]["description"]


def test_manual_tools_put_the_breakpoint_on_the_last_tool():
    toolset = build_chatbot_tools(None, "full", ["food", "goals"])
    payload = toolset.payload(cache_control=True)
    assert [p["function"]["name"] for p in payload] == toolset.names
    assert "cache_control" in payload[-1]
    assert all("cache_control" not in p for p in payload[:-1])
    assert ENABLE_TOOL_NAME not in toolset.names
    assert "cache_control" not in json.dumps(toolset.payload(cache_control=False))


def test_the_surface_is_built_once_per_user_and_time_zone(alice, bob):
    first = build_chat_tool_surface(alice, "Europe/Berlin")
    assert build_chat_tool_surface(alice, "Europe/Berlin") is first
    assert build_chat_tool_surface(alice, "Asia/Tokyo") is not first
    assert build_chat_tool_surface(bob, "Europe/Berlin") is not first
    assert first.names[-1] == ENABLE_TOOL_NAME and len(first.names) == 36


def test_a_narrowed_surface_keeps_the_escalation_tool_last_with_the_breakpoint(alice):
    surface = build_chat_tool_surface(alice, "UTC")
    active = surface.narrowed(active_tool_names("core", ["exercise"]))
    payload = active.payload(cache_control=True)
    assert payload[-1]["function"]["name"] == ENABLE_TOOL_NAME
    assert "cache_control" in payload[-1]
    assert [p["function"]["name"] for p in payload[:-1]] == [
        t.name for t in tools_for("core", ["exercise"])
    ]


def test_null_optional_arguments_are_dropped_before_validation(alice, catalog):
    ctx = ToolContext.for_user(alice)
    result = run_tool(
        ctx,
        "log_food",
        {
            "food_name": "egg",
            "quantity": None,
            "unit": None,
            "meal_type": None,
            "date": None,
            "food_id": None,
        },
    )
    assert result.ok, result.message
    assert FoodEntry.objects.for_user(alice).get().quantity == 1


def test_nested_and_stringly_typed_arguments_are_repaired(alice, catalog):
    ctx = ToolContext.for_user(alice)
    result = run_tool(
        ctx, "log_food", json.dumps({"log_food": {"food_name": "egg", "quantity": "2"}})
    )
    assert result.ok, result.message
    assert FoodEntry.objects.for_user(alice).get().quantity == 2


def test_a_validation_failure_returns_a_corrective_message_with_an_example(alice):
    result = run_tool(ToolContext.for_user(alice), "log_food", {"quantity": 2})
    assert not result.ok
    assert "food_name" in result.message
    assert '"food_name": "egg"' in result.message


def test_log_exercise_without_a_name_logs_general_exercise(alice, catalog):
    result = run_tool(ToolContext.for_user(alice), "log_exercise", {"duration_minutes": 20})
    assert result.ok, result.message
    assert ExerciseEntry.objects.for_user(alice).get().exercise.name == "General Exercise"


def test_a_future_date_is_refused_and_nothing_is_written(alice, catalog):
    result = run_tool(
        ToolContext.for_user(alice), "log_food", {"food_name": "egg", "date": "2999-01-01"}
    )
    assert not result.ok and "future" in result.message
    assert not FoodEntry.objects.exists()


def test_deletes_need_an_explicit_target_and_never_guess(alice, catalog):
    ctx = ToolContext.for_user(alice)
    run_tool(ctx, "log_food", {"food_name": "egg"})
    result = run_tool(ctx, "delete_food_entry", {})
    assert not result.ok
    assert FoodEntry.objects.for_user(alice).count() == 1


def test_edits_and_deletes_find_entries_by_name(alice, catalog):
    ctx = ToolContext.for_user(alice)
    run_tool(ctx, "log_food", {"food_name": "egg", "quantity": 2})
    run_tool(ctx, "log_food", {"food_name": "banana"})
    edited = run_tool(ctx, "edit_food_entry", {"food_name": "eggs", "quantity": 3})
    assert edited.ok, edited.message
    assert FoodEntry.objects.for_user(alice).get(food=catalog["egg"]).quantity == 3
    deleted = run_tool(ctx, "delete_food_entry", {"food_name": "banana"})
    assert deleted.ok, deleted.message
    assert not FoodEntry.objects.for_user(alice).filter(food=catalog["bananas"]).exists()


def test_another_users_entry_cannot_be_edited_or_deleted_by_id(alice, bob, catalog):
    run_tool(ToolContext.for_user(alice), "log_food", {"food_name": "egg"})
    entry = FoodEntry.objects.for_user(alice).get()
    for name in ("edit_food_entry", "delete_food_entry"):
        result = run_tool(
            ToolContext.for_user(bob), name, {"entry_id": str(entry.id), "quantity": 9}
        )
        assert not result.ok
    entry.refresh_from_db()
    assert entry.quantity == 1


def test_the_escalation_tool_accepts_known_categories_only(alice):
    ok = run_tool(ToolContext.for_user(alice), ENABLE_TOOL_NAME, {"categories": ["exercise"]})
    assert ok.ok and ok.data["enabled"] == ["exercise"]
    bad = run_tool(ToolContext.for_user(alice), ENABLE_TOOL_NAME, {"categories": ["admin"]})
    assert not bad.ok


def test_escalation_on_the_core_profile_loads_only_what_core_has(alice):
    core = ToolContext.for_user(alice, profile="core")

    result = run_tool(core, ENABLE_TOOL_NAME, {"categories": ["reports", "exercise"]})
    only_outside = run_tool(core, ENABLE_TOOL_NAME, {"categories": ["profile"]})
    on_full = run_tool(ToolContext.for_user(alice), ENABLE_TOOL_NAME, {"categories": ["reports"]})

    assert result.ok and result.data["enabled"] == ["exercise"]
    assert "reports is not part of the core tool profile" in result.message
    assert "Full profile" in result.message  # what to tell the user
    assert not only_outside.ok
    assert on_full.ok and on_full.data["enabled"] == ["reports"]


def test_log_food_without_a_count_takes_a_helping_not_one_tiny_piece(alice, catalog):
    from tests.nutrition.conftest import catalog_food

    catalog_food("Nuts, almonds", 579, servings=[(1, "oz", 28.35), (1, "almond", 1.2)])
    ctx = ToolContext.for_user(alice)

    plural = run_tool(ctx, "log_food", {"food_name": "almonds"})  # a model leaving quantity out
    counted = run_tool(ctx, "log_food", {"food_name": "almonds", "quantity": 12})
    one = run_tool(ctx, "log_food", {"food_name": "almond", "quantity": 1})

    assert plural.ok and plural.message.startswith("Logged 1 oz of almonds")
    assert counted.message.startswith("Logged 12 almonds (")
    assert one.message.startswith("Logged an almond (")
