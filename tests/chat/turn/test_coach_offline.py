"""The built-in offline model: everyday logging with no AI service configured, and its limits."""

import datetime as dt

import pytest

from chat.models import ChatMessage
from chat.reading.intents import validate_intent
from chat.turn.coach import TurnRejected, handle_turn
from chat.turn.engines.dispatch import dispatch_intents
from chat.turn.types import Turn
from exercise.models import ExerciseEntry
from measurements.models import CheckInMeasurement, CustomMeasurement
from nutrition.models import FoodEntry, UserGoal, WaterIntake
from sparky.dates import today_for

pytestmark = pytest.mark.django_db


def summaries(user):
    return ChatMessage.objects.for_user(user).filter(metadata__kind="progress_summary")


def test_two_items_for_breakfast_are_both_logged_with_one_summary(
    alice, catalog, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = handle_turn(alice, "2 eggs and a banana for breakfast")
    assert response.engine == "offline" and response.action == "logged"
    entries = FoodEntry.objects.for_user(alice).select_related("food").order_by("food__name")
    assert [(e.food.name.split(",")[0], float(e.quantity), e.meal_type) for e in entries] == [
        ("Bananas", 1.0, "breakfast"),
        ("Egg", 2.0, "breakfast"),
    ]
    # one batched progress summary for the whole turn (tasks run in-process without a broker)
    summary = summaries(alice).get()
    assert summary.metadata["summary_for"] == response.message_id
    assert "kcal" in summary.content and "Tip:" in summary.content


def test_the_reply_says_what_was_logged_in_one_plain_sentence(alice, catalog):
    response = handle_turn(alice, "2 eggs and a banana for breakfast")

    assert response.message == (
        "Logged 2 large eggs (143 kcal) and a medium banana (105 kcal) for breakfast."
    )
    chips = [e["chip"] for e in response.entries]
    assert chips[0].startswith("Egg")  # the chip keeps the catalog's short name


def test_the_day_is_said_only_when_it_is_not_today(alice, catalog):
    response = handle_turn(alice, "yesterday I had 2 eggs for lunch")

    assert response.message == "Logged 2 large eggs (143 kcal) for lunch yesterday."


def test_a_walk_is_logged_with_calories_from_the_catalog(alice, catalog):
    response = handle_turn(alice, "walked 45 min")
    entry = ExerciseEntry.objects.for_user(alice).select_related("exercise").get()
    assert entry.exercise.name.startswith("Walking")
    assert entry.duration_minutes == 45 and entry.calories_burned > 0
    assert response.entries[0]["kind"] == "exercise_entry"


def test_weight_and_waist_in_one_message_make_one_check_in(alice, catalog):
    handle_turn(alice, "weight 80.2kg waist 84cm")
    row = CheckInMeasurement.objects.for_user(alice).get()
    assert float(row.weight) == 80.2 and float(row.waist) == 84
    assert row.entry_date == today_for(alice)


def test_water_glasses_add_up(alice, catalog):
    handle_turn(alice, "3 glasses of water")
    handle_turn(alice, "drank a glass of water")
    assert WaterIntake.objects.for_user(alice).get().glasses_consumed == 4


def test_water_after_a_number_that_is_no_unit_is_a_glass_not_an_error(alice, catalog, caplog):
    # "0:0 water" once made the water reader ask the unit parser about "0", which refused it
    response = handle_turn(alice, "0:0water")
    assert not [r for r in caplog.records if r.levelname == "ERROR"]
    assert "couldn't understand" not in response.message


def test_yesterday_is_honoured(alice, catalog):
    import datetime as dt

    handle_turn(alice, "yesterday I had 2 eggs")
    entry = FoodEntry.objects.for_user(alice).get()
    assert entry.entry_date == today_for(alice) - dt.timedelta(days=1)


def test_a_question_is_answered_from_the_users_own_numbers(alice, catalog):
    handle_turn(alice, "2 eggs for breakfast")
    response = handle_turn(alice, "how many calories did I eat today?")
    assert response.action == "answered"
    assert "143 kcal" in response.message  # 2 large eggs = 100 g = 143 kcal
    assert not summaries(alice).filter(metadata__summary_for=response.message_id).exists()


def test_nonsense_gets_a_plain_answer_and_how_to_configure_a_model(alice, catalog):
    response = handle_turn(alice, "asdf qwerty zxcv")
    assert response.action == "none"
    assert response.message.startswith("Sorry, I couldn't tell what to log from that.")
    assert "asdf" not in response.message  # never said back
    assert "Settings" in response.message
    # said once: no second "couldn't tell", no second list of examples
    assert response.message.count("couldn't tell") == 1
    assert response.message.count("glasses of water") == 1
    assert not FoodEntry.objects.exists()


def test_a_bare_food_name_is_logged_in_a_household_measure(alice, catalog):
    response = handle_turn(alice, "a banana")

    assert response.action == "logged"
    entry = FoodEntry.objects.for_user(alice).select_related("food").get()
    assert entry.food.name.startswith("Bananas") and entry.unit == "medium"


@pytest.mark.parametrize("message", ["watched football", "asdf qwerty", "a blue door"])
def test_a_bare_phrase_the_catalog_does_not_know_is_not_understood(alice, catalog, message):
    response = handle_turn(alice, message)

    assert response.action == "none" and response.options is None
    assert response.message.startswith("Sorry, I couldn't tell what to log from that.")
    assert message not in response.message
    assert not FoodEntry.objects.exists()


def test_ran_out_of_milk_logs_no_exercise(alice, catalog):
    handle_turn(alice, "I ran out of milk")
    assert not ExerciseEntry.objects.exists()


def test_an_unknown_food_offers_the_nearest_catalog_foods(alice, catalog):
    response = handle_turn(alice, "had an egg sandwich thing for lunch")
    if response.action == "logged":  # the parser found a catalog egg: acceptable
        return
    assert response.action == "options"
    assert "Reply with a number" in response.message or "manual:" in response.message


def test_empty_and_oversized_messages_are_refused_before_anything_is_stored(alice, settings):
    settings.SPARKY_MAX_MESSAGE_CHARS = 50
    with pytest.raises(TurnRejected) as empty:
        handle_turn(alice, "   ")
    assert empty.value.code == "empty"
    with pytest.raises(TurnRejected) as long:
        handle_turn(alice, "x" * 51)
    assert long.value.code == "too_long" and "50" in str(long.value)
    assert not ChatMessage.objects.exists()


def test_a_bad_photo_is_refused_with_a_reason(alice):
    from django.core.files.uploadedfile import SimpleUploadedFile

    fake = SimpleUploadedFile("lunch.jpg", b"this is not a picture", content_type="image/jpeg")
    with pytest.raises(TurnRejected) as refused:
        handle_turn(alice, "my lunch", image=fake)
    assert refused.value.code == "bad_image"
    assert "not an image" in str(refused.value)
    assert not ChatMessage.objects.exists()


def test_unknown_manual_categories_are_refused(alice):
    with pytest.raises(TurnRejected) as refused:
        handle_turn(alice, "hi", categories=["food", "admin"])
    assert refused.value.code == "bad_categories"


def test_a_question_about_the_week_is_answered_for_the_week(alice, catalog):
    yesterday = (today_for(alice) - dt.timedelta(days=1)).isoformat()
    handle_turn(alice, "2 eggs for breakfast")
    food_entry = FoodEntry.objects.for_user(alice).get()
    FoodEntry.objects.filter(pk=food_entry.pk).update(entry_date=yesterday)
    handle_turn(alice, "walked 45 min")
    handle_turn(alice, "3 glasses of water")

    response = handle_turn(alice, "how am I doing this week?")

    assert response.action == "answered"
    assert response.message.startswith("This week, ")
    assert "food logged on 1 of 7 days, average 143 kcal" in response.message
    assert "45 min of exercise" in response.message and "3 glasses of water" in response.message


def test_goals_are_set_by_chat_and_counted_against_the_day(alice, catalog):
    response = handle_turn(alice, "set my goals: 2000 calories and 150g protein")

    assert response.action == "logged"
    assert "Goals set for every day: calories 2000, protein 150" in response.message
    goal = UserGoal.objects.for_user(alice).get()
    assert (goal.goal_date, float(goal.calories), float(goal.protein)) == (None, 2000, 150)
    handle_turn(alice, "2 eggs for breakfast")
    answer = handle_turn(alice, "how many calories today?")
    assert "goal 2,000 (7% eaten), 1,857 left" in answer.message


def test_bare_names_log_what_the_catalog_knows_and_offer_the_rest(alice, catalog):
    # "banana" is in the catalog; "bread pudding" is made of catalog words but no one food
    response = handle_turn(alice, "banana and bread pudding")

    assert response.action == "logged"
    assert [e.food.name for e in FoodEntry.objects.for_user(alice).select_related("food")] == [
        "Bananas, raw"
    ]
    assert "bread pudding" in response.message


def test_a_laugh_alone_is_met_with_one_and_logs_nothing(alice, catalog):
    response = handle_turn(alice, "lol")

    assert response.options is None and response.entries == []
    assert response.message.startswith("😄")


def test_help_says_what_the_offline_model_can_do(alice, catalog):
    response = handle_turn(alice, "help")

    assert response.action == "answered"
    assert "'walked 45 min'" in response.message and "diary" in response.message
    assert not FoodEntry.objects.exists()


def _almonds():
    from tests.nutrition.conftest import catalog_food

    servings = [(1, "cup, whole", 143), (1, "oz", 28.35), (1, "almond", 1.2)]
    return catalog_food("Nuts, almonds", 579, protein=21.15, fat=49.93, servings=servings)


def test_almonds_with_no_count_are_an_ounce_and_a_count_is_that_many(alice, catalog):
    _almonds()

    first = handle_turn(alice, "almonds")
    second = handle_turn(alice, "12 almonds")
    third = handle_turn(alice, "a handful of almonds")

    assert [e["summary"].split(" Nuts")[0] for e in first.entries] == ["1 oz"]  # not 1 almond
    assert "164 kcal" in first.message
    assert [e["summary"].split(" Nuts")[0] for e in second.entries] == ["12 almonds"]
    assert "83 kcal" in second.message
    assert [e["summary"].split(" Nuts")[0] for e in third.entries] == ["1 handful"]
    assert FoodEntry.objects.for_user(alice).count() == 3


def test_a_shake_after_the_gym_logs_no_workout(alice, catalog):
    handle_turn(alice, "banana after the gym")

    assert not ExerciseEntry.objects.for_user(alice).exists()
    entry = FoodEntry.objects.for_user(alice).select_related("food").get()
    assert entry.food.name == "Bananas, raw"


def test_what_did_i_eat_lists_the_days_food_by_meal(alice, catalog):
    handle_turn(alice, "2 eggs for breakfast")
    handle_turn(alice, "a banana for lunch")

    today = handle_turn(alice, "what did I eat today?")
    lunch = handle_turn(alice, "what did I have for lunch?")
    yesterday = handle_turn(alice, "what did I eat yesterday?")
    advice = handle_turn(alice, "what should I eat for dinner?")

    assert today.action == "answered"
    assert "breakfast: 2 large Egg (143 kcal); lunch: 1 medium Banana (105 kcal)" in (today.message)
    assert "248 kcal eaten" in today.message
    assert "lunch: 1 medium Banana" in lunch.message and "Egg" not in lunch.message
    assert yesterday.message.endswith(": nothing logged.")
    assert "Egg" not in advice.message  # advice is not a diary listing
    assert FoodEntry.objects.for_user(alice).count() == 2  # questions log nothing


def test_advice_questions_say_advice_needs_a_model_and_give_the_days_numbers(alice, catalog):
    handle_turn(alice, "2 eggs for breakfast")

    for question in ("how do I lose weight?", "are eggs healthy?", "any tips for more protein?"):
        response = handle_turn(alice, question)
        assert response.action == "answered"
        assert response.message.startswith("Advice needs an AI service")
        assert "143 kcal eaten" in response.message
    assert FoodEntry.objects.for_user(alice).count() == 1


def test_a_meal_without_its_food_is_asked_about_and_a_lone_number_explained(alice, catalog):
    meal = handle_turn(alice, "I had breakfast")
    number = handle_turn(alice, "2")

    assert meal.message.startswith("What did you have for breakfast?")
    assert number.message.startswith("A number on its own picks one of the options")
    assert not FoodEntry.objects.for_user(alice).exists()


def test_same_breakfast_as_yesterday_logs_yesterdays_breakfast_again_for_today(alice, catalog):
    handle_turn(alice, "2 eggs and toast for breakfast")
    handle_turn(alice, "a banana for lunch")
    yesterday = today_for(alice) - dt.timedelta(days=1)
    FoodEntry.objects.for_user(alice).update(entry_date=yesterday)

    breakfast = handle_turn(alice, "same breakfast as yesterday")
    lunch = handle_turn(alice, "repeat yesterday's lunch")
    dinner = handle_turn(alice, "same as yesterday for dinner")
    # a weekday with nothing logged (never yesterday, whatever day the suite runs on)
    empty_day = (today_for(alice) - dt.timedelta(days=3)).strftime("%A").lower()
    monday = handle_turn(alice, f"same lunch as last {empty_day}")

    today = FoodEntry.objects.for_user(alice).filter(entry_date=today_for(alice))
    assert breakfast.action == "logged" and lunch.action == "logged"
    assert sorted(
        (e.food.name.split(",")[0], float(e.quantity), e.unit, e.meal_type)
        for e in today.select_related("food")
    ) == [
        ("Bananas", 1.0, "medium", "lunch"),
        ("Bread", 1.0, "slice", "breakfast"),
        ("Egg", 2.0, "large", "breakfast"),
    ]
    assert dinner.message.startswith("Nothing was logged for dinner on"), dinner.message
    assert "nothing to repeat" in monday.message
    assert FoodEntry.objects.for_user(alice).filter(entry_date=yesterday).count() == 3


def test_same_breakfast_as_yesterday_copies_only_the_users_own_breakfast(alice, bob, catalog):
    handle_turn(bob, "a banana and a glass of milk for breakfast")
    handle_turn(alice, "2 eggs for breakfast")
    FoodEntry.objects.update(entry_date=today_for(alice) - dt.timedelta(days=1))

    alices = handle_turn(alice, "same breakfast as yesterday")
    bobs_today = FoodEntry.objects.for_user(bob).filter(entry_date=today_for(bob))

    today = FoodEntry.objects.for_user(alice).filter(entry_date=today_for(alice))
    assert [(e.food.name.split(",")[0], float(e.quantity)) for e in today] == [("Egg", 2.0)]
    assert "banana" not in alices.message.lower() and "milk" not in alices.message.lower()
    assert not bobs_today.exists()


def test_a_food_with_its_calories_is_logged_as_the_users_own_food(alice, catalog):
    first = handle_turn(alice, "a burger, about 600 cal")
    again = handle_turn(alice, "a burger, about 600 cal")
    shake = handle_turn(alice, "protein shake with 30g protein and 150 calories for breakfast")

    entries = FoodEntry.objects.for_user(alice).select_related("food").order_by("created_at")
    assert first.action == "logged" and again.action == "logged"
    assert [(e.food.name, e.food.is_custom, e.meal_type) for e in entries][2] == (
        "protein shake",
        True,
        "breakfast",
    )
    assert entries[0].food_id == entries[1].food_id  # the same food, not a second copy
    assert float(entries[2].food.calories) == 150 and float(entries[2].food.protein) == 30
    assert "600 kcal" in first.message and "150 kcal" in shake.message


def test_an_implausible_weight_is_refused_with_the_range_while_the_waist_is_kept(alice):
    response = handle_turn(alice, "weight 900 kg waist 84 cm")

    checkin = CheckInMeasurement.objects.for_user(alice).get()
    assert checkin.waist == 84 and checkin.weight is None
    assert "Not saved: A weight of 900 kg is outside the plausible range" in response.message


def test_an_amount_that_rounds_to_nothing_is_refused_not_stored_as_zero(alice, catalog):
    result = dispatch_intents(
        Turn(alice, "", None, None, "chat", [], None),
        [
            validate_intent({"intent": "log_food", "data": {"food_name": "egg", "quantity": 1e-9}}),
            validate_intent({"intent": "log_exercise", "data": {"duration_minutes": 1e-9}}),
        ],
        engine="offline",
    )

    assert result.action == "none" and result.message.count("Not saved") == 2
    assert not FoodEntry.objects.for_user(alice).exists()
    assert not ExerciseEntry.objects.for_user(alice).exists()


@pytest.mark.parametrize(
    ("text", "answer"),
    [
        ("feeling great today!", "Good to hear!"),
        ("i feel awful", "Sorry to hear that."),
    ],
)
def test_how_the_user_feels_gets_a_word_back_and_logs_nothing(alice, catalog, text, answer):
    response = handle_turn(alice, text)

    assert response.message.startswith(answer)
    assert not FoodEntry.objects.for_user(alice).exists()


def test_zero_of_a_food_is_none_of_it(alice, catalog):
    response = handle_turn(alice, "zero soda today, proud of myself")

    assert not FoodEntry.objects.for_user(alice).exists()
    assert "Did you mean" not in response.message and "Not saved" not in response.message


def test_a_mood_and_a_sleep_are_logged_in_plain_words(alice, catalog):
    mood = handle_turn(alice, "i'd rate my mood a 7")
    sleep = handle_turn(alice, "went to bed at 11 and woke up at 7")

    assert mood.message == "Logged your mood 7 out of 10."
    assert sleep.message == "Logged your sleep 8 hours."


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("walked 1000 km", "1,000 km of walking would take about"),
        ("ran 1e30 km in 1 min", "is not plausible for one session"),
        ("ran 5 km in 1 min", "would be 300 km/h"),
        ("slept 1e9 hours", "1,000,000,000 hours of sleep is outside what a day can hold"),
    ],
)
def test_an_impossible_workout_or_sleep_is_refused_and_nothing_is_saved(alice, catalog, text, said):
    response = handle_turn(alice, text)

    assert said in response.message
    assert not ExerciseEntry.objects.for_user(alice).exists()
    assert not CustomMeasurement.objects.for_user(alice).exists()


@pytest.mark.parametrize("text", ["mood 1e9/10", "slept 1e9", "weight 1e9 kg"])
def test_no_fragment_of_1e9_is_taken_for_a_number(alice, catalog, text):
    handle_turn(alice, text)

    assert not CustomMeasurement.objects.for_user(alice).exists()
    assert not CheckInMeasurement.objects.for_user(alice).exists()


def test_a_refusal_names_no_tool_or_field(alice, catalog):
    response = handle_turn(alice, "I ate " + "very " * 60 + "good bread")

    assert "longer than a food's name can be" in response.message
    assert "log_food" not in response.message and "food_name" not in response.message
    assert not FoodEntry.objects.for_user(alice).exists()


def test_a_workout_not_done_or_planned_is_answered_in_a_workouts_words(alice, catalog):
    skipped = handle_turn(alice, "skipped the gym this morning")
    planned = handle_turn(alice, "gonna swim tomorrow morning")

    assert not ExerciseEntry.objects.for_user(alice).exists()
    assert "didn't do it" in skipped.message and "have it" not in skipped.message
    assert "once it's done" in planned.message
