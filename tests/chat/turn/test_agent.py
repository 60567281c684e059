"""The agent loop against what small local models do, played by the scripted server: repeated
calls, writes nobody asked for, claims of a save that never happened, tool calls written as text,
one call per reply, reasoning, runaway replies. Each asserts what lands in the diary and what the
user reads."""

import datetime as dt
import json
from decimal import Decimal

import pytest
import time_machine

from chat.models import ChatMessage
from chat.turn.coach import handle_turn
from exercise.models import ExerciseEntry
from measurements.models import CheckInMeasurement
from nutrition.models import FoodEntry, UserGoal, WaterIntake

pytestmark = pytest.mark.django_db


def tool_results(request) -> list[dict]:
    return [json.loads(m["content"]) for m in request.messages if m.get("role") == "tool"]


def test_the_same_write_is_made_once_and_the_turn_still_ends_with_what_was_saved(
    alice, catalog, openai_service, fake_llm
):
    for _ in range(6):  # the 1.5B model asked for the same banana six times
        fake_llm.reply_tool_call("log_food", {"food_name": "banana", "quantity": 1})

    with time_machine.travel(dt.datetime(2026, 12, 2, 8, 0, tzinfo=dt.UTC), tick=True):
        response = handle_turn(alice, "a banana")  # at breakfast time

    assert FoodEntry.objects.for_user(alice).count() == 1
    assert response.action == "logged" and response.error is None
    assert response.message.startswith("Logged a medium banana (105 kcal) for breakfast")
    assert "without a final answer" not in response.message
    repeat = tool_results(fake_llm.last)[-1]
    assert "Already done in this turn" in repeat["message"]
    assert len(fake_llm.completion_requests) == 3  # then two steps of repeats end the loop


def test_a_repeat_with_a_meal_added_is_the_same_food(alice, catalog, openai_service, fake_llm):
    fake_llm.reply_tool_call("log_food", {"food_name": "banana"})
    fake_llm.reply_tool_call("log_food", {"food_name": "banana", "meal_type": "snack"})
    fake_llm.reply_text("Logged a banana.")

    handle_turn(alice, "a banana")

    assert FoodEntry.objects.for_user(alice).count() == 1


def test_small_talk_writes_nothing_when_the_model_reaches_for_a_tool(
    alice, catalog, core_service, fake_llm
):
    fake_llm.reply_tool_call("log_water", {"glasses": 1})
    fake_llm.reply_text("I'm well, thanks! What did you eat today?")

    response = handle_turn(alice, "hi, how are you?", categories=["food", "checkin"])

    assert not WaterIntake.objects.for_user(alice).exists()
    assert response.message == "I'm well, thanks! What did you eat today?"
    refused = tool_results(fake_llm.last)[0]
    assert refused["ok"] is False and "asked a question" in refused["message"]


def test_a_greeting_is_no_glass_of_water(alice, catalog, core_service, fake_llm):
    fake_llm.reply_tool_call("log_water", {"glasses": 1})
    fake_llm.reply_text("Good morning!")

    handle_turn(alice, "good morning sparky", categories=["checkin"])

    assert not WaterIntake.objects.for_user(alice).exists()
    assert "small talk" in tool_results(fake_llm.last)[0]["message"]


def test_a_food_the_message_never_names_is_refused_and_the_named_one_logged(
    alice, catalog, openai_service, fake_llm
):
    fake_llm.reply_tool_calls(
        [("log_food", {"food_name": "egg", "quantity": 2}), ("log_food", {"food_name": "bacon"})]
    )
    fake_llm.reply_text("Logged your eggs.")

    response = handle_turn(alice, "2 eggs for breakfast")

    assert [e.food.name for e in FoodEntry.objects.for_user(alice)] == ["Egg, whole, raw, fresh"]
    assert response.action == "logged"
    assert response.message == "Logged 2 large eggs (143 kcal) for breakfast."  # no bacon
    assert len(fake_llm.completion_requests) == 1  # the eggs were all it named: Sparky says so


def test_a_logging_turn_that_saved_everything_named_asks_the_model_once(
    alice, catalog, openai_service, fake_llm
):
    fake_llm.reply_tool_calls(
        [("log_food", {"food_name": "egg", "quantity": 2}), ("log_food", {"food_name": "banana"})]
    )
    fake_llm.reply_text("Both saved!")

    response = handle_turn(alice, "2 eggs and a banana for breakfast")

    assert len(fake_llm.completion_requests) == 1
    assert response.message == (
        "Logged 2 large eggs (143 kcal) and a medium banana (105 kcal) for breakfast."
    )


def test_a_second_request_when_an_item_is_left_or_the_message_asks_something(
    alice, catalog, openai_service, fake_llm
):
    fake_llm.reply_tool_call("log_food", {"food_name": "egg", "quantity": 2})
    fake_llm.reply_tool_call("log_food", {"food_name": "banana"})
    handle_turn(alice, "2 eggs and a banana for breakfast")
    assert len(fake_llm.completion_requests) == 2  # the banana was left after the first

    fake_llm.reply_tool_call("log_food", {"food_name": "banana"})
    fake_llm.reply_text("Saved. Bananas are a good source of potassium.")
    asked = handle_turn(alice, "had a banana, is that a good snack?")
    assert len(fake_llm.completion_requests) == 4  # a question to answer after the save
    assert "potassium" in asked.message


def test_a_follow_up_is_grounded_in_the_conversation_before_it(
    alice, catalog, core_service, fake_llm
):
    fake_llm.reply_tool_call("log_food", {"food_name": "egg"})
    fake_llm.reply_text("Logged an egg.")
    handle_turn(alice, "an egg please")
    fake_llm.reply_text("food")  # the classifier
    fake_llm.reply_tool_call("log_food", {"food_name": "egg"})
    fake_llm.reply_text("Logged another egg.")

    handle_turn(alice, "add another one")

    assert FoodEntry.objects.for_user(alice).count() == 2


def test_a_claimed_save_without_a_tool_call_is_handed_to_the_offline_parser(
    alice, catalog, core_service, fake_llm
):
    fake_llm.reply_text("Logged 2 eggs for breakfast!")

    response = handle_turn(alice, "2 eggs for breakfast")

    entry = FoodEntry.objects.for_user(alice).get()
    assert entry.quantity == 2 and entry.meal_type == "breakfast"
    # the model's words never reach the user, nor any word about models or parsers
    assert response.message.startswith("Logged 2 large eggs (143 kcal) for breakfast")
    assert (
        "parser" not in response.message and "Logged 2 eggs for breakfast!" not in response.message
    )
    assert response.action == "logged" and response.engine == "offline"


def test_a_claimed_save_nobody_can_make_is_told_plainly_as_nothing_saved(
    alice, catalog, core_service, fake_llm
):
    fake_llm.reply_text("food")  # the classifier
    fake_llm.reply_text("Done! I've logged your meal.")

    response = handle_turn(alice, "the usual please")

    assert not FoodEntry.objects.for_user(alice).exists()
    assert response.message.startswith("I didn't save anything for that")
    assert "I've logged your meal" not in response.message
    stored = ChatMessage.objects.for_user(alice).filter(message_type="assistant").get()
    assert stored.content.startswith("I didn't save anything for that")


def test_an_offer_to_log_is_not_a_claim(alice, catalog, core_service, fake_llm):
    fake_llm.reply_text("Do you want me to log a banana for your snack?")

    response = handle_turn(alice, "should I eat a banana?")

    assert response.message == "Do you want me to log a banana for your snack?"
    assert not FoodEntry.objects.for_user(alice).exists()


def test_a_tool_call_written_as_text_is_run_and_never_shown(alice, catalog, core_service, fake_llm):
    fake_llm.reply_text(
        'Sure.\n```json\n{"name": "log_food", "arguments": {"food_name": "banana"}}\n```'
    )
    fake_llm.reply_text("Logged a banana.")

    response = handle_turn(alice, "a banana")

    assert FoodEntry.objects.for_user(alice).count() == 1
    assert response.message == "Logged a banana."
    assert "```" not in response.message


def test_a_call_to_a_tool_not_offered_written_as_text_is_never_shown(
    alice, catalog, core_service, fake_llm
):
    fake_llm.reply_text('{"name": "launch_rocket", "arguments": {"when": "now"}}')

    response = handle_turn(alice, "2 eggs for breakfast")

    assert "launch_rocket" not in response.message


def test_a_model_that_calls_one_tool_per_reply_still_logs_every_item(
    alice, catalog, core_service, fake_llm
):
    fake_llm.reply_tool_call("log_food", {"food_name": "egg", "quantity": 2})
    fake_llm.reply_tool_call("log_food", {"food_name": "banana"})
    fake_llm.reply_tool_call("log_checkin", {"weight": 80.2, "weight_unit": "kg"})
    fake_llm.reply_text("logged")

    response = handle_turn(alice, "2 eggs, a banana and weight 80.2 kg")

    assert FoodEntry.objects.for_user(alice).count() == 2
    assert CheckInMeasurement.objects.for_user(alice).get().weight == Decimal("80.2")
    # a reply that is only the word "logged" becomes the list of what was saved
    assert response.message.startswith("Logged 2 large eggs")
    assert "banana" in response.message and "80.2 kg" in response.message


def test_reasoning_never_reaches_the_user_and_every_step_is_bounded(
    alice, catalog, core_service, fake_llm
):
    fake_llm.reply_tool_call("log_food", {"food_name": "banana"})
    fake_llm.reply_text("<think>The user ate a banana. I logged it.")  # never closed

    with time_machine.travel(dt.datetime(2026, 12, 2, 8, 0, tzinfo=dt.UTC), tick=True):
        response = handle_turn(alice, "a banana")  # at breakfast time

    assert "<think>" not in response.message and "I logged it" not in response.message
    assert response.message.startswith("Logged a medium banana (105 kcal) for breakfast")
    assert all(0 < r.json["max_tokens"] <= 400 for r in fake_llm.completion_requests)


def test_a_weight_the_user_did_not_give_is_not_recorded(alice, catalog, core_service, fake_llm):
    fake_llm.reply_tool_call("log_checkin", {"weight": 75})
    fake_llm.reply_text("What is your weight today?")

    response = handle_turn(alice, "log my weight")

    assert not CheckInMeasurement.objects.for_user(alice).exists()
    assert response.message == "What is your weight today?"


def test_after_each_save_the_model_is_told_what_the_message_named_and_is_left(
    alice, catalog, core_service, fake_llm
):
    fake_llm.reply_tool_call("log_food", {"food_name": "egg", "quantity": 2})
    fake_llm.reply_tool_call("log_food", {"food_name": "banana"})
    fake_llm.reply_text("never asked for: the loop ends once both are saved")

    response = handle_turn(alice, "2 eggs and a banana")

    assert FoodEntry.objects.for_user(alice).count() == 2
    assert len(fake_llm.completion_requests) == 2
    told = tool_results(fake_llm.completion_requests[1])[0]
    assert "Still to save" in told["next"] and "banana" in told["next"]
    assert "never asked for" not in response.message
    assert "eggs" in response.message and "banana" in response.message


def test_an_item_the_model_never_calls_for_is_logged_as_sparky_read_it(
    alice, catalog, core_service, fake_llm
):
    fake_llm.reply_tool_call("log_food", {"food_name": "eggs", "quantity": 2})
    fake_llm.reply_text("Logged your eggs!")  # and forgot the banana

    response = handle_turn(alice, "2 eggs and a banana for breakfast")

    foods = FoodEntry.objects.for_user(alice).select_related("food")
    assert sorted(e.food.name.split(",")[0] for e in foods) == ["Bananas", "Egg"]
    assert {e.meal_type for e in foods} == {"breakfast"}
    assert "banana" in response.message and "eggs" in response.message


def test_a_unit_or_meal_the_message_never_says_is_not_taken_from_the_model(
    alice, catalog, core_service, fake_llm
):
    fake_llm.reply_tool_call(
        "log_food", {"food_name": "banana", "quantity": 1, "unit": "kg", "meal_type": "dinner"}
    )
    fake_llm.reply_tool_call("log_food", {"food_name": "egg", "quantity": 2})

    with time_machine.travel(dt.datetime(2026, 12, 2, 9, 0, tzinfo=dt.UTC), tick=False):
        handle_turn(alice, "ate a banana")  # the one item is saved: the loop ends there
        handle_turn(alice, "2 eggs for lunch")

    banana, eggs = FoodEntry.objects.for_user(alice).order_by("created_at")
    assert banana.unit != "kg" and banana.quantity == 1  # one banana, not a kilo
    assert banana.meal_type == "breakfast"  # the meal of the hour, not the model's "dinner"
    assert eggs.meal_type == "lunch"  # the meal the message names, which the model left out


def test_a_small_model_sees_its_earlier_saves_as_calls_not_only_words(
    alice, catalog, core_service, fake_llm
):
    fake_llm.reply_tool_call("log_food", {"food_name": "banana"})
    fake_llm.reply_text("Logged a banana.")
    handle_turn(alice, "a banana")
    fake_llm.reply_text("A banana so far.")

    handle_turn(alice, "what did I eat so far today?")

    history = fake_llm.last.messages
    calls = [m for m in history if m.get("role") == "assistant" and m.get("tool_calls")]
    assert calls and calls[0]["tool_calls"][0]["function"]["name"] == "log_food"
    results = [m for m in history if m.get("role") == "tool"]
    assert "banana" in results[0]["content"]


def test_a_small_model_is_not_shown_tools_the_message_has_no_use_for(
    alice, catalog, core_service, fake_llm
):
    fake_llm.reply_text("Bananas are a good snack.")
    fake_llm.reply_text("Which banana entry should I delete?")

    handle_turn(alice, "are bananas a good snack?")
    handle_turn(alice, "please delete the banana I logged")

    asked, deleting = (fake_llm.tool_names(r) for r in fake_llm.completion_requests)
    assert "log_food" in asked and "search_foods" in asked
    assert not {"edit_food_entry", "delete_food_entry", "log_external_food"} & set(asked)
    assert "delete_food_entry" in deleting


def test_a_question_logs_nothing_even_when_the_model_reaches_for_log_food(
    alice, catalog, core_service, fake_llm
):
    fake_llm.reply_tool_call("log_food", {"food_name": "banana", "quantity": 2})
    fake_llm.reply_text("A medium banana has about 105 kcal.")

    response = handle_turn(alice, "how many calories in a banana?")

    assert not FoodEntry.objects.for_user(alice).exists()
    assert "asked a question" in tool_results(fake_llm.last)[0]["message"]
    assert response.message == "A medium banana has about 105 kcal."


def test_a_correction_is_not_logged_as_a_new_entry(alice, catalog, core_service, fake_llm):
    fake_llm.reply_tool_call("log_food", {"food_name": "egg", "quantity": 3})
    fake_llm.reply_text("Please change the eggs in your diary to 3.")

    handle_turn(alice, "oops, it was 3 eggs actually")

    assert not FoodEntry.objects.for_user(alice).exists()
    assert "correcting" in tool_results(fake_llm.last)[0]["message"]


def test_only_the_goals_the_message_sets_are_set(alice, catalog, core_service, fake_llm):
    fake_llm.reply_tool_call("set_goals", {"protein": 140, "calories": 500, "carbs": 0})
    fake_llm.reply_text("Your protein goal is 140 g.")

    handle_turn(alice, "change my protein target to 140g")

    goal = UserGoal.objects.for_user(alice).get(goal_date__isnull=True)
    assert goal.protein == 140 and goal.calories is None and goal.carbs is None


def test_a_small_model_saying_one_thing_twice_in_one_reply_logs_it_once(
    alice, catalog, core_service, fake_llm
):
    fake_llm.reply_tool_calls(
        [("log_food", {"food_name": "banana"}), ("log_food", {"food_name": "banana"})]
    )
    fake_llm.reply_text("Logged a banana.")

    handle_turn(alice, "had a banana earlier, cheers")

    assert FoodEntry.objects.for_user(alice).count() == 1


def test_a_reply_that_is_only_json_is_never_shown(alice, catalog, core_service, fake_llm):
    fake_llm.reply_text('{"weight": 80.5, "weight_unit": "kg"}')  # a call it could not make

    response = handle_turn(alice, "weight 80.5 kg")

    assert "{" not in response.message
    assert CheckInMeasurement.objects.for_user(alice).get().weight == Decimal("80.5")


def test_a_plan_logs_nothing_even_when_the_model_logs_it_for_today(
    alice, catalog, core_service, fake_llm
):
    fake_llm.reply_tool_call("log_food", {"food_name": "egg", "quantity": 2})
    fake_llm.reply_text("Enjoy your eggs tomorrow!")

    response = handle_turn(alice, "I'll probably have eggs for breakfast tomorrow")

    assert not FoodEntry.objects.for_user(alice).exists()
    assert "plan" in tool_results(fake_llm.last)[0]["message"]
    assert response.message == "Enjoy your eggs tomorrow!"


def test_a_logging_message_the_model_answers_with_words_alone_is_read_by_sparky(
    alice, catalog, core_service, fake_llm
):
    fake_llm.reply_text("2 eggs for breakfast, 2 pieces, kg")  # no call, no claim

    response = handle_turn(alice, "2 eggs and a banana for breakfast")

    assert FoodEntry.objects.for_user(alice).count() == 2
    assert response.engine == "offline" and "kg" not in response.message


def test_an_amount_in_words_stays_when_a_made_up_unit_goes(alice, catalog, core_service, fake_llm):
    fake_llm.reply_tool_call("log_food", {"food_name": "egg", "quantity": 2, "unit": "piece"})

    handle_turn(alice, "two eggs please")

    entry = FoodEntry.objects.for_user(alice).get()
    assert entry.quantity == 2


def test_a_capable_models_estimate_of_an_amount_is_kept(alice, catalog, openai_service, fake_llm):
    fake_llm.reply_tool_call(
        "log_food", {"food_name": "chicken breast", "quantity": 150, "unit": "g"}
    )
    fake_llm.reply_text("Logged about 150 g of chicken.")

    handle_turn(alice, "had some roast chicken breast")

    entry = FoodEntry.objects.for_user(alice).get()
    assert (entry.quantity, entry.unit) == (150, "g")


@pytest.mark.parametrize(
    "narration",
    [
        "The tool recorded that you want to walk more.",
        "The user said they need to walk more, so I answered.",
        '```json\n{"ok": true, "message": "Enabled exercise."}\n```',
    ],
)
def test_a_reply_about_the_machinery_is_never_shown(
    alice, catalog, core_service, fake_llm, narration
):
    fake_llm.reply_text(narration)
    fake_llm.reply_text("Short walks after meals are an easy start.")

    response = handle_turn(alice, "i need to start walking more")

    assert response.message == "Short walks after meals are an easy start."
    assert not ExerciseEntry.objects.for_user(alice).exists()
