"""The step lines a streamed reply shows: plain words, never a tool's name."""

from chat.tools.base import registry
from chat.turn.steps import doing, doing_so_far


def test_a_food_being_logged_is_looked_up_by_its_name():
    assert doing("log_food", '{"food_name": "oatmeal", "quantity": 1}') == "Looking up oatmeal…"


def test_a_call_without_a_usable_subject_is_said_by_what_it_does():
    assert doing("log_food", "{not json") == "Checking your food diary…"
    assert doing("log_water", {"glasses": 2}) == "Adding your water…"


def test_a_long_subject_is_cut_at_a_word():
    said = "a very large bowl of homemade chicken noodle soup with crackers"
    line = doing("search_foods", {"query": said})
    assert line == "Looking up a very large bowl of homemade chicken…"


def test_a_call_still_being_written_is_named_once_its_subject_is_complete():
    assert doing_so_far("log_food", '{"food_na') is None
    assert doing_so_far("log_food", '{"food_name": "oatm') is None
    assert doing_so_far("log_food", '{"food_name": "oatmeal", "qu') == "Looking up oatmeal…"
    assert doing_so_far("log_food", '{"food_name": "caf\\u00e9 latte"') == "Looking up café latte…"
    assert doing_so_far("log_water", '{"glasses": 2') is None  # said when it runs


def test_no_tool_is_ever_named_in_its_line():
    for name in registry():
        line = doing(name, {})
        assert name not in line and "_" not in line, name
        assert line.endswith("…"), name
