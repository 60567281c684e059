"""Corrections Sparky makes itself (chat.turn.corrections): the entry a correction names is found
among what the conversation saved and changed, deleted or swapped once, with undo, offline and
in front of a model without asking it; never logged a second time."""

from decimal import Decimal

import pytest

from chat.models import ChatMessage
from chat.turn.coach import handle_turn
from chat.turn.undo import reply_undo
from exercise.models import ExerciseEntry
from measurements.models import CheckInMeasurement, CustomMeasurement
from nutrition.models import FoodEntry, WaterIntake
from nutrition.services import entry_nutrients

pytestmark = pytest.mark.django_db


def foods(user):
    return list(FoodEntry.objects.for_user(user).select_related("food").order_by("created_at"))


def kcal(user) -> int:
    return round(sum(entry_nutrients(e)["calories"] for e in foods(user)))


def test_the_toast_becomes_two_slices_and_nothing_is_added(alice, catalog):
    handle_turn(alice, "2 eggs and a slice of whole wheat toast for breakfast")
    one_slice = kcal(alice)

    response = handle_turn(alice, "actually the toast was 2 slices")

    entries = foods(alice)
    assert len(entries) == 2
    toast = next(e for e in entries if e.food.name.startswith("Bread"))
    assert toast.quantity == 2 and toast.meal_type == "breakfast"
    assert abs(kcal(alice) - (one_slice + 86)) <= 1  # one more 28 g slice at 306 kcal per 100 g
    assert response.message.startswith("The toast is now 2 slices")
    assert response.options is None


def test_make_that_changes_the_last_entry_and_its_undo_restores_it(alice, catalog):
    handle_turn(alice, "2 eggs")

    response = handle_turn(alice, "make that 3 eggs")

    (egg,) = foods(alice)
    assert egg.quantity == 3
    reply_undo(alice, response.message_id)
    (egg,) = foods(alice)
    assert egg.quantity == 2


def test_one_item_of_several_is_deleted_by_its_name(alice, bob, catalog):
    handle_turn(bob, "a banana")
    handle_turn(alice, "a banana and a cup of oats for breakfast")

    response = handle_turn(alice, "remove the oats")

    assert [e.food.name.split(",")[0] for e in foods(alice)] == ["Bananas"]
    assert "Deleted the oats" in response.message
    assert len(foods(bob)) == 1


def test_that_was_lunch_moves_the_whole_last_meal(alice, catalog):
    handle_turn(alice, "2 eggs and a banana for breakfast")

    handle_turn(alice, "oops that was lunch, not breakfast")

    assert {e.meal_type for e in foods(alice)} == {"lunch"}
    assert len(foods(alice)) == 2


def test_a_workouts_minutes_are_changed_not_logged_again(alice, catalog):
    handle_turn(alice, "ran for 30 minutes")

    response = handle_turn(alice, "the run was 45 min actually")

    (run,) = ExerciseEntry.objects.for_user(alice)
    assert run.duration_minutes == 45
    assert "45 min" in response.message


@pytest.mark.parametrize(
    ("checkin", "fix"),
    [
        ("weight 78.5 kg", "nah, that was 40 min"),
        ("walked 8200 steps", "oops the swim was 25 mins"),
        ("weight 78.5 kg", "no sorry 3 slices"),
    ],
)
def test_a_duration_or_a_food_amount_never_changes_a_check_in(alice, catalog, checkin, fix):
    # types decide what a number can change: minutes are a workout's, slices a food's
    handle_turn(alice, "swam 1 km")
    handle_turn(alice, checkin)
    before = CheckInMeasurement.objects.for_user(alice).values("weight", "steps").get()

    handle_turn(alice, fix)

    assert CheckInMeasurement.objects.for_user(alice).values("weight", "steps").get() == before


def test_a_workout_named_by_its_activity_is_changed_not_the_weight_saved_after_it(alice, catalog):
    handle_turn(alice, "walked for 20 min")
    handle_turn(alice, "weight 92 kg")

    handle_turn(alice, "the walk was 35")

    (walk,) = ExerciseEntry.objects.for_user(alice)
    assert walk.duration_minutes == 35
    assert CheckInMeasurement.objects.for_user(alice).get().weight == Decimal("92.00")


def test_a_bare_number_goes_to_the_value_it_is_near_not_to_the_check_in(alice, catalog):
    handle_turn(alice, "weight 92 kg")
    handle_turn(alice, "ran 40 min")

    handle_turn(alice, "no make it 45")

    (run,) = ExerciseEntry.objects.for_user(alice)
    assert run.duration_minutes == 45
    assert CheckInMeasurement.objects.for_user(alice).get().weight == Decimal("92.00")


def test_a_slip_near_the_weight_still_fixes_the_weight_after_a_workout(alice, catalog):
    handle_turn(alice, "weighed 60.2 kg")
    handle_turn(alice, "swam 30 min")

    handle_turn(alice, "typo, 62.0")

    assert CheckInMeasurement.objects.for_user(alice).get().weight == Decimal("62.00")
    assert ExerciseEntry.objects.for_user(alice).get().duration_minutes == 30


def test_a_value_said_to_be_wrong_that_nothing_holds_changes_nothing(alice, catalog):
    # "40 not 20" of a 30-minute swim and a weigh-in of 95: neither holds 20, so Sparky says so
    # rather than guess which number was meant
    handle_turn(alice, "swam 30 min")
    handle_turn(alice, "weight 95 kg")

    response = handle_turn(alice, "the swim was 40 not 20")

    assert ExerciseEntry.objects.for_user(alice).get().duration_minutes == 30
    assert CheckInMeasurement.objects.for_user(alice).get().weight == Decimal("95.00")
    assert "changed nothing" in response.message


def test_undo_that_takes_back_the_last_reply_only(alice, catalog):
    handle_turn(alice, "a banana")
    handle_turn(alice, "2 eggs")

    response = handle_turn(alice, "undo that")

    assert [e.food.name.split(",")[0] for e in foods(alice)] == ["Bananas"]
    assert response.message.startswith("Undone:")
    assert [e["kind"] for e in response.entries] == ["undone"]


def test_a_food_swapped_for_another_is_replaced_once(alice, catalog):
    handle_turn(alice, "a cup of oats for breakfast")

    handle_turn(alice, "not oats, it was greek yogurt")

    (entry,) = foods(alice)
    assert entry.food.name.startswith("Yogurt") and entry.meal_type == "breakfast"


def test_when_the_words_fit_two_entries_sparky_asks_which_and_changes_nothing(alice, catalog):
    handle_turn(alice, "2 eggs for breakfast")
    handle_turn(alice, "2 eggs for lunch")

    response = handle_turn(alice, "make the eggs 3")

    assert sorted(e.quantity for e in foods(alice)) == [2, 2]
    assert "Which one" in response.message and "breakfast" in response.message


def test_a_correction_in_front_of_a_model_is_made_without_asking_it(
    alice, catalog, reads_first_service, fake_llm
):
    handle_turn(alice, "2 eggs for breakfast")

    response = handle_turn(alice, "actually make that 3 eggs")

    (egg,) = foods(alice)
    assert egg.quantity == 3
    assert response.engine == "sparky"
    assert fake_llm.completion_requests == []


def test_a_mistyped_weight_is_put_right_on_the_same_day(alice):
    handle_turn(alice, "weight 84.1 kg")

    response = handle_turn(alice, "typo, 81.4 not 84.1")

    (checkin,) = CheckInMeasurement.objects.for_user(alice)
    assert checkin.weight == Decimal("81.4")
    assert response.message.startswith("Fixed:")


def test_a_meal_told_as_what_it_was_is_logged_when_nothing_was_logged_before(alice, catalog):
    response = handle_turn(alice, "lunch was 2 eggs and a banana")

    assert len(foods(alice)) == 2
    assert response.action == "logged"


def test_a_correction_of_nothing_logged_changes_nothing_and_says_how(alice, catalog):
    response = handle_turn(alice, "oops, make that 3 eggs")

    assert foods(alice) == []
    assert response.action != "logged"


def test_one_more_thing_had_after_an_oh_is_added_not_swapped_in(alice, catalog):
    handle_turn(alice, "a banana")

    handle_turn(alice, "oh i had greek yogurt too")

    assert sorted(e.food.name.split(",")[0] for e in foods(alice)) == ["Bananas", "Yogurt"]


def test_it_was_another_food_replaces_the_one_just_logged(alice, catalog):
    handle_turn(alice, "a banana for breakfast")

    handle_turn(alice, "no it was a greek yogurt")

    (entry,) = foods(alice)
    assert entry.food == catalog["yogurt"] and entry.meal_type == "breakfast"


def test_it_was_a_food_no_catalog_knows_changes_nothing(alice, catalog):
    handle_turn(alice, "a banana")

    handle_turn(alice, "it was a great day")

    (entry,) = foods(alice)
    assert entry.food == catalog["bananas"]


def test_the_first_one_is_the_first_thing_logged(alice, catalog):
    handle_turn(alice, "a cup of oats for breakfast")
    handle_turn(alice, "a banana")
    handle_turn(alice, "2 eggs")

    handle_turn(alice, "the first one was 2 cups")

    entries = {e.food.name.split(",")[0]: e.quantity for e in foods(alice)}
    assert entries == {"Cereals": 2, "Bananas": 1, "Egg": 2}


def test_a_signal_after_the_correction_counts(alice, catalog):
    handle_turn(alice, "2 slices of whole wheat bread")

    handle_turn(alice, "they were 3 slices actually")

    (entry,) = foods(alice)
    assert entry.quantity == 3


def test_an_amount_in_words_after_a_signal(alice, catalog):
    handle_turn(alice, "2 eggs")

    handle_turn(alice, "eh it was three")

    (entry,) = foods(alice)
    assert entry.quantity == 3


def test_undo_with_a_please_undoes_the_last_reply(alice, catalog):
    handle_turn(alice, "ran for 20 minutes")

    handle_turn(alice, "undo pls, wrong day")

    assert not ExerciseEntry.objects.for_user(alice).exists()


def test_a_mistyped_weight_is_put_right_when_the_message_says_so_after(alice, catalog):
    handle_turn(alice, "weight 95.0 kg")

    handle_turn(alice, "no 59.0, i typed it wrong")

    (reading,) = CheckInMeasurement.objects.for_user(alice)
    assert reading.weight == Decimal("59.0")


def test_another_one_logs_the_last_food_once_more(alice, catalog):
    handle_turn(alice, "2 eggs")
    handle_turn(alice, "a banana for a snack")

    handle_turn(alice, "and another one")

    names = sorted(e.food.name.split(",")[0] for e in foods(alice))
    assert names == ["Bananas", "Bananas", "Egg"]
    assert all(e.meal_type == "snack" for e in foods(alice) if e.food == catalog["bananas"])


def test_more_slices_count_in_the_entrys_own_unit(alice, catalog):
    handle_turn(alice, "2 slices of whole wheat bread")

    handle_turn(alice, "2 more slices")

    assert [(e.quantity, e.unit) for e in foods(alice)] == [(2, "slice"), (2, "slice")]


def test_same_again_repeats_everything_the_last_reply_saved(alice, catalog):
    handle_turn(alice, "2 eggs and a banana")

    handle_turn(alice, "same again")

    assert len(foods(alice)) == 4


def test_another_glass_after_water_is_water(alice, catalog):
    handle_turn(alice, "a glass of water")

    handle_turn(alice, "another glass")

    assert WaterIntake.objects.for_user(alice).get().glasses_consumed == 2
    assert not foods(alice)


def test_another_of_something_never_logged_is_logged_as_itself(alice, catalog):
    handle_turn(alice, "2 eggs")

    handle_turn(alice, "another banana")

    assert sorted(e.food.name.split(",")[0] for e in foods(alice)) == ["Bananas", "Egg"]


def test_a_meal_is_put_right_in_plain_words(alice, catalog):
    handle_turn(alice, "greek yogurt for breakfast")
    handle_turn(alice, "2 eggs for lunch")

    handle_turn(alice, "the yogurt was actually a snack, mid morning")

    meals = {e.food.name.split(",")[0]: e.meal_type for e in foods(alice)}
    assert meals == {"Yogurt": "snack", "Egg": "lunch"}


def test_two_entries_named_together_move_together(alice, catalog):
    handle_turn(alice, "a banana and 2 eggs for lunch")

    handle_turn(alice, "banana + eggs were my breakfast, can u fix")

    assert {e.meal_type for e in foods(alice)} == {"breakfast"}


def test_i_meant_a_meal_moves_the_last_thing(alice, catalog):
    handle_turn(alice, "a banana for dinner")

    handle_turn(alice, "oops i meant breakfast")

    assert foods(alice)[0].meal_type == "breakfast"


def test_an_entry_is_found_by_the_users_own_word_for_it(alice, catalog):
    handle_turn(alice, "had a chicken breast for dinner")  # saved as the catalog's chicken

    handle_turn(alice, "move that breast to lunch")

    assert foods(alice)[0].meal_type == "lunch"


def test_a_meal_said_for_a_new_food_still_logs_it(alice, catalog):
    handle_turn(alice, "2 eggs for lunch")

    handle_turn(alice, "a banana was my breakfast")

    meals = {e.food.name.split(",")[0]: e.meal_type for e in foods(alice)}
    assert meals == {"Egg": "lunch", "Bananas": "breakfast"}


@pytest.mark.parametrize(
    "before, fix, value",
    [
        ("my weight this morning was 95 kg", "its 59 not 95, fat fingers lol", "59"),
        ("weighed myself: 82.4kg", "typo, 81.4", "81.4"),
        ("weight today 70.2", "sorry meant 72.0", "72.0"),
        ("I'm 64.3 kg today", "hang on, scale said 63.4, i swapped the digits", "63.4"),
    ],
)
def test_a_mistyped_weight_is_put_right_however_it_is_said(alice, catalog, before, fix, value):
    handle_turn(alice, before)

    response = handle_turn(alice, fix)

    (reading,) = CheckInMeasurement.objects.for_user(alice)
    assert reading.weight == Decimal(value)
    assert response.message.startswith("Fixed")


def test_steps_written_with_a_thousands_comma_are_put_right(alice, catalog):
    handle_turn(alice, "steps today: 8500")

    handle_turn(alice, "wrong, 10,500 steps")

    (reading,) = CheckInMeasurement.objects.for_user(alice)
    assert reading.steps == 10500


def test_a_new_number_with_no_slip_said_is_no_fix(alice, catalog):
    handle_turn(alice, "weight 80 kg")

    handle_turn(alice, "2 eggs")

    (reading,) = CheckInMeasurement.objects.for_user(alice)
    assert reading.weight == Decimal("80")
    assert len(foods(alice)) == 1


def test_a_named_entry_that_was_another_food_is_swapped_for_it(alice, catalog):
    handle_turn(alice, "a banana and 2 eggs")

    handle_turn(alice, "the banana was a greek yogurt")

    names = sorted(e.food.name.split(",")[0] for e in foods(alice))
    assert names == ["Egg", "Yogurt"]


def test_a_kind_said_alone_is_the_kind_of_that_food(alice, catalog):
    handle_turn(alice, "a cup of oats")

    handle_turn(alice, "the oats were regular")

    (entry,) = foods(alice)
    assert entry.food == catalog["cereals"] and entry.quantity == 1


def test_the_workout_named_by_what_it_is_is_deleted(alice, catalog):
    handle_turn(alice, "walked 30 minutes")
    handle_turn(alice, "a banana")

    handle_turn(alice, "delete that workout, the class got cancelled")

    assert not ExerciseEntry.objects.for_user(alice).exists()
    assert len(foods(alice)) == 1


def test_only_the_food_the_message_names_is_taken_off(alice, catalog):
    handle_turn(alice, "a banana, 2 eggs and a cup of oats for breakfast")

    handle_turn(alice, "there were no eggs, can you remove it")

    assert sorted(e.food.name.split(",")[0] for e in foods(alice)) == ["Bananas", "Cereals"]


def test_an_hour_in_words_is_the_workouts_minutes(alice, catalog):
    handle_turn(alice, "ran for an hour and a half")

    handle_turn(alice, "meh, it was only an hour")

    assert ExerciseEntry.objects.for_user(alice).get().duration_minutes == 60


def test_a_longer_distance_keeps_the_pace(alice, catalog):
    handle_turn(alice, "ran 5 km in 30 min")

    handle_turn(alice, "it was more like 10 km")

    run = ExerciseEntry.objects.for_user(alice).get()
    assert (float(run.distance), run.duration_minutes) == (10, 60)


def test_scratch_that_last_one_takes_back_the_last_reply(alice, catalog):
    handle_turn(alice, "2 eggs for breakfast")
    handle_turn(alice, "a banana")

    handle_turn(alice, "scratch that last one")

    assert [e.food.name.split(",")[0] for e in foods(alice)] == ["Egg"]


def test_another_two_after_water_is_two_more_glasses(alice, catalog):
    handle_turn(alice, "2 glasses of water")

    handle_turn(alice, "another 2")

    assert WaterIntake.objects.for_user(alice).get().glasses_consumed == 4


def test_another_two_eggs_is_two_more(alice, catalog):
    handle_turn(alice, "2 eggs for breakfast")

    handle_turn(alice, "another 2 eggs")

    assert sorted(e.quantity for e in foods(alice)) == [2, 2]


def test_a_slip_about_something_just_logged_never_logs_it_twice(alice, catalog):
    handle_turn(alice, "ran 3 km")

    response = handle_turn(alice, "sorry i ran 3 km this morning")

    assert ExerciseEntry.objects.for_user(alice).count() == 1
    assert "already" in response.message


def test_a_removal_naming_the_food_in_another_clause_removes_only_it(alice, catalog):
    handle_turn(alice, "2 eggs, a banana and a slice of whole wheat toast for breakfast")

    handle_turn(alice, "actually no banana, delete that")

    names = [e.food.name.split(",")[0] for e in foods(alice)]
    assert sorted(names) == ["Bread", "Egg"]


def test_the_same_workout_said_again_after_a_slip_changes_its_minutes(alice, catalog):
    handle_turn(alice, "30 min swim")

    response = handle_turn(alice, "nope, 50 min swim")

    (swim,) = ExerciseEntry.objects.for_user(alice)
    assert swim.duration_minutes == 50
    assert "50 min" in response.message and "30 min" in response.message


def test_only_had_less_of_a_food_changes_its_amount(alice, catalog):
    handle_turn(alice, "200g chicken breast and a banana for lunch")

    handle_turn(alice, "i only had 100g of the chicken")

    chicken = next(e for e in foods(alice) if e.food.name.startswith("Chicken"))
    assert len(foods(alice)) == 2 and chicken.quantity == 100


def test_a_swap_keeps_how_many_there_were(alice, catalog):
    handle_turn(alice, "2 eggs for breakfast")

    handle_turn(alice, "oops i meant bananas not eggs")

    (entry,) = foods(alice)
    assert entry.food.name.startswith("Bananas") and entry.quantity == 2


def test_both_moves_everything_the_last_reply_saved(alice, catalog):
    handle_turn(alice, "2 eggs and a banana for lunch")

    handle_turn(alice, "move both to breakfast pls")

    assert {e.meal_type for e in foods(alice)} == {"breakfast"} and len(foods(alice)) == 2


def test_a_second_one_said_with_its_ordinal_is_one_more(alice, catalog):
    handle_turn(alice, "a banana")

    handle_turn(alice, "oh and i had a 2nd banana")

    assert len(foods(alice)) == 2 or foods(alice)[0].quantity == 2
    assert kcal(alice) >= 2 * 100


def test_a_workout_said_to_be_an_hour_is_sixty_minutes(alice, catalog):
    handle_turn(alice, "walked 40 min")

    handle_turn(alice, "the walk was an hour in the end")

    (walk,) = ExerciseEntry.objects.for_user(alice)
    assert walk.duration_minutes == 60


def test_double_the_food_is_twice_what_was_logged(alice, catalog):
    handle_turn(alice, "a cup of oats for breakfast")

    handle_turn(alice, "make it double the oats")

    (oats,) = foods(alice)
    assert oats.quantity == 2


def test_half_of_it_is_half_what_was_logged(alice, catalog):
    handle_turn(alice, "2 bananas")

    handle_turn(alice, "i only ate half of that banana tbh")

    (banana,) = foods(alice)
    assert banana.quantity == 1


def test_a_workouts_bare_number_said_again_is_its_minutes(alice, catalog):
    handle_turn(alice, "swam 30 min")

    handle_turn(alice, "nah swam 45")

    (swim,) = ExerciseEntry.objects.for_user(alice)
    assert swim.duration_minutes == 45


def test_a_typo_in_a_measurement_of_the_users_own_is_put_right(alice, catalog):
    handle_turn(alice, "body fat 22%")

    response = handle_turn(alice, "typo 21%")

    (row,) = CustomMeasurement.objects.for_user(alice)
    assert float(row.value) == 21
    assert response.message.startswith("Fixed")


def test_an_eating_word_before_another_is_one_more(alice, catalog):
    handle_turn(alice, "2 eggs")

    handle_turn(alice, "grabbed another egg")

    assert sum(e.quantity for e in foods(alice)) == 3


def test_the_one_from_a_meal_is_the_entry_of_that_meal(alice, catalog):
    handle_turn(alice, "a slice of whole wheat toast for breakfast")
    handle_turn(alice, "a banana for lunch")
    handle_turn(alice, "2 eggs for dinner")

    handle_turn(alice, "delete the one from lunch")

    assert sorted(e.food.name.split(",")[0] for e in foods(alice)) == ["Bread", "Egg"]


def test_the_last_two_are_the_two_things_saved_last(alice, catalog):
    handle_turn(alice, "a banana")
    handle_turn(alice, "2 eggs")
    handle_turn(alice, "a cup of oats")

    handle_turn(alice, "remove the last two")

    assert [e.food.name.split(",")[0] for e in foods(alice)] == ["Bananas"]


def test_the_previous_one_is_the_entry_before_the_last(alice, catalog):
    handle_turn(alice, "a banana")
    handle_turn(alice, "2 eggs")

    response = handle_turn(alice, "the previous one was 2 bananas")

    banana = next(e for e in foods(alice) if e.food.name.startswith("Bananas"))
    assert banana.quantity == 2 and len(foods(alice)) == 2
    assert "now 2" in response.message


def test_not_so_many_but_so_many_changes_the_amount(alice, catalog):
    handle_turn(alice, "a banana")

    handle_turn(alice, "not one banana but two")

    (banana,) = foods(alice)
    assert banana.quantity == 2


def test_had_n_not_m_after_the_amount_changes_it(alice, catalog):
    handle_turn(alice, "2 eggs")

    handle_turn(alice, "had 3 eggs, not 2")

    (egg,) = foods(alice)
    assert egg.quantity == 3


def test_an_undo_with_a_reason_after_it_takes_back_the_water(alice, catalog):
    handle_turn(alice, "3 glasses of water")

    handle_turn(alice, "undo that pls, wrong button")

    assert sum(w.glasses_consumed for w in WaterIntake.objects.for_user(alice)) == 0


def test_a_workout_that_should_say_another_time_is_changed(alice, catalog):
    handle_turn(alice, "20 min run")

    handle_turn(alice, "run should say 35 min")

    (run,) = ExerciseEntry.objects.for_user(alice)
    assert run.duration_minutes == 35


def test_a_relative_eating_is_not_logged_for_the_user(alice, catalog):
    response = handle_turn(alice, "dad polished off 2 bananas at dinner")

    assert foods(alice) == [] and response.action != "logged"


def test_undo_after_a_message_that_saved_nothing_takes_nothing_back(alice, catalog):
    handle_turn(alice, "a banana")
    handle_turn(alice, "a qwzxv bar")  # nothing the catalog knows: nothing saved

    response = handle_turn(alice, "oops undo that")

    assert len(foods(alice)) == 1
    assert "saved nothing" in response.message


def test_the_users_words_for_an_entry_never_name_another_food_of_the_same_message(alice, catalog):
    handle_turn(alice, "a banana and a qwzxv cake")  # the banana saved, the cake not found

    handle_turn(alice, "delete the qwzxv cake")

    assert len(foods(alice)) == 1


def test_a_food_the_message_named_besides_the_entry_is_not_the_entry(alice, catalog):
    # the banana is saved by its own name; "the qwzxv" said beside it is another thing, whether
    # or not options were offered for it (a model's reply offers none)
    handle_turn(alice, "a banana and a qwzxv")
    reply = ChatMessage.objects.for_user(alice).filter(message_type="assistant").last()
    reply.metadata.pop("options", None)
    reply.save(update_fields=["metadata"])

    handle_turn(alice, "delete the qwzxv")

    assert len(foods(alice)) == 1
