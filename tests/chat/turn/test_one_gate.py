"""One gate for every write: the same refused calls, asked for by every engine, are refused.

The engines: the agent loop (a model's tool calls), intent-JSON mode (a model's intents), Sparky's
parser in front of a model ("reads first") and the offline parser alone. Each is asked to write
what the user's message does not report (a plan, a wish, a negation, someone else's meal, a
question) or what the user's Manual pick switched off; nothing lands in the diary, and the reply
says so in plain words, never the machinery.
"""

import json

import pytest

from chat.turn.coach import handle_turn
from nutrition.models import FoodEntry, WaterIntake

pytestmark = pytest.mark.django_db

# (message, the write a model might ask for, Manual categories or None)
REFUSED = {
    "plan": ("gonna have pasta for dinner tomorrow", ("log_food", {"food_name": "pasta"}), None),
    "wish": ("I ought to eat more fruit", ("log_food", {"food_name": "fruit"}), None),
    "negation": ("I didn't have lunch today", ("log_food", {"food_name": "lunch"}), None),
    "negation-no": ("no coffee today", ("log_food", {"food_name": "coffee"}), None),
    "someone-else": ("my wife had a salad", ("log_food", {"food_name": "salad"}), None),
    "question": (
        "how many carbs are in 2 slices of bread?",
        ("log_food", {"food_name": "bread", "quantity": 2, "unit": "slice"}),
        None,
    ),
    "outside-manual": ("2 glasses of water", ("log_water", {"glasses": 2}), ["food"]),
}
MACHINERY = ("log_food", "log_water", "answered as if", "OpenAI-compatible", "Not done:", '{"')


def _as_intent(call) -> dict:
    name, args = call
    if name == "log_water":
        return {"intent": "log_water", "data": {"glasses_consumed": args["glasses"]}}
    return {"intent": name, "data": args}


@pytest.fixture(params=["agent", "intent-json", "reads-first", "offline"])
def engine(request, alice, fake_llm, ai_settings):
    from aiservices.services import ai_service_create

    if request.param == "offline":
        return request.param
    ai_service_create(
        user=alice,
        service_name="Local",
        service_type="custom",
        api_key="x",
        model_name="qwen-1.5b",
        custom_url=fake_llm.openai_base,
        tool_profile="core",
        supports_tools=request.param != "intent-json",
        sparky_reads_first=request.param == "reads-first",
        is_active=True,
    )
    return request.param


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_every_engine_refuses_the_same_writes(alice, catalog, fake_llm, engine, case):
    text, call, manual = REFUSED[case]
    if engine in ("agent", "reads-first"):
        fake_llm.reply_tool_call(*call)
        fake_llm.reply_text("Okay!")
    elif engine == "intent-json":
        fake_llm.reply_text(json.dumps({"intents": [_as_intent(call)]}))

    response = handle_turn(alice, text, categories=manual)

    assert not FoodEntry.objects.for_user(alice).exists()
    assert not WaterIntake.objects.for_user(alice).exists()
    assert response.entries == []
    assert response.message.strip()
    assert not any(word in response.message for word in MACHINERY), response.message
