"""chat.tools.lookup: finding the user's own diary row by what a model calls it ("the eggs",
"my run"), by id or by a name on a day; never a guess, never another user's row."""

import datetime as dt
import uuid

import pytest
from django.core.exceptions import ObjectDoesNotExist

from chat.tools import ToolContext
from chat.tools.lookup import Ambiguous, find_own_row, name_score
from nutrition.models import FoodEntry
from sparky.dates import today_for
from tests.factories import FoodEntryFactory, FoodFactory

pytestmark = pytest.mark.django_db


def find(user, **kw):
    return find_own_row(
        ctx=ToolContext.for_user(user),
        queryset=FoodEntry.objects.for_user(user).select_related("food"),
        label="food_name",
        name_of=lambda e: e.food.name,
        kind="food entry",
        **kw,
    )


@pytest.mark.parametrize(
    ("query", "name"),
    [("eggs", "Egg, whole, raw, fresh"), ("banana", "Bananas, raw"), ("toast", "toast")],
)
def test_what_a_model_calls_a_food_fits_its_catalog_name(query, name):
    assert name_score(query, name) >= 0.6


@pytest.mark.parametrize(
    ("query", "name"),
    [("banana", "Egg, whole, raw, fresh"), ("egg", "Eggplant, raw"), ("", "Bananas, raw")],
)
def test_a_different_food_does_not_fit(query, name):
    assert name_score(query, name) < 0.6


def test_an_id_finds_the_users_own_entry(alice, catalog):
    entry = FoodEntryFactory(user=alice, food=catalog["egg"])

    assert find(alice, entry_id=str(entry.id)) == entry


@pytest.mark.parametrize("make_id", [lambda theirs: str(theirs.id), lambda _: "not-a-uuid"])
def test_another_users_id_or_a_made_up_one_is_not_found(alice, bob, catalog, make_id):
    theirs = FoodEntryFactory(user=bob, food=catalog["egg"])
    entry_id = make_id(theirs)

    with pytest.raises(ObjectDoesNotExist, match=f"You have no food entry with id {entry_id}"):
        find(alice, entry_id=entry_id)


def test_an_unknown_uuid_is_not_found(alice):
    with pytest.raises(ObjectDoesNotExist, match="You have no food entry"):
        find(alice, entry_id=str(uuid.uuid4()))


def test_neither_a_name_nor_an_id_asks_which(alice):
    with pytest.raises(
        ObjectDoesNotExist, match="Say which food entry: give its food_name or its id"
    ):
        find(alice)


def test_a_name_is_looked_for_on_the_day_given_only(alice, catalog):
    yesterday = today_for(alice) - dt.timedelta(days=1)
    FoodEntryFactory(user=alice, food=catalog["egg"], entry_date=yesterday)

    with pytest.raises(ObjectDoesNotExist, match=f"like 'egg' on {today_for(alice).isoformat()}"):
        find(alice, name="egg")
    assert find(alice, name="egg", date="yesterday").entry_date == yesterday


def test_the_best_fitting_name_wins_over_a_weaker_one(alice, catalog):
    FoodEntryFactory(user=alice, food=FoodFactory(name="Eggnog"))
    plain = FoodEntryFactory(user=alice, food=FoodFactory(name="Egg"))

    assert find(alice, name="egg") == plain


def test_two_rows_that_fit_as_well_are_ambiguous(alice, bob, catalog):
    first = FoodEntryFactory(user=alice, food=catalog["egg"], meal_type="breakfast")
    second = FoodEntryFactory(user=alice, food=catalog["egg"], meal_type="lunch")
    FoodEntryFactory(user=bob, food=catalog["egg"])  # bob's never counts

    with pytest.raises(Ambiguous) as many:
        find(alice, name="eggs")

    assert set(many.value.candidates) == {first, second}


def test_another_users_row_is_never_found_by_name(alice, bob, catalog):
    FoodEntryFactory(user=bob, food=catalog["bananas"])

    with pytest.raises(ObjectDoesNotExist):
        find(alice, name="banana")
