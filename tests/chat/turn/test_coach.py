"""The coach end to end through real litellm against the loopback fake provider.

Assertions are on what the provider received (tools, cache breakpoints, prompt sections) and on what
landed in Postgres.
"""

import json

import pytest

from aiservices import circuit
from chat.models import ChatMessage
from chat.tools import ENABLE_TOOL_NAME, tools_for
from chat.turn.coach import handle_turn
from exercise.models import ExerciseEntry
from measurements.models import CheckInMeasurement
from nutrition.models import Food, FoodEntry, WaterIntake
from nutrition.services import food_create_custom
from sparky.dates import today_for
from tests.api.conftest import client_for
from tests.fake_llm import Reply

pytestmark = pytest.mark.django_db


# What a small model is not shown when the message asks no change and gives no nutrition.
UNUSED = {"edit_food_entry", "delete_food_entry", "edit_exercise_entry", "delete_exercise_entry"}
UNUSED |= {"log_external_food"}


def names(profile, *categories):
    return [t.name for t in tools_for(profile, categories or None)]


def tool_messages(request) -> list[dict]:
    return [m for m in request.messages if m.get("role") == "tool"]


def test_a_logging_turn_sends_food_tools_only_and_logs_the_entry(
    alice, catalog, openai_service, fake_llm
):
    fake_llm.reply_tool_call(
        "log_food", {"food_name": "egg", "quantity": 2, "meal_type": "breakfast"}
    )
    fake_llm.reply_text("Logged 2 eggs for breakfast.")

    response = handle_turn(alice, "2 eggs for breakfast")

    assert response.action == "logged"
    assert response.phase == "keywords"
    assert response.categories == ["food"]
    entry = FoodEntry.objects.for_user(alice).get()
    assert entry.food == catalog["egg"]
    assert entry.quantity == 2
    assert entry.meal_type == "breakfast"
    assert entry.entry_date == today_for(alice)
    first = fake_llm.completion_requests[0]
    assert first.tool_names == names("full", "food") + [ENABLE_TOOL_NAME]
    system = first.system_prompt
    assert "## Food" in system and "## Exercise" not in system
    assert "sparky_enable_tools" in system  # dormant categories are named
    # the date travels with the message, never in the cached system prompt
    assert today_for(alice).isoformat() not in system
    assert today_for(alice).isoformat() in first.last_user_text()
    # everything the message named was saved: Sparky confirms without a second request
    assert len(fake_llm.completion_requests) == 1
    assert response.message == "Logged 2 large eggs (143 kcal) for breakfast."


def test_the_core_profile_sends_only_core_tools(alice, catalog, core_service, fake_llm):
    fake_llm.reply_text("What did you have?")
    handle_turn(alice, "log my breakfast please")
    sent = fake_llm.last.tool_names
    # less the tools this message cannot use (no change asked for, no nutrition given)
    assert sent == [n for n in names("core", "food") if n not in UNUSED] + [ENABLE_TOOL_NAME]
    assert "## Food" in fake_llm.last.system_prompt
    assert "You are Sparky" in fake_llm.last.system_prompt


def test_auto_mode_puts_the_anthropic_cache_breakpoint_on_the_escalation_tool(
    alice, catalog, anthropic_service, fake_llm
):
    fake_llm.reply_text("Nice run!")
    handle_turn(alice, "ran 5 km in 28 min")
    request = fake_llm.last
    assert request.tool_names[-1] == ENABLE_TOOL_NAME
    last = len(request.tool_names) - 1
    assert f"tools[{last}]" in request.cache_control_positions
    assert sum(p.startswith("tools") for p in request.cache_control_positions) == 1


def test_manual_selection_is_a_strict_ceiling(alice, catalog, anthropic_service, fake_llm):
    fake_llm.reply_text("Please turn on food in the tool selector.")
    response = handle_turn(alice, "2 eggs and a 30 minute run", categories=["exercise"])
    request = fake_llm.last
    assert request.tool_names == names("full", "exercise")
    assert ENABLE_TOOL_NAME not in request.tool_names
    last = len(request.tool_names) - 1
    assert f"tools[{last}]" in request.cache_control_positions
    assert "tool selector" in request.system_prompt
    assert "## Food" not in request.system_prompt
    assert response.mode == "manual" and response.phase == "manual"
    assert response.categories == ["exercise"]


def test_a_tool_outside_a_manual_selection_is_refused_not_run(
    alice, catalog, openai_service, fake_llm
):
    fake_llm.reply_tool_call("log_food", {"food_name": "egg"})
    fake_llm.reply_text("Food is switched off.")
    handle_turn(alice, "log an egg", categories=["exercise"])
    assert not FoodEntry.objects.for_user(alice).exists()
    result = json.loads(tool_messages(fake_llm.last)[0]["content"])
    assert result["ok"] is False and "tool selector" in result["message"]


def test_escalation_widens_the_tools_of_the_next_step(alice, catalog, openai_service, fake_llm):
    fake_llm.reply_text("none")  # the classifier: small talk
    fake_llm.reply_tool_call(ENABLE_TOOL_NAME, {"categories": ["exercise"]})
    fake_llm.reply_tool_call("log_exercise", {"exercise_name": "running", "duration_minutes": 30})
    fake_llm.reply_text("Logged a 30 minute run.")

    response = handle_turn(alice, "add the usual one from last time")

    classifier, step1, step2, step3 = fake_llm.completion_requests
    assert classifier.tools == []
    assert step1.tool_names == names("full", "coaching") + [ENABLE_TOOL_NAME]
    assert "log_exercise" not in step1.tool_names
    assert "log_exercise" in step2.tool_names and step2.tool_names[-1] == ENABLE_TOOL_NAME
    assert "log_exercise" in step3.tool_names
    assert response.phase == "none"
    assert response.escalations == [["exercise"]]
    entry = ExerciseEntry.objects.for_user(alice).get()
    assert entry.duration_minutes == 30 and entry.exercise.name.startswith("Running")


def test_the_llm_classifier_sees_the_previous_reply_and_picks_categories(
    alice, catalog, openai_service, fake_llm
):
    ChatMessage.objects.create(
        user=alice, message_type="assistant", content="Want me to log your usual swim?"
    )
    fake_llm.reply_text("exercise")
    fake_llm.reply_text("Okay.")
    response = handle_turn(alice, "yes please")
    classifier = fake_llm.completion_requests[0]
    assert "Want me to log your usual swim?" in classifier.last_user_text()
    assert response.phase == "classifier" and response.categories == ["exercise"]
    assert fake_llm.last.tool_names == names("full", "exercise") + [ENABLE_TOOL_NAME]


def test_the_classifier_reads_its_categories_from_the_answer_not_the_reasoning(
    alice, catalog, openai_service, fake_llm
):
    fake_llm.reply_text("<think>Could be food or goals... no.</think>exercise")
    fake_llm.reply_text("<think>The user said yes.</think>Okay, tell me how long.")
    response = handle_turn(alice, "yes please")
    assert response.categories == ["exercise"]
    assert response.message == "Okay, tell me how long."
    assert fake_llm.completion_requests[0].json["max_tokens"] <= 40


def test_a_classifier_failure_falls_back_to_the_core_default(
    alice, catalog, core_service, fake_llm
):
    fake_llm.reply_error(500).reply_error(500)  # the gateway retries a 5xx once
    fake_llm.reply_text("Hi!")
    response = handle_turn(alice, "hello sparky")
    assert response.phase == "default"
    assert response.categories == ["food", "exercise", "checkin", "goals"]
    assert fake_llm.last.tool_names == [n for n in names("core") if n not in UNUSED] + [
        ENABLE_TOOL_NAME
    ]


@pytest.mark.parametrize(
    "script",
    [
        pytest.param(lambda f: f.reply_error(500).reply_error(500), id="server error"),
        pytest.param(lambda f: f.reply_garbage(), id="invalid json"),
        pytest.param(lambda f: f.reply_empty(), id="empty reply"),
        pytest.param(lambda f: f.reply_error(401, "bad key"), id="rejected key"),
    ],
)
def test_a_provider_fault_keeps_the_message_and_logs_it_offline(
    alice, catalog, openai_service, fake_llm, script
):
    script(fake_llm)
    response = handle_turn(alice, "2 eggs for breakfast")
    assert response.engine == "offline" and response.action == "logged"
    assert "so Sparky answered this itself" in response.message
    assert FoodEntry.objects.for_user(alice).get().quantity == 2
    stored = ChatMessage.objects.for_user(alice).filter(message_type="user").get()
    assert stored.content == "2 eggs for breakfast"
    # and the next turn goes to the model again
    fake_llm.reply_tool_call("log_food", {"food_name": "egg", "quantity": 2})
    fake_llm.reply_text("Logged.")
    assert handle_turn(alice, "2 eggs for breakfast").engine == "tools"


def test_a_timeout_is_reported_plainly(alice, catalog, openai_service, fake_llm, settings):
    settings.SPARKY_LLM_TIMEOUT = 1
    settings.SPARKY_LOCAL_LLM_TIMEOUT = 1
    fake_llm.reply_delay(3)
    response = handle_turn(alice, "any tips for breakfast?")
    assert response.action == "error"
    assert response.error == "LLMTimeout"
    assert "didn't answer in time" in response.message
    assert not FoodEntry.objects.for_user(alice).exists()


def test_unknown_tools_and_bad_arguments_go_back_to_the_model(
    alice, catalog, openai_service, fake_llm
):
    fake_llm.reply_tool_calls([("delete_everything", {}), ("log_food", "{not json")])
    fake_llm.reply_tool_call("log_food", {"quantity": 2})  # food_name missing
    fake_llm.reply_text("Sorry about that.")
    response = handle_turn(alice, "2 eggs for breakfast")
    assert response.action == "answered"
    second, third = fake_llm.completion_requests[1:]
    unknown, malformed = (json.loads(m["content"]) for m in tool_messages(second))
    assert "no tool named 'delete_everything'" in unknown["message"]
    assert "not valid JSON" in malformed["message"]
    missing = json.loads(tool_messages(third)[-1]["content"])
    assert "food_name" in missing["message"] and "arguments like" in missing["message"]
    assert not FoodEntry.objects.for_user(alice).exists()


def test_an_endless_tool_loop_stops_at_the_step_limit(
    alice, catalog, openai_service, fake_llm, settings
):
    settings.SPARKY_MAX_AGENT_STEPS = 3
    fake_llm.respond_with(
        lambda req: (
            Reply.message("An egg is about 72 kcal.")
            if not req.tools
            else _tool_reply("search_foods", {"query": "egg"})
        )
    )
    response = handle_turn(alice, "what is an egg worth in calories")
    # three steps of tools, then the model is asked once more, with none, for a plain answer
    assert len(fake_llm.completion_requests) == 4
    assert not fake_llm.completion_requests[-1].tools
    assert response.message == "An egg is about 72 kcal." and response.error is None
    assert "step" not in response.message


def _tool_reply(name, args):
    from tests.fake_llm import Reply, ToolCall

    return Reply.message(None, [ToolCall(name, args)])


def test_an_implausible_total_is_refused_with_a_question(alice, catalog, openai_service, fake_llm):
    fake_llm.reply_tool_call("log_food", {"food_name": "egg", "quantity": 4000, "unit": "g"})
    fake_llm.reply_text("Did you mean 4 eggs?")
    handle_turn(alice, "4000 g of eggs")
    assert not FoodEntry.objects.for_user(alice).exists()
    result = json.loads(tool_messages(fake_llm.last)[0]["content"])
    assert result["ok"] is False and "kcal" in result["message"]


def test_a_forged_id_of_another_users_food_touches_nothing_of_theirs(
    alice, bob, catalog, openai_service, fake_llm
):
    secret = food_create_custom(user=bob, name="Bob's secret stew", calories=500)
    fake_llm.reply_tool_call(
        "log_food", {"food_name": "egg", "food_id": str(secret.id), "user_id": str(bob.id)}
    )
    fake_llm.reply_text("Logged.")
    handle_turn(alice, "log an egg for lunch")
    entry = FoodEntry.objects.get()
    assert entry.user == alice and entry.food == catalog["egg"]
    assert not FoodEntry.objects.filter(user=bob).exists()
    assert not FoodEntry.objects.filter(food=secret).exists()


def test_history_sends_the_last_five_messages_before_the_current_one(
    alice, catalog, openai_service, fake_llm
):
    for i in range(8):
        ChatMessage.objects.create(
            user=alice, message_type="user" if i % 2 == 0 else "assistant", content=f"message {i}"
        )
    fake_llm.reply_text("Sure.")
    handle_turn(alice, "what did I eat")
    conversation = [m for m in fake_llm.last.messages if m["role"] != "system"]
    assert [m["content"] for m in conversation[:-1]] == [f"message {i}" for i in range(3, 8)]
    assert conversation[-1]["content"].endswith("what did I eat")


def test_intent_json_mode_logs_every_intent_through_the_same_services(
    alice, catalog, openai_service, fake_llm
):
    openai_service.supports_tools = False
    openai_service.save(update_fields=["supports_tools"])
    fake_llm.reply_text(
        json.dumps(
            {
                "intents": [
                    {
                        "intent": "log_food",
                        "data": {"food_name": "banana", "quantity": 1, "meal_type": "snack"},
                    },
                    {"intent": "log_water", "data": {"glasses_consumed": 2}},
                ]
            }
        )
    )
    response = handle_turn(alice, "a banana and two glasses of water")
    assert response.engine == "intent-json"
    assert fake_llm.last.tools == []
    assert '"intent"' in fake_llm.last.system_prompt
    assert FoodEntry.objects.for_user(alice).get().food == catalog["bananas"]
    assert [e["kind"] for e in response.entries] == ["food_entry", "water"]


def test_options_from_the_model_then_a_numbered_pick(
    alice, catalog, openai_service, fake_llm, client
):
    fake_llm.reply_tool_call(
        "log_food", {"food_name": "dragonfruit smoothie", "meal_type": "lunch"}
    )
    fake_llm.reply_text("I couldn't find that one.")
    fake_llm.reply_text(
        json.dumps(
            {
                "food_options": [
                    {
                        "name": "Dragonfruit smoothie, small",
                        "serving_size": 250,
                        "serving_unit": "ml",
                        "calories": 150,
                        "protein": 2,
                        "carbs": 34,
                        "fat": 1,
                    },
                    {
                        "name": "Dragonfruit smoothie with yogurt",
                        "serving_size": 350,
                        "serving_unit": "ml",
                        "calories": 260,
                        "protein": 9,
                        "carbs": 45,
                        "fat": 5,
                    },
                    {
                        "name": "Dragonfruit smoothie bowl",
                        "serving_size": 1,
                        "serving_unit": "bowl",
                        "calories": 380,
                        "protein": 8,
                        "carbs": 70,
                        "fat": 9,
                    },
                ]
            }
        )
    )
    offered = handle_turn(alice, "had a dragonfruit smoothie for lunch")
    assert offered.action == "options"
    assert len(offered.options) == 3
    assert "2. Dragonfruit smoothie with yogurt (estimate) — 350 ml: 260 kcal" in offered.message
    option_request = fake_llm.last
    assert "dragonfruit smoothie" in option_request.last_user_text()

    picked = handle_turn(alice, "2")
    assert picked.action == "selected"
    entry = FoodEntry.objects.for_user(alice).select_related("food").get()
    assert entry.food.name == "Dragonfruit smoothie with yogurt"
    assert entry.food.user == alice and entry.food.is_custom
    assert entry.meal_type == "lunch"
    assert round(float(entry.food.calories)) == 260
    assert entry.food.is_estimate  # the model's numbers: the diary and the API say so
    client.force_login(alice)
    assert "estimate</span>" in client.get("/diary/").content.decode()
    api = client_for(alice).get("/api/food-entries/").json()["results"][0]
    assert api["is_estimate"] is True
    requests_before = len(fake_llm.requests)

    again = handle_turn(alice, "2")  # the options were used: no second entry
    assert again.action == "none"
    assert FoodEntry.objects.for_user(alice).count() == 1
    assert len(fake_llm.requests) == requests_before


def test_an_invalid_pick_guides_without_calling_the_model(alice, catalog, fake_llm):
    offered = handle_turn(alice, "had a kumquat tart for dinner")  # offline: catalog options
    assert offered.action == "options"
    response = handle_turn(alice, "9")
    assert response.action == "none"
    assert "number of one of the options" in response.message
    assert not FoodEntry.objects.for_user(alice).exists()


def test_a_manual_reply_logs_the_users_own_numbers(alice, catalog):
    handle_turn(alice, "had a kumquat tart for dinner")
    response = handle_turn(alice, "manual: 320 cal, 4g protein, 41g carbs, 15g fat")
    assert response.action == "selected"
    entry = FoodEntry.objects.for_user(alice).select_related("food").get()
    food = entry.food
    assert "kumquat tart" in food.name.lower()
    assert (float(food.calories), float(food.protein), float(food.carbs), float(food.fat)) == (
        320,
        4,
        41,
        15,
    )
    assert entry.meal_type == "dinner"


def test_a_manual_reply_with_nothing_offered_writes_nothing_and_says_what_to_do(alice, catalog):
    handle_turn(alice, "3 glasses of water")

    response = handle_turn(alice, "manual: 300 cal, 20g protein")

    assert response.action == "none" and "tell me first what it was" in response.message
    assert not FoodEntry.objects.for_user(alice).exists()
    assert not Food.objects.filter(user=alice).exists()


def test_a_numbered_reply_without_options_is_a_new_request(alice, catalog):
    response = handle_turn(alice, "3 glasses of water")
    assert response.action == "logged"
    follow = handle_turn(alice, "2")
    assert follow.action != "selected"


def test_a_retried_request_with_the_same_key_is_answered_once(alice, catalog):
    first = handle_turn(alice, "2 eggs for breakfast", idempotency_key="abc-123")
    second = handle_turn(alice, "2 eggs for breakfast", idempotency_key="abc-123")
    assert FoodEntry.objects.for_user(alice).count() == 1
    assert second.message_id == first.message_id
    assert second.message == first.message
    assert ChatMessage.objects.for_user(alice).filter(message_type="user").count() == 1


def test_two_users_sending_the_same_key_each_get_their_own_turn(alice, bob, catalog):
    bobs = handle_turn(bob, "a banana for lunch", idempotency_key="retry-7")
    alices = handle_turn(alice, "2 eggs for breakfast", idempotency_key="retry-7")

    assert alices.action == "logged", alices.message
    assert alices.message_id != bobs.message_id
    assert "egg" in alices.message.lower() and "banana" not in alices.message.lower()
    assert [e.food.name.split(",")[0] for e in FoodEntry.objects.for_user(alice)] == ["Egg"]
    assert [e.food.name.split(",")[0] for e in FoodEntry.objects.for_user(bob)] == ["Bananas"]
    # and each one's retry is answered with their own turn
    assert handle_turn(bob, "a banana for lunch", idempotency_key="retry-7").message == bobs.message
    again = handle_turn(alice, "2 eggs for breakfast", idempotency_key="retry-7")
    assert again.message_id == alices.message_id


def test_another_users_food_is_never_offered_or_logged_offline(alice, bob, catalog):
    food_create_custom(user=bob, name="Kumquat tart", calories=300)
    response = handle_turn(alice, "had a kumquat tart for dinner")
    assert not FoodEntry.objects.filter(food__user=bob).exists()
    assert all(o["name"] != "Kumquat tart" for o in response.options or [])
    assert Food.objects.filter(user=bob).count() == 1


def test_intent_json_mode_saves_the_valid_items_and_lists_each_refused_one_with_its_reason(
    alice, catalog, openai_service, fake_llm
):
    openai_service.supports_tools = False
    openai_service.save(update_fields=["supports_tools"])
    fake_llm.reply_text(
        "<think>Two items, the water is too much.</think>"
        + json.dumps(
            {
                "intents": [
                    {"intent": "log_food", "data": {"food_name": "banana", "quantity": 1}},
                    {"intent": "log_food", "data": {"food_name": "egg", "quantity": -2}},
                    {"intent": "log_water", "data": {"glasses_consumed": 60}},
                    {
                        "intent": "log_measurement",
                        "data": {
                            "measurements": [
                                {"type": "weight", "value": 900, "unit": "kg"},
                                {"type": "waist", "value": 84, "unit": "cm"},
                            ]
                        },
                    },
                    {"intent": "dance", "data": {}},
                ]
            }
        )
    )

    response = handle_turn(alice, "a banana, -2 eggs, 60 glasses of water, 900 kg, waist 84")

    assert response.engine == "intent-json" and response.action == "logged"
    assert FoodEntry.objects.for_user(alice).get().food == catalog["bananas"]
    assert CheckInMeasurement.objects.for_user(alice).get().waist == 84
    assert CheckInMeasurement.objects.for_user(alice).get().weight is None
    assert not WaterIntake.objects.for_user(alice).exists()
    refused = [line for line in response.message.splitlines() if line.startswith("Not saved")]
    assert len(refused) == 4, response.message
    assert "900" in response.message and "60" in response.message and "dance" in response.message
    assert "<think>" not in response.message
    assert not circuit.is_open(alice) and response.error is None
    # the reply was asked for within a bounded length, held to the intent schema
    assert fake_llm.last.json["max_tokens"] > 0
    assert fake_llm.last.json["response_format"]["type"] == "json_schema"


def test_an_intent_json_reply_with_nothing_usable_says_why_and_is_no_provider_failure(
    alice, catalog, openai_service, fake_llm
):
    openai_service.supports_tools = False
    openai_service.save(update_fields=["supports_tools"])
    for _ in range(circuit.FAILURES_TO_OPEN + 1):
        fake_llm.reply_text(json.dumps({"intent": "log_food", "data": {"quantity": 2}}))

    replies = [handle_turn(alice, "2 eggs") for _ in range(circuit.FAILURES_TO_OPEN + 1)]

    assert all(r.engine == "intent-json" and r.error is None for r in replies)
    assert replies[0].message.startswith("Not saved: log_food needs a food_name")
    assert not circuit.is_open(alice)  # the model misread a message; the service is fine
