"""The text of progress summaries (delivery by a real worker is in tests/celery/test_worker.py).

These call create_progress_summary directly, the way the task does; no Celery involved.
"""

import datetime as dt
import logging
import uuid
from decimal import Decimal

import pytest

from chat.models import ChatMessage
from chat.turn.coach import handle_turn
from chat.turn.summaries import KIND, create_progress_summary
from chat.web.views import message_view
from nutrition.models import Food, FoodEntry, UserGoal
from sparky.dates import today_for


def reply_with(user, entries):
    return ChatMessage.objects.create(
        user=user,
        session_id=uuid.uuid4(),
        message_type="assistant",
        content="Logged.",
        metadata={"response": {"entries": entries}},
    )


def eaten(user, food, quantity, day=None):
    entry = FoodEntry.objects.create(
        user=user,
        food=food,
        quantity=Decimal(quantity),
        unit=food.serving_unit,
        meal_type="lunch",
        entry_date=day or today_for(user),
    )
    return {"kind": "food_entry", "id": str(entry.id), "date": entry.entry_date.isoformat()}


@pytest.fixture
def soup(db):
    return Food.objects.create(
        name="Instant noodle soup",
        calories=450,
        protein=9,
        carbs=60,
        fat=18,
        sodium=1800,
        serving_size=1,
        serving_unit="bowl",
        source="test",
        source_id="soup",
    )


@pytest.mark.django_db
def test_a_multi_item_turn_gets_one_summary_that_adds_the_items_up(alice, catalog):
    turn = handle_turn(alice, "2 eggs and a banana for breakfast")

    summary = create_progress_summary(message_id=turn.message_id)

    assert len(turn.entries) == 2
    assert summary.metadata == {
        "kind": KIND,
        "summary_for": turn.message_id,
        "date": turn.entries[0]["date"],
    }
    assert summary.content.startswith("Today so far: ")
    assert "Those 2 items:" in summary.content
    assert ChatMessage.objects.filter(metadata__kind=KIND).count() == 1


@pytest.mark.django_db
def test_summarising_the_same_reply_twice_keeps_one_summary(alice, catalog):
    turn = handle_turn(alice, "3 glasses of water")

    first = create_progress_summary(message_id=turn.message_id)
    again = create_progress_summary(message_id=turn.message_id)

    assert first.id == again.id
    assert "water 3/8 glasses" in first.content
    assert "5 more glasses to reach your water goal" in first.content


@pytest.mark.django_db
def test_a_reply_that_logged_nothing_gets_no_summary(alice):
    reply = reply_with(alice, [])

    assert create_progress_summary(message_id=reply.id) is None
    assert not ChatMessage.objects.filter(metadata__kind=KIND).exists()


@pytest.mark.django_db
def test_going_over_the_calorie_goal_suggests_a_walk_of_the_right_length(alice, soup):
    UserGoal.objects.create(user=alice, calories=500)

    summary = create_progress_summary(message_id=reply_with(alice, [eaten(alice, soup, 2)]).id)

    # 900 kcal eaten against 500: 400 over, about 89 minutes of brisk walking.
    assert "400 kcal over the day's goal" in summary.content
    assert "89-minute brisk walk" in summary.content


@pytest.mark.django_db
def test_a_salty_meal_gets_a_tip_about_that_meal(alice, soup):
    summary = create_progress_summary(message_id=reply_with(alice, [eaten(alice, soup, 1)]).id)

    assert "salty (1,800 mg sodium" in summary.content


@pytest.mark.django_db
def test_a_summary_of_an_earlier_day_is_labelled_with_that_day(alice, soup):
    yesterday = today_for(alice) - dt.timedelta(days=1)

    summary = create_progress_summary(
        message_id=reply_with(alice, [eaten(alice, soup, 1, day=yesterday)]).id
    )

    assert summary.content.startswith("Yesterday: ")
    assert summary.metadata["date"] == yesterday.isoformat()


@pytest.mark.django_db
def test_a_forged_entry_of_another_user_is_not_counted(alice, bob, soup):
    bobs = eaten(bob, soup, 1)
    own = eaten(alice, soup, 1)

    summary = create_progress_summary(message_id=reply_with(alice, [own, bobs]).id)

    assert "450 kcal eaten" in summary.content
    assert "Those 2 items" not in summary.content


@pytest.mark.django_db(transaction=True)
def test_with_no_broker_the_summary_is_written_without_asking_for_a_broker(alice, catalog, caplog):
    with caplog.at_level(logging.WARNING):
        turn = handle_turn(alice, "a banana")

    assert ChatMessage.objects.filter(user=alice, metadata__kind=KIND).count() == 1
    assert turn.action == "logged"
    assert not [r for r in caplog.records if r.name.startswith("kombu")]  # "No hostname..."


@pytest.mark.django_db
def test_sleep_and_mood_bring_up_neither_the_weight_nor_a_weigh_in_tip(alice):
    handle_turn(alice, "weight 81.4 kg")
    turn = handle_turn(alice, "slept 7 hours, mood 8/10")
    reply = ChatMessage.objects.get(pk=turn.message_id)

    summary = create_progress_summary(message_id=str(reply.id)).content

    assert "weight" not in summary.lower() and "weigh in" not in summary.lower()
    assert "sleep" in summary.lower() and "mood" in summary.lower()


@pytest.mark.django_db
def test_a_weigh_in_shows_in_the_users_unit_without_needless_decimals(alice):
    turn = handle_turn(alice, "weight 81.4 kg")

    summary = create_progress_summary(message_id=turn.message_id).content

    assert "weight 81.4 kg" in summary and "81.40" not in summary
    assert "Weigh in at the same time of day" in summary


def a_food(kcal, sodium=0):
    return Food.objects.create(
        name=f"Test dish {kcal}",
        calories=kcal,
        protein=5,
        carbs=10,
        fat=5,
        sodium=sodium,
        serving_size=1,
        serving_unit="plate",
        source="test",
        source_id=f"dish-{kcal}-{sodium}",
    )


@pytest.mark.django_db
def test_a_very_salty_meal_is_compared_with_the_limit_by_its_ratio(alice):
    # 7,307 mg is about three times the 2,300 mg limit, not "close to half" of it
    summary = create_progress_summary(
        message_id=reply_with(alice, [eaten(alice, a_food(300, sodium=7307), 1)]).id
    )

    assert "7,307 mg sodium, about 3 times a day's limit of 2,300 mg" in summary.content
    assert "half" not in summary.content


@pytest.mark.django_db
def test_a_moderately_salty_meal_is_close_to_half_the_limit(alice, soup):
    summary = create_progress_summary(message_id=reply_with(alice, [eaten(alice, soup, 0.6)]).id)

    assert "1,080 mg sodium, close to half a day's limit of 2,300 mg" in summary.content


@pytest.mark.django_db
def test_far_over_the_goal_never_suggests_an_implausible_walk_or_a_negative_left(alice):
    UserGoal.objects.create(user=alice, calories=2000)

    summary = create_progress_summary(
        message_id=reply_with(alice, [eaten(alice, a_food(10180), 1)]).id
    )

    assert "8,180 kcal over the day's goal" in summary.content
    assert "over by 8,180" in summary.content
    assert "left" not in summary.content and "-8,180" not in summary.content
    assert "minute" not in summary.content  # no 1818-minute walk


@pytest.mark.django_db
def test_a_walk_of_eighty_minutes_reads_an_80_minute_walk(alice):
    UserGoal.objects.create(user=alice, calories=500)

    # 357 kcal over: int(357 / 4.5) + 1 = 80 minutes
    reply = reply_with(alice, [eaten(alice, a_food(857), 1)])

    summary = create_progress_summary(message_id=reply.id)

    assert "an 80-minute brisk walk" in summary.content


@pytest.mark.django_db
def test_the_heading_of_a_note_about_yesterday_names_yesterday(alice, soup):
    yesterday = today_for(alice) - dt.timedelta(days=1)
    earlier = today_for(alice) - dt.timedelta(days=3)
    notes = [
        create_progress_summary(message_id=reply_with(alice, [eaten(alice, soup, 1, day=d)]).id)
        for d in (today_for(alice), yesterday, earlier)
    ]

    labels = [message_view(note)["label"] for note in notes]

    assert labels == [
        "Progress today",
        "Progress yesterday",
        f"Progress on {earlier.strftime('%A')}",
    ]
