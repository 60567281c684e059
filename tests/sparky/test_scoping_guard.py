"""The suite's guard on per-user rows (tests/scoping.py): what it counts as a read through the user
and what as a read of every user's rows. tests/conftest.py runs every test under it."""

import datetime as dt

from chat.models import ChatMessage
from measurements.models import CustomMeasurement
from nutrition.models import Food, FoodEntry
from tests.scoping import unscoped_tables, user_tables


def sql(queryset) -> str:
    return queryset.query.sql_with_params()[0]


def test_the_per_user_tables_are_the_users_rows_and_not_the_catalogs():
    tables = user_tables()

    assert {"food_entries", "sparky_chat_history", "user_goals", "water_intake"} <= tables
    assert {"exercise_entries", "check_in_measurements", "usual_meals"} <= tables
    assert not {"foods", "exercises", "users", "food_variants"} & tables


def test_a_read_through_the_user_passes_and_one_without_is_named(alice):
    day = dt.date(2026, 12, 2)
    tables = user_tables()

    assert unscoped_tables(sql(FoodEntry.objects.for_user(alice).on_date(day)), tables) == []
    assert unscoped_tables(sql(FoodEntry.objects.on_date(day)), tables) == ["food_entries"]
    by_key = ChatMessage.objects.filter(idempotency_key="k-1")
    assert unscoped_tables(sql(by_key), tables) == ["sparky_chat_history"]


def test_a_row_joined_to_the_users_own_is_reached_through_it_but_not_from_a_catalog(alice):
    tables = user_tables()
    measurements = CustomMeasurement.objects.for_user(alice).select_related("category")
    foods_eaten_at_lunch = Food.objects.filter(entries__meal_type="lunch")

    assert unscoped_tables(sql(measurements), tables) == []
    assert unscoped_tables(sql(foods_eaten_at_lunch), tables) == ["food_entries"]


def test_a_subquery_on_a_users_rows_needs_its_own_user_filter(alice):
    tables = user_tables()
    eaten = FoodEntry.objects.values("food_id")
    eaten_by_alice = FoodEntry.objects.for_user(alice).values("food_id")

    assert unscoped_tables(sql(Food.objects.filter(id__in=eaten)), tables) == ["food_entries"]
    assert unscoped_tables(sql(Food.objects.filter(id__in=eaten_by_alice)), tables) == []


def test_an_insert_is_no_read():
    assert unscoped_tables('INSERT INTO "food_entries" ("id") VALUES (%s)', user_tables()) == []
