"""The coach against a real small model: Qwen2.5-Coder 1.5B on llama.cpp (conftest.py), the core
profile, auto mode, temperature 0, the whole public catalog. Each test asserts what lands in the
diary: one entry per item, never one twice, nothing for chit-chat. `make test-model` runs them.

Two services: the model alone (Sparky's parser not reading first), so the model itself is what is
tried, and the core profile as a user gets it (Sparky reads first, the model the rest)."""

from decimal import Decimal

import pytest

from aiservices.services import ai_service_create
from chat.turn.coach import handle_turn
from exercise.models import ExerciseEntry
from measurements.models import CheckInMeasurement
from nutrition.models import FoodEntry, WaterIntake

pytestmark = [pytest.mark.model, pytest.mark.django_db]


def _qwen_service(user, url, settings, **extra):
    settings.SPARKY_ALLOW_PRIVATE_AI_URLS = True
    settings.SPARKY_LLM_TIMEOUT = 120
    settings.SPARKY_TURN_TIME_LIMIT = 300
    settings.SPARKY_LOCAL_TURN_TIME_LIMIT = 300
    return ai_service_create(
        user=user,
        service_name="Qwen2.5-Coder 1.5B",
        service_type="custom",
        api_key="",
        model_name="qwen2.5-coder-1.5b",
        custom_url=url,
        tool_profile="core",
        is_active=True,
        **extra,
    )


@pytest.fixture
def model_alone(alice, model_server, real_catalog, settings):
    """Core, with the model reading every message itself."""
    return _qwen_service(alice, model_server, settings, sparky_reads_first=False)


@pytest.fixture
def as_created(alice, model_server, real_catalog, settings):
    """Core as a user creates it: Sparky reads each message first."""
    return _qwen_service(alice, model_server, settings)


def foods(user) -> list[FoodEntry]:
    return list(FoodEntry.objects.for_user(user).select_related("food").order_by("created_at"))


def nothing_written(user) -> bool:
    return not (
        FoodEntry.objects.for_user(user).exists()
        or ExerciseEntry.objects.for_user(user).exists()
        or CheckInMeasurement.objects.for_user(user).exists()
        or WaterIntake.objects.for_user(user).exists()
    )


def test_one_food_is_logged_once(alice, model_alone):
    response = handle_turn(alice, "had a banana")

    [entry] = foods(alice)
    assert "Banana" in entry.food.name and entry.quantity == 1
    assert response.action == "logged" and "without a final answer" not in response.message


def test_every_item_of_a_meal_is_logged_once(alice, model_alone):
    response = handle_turn(alice, "2 eggs and toast for breakfast")

    entries = foods(alice)
    assert len(entries) == 2
    names = " ".join(e.food.name.lower() for e in entries)
    assert "egg" in names and ("toast" in names or "bread" in names)
    assert {e.meal_type for e in entries} == {"breakfast"}
    assert response.action == "logged"


def test_a_workout_is_logged_with_its_minutes(alice, model_alone):
    handle_turn(alice, "walked for 30 minutes this morning")

    [workout] = ExerciseEntry.objects.for_user(alice)
    assert workout.duration_minutes == 30
    assert not FoodEntry.objects.for_user(alice).exists()


def test_a_weight_is_recorded_as_said(alice, model_alone):
    handle_turn(alice, "weight 81.4 kg")

    assert CheckInMeasurement.objects.for_user(alice).get().weight == Decimal("81.4")


@pytest.mark.parametrize(
    "text", ["hi sparky, how are you?", "thanks, that's all for now", "what should I eat tonight?"]
)
def test_chit_chat_and_questions_write_nothing(alice, model_alone, text):
    response = handle_turn(alice, text)

    assert nothing_written(alice)
    assert response.message.strip()


def test_a_plan_is_not_logged(alice, model_alone):
    handle_turn(alice, "I'm going to have pizza for dinner tonight")

    assert nothing_written(alice)


def test_as_a_user_gets_it_a_meal_is_logged_at_once_and_a_greeting_answered(alice, as_created):
    meal = handle_turn(alice, "a banana and a coffee with milk")
    hello = handle_turn(alice, "thanks!")

    names = [e.food.name.lower() for e in foods(alice)]
    assert len(names) == 3 and any("banana" in n for n in names)
    assert any("coffee" in n for n in names) and any("milk" in n for n in names)
    assert meal.engine == "sparky"
    assert hello.action == "answered" and len(foods(alice)) == 3


def test_as_a_user_gets_it_what_sparky_cannot_read_goes_to_the_model(alice, as_created):
    response = handle_turn(alice, "for lunch i grabbed a cheeseburger, felt great after")

    [entry] = foods(alice)
    assert "burger" in entry.food.name.lower() and entry.meal_type == "lunch"
    assert response.action == "logged"
