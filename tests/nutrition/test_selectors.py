import datetime as dt
from decimal import Decimal

from nutrition.models import NUTRIENTS, FoodEntry
from nutrition.selectors import food_diary, frequent_foods, nutrition_totals, water_for
from nutrition.services import food_create_custom, food_entry_create, water_add
from sparky.dates import today_for


def yesterday(user) -> dt.date:
    return today_for(user) - dt.timedelta(days=1)


def test_totals_add_up_every_entry_of_the_day(alice, egg, banana):
    food_entry_create(user=alice, food=egg, quantity=2, unit="large", meal_type="breakfast")
    food_entry_create(user=alice, food=banana, quantity=150, unit="g")

    totals = nutrition_totals(user=alice, day=today_for(alice))

    assert set(totals) == set(NUTRIENTS)
    # 2 large eggs (100 g, 143 kcal) + 150 g of banana (133.5 kcal)
    assert totals["calories"] == Decimal("276.500")
    assert totals["protein"] == Decimal("12.560") + Decimal("1.635")
    assert totals["sodium"] == 0  # neither food records it


def test_totals_leave_out_other_days_and_other_people(alice, bob, banana):
    food_entry_create(user=alice, food=banana, quantity=100, unit="g")
    food_entry_create(user=alice, food=banana, quantity=100, unit="g", entry_date="yesterday")
    food_entry_create(user=bob, food=banana, quantity=500, unit="g")

    assert nutrition_totals(user=alice, day="today")["calories"] == 89
    assert nutrition_totals(user=alice, day=yesterday(alice))["calories"] == 89


def test_a_day_with_nothing_logged_totals_zero(alice):
    assert all(value == 0 for value in nutrition_totals(user=alice, day="today").values())


def test_totals_are_one_query_however_many_entries(
    alice, egg, banana, oats, django_assert_num_queries
):
    bar = food_create_custom(
        user=alice, name="Protein bar", serving_size=1, serving_unit="bar", calories=210
    )
    for food, quantity, unit in [
        (egg, 2, "large"),
        (banana, 1, None),
        (oats, 1, "cup"),
        (oats, 40, "g"),
        (bar, 1, None),
        (bar, 2, "bars"),
    ]:
        food_entry_create(user=alice, food=food, quantity=quantity, unit=unit)

    with django_assert_num_queries(1):
        totals = nutrition_totals(user=alice, day=today_for(alice))

    assert totals["calories"] > 0


def test_the_diary_groups_entries_by_meal_with_names_and_macros(alice, egg, banana):
    food_entry_create(user=alice, food=egg, quantity=2, unit="large", meal_type="breakfast")
    food_entry_create(user=alice, food=banana, quantity=1, meal_type="breakfast")
    food_entry_create(user=alice, food=banana, quantity=118, unit="g", meal_type="snack")

    diary = food_diary(user=alice, day=today_for(alice))

    assert list(diary) == ["breakfast", "lunch", "dinner", "snack"]
    assert diary["lunch"] == diary["dinner"] == []
    eggs, fruit = diary["breakfast"]
    assert (eggs["food_name"], eggs["quantity"], eggs["unit"]) == (
        "Egg, whole, raw, fresh",
        2,
        "large",
    )
    assert eggs["grams"] == Decimal(100)
    assert eggs["calories"] == Decimal("143.000")
    assert eggs["protein"] == Decimal("12.560")
    assert fruit["unit"] == "medium"
    assert fruit["serving"].startswith("medium (7")
    assert diary["snack"][0]["calories"] == fruit["calories"]  # a medium banana is 118 g


def test_the_diary_shows_only_the_users_day(alice, bob, banana):
    food_entry_create(user=bob, food=banana)
    food_entry_create(user=alice, food=banana, entry_date="yesterday")

    assert all(items == [] for items in food_diary(user=alice, day="today").values())


def test_an_entry_that_no_longer_converts_is_shown_and_counted_as_nothing(alice, banana):
    entry = food_entry_create(user=alice, food=banana, meal_type="snack")
    FoodEntry.objects.filter(pk=entry.pk).update(unit="bucket", variant=None)

    diary = food_diary(user=alice, day="today")

    assert diary["snack"][0]["calories"] is None
    assert nutrition_totals(user=alice, day="today")["calories"] == 0


def test_water_for_a_day(alice):
    water_add(user=alice, glasses=3)

    assert water_for(user=alice, day=today_for(alice)) == 3
    assert water_for(user=alice, day=yesterday(alice)) == 0


def test_frequent_foods_most_often_first_with_the_usual_amount(alice, bob, egg, banana):
    for _ in range(3):
        food_entry_create(user=alice, food=egg, quantity=2, unit="large")
    food_entry_create(user=alice, food=egg, quantity=1, unit="large", entry_date="yesterday")
    food_entry_create(user=alice, food=banana, quantity=1)
    food_entry_create(user=bob, food=banana, quantity=1)
    food_entry_create(user=bob, food=banana, quantity=1)

    rows = frequent_foods(user=alice, days=7)

    assert [r["name"] for r in rows] == ["Egg, whole, raw, fresh", "Bananas, raw"]
    assert rows[0]["times"] == 4
    assert (rows[0]["usual_quantity"], rows[0]["usual_unit"]) == (2, "large")
    assert rows[0]["last_logged"] == today_for(alice)
