"""The report page: a week or four weeks of calories, macros, weight and workouts as charts."""

import datetime as dt
from decimal import Decimal

import pytest
from django.urls import reverse

from exercise.services import exercise_entry_create
from measurements.services import checkin_upsert
from nutrition.services import food_create_custom, food_entry_create, goal_set
from sparky.dates import today_for

pytestmark = pytest.mark.django_db


def days_ago(user, n: int) -> dt.date:
    return today_for(user) - dt.timedelta(days=n)


@pytest.fixture
def alices_week(alice):
    oats = food_create_custom(
        user=alice, name="Oat bowl", serving_size=100, serving_unit="g",
        calories=400, protein=10, carbs=60, fat=8,
    )  # fmt: skip
    goal_set(user=alice, calories=2000, protein=120, carbs=250, fat=70)
    for n, grams in ((6, 500), (3, 400), (0, 450)):
        food_entry_create(
            user=alice, food=oats, quantity=grams, unit="g", entry_date=days_ago(alice, n)
        )
    checkin_upsert(user=alice, weight=Decimal("81.0"), entry_date=days_ago(alice, 6))
    checkin_upsert(user=alice, weight=Decimal("80.2"), entry_date=days_ago(alice, 1))
    exercise_entry_create(user=alice, duration_minutes=45, entry_date=days_ago(alice, 2))
    return alice


def test_the_week_report_draws_bars_averages_weight_and_workouts(alices_week, alice_client):
    response = alice_client.get(reverse("report"))

    html = response.content.decode()
    assert response.status_code == 200
    assert "The last 7 days" in html
    # 3 logged days in 4 food charts, and 7 days of minutes (a day without a workout is 0 min)
    assert html.count('class="bars-chart__bar"') == 3 * 4 + 7
    assert html.count('class="bars-chart__missing"') == 4 * 4  # 4 unlogged days, 4 charts
    assert "<strong>1,800</strong> kcal" in html and "of 2,000" in html
    assert "4 of 7 days not logged" in html
    assert 'class="weight-chart__trend"' in html
    assert "-0.8 kg over the week" in html
    assert "<strong>1</strong> workout" in html and "<strong>45</strong> min" in html
    assert "Minutes per day" in html
    assert 'aria-current="page">Report</a>' in html


def test_the_month_report_shows_four_weeks_of_workouts(alices_week, alice_client):
    response = alice_client.get(reverse("report"), {"period": "month"})

    html = response.content.decode()
    assert "The last 4 weeks" in html
    assert "Minutes per week" in html
    assert html.count('class="bars-chart__day') == 28 * 4 + 4


def test_previous_and_next_move_by_the_period_never_past_today(alice, alice_client):
    today = today_for(alice)
    html = alice_client.get(reverse("report")).content.decode()
    previous = (today - dt.timedelta(days=7)).isoformat()
    assert f'href="?period=week&amp;end={previous}" aria-label="Previous week"' in html
    assert 'aria-label="Next week"' not in html

    back = (today - dt.timedelta(days=10)).isoformat()
    html = alice_client.get(reverse("report"), {"period": "week", "end": back}).content.decode()
    later = (today - dt.timedelta(days=3)).isoformat()
    assert f'end={later}" aria-label="Next week"' in html
    html = alice_client.get(reverse("report"), {"end": later}).content.decode()
    assert f'end={today.isoformat()}" aria-label="Next week"' in html  # never past today
    assert "A week" in html


def test_a_bad_or_future_end_and_an_unknown_period_fall_back_to_this_week(alice, alice_client):
    future = (today_for(alice) + dt.timedelta(days=3)).isoformat()
    for params in ({"end": "soon"}, {"end": future}, {"period": "year"}):
        response = alice_client.get(reverse("report"), params)
        assert response.status_code == 200
        assert "The last 7 days" in response.content.decode()


def test_an_empty_period_says_so(alice_client):
    html = alice_client.get(reverse("report")).content.decode()

    assert "No food logged in these 7 days" in html
    assert "No weigh-ins in these days" in html
    assert "No workouts logged in these days" in html
    assert "bars-chart__bar" not in html


def test_bob_never_sees_alices_report(alices_week, bob_client):
    html = bob_client.get(reverse("report")).content.decode()

    assert "No food logged in these 7 days" in html
    assert "81" not in html.split("<main", 1)[1]
    assert "No workouts logged" in html


def test_the_report_needs_a_login(client):
    response = client.get(reverse("report"))

    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
