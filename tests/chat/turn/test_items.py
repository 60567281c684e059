"""What a message names, and which items a model's calls dealt with (chat.turn.engines.items)."""

import pytest

from chat.reading.message import read
from chat.turn.engines.items import NamedItems

pytestmark = pytest.mark.django_db


def test_each_item_of_a_meal_is_named_and_struck_off_as_the_model_calls_for_it():
    named = NamedItems(read("2 eggs, toast and a coffee for breakfast"))

    assert [i.label for i in named.items] == ["egg", "toast", "coffee"]
    named.mark("log_food", '{"food_name": "eggs", "quantity": 2}')
    assert "toast, coffee" in named.hint()
    named.mark("log_food", {"food_name": "white toast"})
    named.mark("log_food", {"food_name": "coffee, brewed"})
    assert not named.left and "Every item" in named.hint()


def test_an_item_the_model_named_otherwise_is_not_logged_again():
    named = NamedItems(read("oj and a bagel"))
    named.mark("log_food", {"food_name": "orange juice"})  # the parser's "oj"
    named.mark("log_food", {"food_name": "bagel"})

    assert named.unlogged() == []  # two items, two calls: nothing left to add


def test_what_the_model_never_called_for_is_left_to_log_the_parsers_way():
    named = NamedItems(read("ran 5 km and drank 2 glasses of water, weight 80 kg"))
    named.mark("log_exercise", {"exercise_name": "running", "distance": 5})

    left = named.unlogged()
    assert [i.name for i in left] == ["log_water", "log_measurement"]


def test_a_hunch_is_no_item():
    assert not NamedItems(read("the usual please"))  # "usual" is no food
    assert NamedItems(read("the usual please")).partial
