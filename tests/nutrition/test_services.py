import datetime as dt
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core.exceptions import ValidationError

from nutrition.models import Food, FoodEntry, UserGoal
from nutrition.services import (
    entry_nutrients,
    food_create_custom,
    food_delete_custom,
    food_entry_create,
    food_entry_delete,
    food_entry_update,
    food_get,
    food_option_add,
    food_search,
    food_update_custom,
    goal_for,
    goal_set,
    meal_repeat,
)
from sparky.dates import today_for
from tests.conftest import make_user
from tests.factories import approve_share
from tests.nutrition.conftest import catalog_food


def days_from_today(user, n: int) -> dt.date:
    return today_for(user) + dt.timedelta(days=n)


@pytest.fixture
def alices_shake(alice):
    return food_create_custom(
        user=alice,
        name="Alice's banana shake",
        serving_size=1,
        serving_unit="glass",
        calories=320,
        protein=25,
    )


# --- logging -------------------------------------------------------------------------------------


def test_it_logs_an_entry_with_the_amount_converted(alice, egg):
    entry = food_entry_create(user=alice, food=egg, quantity=2, unit="large", meal_type="breakfast")

    entry.refresh_from_db()
    assert (entry.quantity, entry.unit, entry.variant.serving_unit) == (2, "large", "large")
    assert entry.entry_date == today_for(alice)
    nutrients = entry_nutrients(entry)
    assert nutrients["calories"] == Decimal("143.000")
    assert nutrients["protein"] == Decimal("12.560")
    assert nutrients["sodium"] is None  # the food does not record it


def test_two_eggs_without_a_unit_are_two_eggs(alice, egg):
    entry = food_entry_create(user=alice, food=egg, quantity=2)

    assert entry_nutrients(entry)["calories"] == Decimal("143.000")


def test_a_food_can_be_given_by_id(alice, banana):
    entry = food_entry_create(user=alice, food=str(banana.id), quantity=120, unit="g")

    assert entry.food == banana
    assert entry_nutrients(entry)["calories"] == Decimal("106.800")


def test_today_is_the_users_local_today(db, banana):
    tokyo = make_user("kenji@example.com", time_zone="Asia/Tokyo")

    entry = food_entry_create(user=tokyo, food=banana, quantity=1)

    assert entry.entry_date == today_for(tokyo)


@pytest.mark.parametrize(
    ("written", "meal"),
    [
        ("breakfast", "breakfast"),
        ("Breakfast", "breakfast"),
        (" LUNCH ", "lunch"),
        ("brunch", "lunch"),
        ("supper", "dinner"),
        ("dessert", "snack"),
    ],
)
def test_meal_types_accept_case_and_common_names(alice, banana, written, meal):
    assert food_entry_create(user=alice, food=banana, meal_type=written).meal_type == meal


@pytest.mark.parametrize(
    ("local_time", "meal"),
    [
        ("07:30", "breakfast"),
        ("12:45", "lunch"),
        ("16:00", "snack"),
        ("19:30", "dinner"),
        # Each boundary, the last minute before it and the first after: breakfast from 04:00 to
        # 10:30, lunch to 15:00, a snack to 17:30, dinner to 22:00, a snack through the night.
        ("03:59", "snack"),
        ("04:00", "breakfast"),
        ("10:29", "breakfast"),
        ("10:30", "lunch"),
        ("14:59", "lunch"),
        ("15:00", "snack"),
        ("17:29", "snack"),
        ("17:30", "dinner"),
        ("21:59", "dinner"),
        ("22:00", "snack"),
        ("00:00", "snack"),
    ],
)
def test_an_entry_without_a_meal_goes_to_the_meal_of_the_users_local_time(
    alice, banana, local_time, meal
):
    tokyo = make_user("tokyo@example.com", time_zone="Asia/Tokyo")
    hour, minute = map(int, local_time.split(":"))
    moment = dt.datetime(2026, 12, 2, hour, minute, tzinfo=ZoneInfo("Asia/Tokyo"))
    with time_machine.travel(moment, tick=False):
        assert food_entry_create(user=tokyo, food=banana).meal_type == meal
        assert food_entry_create(user=tokyo, food=banana, meal_type="").meal_type == meal


def test_an_unknown_meal_is_refused_and_nothing_is_written(alice, banana):
    with pytest.raises(ValidationError) as refused:
        food_entry_create(user=alice, food=banana, meal_type="elevenses")

    assert refused.value.code == "invalid_meal_type"
    assert "breakfast, lunch, dinner or snack" in refused.value.messages[0]
    assert not FoodEntry.objects.exists()


def test_yesterday_and_iso_dates_are_accepted(alice, banana):
    yesterday = food_entry_create(user=alice, food=banana, entry_date="yesterday")
    iso = food_entry_create(user=alice, food=banana, entry_date="2024-02-29")

    assert yesterday.entry_date == days_from_today(alice, -1)
    assert iso.entry_date == dt.date(2024, 2, 29)


def test_it_rejects_future_dates(alice, banana):
    tomorrow = days_from_today(alice, 1)

    with pytest.raises(ValidationError) as refused:
        food_entry_create(user=alice, food=banana, entry_date=tomorrow.isoformat())

    assert refused.value.code == "future_date"
    assert not FoodEntry.objects.exists()


def test_an_unknown_unit_is_refused_and_nothing_is_written(alice, banana):
    with pytest.raises(ValidationError) as refused:
        food_entry_create(user=alice, food=banana, quantity=1, unit="bucket")

    assert refused.value.code == "unknown_unit"
    assert not FoodEntry.objects.exists()


def _sr28(name, kcal, *servings):
    return catalog_food(name, kcal, servings=servings)


def test_a_cup_of_a_food_weighed_only_by_the_pot_is_weighed_like_its_kin(alice):
    greek = _sr28("Yogurt, Greek, plain, lowfat", 73, (1, "container (7 oz)", 200))
    for name in ("Yogurt, plain, whole milk", "Yogurt, vanilla, low fat", "Yogurt, fruit"):
        _sr28(name, 80, (1, "cup (8 fl oz)", 245))
    _sr28("Yogurt, frozen, vanilla", 160, (0.5, "cup", 68))  # one outlier does not matter

    entry = food_entry_create(user=alice, food=greek, quantity=0.5, unit="cup")

    entry.refresh_from_db()
    assert (entry.quantity, entry.unit) == (122, "g")  # half of a 245 g cup
    assert entry_nutrients(entry)["calories"] == Decimal("89.060")


def test_kin_that_disagree_on_the_weight_of_a_cup_give_no_weight(alice):
    flakes = _sr28("Cereals, flakes", 370, (1, "box", 500))
    for name, grams in (("Cereals, puffed", 14), ("Cereals, granola", 122), ("Cereals, o", 28)):
        _sr28(name, 380, (1, "cup", grams))

    with pytest.raises(ValidationError) as refused:
        food_entry_create(user=alice, food=flakes, quantity=1, unit="cup")

    assert refused.value.code == "unknown_unit"
    assert not FoodEntry.objects.exists()


def test_an_implausible_total_is_refused_asking_about_the_unit(alice, oats):
    with pytest.raises(ValidationError) as refused:
        food_entry_create(user=alice, food=oats, quantity=75, unit="100 g")

    assert refused.value.code == "implausible"
    message = refused.value.messages[0]
    # 75 x 100 g of oats at 379 kcal per 100 g.
    assert "75 x 100 g of Cereals, oats" in message
    assert "28,425 kcal" in message
    assert "Did you mean 75 g (284 kcal)?" in message
    assert not FoodEntry.objects.exists()


def test_a_large_but_possible_entry_is_logged(alice, oats):
    # 1.3 kg of dry oats is 4,927 kcal: odd, not impossible.
    assert food_entry_create(user=alice, food=oats, quantity=1300, unit="g")


def test_an_implausible_count_suggests_grams(alice, oats):
    with pytest.raises(ValidationError) as refused:
        food_entry_create(user=alice, food=oats, quantity=20, unit="servings")

    assert refused.value.code == "implausible"
    assert "Did you mean 20 g" in refused.value.messages[0]


def test_a_negative_quantity_is_refused(alice, banana):
    with pytest.raises(ValidationError) as refused:
        food_entry_create(user=alice, food=banana, quantity=-2)

    assert refused.value.code == "invalid_quantity"
    assert not FoodEntry.objects.exists()


# --- who sees what -------------------------------------------------------------------------------


def test_bob_cannot_see_log_or_change_alices_own_food(alice, bob, alices_shake):
    with pytest.raises(Food.DoesNotExist):
        food_get(user=bob, food_id=alices_shake.id)
    assert alices_shake not in food_search(user=bob, query="banana shake")
    with pytest.raises(ValidationError) as refused:
        food_entry_create(user=bob, food=alices_shake)
    assert refused.value.code == "food_not_found"
    with pytest.raises(Food.DoesNotExist):
        food_update_custom(user=bob, food_id=alices_shake.id, calories=1)
    with pytest.raises(Food.DoesNotExist):
        food_delete_custom(user=bob, food_id=alices_shake.id)

    alices_shake.refresh_from_db()
    assert alices_shake.calories == 320
    assert not FoodEntry.objects.exists()


def test_a_shared_food_is_visible_and_loggable_but_read_only_to_others(alice, bob, alices_shake):
    food_update_custom(user=alice, food_id=alices_shake.id, shared_with_public=True)
    approve_share(alices_shake)

    assert food_get(user=bob, food_id=alices_shake.id) == alices_shake
    assert alices_shake in food_search(user=bob, query="banana shake")
    assert food_entry_create(user=bob, food=alices_shake).user == bob
    for change in (
        lambda: food_update_custom(user=bob, food_id=alices_shake.id, calories=1),
        lambda: food_delete_custom(user=bob, food_id=alices_shake.id),
    ):
        with pytest.raises(ValidationError) as refused:
            change()
        assert refused.value.code == "read_only"
    alices_shake.refresh_from_db()
    assert alices_shake.calories == 320


def test_an_id_that_is_not_a_uuid_is_simply_not_found(alice):
    with pytest.raises(Food.DoesNotExist):
        food_get(user=alice, food_id="42")


def test_bob_cannot_edit_or_delete_alices_entries(alice, bob, banana):
    entry = food_entry_create(user=alice, food=banana)

    with pytest.raises(FoodEntry.DoesNotExist):
        food_entry_update(user=bob, entry_id=entry.id, quantity=3)
    with pytest.raises(FoodEntry.DoesNotExist):
        food_entry_delete(user=bob, entry_id=entry.id)
    entry.refresh_from_db()
    assert entry.quantity == 1


# --- custom foods --------------------------------------------------------------------------------


def test_a_custom_food_belongs_to_its_creator_in_one_spelling_of_its_unit(alice):
    food = food_create_custom(
        user=alice, name="  Overnight   oats ", serving_size=250, serving_unit="Grams", calories=300
    )

    assert (food.name, food.serving_unit, food.is_custom, food.user) == (
        "Overnight oats",
        "g",
        True,
        alice,
    )
    assert food.shared_with_public is False


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"name": "  "}, "invalid_name"),
        ({"calories": -5}, "invalid_value"),
        ({"protein": "a lot"}, "invalid_value"),
        ({"calories": float("nan")}, "invalid_value"),
        ({"calories": 10**10}, "invalid_value"),  # does not fit numeric(12, 3)
        ({"serving_size": 0}, "invalid_value"),
        ({"serving_size": 10**8}, "invalid_value"),  # does not fit numeric(10, 3)
        ({"serving_unit": ""}, "invalid_unit"),
        ({"sugar": 5}, "unknown_field"),
        ({"barcode": "12ab"}, "invalid_barcode"),
    ],
)
def test_bad_custom_food_values_are_refused_before_the_database_sees_them(alice, fields, code):
    values = {"name": "Granola", "calories": 450, **fields}

    with pytest.raises(ValidationError) as refused:
        food_create_custom(user=alice, **values)

    assert refused.value.code == code
    assert not Food.objects.exists()


def test_updating_a_custom_food_changes_only_what_is_given(alice, alices_shake):
    food_update_custom(user=alice, food_id=alices_shake.id, calories=300)

    alices_shake.refresh_from_db()
    assert (alices_shake.calories, alices_shake.protein, alices_shake.serving_unit) == (
        300,
        25,
        "glass",
    )


def test_entries_follow_a_corrected_custom_food(alice, alices_shake):
    entry = food_entry_create(user=alice, food=alices_shake, quantity=2)

    food_update_custom(user=alice, food_id=alices_shake.id, calories=300)

    entry.refresh_from_db()
    assert entry_nutrients(entry)["calories"] == Decimal(600)


def test_a_refused_update_changes_nothing(alice, alices_shake):
    with pytest.raises(ValidationError):
        food_update_custom(user=alice, food_id=alices_shake.id, name="Shake", calories=-1)

    alices_shake.refresh_from_db()
    assert alices_shake.name == "Alice's banana shake"


def test_a_catalog_food_cannot_be_changed_as_a_custom_food(alice, banana):
    with pytest.raises(ValidationError) as refused:
        food_update_custom(user=alice, food_id=banana.id, calories=1)

    assert refused.value.code == "read_only"


def test_a_custom_food_in_use_is_not_deleted(alice, alices_shake):
    food_entry_create(user=alice, food=alices_shake)

    with pytest.raises(ValidationError) as refused:
        food_delete_custom(user=alice, food_id=alices_shake.id)

    assert refused.value.code == "in_use"
    assert "1 of your diary entries" in refused.value.messages[0]
    assert Food.objects.filter(pk=alices_shake.pk).exists()


def test_a_custom_food_nobody_logged_is_deleted(alice, alices_shake):
    food_delete_custom(user=alice, food_id=alices_shake.id)

    assert not Food.objects.filter(pk=alices_shake.pk).exists()


# --- options -------------------------------------------------------------------------------------

OPTION = {
    "name": "Chicken burrito",
    "calories": 650,
    "protein": 35,
    "carbs": 70,
    "fat": 22,
    "serving_size": 1,
    "serving_unit": "burrito",
    "description": "a restaurant burrito",  # what a model adds is ignored
}


def test_an_option_becomes_a_custom_food_and_one_serving_is_logged(alice):
    entry = food_option_add(user=alice, option=OPTION, meal_type="lunch")

    assert entry.food.is_custom and entry.food.user == alice
    assert entry.food.name == "Chicken burrito"
    assert (entry.quantity, entry.meal_type) == (1, "lunch")
    assert entry_nutrients(entry)["calories"] == 650


def test_picking_the_same_option_again_reuses_the_food(alice):
    first = food_option_add(user=alice, option=OPTION)
    second = food_option_add(user=alice, option=OPTION, quantity=2, unit="burritos")

    assert first.food_id == second.food_id
    assert entry_nutrients(second)["calories"] == 1300
    assert Food.objects.filter(user=alice).count() == 1


def test_an_option_for_a_future_day_creates_nothing(alice):
    with pytest.raises(ValidationError):
        food_option_add(user=alice, option=OPTION, entry_date=days_from_today(alice, 3))

    assert not Food.objects.exists()


def test_an_option_without_a_name_is_refused(alice):
    with pytest.raises(ValidationError) as refused:
        food_option_add(user=alice, option={"calories": 100})

    assert refused.value.code == "invalid_option"


# --- editing entries -----------------------------------------------------------------------------


def test_changing_the_quantity_keeps_the_unit_and_serving(alice, egg):
    entry = food_entry_create(user=alice, food=egg, quantity=2, unit="large")

    entry = food_entry_update(user=alice, entry_id=entry.id, quantity=3)

    assert (entry.quantity, entry.unit, entry.variant.serving_unit) == (3, "large", "large")
    assert entry_nutrients(entry)["calories"] == Decimal("214.500")


def test_the_entrys_own_unit_said_again_keeps_its_serving(alice, egg):
    # "make that 3 large ones": the unit said is the entry's own, so its serving stays
    entry = food_entry_create(user=alice, food=egg, quantity=2, unit="large")

    entry = food_entry_update(user=alice, entry_id=entry.id, quantity=3, unit="Large")

    assert (entry.quantity, entry.unit, entry.variant.serving_unit) == (3, "large", "large")
    assert entry_nutrients(entry)["calories"] == Decimal("214.500")


def test_changing_the_unit_converts_again(alice, egg):
    entry = food_entry_create(user=alice, food=egg, quantity=2, unit="large")

    entry = food_entry_update(user=alice, entry_id=entry.id, quantity=80, unit="g")

    assert (entry.quantity, entry.unit, entry.variant) == (80, "g", None)


def test_changing_the_food_keeps_the_amount_when_it_fits(alice, egg, banana):
    entry = food_entry_create(user=alice, food=egg, quantity=120, unit="g")

    entry = food_entry_update(user=alice, entry_id=entry.id, food_name="banana")

    assert (entry.food, entry.quantity, entry.unit) == (banana, 120, "g")


def test_changing_the_food_to_one_that_does_not_take_the_unit_says_which_do(alice, egg, banana):
    entry = food_entry_create(user=alice, food=egg, quantity=2, unit="large")

    with pytest.raises(ValidationError) as refused:
        food_entry_update(user=alice, entry_id=entry.id, food=banana.id, unit="slice")

    assert refused.value.code == "unknown_unit"
    assert FoodEntry.objects.for_user(alice).get().food == egg


def test_a_food_name_with_no_confident_match_is_refused(alice, egg):
    entry = food_entry_create(user=alice, food=egg, quantity=1)

    with pytest.raises(ValidationError) as refused:
        food_entry_update(user=alice, entry_id=entry.id, food_name="zzqx unobtainium")

    assert refused.value.code == "food_not_found"


def test_another_users_private_food_is_never_chosen(alice, bob, egg):
    bobs = food_create_custom(user=bob, name="Bob's secret stew", calories=100)
    entry = food_entry_create(user=alice, food=egg, quantity=1)

    with pytest.raises(ValidationError) as refused:
        food_entry_update(user=alice, entry_id=entry.id, food=bobs.id)

    assert refused.value.code == "food_not_found"


def test_moving_an_entry_to_another_meal_and_day(alice, banana):
    entry = food_entry_create(user=alice, food=banana)

    entry = food_entry_update(
        user=alice, entry_id=entry.id, meal_type="Supper", entry_date="yesterday"
    )

    assert (entry.meal_type, entry.entry_date) == ("dinner", days_from_today(alice, -1))


def test_a_refused_edit_leaves_the_entry_as_it_was(alice, oats):
    entry = food_entry_create(user=alice, food=oats, quantity=50, unit="g")

    with pytest.raises(ValidationError) as refused:
        food_entry_update(user=alice, entry_id=entry.id, quantity=75, unit="100 g")

    assert refused.value.code == "implausible"
    entry.refresh_from_db()
    assert (entry.quantity, entry.unit) == (50, "g")


def test_an_edit_into_the_future_is_refused(alice, banana):
    entry = food_entry_create(user=alice, food=banana)

    with pytest.raises(ValidationError):
        food_entry_update(user=alice, entry_id=entry.id, entry_date=days_from_today(alice, 1))

    entry.refresh_from_db()
    assert entry.entry_date == today_for(alice)


def test_deleting_an_entry(alice, banana):
    entry = food_entry_create(user=alice, food=banana)

    food_entry_delete(user=alice, entry_id=entry.id)

    assert not FoodEntry.objects.exists()


# --- goals ---------------------------------------------------------------------------------------


def test_the_default_goal_applies_on_days_without_their_own(alice):
    goal_set(user=alice, calories=2000, protein=120, water_goal=8)

    goal = goal_for(user=alice, day=today_for(alice))

    assert goal.goal_date is None
    assert (goal.calories, goal.protein, goal.water_goal) == (2000, 120, 8)


def test_a_days_own_goal_wins_over_the_default(alice):
    goal_set(user=alice, calories=2000)
    goal_set(user=alice, goal_date="yesterday", calories=2500)

    assert goal_for(user=alice, day=days_from_today(alice, -1)).calories == 2500
    assert goal_for(user=alice, day=today_for(alice)).calories == 2000


def test_no_goal_at_all_is_none(alice):
    assert goal_for(user=alice, day="today") is None


def test_setting_a_goal_again_changes_only_the_given_values(alice):
    goal_set(user=alice, calories=2000, protein=120)
    goal_set(user=alice, protein=140)

    goal = UserGoal.objects.get(user=alice)
    assert (goal.calories, goal.protein) == (2000, 140)


def test_a_goal_may_be_planned_for_a_future_day(alice):
    goal = goal_set(user=alice, goal_date=days_from_today(alice, 7).isoformat(), calories=1800)

    assert goal.goal_date == days_from_today(alice, 7)
    assert goal_set(user=alice, goal_date="tomorrow", fat=60).goal_date == days_from_today(alice, 1)


def test_goals_take_the_food_columns_name_for_monounsaturated_fat(alice):
    assert goal_set(user=alice, monounsaturated_unsaturated=20).monounsaturated_fat == 20


@pytest.mark.parametrize(
    ("values", "code"),
    [
        ({"calories": -1}, "invalid_value"),
        ({"protein": 10**10}, "invalid_value"),
        ({"water_goal": 2.5}, "invalid_quantity"),
        ({"water_goal": 500}, "invalid_quantity"),
        ({"happiness": 10}, "unknown_field"),
        ({}, "no_values"),
    ],
)
def test_bad_goal_values_are_refused_and_nothing_is_written(alice, values, code):
    with pytest.raises(ValidationError) as refused:
        goal_set(user=alice, **values)

    assert refused.value.code == code
    assert not UserGoal.objects.exists()


def test_alices_goal_is_not_bobs(alice, bob):
    goal_set(user=alice, calories=2000)

    assert goal_for(user=bob, day="today") is None


def test_a_meal_is_repeated_from_the_users_own_entries_only(alice, bob, egg, banana):
    food_entry_create(
        user=alice, food=egg, quantity=2, meal_type="breakfast", entry_date="yesterday"
    )
    food_entry_create(user=bob, food=banana, meal_type="breakfast", entry_date="yesterday")

    copied = meal_repeat(user=alice, from_date="yesterday", meal="breakfast")

    assert [(e.user, e.food, e.quantity) for e in copied] == [(alice, egg, Decimal("2"))]
    assert FoodEntry.objects.for_user(bob).count() == 1


def test_a_meal_only_another_user_logged_is_nothing_to_repeat(alice, bob, banana):
    food_entry_create(user=bob, food=banana, meal_type="lunch", entry_date="yesterday")

    with pytest.raises(ValidationError) as refused:
        meal_repeat(user=alice, from_date="yesterday", meal="lunch")

    assert refused.value.code == "nothing_to_repeat"
    assert not FoodEntry.objects.for_user(alice).exists()
