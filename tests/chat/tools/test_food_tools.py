"""Food tools as a model calls them (chat.tools.run_tool): what lands in whose diary, what is
refused and what the user is asked first."""

import datetime as dt
from decimal import Decimal

import pytest

from chat.tools import ToolContext, run_tool
from chat.tools.grounding import Said
from nutrition.models import Food, FoodEntry
from nutrition.services import entry_nutrients
from sparky import services
from sparky.dates import today_for
from tests.factories import CustomFoodFactory, FoodEntryFactory

pytestmark = pytest.mark.django_db


def call(user, name, args, **ctx):
    return run_tool(ToolContext.for_user(user, **ctx), name, args)


def kcal(entry) -> Decimal:
    return entry_nutrients(entry)["calories"]


# --- log_food ---------------------------------------------------------------------------------


def test_two_eggs_land_in_the_users_diary_as_two_large_eggs(alice, catalog):
    result = call(alice, "log_food", {"food_name": "eggs", "quantity": 2, "meal_type": "breakfast"})

    assert result.ok, result.message
    entry = FoodEntry.objects.get(user=alice)
    assert entry.food == catalog["egg"]
    assert (entry.quantity, entry.meal_type, entry.entry_date) == (2, "breakfast", today_for(alice))
    assert entry.variant.serving_unit == "large"
    assert kcal(entry) == Decimal("143")  # 2 x 50 g of 143 kcal per 100 g
    assert [w.kind for w in result.written] == ["food_entry"]
    assert result.written[0].id == str(entry.id)
    assert "143 kcal" in result.message and "breakfast" in result.message


def test_a_day_earlier_in_the_week_is_said_with_one_on(alice, catalog):
    day = today_for(alice) - dt.timedelta(days=3)

    result = call(alice, "log_food", {"food_name": "eggs", "quantity": 2, "date": day.isoformat()})

    assert f"on {day.strftime('%A')}." in result.message
    assert "on on" not in result.message


def test_an_older_day_is_said_in_the_users_date_format(alice, catalog):
    services.preferences_update(user=alice, date_format="dd/MM/yyyy")
    day = today_for(alice) - dt.timedelta(days=20)

    result = call(alice, "log_food", {"food_name": "eggs", "quantity": 2, "date": day.isoformat()})

    assert f"on {day.strftime('%d/%m/%Y')}." in result.message


def test_grams_are_weighed_against_the_foods_per_100_g_values(alice, catalog):
    result = call(alice, "log_food", {"food_name": "banana", "quantity": 150, "unit": "g"})

    assert result.ok, result.message
    entry = FoodEntry.objects.get(user=alice)
    assert entry.food == catalog["bananas"]
    assert (entry.quantity, entry.unit) == (150, "g")
    assert kcal(entry) == Decimal("133.5")


def test_a_food_the_catalog_lacks_offers_options_and_writes_nothing(alice, catalog):
    result = call(alice, "log_food", {"food_name": "dragonfruit sorbet", "quantity": 1})

    assert not result.ok
    assert "not in the food catalog" in result.message
    assert result.options["kind"] == "food"
    assert result.options["query"] == "dragonfruit sorbet"
    assert not FoodEntry.objects.exists()


@pytest.mark.parametrize("quantity", [0, -2])
def test_a_zero_or_negative_amount_is_refused_by_name(alice, catalog, quantity):
    result = call(alice, "log_food", {"food_name": "egg", "quantity": quantity})

    assert not result.ok
    assert result.message.startswith("Egg")
    assert "Nothing was saved" in result.message
    assert not FoodEntry.objects.exists()


def test_an_amount_no_one_eats_asks_the_user_first_and_saves_once_confirmed(alice, catalog):
    args = {"food_name": "egg", "quantity": 100}  # 100 large eggs: 7,150 kcal

    asked = call(alice, "log_food", args)

    assert not asked.ok
    assert asked.confirm and "more than anyone eats at once" in asked.confirm
    assert not FoodEntry.objects.exists()

    confirmed = call(alice, "log_food", args, confirmed=True)

    assert confirmed.ok, confirmed.message
    assert FoodEntry.objects.filter(user=alice).count() == 1


def test_a_future_day_is_refused(alice, catalog):
    tomorrow = (today_for(alice) + dt.timedelta(days=1)).isoformat()

    result = call(alice, "log_food", {"food_name": "egg", "date": tomorrow})

    assert not result.ok
    assert not FoodEntry.objects.exists()


def test_another_users_private_food_id_is_never_logged(alice, bob, catalog):
    bobs = CustomFoodFactory(user=bob, name="Bob's protein pancake", calories=400)

    result = call(alice, "log_food", {"food_name": "egg", "food_id": str(bobs.id)})

    assert not result.ok and "No food with id" in result.message  # nor the name instead
    assert not FoodEntry.objects.exists()


def test_two_foods_named_in_one_call_are_two_entries(alice, catalog):
    result = call(alice, "log_food", {"food_name": "egg and banana", "meal_type": "breakfast"})

    assert result.ok, result.message
    logged = sorted(e.food.name for e in FoodEntry.objects.filter(user=alice))
    assert logged == [catalog["bananas"].name, catalog["egg"].name]
    assert len(result.written) == 2


# --- log_external_food ------------------------------------------------------------------------


def test_an_external_food_becomes_the_users_own_food_and_entry(alice, bob):
    result = call(
        alice,
        "log_external_food",
        {"food_name": "Chicken burrito", "calories": 650, "protein": 35, "quantity": 2},
    )

    assert result.ok, result.message
    entry = FoodEntry.objects.get(user=alice)
    assert entry.food.is_custom and entry.food.user == alice
    assert kcal(entry) == Decimal("1300")
    assert not Food.objects.visible_to(bob).filter(pk=entry.food_id).exists()
    # The same dish again reuses the food rather than making a copy.
    call(
        alice, "log_external_food", {"food_name": "Chicken burrito", "calories": 650, "protein": 35}
    )
    assert Food.objects.filter(user=alice, name="Chicken burrito").count() == 1
    assert FoodEntry.objects.filter(user=alice).count() == 2


def test_negative_calories_for_an_external_food_are_refused(alice):
    result = call(alice, "log_external_food", {"food_name": "Mystery bar", "calories": -200})

    assert not result.ok
    assert "Nothing was saved" in result.message
    assert not Food.objects.filter(user=alice).exists()
    assert not FoodEntry.objects.exists()


# --- food_diary, search, details, recent ------------------------------------------------------


def test_the_diary_shows_only_the_users_own_entries(alice, bob, catalog):
    FoodEntryFactory(user=alice, food=catalog["egg"], quantity=100, unit="g", meal_type="breakfast")
    FoodEntryFactory(user=bob, food=catalog["bread"], quantity=2, unit="slice", meal_type="lunch")

    result = call(alice, "food_diary", {"date": "today"})

    assert result.ok
    assert result.message == f"1 food entry on {today_for(alice).isoformat()}."
    names = [row["food_name"] for rows in result.data["meals"].values() for row in rows]
    assert len(names) == 1 and "egg" in names[0].lower()
    assert round(result.data["totals"]["calories"]) == 143


def test_search_lists_catalog_foods_with_their_household_servings(alice, catalog):
    result = call(alice, "search_foods", {"query": "egg"})

    assert result.ok
    first = result.data["foods"][0]
    assert first["food_id"] == str(catalog["egg"].id)
    assert first["household_servings"] == ["1 large"]
    assert first["calories"] == 143


def test_a_custom_food_is_found_by_its_owner_only(alice, bob):
    saved = call(alice, "create_custom_food", {"food_name": "Zorblax granola", "calories": 450})
    assert saved.ok, saved.message

    mine = call(alice, "search_foods", {"query": "zorblax granola"})
    theirs = call(bob, "search_foods", {"query": "zorblax granola"})

    assert [f["name"] for f in mine.data["foods"]] == ["Zorblax granola"]
    assert theirs.data["foods"] == []


def test_food_details_of_another_users_food_is_no_such_food(alice, bob):
    bobs = CustomFoodFactory(user=bob, name="Bob's protein pancake", calories=400)

    result = call(alice, "food_details", {"food_id": str(bobs.id)})

    assert not result.ok
    assert result.message.startswith(f"No food with id {bobs.id} is yours or in the catalog.")


def test_recent_foods_counts_the_users_own_logging(alice, bob, catalog):
    for _ in range(3):
        FoodEntryFactory(user=alice, food=catalog["bananas"])
    FoodEntryFactory(user=bob, food=catalog["egg"])

    result = call(alice, "recent_foods", {"days": 7})

    assert result.ok
    assert [row["name"] for row in result.data["foods"]] == [catalog["bananas"].readable_name]


# --- edit_food_entry, delete_food_entry -------------------------------------------------------


def test_editing_by_name_changes_only_the_users_own_entry(alice, bob, catalog):
    mine = FoodEntryFactory(user=alice, food=catalog["egg"], quantity=2)
    theirs = FoodEntryFactory(user=bob, food=catalog["egg"], quantity=2)

    result = call(alice, "edit_food_entry", {"food_name": "eggs", "quantity": 3})

    assert result.ok, result.message
    mine.refresh_from_db()
    theirs.refresh_from_db()
    assert (mine.quantity, theirs.quantity) == (3, 2)
    assert result.written[0].id == str(mine.id)


def test_another_users_entry_id_is_not_found_and_stays_as_it_was(alice, bob, catalog):
    theirs = FoodEntryFactory(user=bob, food=catalog["egg"], quantity=2)

    edited = call(alice, "edit_food_entry", {"entry_id": str(theirs.id), "quantity": 9})
    deleted = call(alice, "delete_food_entry", {"entry_id": str(theirs.id)})

    assert not edited.ok and not deleted.ok
    assert f"You have no food entry with id {theirs.id}" in deleted.message
    theirs.refresh_from_db()
    assert theirs.quantity == 2


def test_an_edit_that_changes_nothing_or_goes_negative_is_refused(alice, catalog):
    entry = FoodEntryFactory(user=alice, food=catalog["egg"], quantity=2)

    nothing = call(alice, "edit_food_entry", {"entry_id": str(entry.id)})
    negative = call(alice, "edit_food_entry", {"entry_id": str(entry.id), "quantity": -1})

    assert not nothing.ok and "Say what to change" in nothing.message
    assert not negative.ok and "Nothing was saved" in negative.message
    entry.refresh_from_db()
    assert entry.quantity == 2


def test_moving_an_entry_to_another_meal_and_day(alice, catalog):
    entry = FoodEntryFactory(user=alice, food=catalog["bananas"], meal_type="breakfast")
    yesterday = today_for(alice) - dt.timedelta(days=1)

    result = call(
        alice,
        "edit_food_entry",
        {"entry_id": str(entry.id), "meal_type": "snack", "new_date": yesterday.isoformat()},
    )

    assert result.ok, result.message
    entry.refresh_from_db()
    assert (entry.meal_type, entry.entry_date) == ("snack", yesterday)
    assert result.written[0].date == yesterday.isoformat()


def test_two_entries_that_fit_the_name_are_asked_about_not_deleted(alice, catalog):
    first = FoodEntryFactory(user=alice, food=catalog["egg"], meal_type="breakfast")
    second = FoodEntryFactory(user=alice, food=catalog["egg"], meal_type="dinner")

    result = call(alice, "delete_food_entry", {"food_name": "egg"})

    assert not result.ok
    assert "Several food entries match" in result.message
    assert str(first.id) in result.message and str(second.id) in result.message
    assert FoodEntry.objects.filter(user=alice).count() == 2


def test_deleting_by_id_removes_that_entry_only(alice, bob, catalog):
    mine = FoodEntryFactory(user=alice, food=catalog["egg"])
    kept = FoodEntryFactory(user=alice, food=catalog["bananas"])
    theirs = FoodEntryFactory(user=bob, food=catalog["egg"])

    result = call(alice, "delete_food_entry", {"entry_id": str(mine.id)})

    assert result.ok, result.message
    assert result.written[0].kind == "food_entry_deleted"
    assert set(FoodEntry.objects.values_list("id", flat=True)) == {kept.id, theirs.id}


def test_words_a_chat_model_writes_where_an_id_belongs_are_no_id(alice, catalog):
    # the 1.5B wrote its item's words in food_id: "2 eggs" names no food by id (an MCP client's
    # malformed id is refused: tests/mcp/test_server.py)
    said = Said.of("2 eggs for breakfast")
    args = {"food_name": "egg", "quantity": 2, "food_id": "2 eggs"}

    result = call(alice, "log_food", args, said=said)

    assert result.ok
    [entry] = FoodEntry.objects.for_user(alice)
    assert "Egg" in entry.food.name and entry.quantity == 2
