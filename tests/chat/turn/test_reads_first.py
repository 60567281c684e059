"""Sparky reads first: with a service that has it on (the default for the core profile), what the
offline parser reads with certainty is saved without asking the model; anything less goes to the
model whole, with nothing of Sparky's reading left behind."""

import pytest

from aiservices.services import ai_service_create
from chat.turn.coach import handle_turn
from exercise.models import ExerciseEntry
from nutrition.models import FoodEntry

pytestmark = pytest.mark.django_db


def test_an_everyday_meal_is_logged_without_asking_the_model(
    alice, catalog, reads_first_service, fake_llm
):
    response = handle_turn(alice, "2 eggs and a banana for breakfast")

    foods = FoodEntry.objects.for_user(alice).select_related("food")
    assert sorted(e.food.name.split(",")[0] for e in foods) == ["Bananas", "Egg"]
    assert {e.meal_type for e in foods} == {"breakfast"}
    assert response.action == "logged" and response.engine == "sparky"
    assert "eggs" in response.message and "banana" in response.message
    assert fake_llm.completion_requests == []


def test_a_question_goes_to_the_model(alice, catalog, reads_first_service, fake_llm):
    fake_llm.reply_text("Oats keep you full for a long time.")

    response = handle_turn(alice, "is oatmeal a good breakfast?")

    assert response.message == "Oats keep you full for a long time."
    assert not FoodEntry.objects.for_user(alice).exists()
    assert len(fake_llm.completion_requests) >= 1


def test_a_message_read_only_in_part_goes_to_the_model_whole_with_nothing_half_saved(
    alice, catalog, reads_first_service, fake_llm
):
    # "grandma's famous stew" is no catalog food: Sparky would have offered options for it, so
    # the eggs it could log are not saved on their own; the model gets the whole message.
    fake_llm.reply_tool_call("log_food", {"food_name": "egg", "quantity": 2})
    fake_llm.reply_text("Logged 2 eggs; tell me what was in the stew and I'll add it.")

    response = handle_turn(alice, "2 eggs and a bowl of grandma's famous stew")

    assert FoodEntry.objects.for_user(alice).count() == 1  # the model's eggs, once
    assert response.engine == "tools"
    first = fake_llm.completion_requests[0]
    assert "grandma's famous stew" in first.messages[-1]["content"]


def test_a_category_the_user_switched_off_is_left_to_the_model(
    alice, catalog, reads_first_service, fake_llm
):
    fake_llm.reply_text("Exercise is switched off; enable it in the tool selector.")

    response = handle_turn(alice, "walked 30 minutes", categories=["food"])

    assert not ExerciseEntry.objects.for_user(alice).exists()
    assert "tool selector" in response.message


def test_the_core_profile_reads_first_by_default_and_the_full_one_does_not(alice, ai_settings):
    def service(profile, **kw):
        return ai_service_create(
            user=alice,
            service_name=profile,
            service_type="custom",
            api_key="",
            model_name="m",
            custom_url="http://127.0.0.1:9/v1",
            tool_profile=profile,
            **kw,
        )

    assert service("core").sparky_reads_first is True
    assert service("full").sparky_reads_first is False
    assert service("core", sparky_reads_first=False).sparky_reads_first is False


def test_a_question_the_diary_answers_is_answered_from_it(
    alice, catalog, reads_first_service, fake_llm
):
    handle_turn(alice, "2 eggs for breakfast")

    response = handle_turn(alice, "how many calories have I had today?")

    assert response.engine == "sparky" and "143" in response.message
    assert fake_llm.completion_requests == []


def test_advice_is_the_models_to_give(alice, catalog, reads_first_service, fake_llm):
    fake_llm.reply_text("Try grilled fish with vegetables.")

    response = handle_turn(alice, "what should I eat for dinner?")

    assert response.message == "Try grilled fish with vegetables."


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("am i on track with water?", "3 glasses of water"),
        ("did i log my breakfast?", "143 kcal"),
    ],
)
def test_a_yes_no_question_about_the_day_is_answered_with_its_numbers(
    alice, catalog, reads_first_service, fake_llm, text, said
):
    handle_turn(alice, "2 eggs for breakfast")
    handle_turn(alice, "3 glasses of water")

    response = handle_turn(alice, text)

    assert response.engine == "sparky" and said in response.message
    assert fake_llm.completion_requests == []
