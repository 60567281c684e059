"""Removing goals: the default goal or one day's, the user's own only."""

import datetime as dt

import pytest
from django.core.exceptions import ValidationError

from nutrition.models import UserGoal
from nutrition.services import goal_delete, goal_for, goal_set
from sparky.dates import today_for

pytestmark = pytest.mark.django_db


def days_from_today(user, n: int) -> dt.date:
    return today_for(user) + dt.timedelta(days=n)


def test_deleting_a_days_goal_brings_back_the_default_on_that_day(alice):
    goal_set(user=alice, calories=2000)
    goal_set(user=alice, goal_date="yesterday", calories=2500)

    goal_delete(user=alice, goal_date=days_from_today(alice, -1).isoformat())

    assert goal_for(user=alice, day=days_from_today(alice, -1)).calories == 2000
    assert UserGoal.objects.filter(user=alice).count() == 1


def test_deleting_the_default_goal_keeps_the_days_own_goals(alice):
    goal_set(user=alice, calories=2000)
    goal_set(user=alice, goal_date="today", calories=1800)

    goal_delete(user=alice)

    assert goal_for(user=alice, day=today_for(alice)).calories == 1800
    assert goal_for(user=alice, day=days_from_today(alice, -1)) is None


def test_a_planned_goal_for_a_future_day_can_be_deleted(alice):
    goal_set(user=alice, goal_date="tomorrow", calories=1700)

    goal_delete(user=alice, goal_date="tomorrow")

    assert not UserGoal.objects.filter(user=alice).exists()


def test_deleting_a_goal_that_is_not_set_says_so(alice):
    goal_set(user=alice, goal_date="today", calories=1800)

    with pytest.raises(UserGoal.DoesNotExist, match="No default goal"):
        goal_delete(user=alice)
    with pytest.raises(UserGoal.DoesNotExist, match="No goal for"):
        goal_delete(user=alice, goal_date=days_from_today(alice, -3))

    assert UserGoal.objects.filter(user=alice).count() == 1


def test_a_date_that_is_no_date_is_refused(alice):
    goal_set(user=alice, calories=2000)

    with pytest.raises(ValidationError) as refused:
        goal_delete(user=alice, goal_date="2024-02-30")

    assert refused.value.code == "invalid_date"
    assert UserGoal.objects.filter(user=alice).exists()


def test_bob_cannot_delete_alices_goals(alice, bob):
    goal_set(user=alice, calories=2000)
    goal_set(user=alice, goal_date="today", calories=1800)

    for day in (None, "today"):
        with pytest.raises(UserGoal.DoesNotExist):
            goal_delete(user=bob, goal_date=day)

    assert UserGoal.objects.filter(user=alice).count() == 2
