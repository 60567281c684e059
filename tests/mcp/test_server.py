"""The MCP server in-process, through the SDK's own client (`mcp.Client(server)`)."""

import anyio
import pytest
from asgiref.sync import sync_to_async
from django.db import connections

from aiservices.services import ai_service_activate, ai_service_create
from chat.tools import ENABLE_TOOL_NAME, registry, tools_for
from chat.web.mcp import build_server
from exercise.models import ExerciseEntry
from nutrition.models import FoodEntry, WaterIntake
from tests.factories import CustomFoodFactory, FoodFactory

pytestmark = pytest.mark.django_db(transaction=True)


def run(fn):
    """Run an async MCP conversation, then close the connections its DB thread opened."""

    async def main():
        try:
            return await fn()
        finally:
            await sync_to_async(connections.close_all)()

    return anyio.run(main)


def with_client(server, body):
    from mcp import Client

    async def go():
        async with Client(server) as client:
            return await body(client)

    return run(go)


def listed(server) -> list:
    async def body(client):
        return (await client.list_tools()).tools

    return with_client(server, body)


def call(server, name, arguments):
    async def body(client):
        return await client.call_tool(name, arguments)

    return with_client(server, body)


def text_of(result) -> str:
    return "\n".join(block.text for block in result.content)


def test_the_full_profile_publishes_35_tools_and_no_escalation_tool(alice):
    tools = listed(build_server(user=alice))

    names = [t.name for t in tools]
    assert len(names) == 35
    assert names == [t.name for t in tools_for("full")]
    assert ENABLE_TOOL_NAME not in names


def test_the_core_profile_publishes_its_19_tools(alice):
    names = [t.name for t in listed(build_server(user=alice, profile="core"))]

    assert len(names) == 19
    assert set(names) == {t.name for t in tools_for("core")}
    assert ENABLE_TOOL_NAME not in names


def test_without_a_pinned_profile_the_users_active_service_decides(alice):
    core = ai_service_create(
        user=alice,
        service_name="Small model",
        service_type="openai",
        api_key="sk-test-alice-0001",
        model_name="gpt-4o-mini",
        tool_profile="core",
        is_active=True,
    )
    server = build_server(user=alice)
    assert len(listed(server)) == 19

    # The profile is read on every request, so switching services needs no restart.
    ai_service_create(
        user=alice,
        service_name="Big model",
        service_type="openai",
        api_key="sk-test-alice-0002",
        model_name="gpt-4o",
        tool_profile="full",
        is_active=True,
    )
    assert len(listed(server)) == 35
    ai_service_activate(user=alice, service_id=core.id, insist=True)
    assert len(listed(server)) == 19


def test_every_tool_publishes_its_json_schema_and_description(alice):
    tools = {t.name: t for t in listed(build_server(user=alice))}

    log_food = tools["log_food"]
    assert log_food.input_schema == registry()["log_food"].parameters
    assert "food_name" in log_food.input_schema["required"]
    assert log_food.description == registry()["log_food"].description


def test_log_food_writes_the_entry_into_the_users_diary(alice, egg):
    result = call(
        build_server(user=alice),
        "log_food",
        {"food_name": "egg", "food_id": str(egg.id), "quantity": 2, "meal_type": "breakfast"},
    )

    assert not result.is_error, text_of(result)
    entry = FoodEntry.objects.get(user=alice)
    assert entry.food == egg
    assert entry.meal_type == "breakfast"
    assert float(entry.quantity) == 2
    assert result.structured_content["ok"] is True
    assert result.structured_content["data"]["entry_id"] == str(entry.id)
    assert "Logged" in text_of(result)


def test_a_refused_call_is_an_error_result_with_the_message_and_writes_nothing(alice):
    result = call(build_server(user=alice), "log_water", {"glasses": 2, "date": "2999-01-01"})

    assert result.is_error
    assert "future" in text_of(result)
    assert not WaterIntake.objects.filter(user=alice).exists()


def test_bad_arguments_come_back_as_an_error_result_that_says_how_to_call(alice):
    result = call(build_server(user=alice), "log_food", {"quantity": 2})

    assert result.is_error
    assert "'food_name' is required" in text_of(result)
    assert "Call it again" in text_of(result)


def test_an_unknown_tool_is_an_error_result(alice):
    result = call(build_server(user=alice), "delete_everything", {})

    assert result.is_error
    assert "no tool named 'delete_everything'" in text_of(result)


def test_the_escalation_tool_cannot_be_called_over_mcp(alice):
    result = call(build_server(user=alice), ENABLE_TOOL_NAME, {"categories": ["reports"]})

    assert result.is_error


def test_a_core_server_refuses_a_full_only_tool(alice, egg):
    full_only = next(t.name for t in tools_for("full") if "core" not in t.profiles)

    result = call(build_server(user=alice, profile="core"), full_only, {})

    assert result.is_error
    assert "core tool set" in text_of(result)


def test_a_user_named_in_the_arguments_is_ignored(alice, bob, egg):
    result = call(
        build_server(user=alice),
        "log_food",
        {"food_name": "egg", "food_id": str(egg.id), "user_id": str(bob.id), "user": bob.email},
    )

    assert not result.is_error, text_of(result)
    assert FoodEntry.objects.filter(user=alice).count() == 1
    assert not FoodEntry.objects.filter(user=bob).exists()


def test_a_server_rejects_an_unknown_profile(alice):
    with pytest.raises(ValueError, match="full or core"):
        build_server(user=alice, profile="tiny")


@pytest.mark.parametrize("food_id", ["00000000-0000-4000-8000-000000000000", "not-an-id", "BOBS"])
def test_log_food_refuses_an_unknown_or_anothers_food_id_and_never_logs_the_name(
    alice, bob, egg, food_id
):
    if food_id == "BOBS":
        food_id = str(CustomFoodFactory(user=bob, name="Bob's egg bake", calories=200).id)

    result = call(build_server(user=alice), "log_food", {"food_name": "egg", "food_id": food_id})

    assert result.is_error
    assert "No food with id" in text_of(result) and "Nothing was saved" in text_of(result)
    assert not FoodEntry.objects.exists()


def test_log_exercise_refuses_an_unknown_exercise_id_and_never_logs_the_name(alice, catalog):
    result = call(
        build_server(user=alice),
        "log_exercise",
        {
            "exercise_name": "running",
            "exercise_id": "00000000-0000-4000-8000-000000000000",
            "duration_minutes": 30,
        },
    )

    assert result.is_error and "No exercise with id" in text_of(result)
    assert not ExerciseEntry.objects.exists()


@pytest.mark.parametrize("name", ["x", "e", "1"])
def test_a_one_letter_name_is_not_a_food(alice, catalog, name):
    # foods with a one-letter word in their name, as the catalog has them
    FoodFactory(name="Beverages, fruit juice blend, with added vitamins A, C, E", calories=47)
    FoodFactory(name="Milk, 1% fat, with added vitamin A", calories=42)

    result = call(build_server(user=alice), "log_food", {"food_name": name})

    assert result.is_error
    assert not FoodEntry.objects.exists()
