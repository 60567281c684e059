"""The body's history, the way to a weight and the daily goals through the chat API, offline:
"show me my measurements" lists the check-ins of the last weeks (never the food totals), "how far
am i from 55kg" measures the latest weigh-in against the number, and "set calories to 2000 a day"
sets the goal through the goals' service, with undo; a wish sets nothing."""

import datetime as dt
from decimal import Decimal

import pytest

from measurements.models import CheckInMeasurement
from nutrition.models import UserGoal
from sparky.services import preferences_for
from tests.api.asking import ask, send
from tests.factories import CheckInFactory, FoodEntryFactory, UserGoalFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def checkins(alice, bob, day):
    CheckInFactory(
        user=alice, entry_date=day - dt.timedelta(days=12), weight=Decimal("60.2"),
        waist=Decimal("78"),
    )  # fmt: skip
    CheckInFactory(
        user=alice, entry_date=day - dt.timedelta(days=3), weight=Decimal("58.4"),
        systolic=118, diastolic=76, steps=9000,
    )  # fmt: skip
    CheckInFactory(user=alice, entry_date=day - dt.timedelta(days=90), weight=Decimal("70"))
    CheckInFactory(user=bob, entry_date=day, weight=Decimal("99.9"))


@pytest.mark.parametrize(
    "question",
    ["show me my measurements", "my measurement history", "what have my check-ins been"],
)
def test_the_measurements_are_the_check_ins_of_the_last_weeks(
    alice_api, alice, catalog, checkins, question
):
    FoodEntryFactory(user=alice, food=catalog["egg"], quantity=2)

    reply = ask(alice_api, question)

    assert "60.2 kg" in reply and "58.4 kg" in reply and "down 1.8 kg" in reply
    assert "waist 78 cm" in reply.lower() and "118/76" in reply and "9000" in reply.replace(",", "")
    assert "70 kg" not in reply and "99.9" not in reply
    assert "kcal" not in reply
    assert CheckInMeasurement.objects.for_user(alice).count() == 3


def test_no_measurements_is_said_plainly(alice_api):
    reply = ask(alice_api, "show me my measurements")

    assert "no check-ins" in reply.lower() and "kcal" not in reply


@pytest.mark.parametrize("question", ["how far am i from 55kg", "how far am I from 55 kg?"])
def test_the_way_to_a_weight_is_the_latest_weigh_in_against_it(alice_api, checkins, question):
    reply = ask(alice_api, question)

    assert "3.4 kg above 55 kg" in reply and "58.4 kg" in reply


def test_the_way_to_a_weight_is_said_in_the_users_unit(alice_api, alice, day):
    prefs = preferences_for(alice)
    prefs.default_weight_unit = "lb"
    prefs.save()
    CheckInFactory(user=alice, entry_date=day, weight=Decimal("150"))

    reply = ask(alice_api, "how far am i from 140 lbs")

    assert "10 lb above 140 lb" in reply


def test_a_weight_below_the_one_said_is_below_it(alice_api, checkins):
    reply = ask(alice_api, "how far am i from 60kg")

    assert "1.6 kg below 60 kg" in reply


@pytest.mark.parametrize(
    "question", ["how much more to lose to hit my goal weight", "how far from my target"]
)
def test_a_goal_weight_never_told_is_asked_for_with_the_latest_weigh_in(
    alice_api, checkins, question
):
    reply = ask(alice_api, question)

    assert "58.4 kg" in reply and "goal weight" in reply
    assert "kcal" not in reply


def test_the_way_to_a_weight_without_a_weigh_in_says_so(alice_api):
    reply = ask(alice_api, "how far am i from 55kg")

    assert "no weigh-in" in reply.lower()


@pytest.mark.parametrize(
    ("message", "field", "value"),
    [
        ("set calories to 2000 a day", "calories", 2000),
        ("change my calorie goal to 1800", "calories", 1800),
        ("protein goal 140g", "protein", 140),
    ],
)
def test_a_goal_is_set_through_the_goals_service_and_said(alice_api, alice, message, field, value):
    UserGoalFactory(user=alice, calories=Decimal(2500), protein=Decimal(100))

    body = send(alice_api, message)

    goal = UserGoal.objects.for_user(alice).get(goal_date=None)
    assert getattr(goal, field) == value
    assert f"{value:,}" in body["message"] or str(value) in body["message"]
    assert [e["kind"] for e in body["entries"]] == ["goal"], body


def test_a_goal_set_in_chat_is_undone_to_what_it_was(alice_api, alice):
    UserGoalFactory(user=alice, calories=Decimal(2500))
    body = send(alice_api, "set calories to 2000 a day")

    undone = alice_api.post(f"/api/chat/messages/{body['message_id']}/undo/")

    assert undone.status_code == 200, undone.content
    assert UserGoal.objects.for_user(alice).get(goal_date=None).calories == 2500


def test_a_wish_sets_no_goal(alice_api, alice):
    UserGoalFactory(user=alice, calories=Decimal(2500))

    body = send(alice_api, "i wish i could eat 1500")

    assert UserGoal.objects.for_user(alice).get(goal_date=None).calories == 2500
    assert body["entries"] == []
