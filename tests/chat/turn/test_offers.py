"""Options from the catalog: the short names people read, the full ones where two look alike."""

import pytest

from chat.reading.replies import numeric_reply
from chat.turn.offers import generate_options
from nutrition.models import Food
from nutrition.names import short_food_name

pytestmark = pytest.mark.django_db


def catalog_food(description: str, source_id: str, calories: int) -> Food:
    return Food.objects.create(
        name=description,
        original_name=description,
        display_name=short_food_name(description),
        calories=calories,
        serving_size=100,
        serving_unit="g",
        source="usda_sr28",
        source_id=source_id,
    )


def test_catalog_options_use_the_short_name(alice):
    catalog_food("Yogurt, Greek, plain, nonfat", "01256", 59)

    options, source = generate_options(
        user=alice, kind="food", query="greek yogurt", request_text="greek yogurt"
    )

    assert source == "catalog"
    assert [o["name"] for o in options] == ["Greek yogurt, plain, nonfat"]


def test_options_that_would_look_alike_show_their_full_names(alice):
    choice = 'Beef, top sirloin, steak, separable lean and fat, trimmed to 1/8" fat, choice, '
    select = 'Beef, top sirloin, steak, separable lean and fat, trimmed to 1/8" fat, select, '
    catalog_food(choice + "cooked, broiled", "13945", 243)
    catalog_food(select + "cooked, broiled", "13946", 233)
    assert short_food_name(choice + "cooked, broiled") == short_food_name(
        select + "cooked, broiled"
    )

    options, _source = generate_options(
        user=alice, kind="food", query="top sirloin steak", request_text="top sirloin steak"
    )

    assert sorted(o["name"] for o in options) == [
        choice + "cooked, broiled",
        select + "cooked, broiled",
    ]


@pytest.mark.parametrize(
    ("reply", "number"),
    [
        ("2", 2),
        ("#3", 3),
        ("option 2", 2),
        ("the first one", 1),
        ("first one please", 1),
        ("yes, the 2nd", 2),
        ("number three", 3),
        ("two eggs", None),  # a new request, not a pick
        ("the first one was great actually", None),
        ("one", None),  # one what?
    ],
)
def test_a_pick_can_be_said_in_words(reply, number):
    assert numeric_reply(reply) == number
