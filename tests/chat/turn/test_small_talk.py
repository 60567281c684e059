"""Remarks, moods and thanks are answered as a person would, by Sparky itself, and never as a
meal: no food is looked up for "had a rough day". In front of a model, a reply that says the
user's message back, refuses an ordinary remark or talks about Sparky in the third person is never
shown; Sparky answers instead."""

import json

import pytest

from chat.turn.coach import handle_turn
from exercise.models import ExerciseEntry
from nutrition.models import FoodEntry

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "message, heard",
    [
        ("had a rough day at work honestly", "Sorry to hear"),
        ("ugh such a long stressful week", "Sorry to hear"),
        ("feeling pretty good after my workout", "Good to hear"),
        ("a nice day", "Good to hear"),
        ("you're awesome, this app rocks", "Thank you"),
        ("bye for now, talk tomorrow", "Bye"),
        ("cheers for the help earlier", "welcome"),
        ("right, im off to bed. night x", "Bye"),
        ("ugh feeling so bloated today", "Sorry to hear"),
    ],
)
def test_a_remark_is_met_as_a_remark_and_no_food_is_offered_for_it(alice, catalog, message, heard):
    response = handle_turn(alice, message)

    assert heard in response.message
    assert response.action not in ("options", "logged", "confirm")
    assert "database" not in response.message and "1." not in response.message
    assert message not in response.message  # never said back
    assert not FoodEntry.objects.for_user(alice).exists()


def test_a_time_of_day_is_no_goodbye(alice, catalog):
    response = handle_turn(alice, "last night I had a terrible kebab")

    assert "Bye" not in response.message


def test_a_mood_beside_a_food_still_logs_the_food(alice, catalog):
    response = handle_turn(alice, "rough day, had 2 bananas")

    entry = FoodEntry.objects.for_user(alice).get()
    assert entry.food == catalog["bananas"] and entry.quantity == 2
    assert response.action == "logged"


def test_a_misspelt_food_is_still_read_as_food(alice, catalog):
    handle_turn(alice, "a bananna for breakfast")

    assert FoodEntry.objects.for_user(alice).get().food == catalog["bananas"]


def test_a_plan_for_tomorrow_written_short_logs_nothing(alice, catalog):
    response = handle_turn(alice, "tmrw im running 10k")

    assert response.action == "none"
    assert "Nothing logged" in response.message
    assert not ExerciseEntry.objects.for_user(alice).exists()


def test_a_model_saying_the_message_back_is_replaced_by_sparkys_answer(
    alice, catalog, core_service, fake_llm
):
    fake_llm.reply_text("You skipped breakfast today.")

    response = handle_turn(alice, "I skipped breakfast today")

    assert "skipped breakfast" not in response.message.lower()
    assert response.message.startswith("Nothing logged")
    assert not FoodEntry.objects.for_user(alice).exists()


def test_a_model_refusing_a_wish_is_replaced_by_sparkys_answer(
    alice, catalog, core_service, fake_llm
):
    fake_llm.reply_text("I'm sorry, but I can't help with that.")

    response = handle_turn(alice, "I really want to eat more vegetables")

    assert "sorry" not in response.message.lower()
    assert response.message.startswith("Nothing logged")


def test_a_model_narrating_about_sparky_is_asked_once_more(alice, catalog, core_service, fake_llm):
    fake_llm.reply_text("Sparky will search the food catalog and return a list of food_id values.")
    fake_llm.reply_text("A banana or toast an hour before is easy on the stomach.")

    response = handle_turn(alice, "what should I eat before a morning run?")

    assert response.message == "A banana or toast an hour before is easy on the stomach."


def test_an_intent_json_model_saying_the_message_back_is_replaced(
    alice, catalog, openai_service, fake_llm
):
    openai_service.supports_tools = False
    openai_service.save(update_fields=["supports_tools"])
    fake_llm.reply_text("none")  # the classifier: small talk
    fake_llm.reply_text(
        json.dumps({"intents": [{"intent": "chat", "response": "You had a rough day at work."}]})
    )

    response = handle_turn(alice, "had a rough day at work")

    assert "rough day" not in response.message
    assert "Sorry to hear" in response.message


def test_a_wished_goal_is_not_set_and_a_narrated_reply_is_not_shown(
    alice, catalog, core_service, fake_llm
):
    from nutrition.models import UserGoal

    fake_llm.reply_tool_call("set_goals", {"protein": 150})
    fake_llm.reply_text("The user's goals for every day have been set: protein 150.")
    fake_llm.reply_text("150 g a day is a good aim; want me to make it your protein goal?")

    response = handle_turn(alice, "i want to hit 150 g of protein every day eventually")

    assert not UserGoal.objects.for_user(alice).filter(protein__isnull=False).exists()
    assert "The user" not in response.message
