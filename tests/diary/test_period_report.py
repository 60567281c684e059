"""diary.reports.period_report: the figures of the week and month report, on real Postgres."""

import datetime as dt
from decimal import Decimal

import pytest

from diary.report_charts import Bar, bar_chart, weight_chart
from diary.reports import least_squares, period_report
from exercise.services import exercise_entry_create
from measurements.services import checkin_upsert
from nutrition.services import food_create_custom, food_entry_create, goal_set
from sparky.dates import today_for

pytestmark = pytest.mark.django_db


def days_ago(user, n: int) -> dt.date:
    return today_for(user) - dt.timedelta(days=n)


def _oats(user):
    # Per 100 g: 400 kcal, 10 g protein, 60 g carbs, 8 g fat.
    return food_create_custom(
        user=user, name="Oat bowl", serving_size=100, serving_unit="g",
        calories=400, protein=10, carbs=60, fat=8,
    )  # fmt: skip


@pytest.fixture
def alices_week(alice):
    oats = _oats(alice)
    goal_set(user=alice, calories=2000, protein=120, carbs=250, fat=70)
    for n, grams in ((6, 500), (3, 400), (0, 450)):  # 2000, 1600 and 1800 kcal
        food_entry_create(
            user=alice, food=oats, quantity=grams, unit="g", entry_date=days_ago(alice, n)
        )
    for n, kg in ((6, "81.0"), (4, "80.6"), (1, "80.2")):
        checkin_upsert(user=alice, weight=Decimal(kg), entry_date=days_ago(alice, n))
    exercise_entry_create(user=alice, duration_minutes=30, entry_date=days_ago(alice, 5))
    exercise_entry_create(user=alice, duration_minutes=45, entry_date=days_ago(alice, 5))
    exercise_entry_create(user=alice, duration_minutes=20, entry_date=days_ago(alice, 2))
    return alice


def test_a_week_has_seven_days_with_unlogged_days_as_none_not_zero(alices_week):
    alice = alices_week

    report = period_report(user=alice, period="week", end=today_for(alice))

    assert (report["start"], report["end"]) == (days_ago(alice, 6), today_for(alice))
    assert len(report["days"]) == 7
    assert report["days_logged"] == 3
    by_day = {d["date"]: d for d in report["days"]}
    assert by_day[days_ago(alice, 5)]["calories"] is None
    assert by_day[days_ago(alice, 5)]["logged"] is False
    assert by_day[days_ago(alice, 6)]["calories"] == Decimal("2000.0")
    assert by_day[days_ago(alice, 6)]["goals"]["calories"] == Decimal(2000)


def test_averages_are_over_the_logged_days_only(alices_week):
    report = period_report(user=alices_week, period="week", end=today_for(alices_week))

    assert report["averages"]["calories"] == Decimal("1800.0")  # (2000 + 1600 + 1800) / 3
    assert report["averages"]["protein"] == Decimal("45.0")
    assert report["goals"]["protein"] == Decimal(120)


def test_each_day_is_judged_by_the_coachs_rule(alices_week):
    days = {
        d["date"]: d
        for d in period_report(user=alices_week, period="week", end=today_for(alices_week))["days"]
    }

    assert days[days_ago(alices_week, 6)]["verdicts"]["calories"] is None  # on the goal
    assert days[days_ago(alices_week, 3)]["verdicts"]["calories"] == "low"  # 1600: 20% under
    assert days[days_ago(alices_week, 6)]["verdicts"]["protein"] == "low"  # 50 g of 120
    assert days[days_ago(alices_week, 5)]["verdicts"]["calories"] is None  # not logged


def test_workouts_and_minutes_are_counted_per_day_and_per_week(alices_week):
    report = period_report(user=alices_week, period="week", end=today_for(alices_week))

    by_day = {d["date"]: d for d in report["days"]}
    assert (
        by_day[days_ago(alices_week, 5)]["workouts"],
        by_day[days_ago(alices_week, 5)]["minutes"],
    ) == (2, 75)
    week = {"start": days_ago(alices_week, 6), "end": today_for(alices_week)}
    assert report["weeks"] == [{**week, "workouts": 3, "minutes": 95}]
    assert report["exercise"] == {"workouts": 3, "minutes": 95, "active_days": 2}


def test_the_month_is_four_whole_weeks(alices_week):
    report = period_report(user=alices_week, period="month", end=today_for(alices_week))

    assert len(report["days"]) == 28
    assert [(w["start"], w["end"]) for w in report["weeks"]] == [
        (days_ago(alices_week, 27 - 7 * i), days_ago(alices_week, 21 - 7 * i)) for i in range(4)
    ]
    assert [w["workouts"] for w in report["weeks"]] == [0, 0, 0, 3]


def test_the_weight_has_its_change_and_a_least_squares_trend(alices_week):
    weight = period_report(user=alices_week, period="week", end=today_for(alices_week))["weight"]

    assert weight["unit"] == "kg"
    assert [value for _, value in weight["points"]] == [
        Decimal("81.0"),
        Decimal("80.6"),
        Decimal("80.2"),
    ]
    assert weight["change"] == Decimal("-0.8")
    # 81.0, 80.6, 80.2 on days 0, 2 and 5: the fitted line falls 2/12.67 = 0.158 kg a day
    assert weight["trend"]["per_week"] == pytest.approx(-1.1053, abs=1e-3)
    assert weight["trend"]["end"] < weight["trend"]["start"]


def test_one_weigh_in_has_no_trend_and_no_change(alice):
    checkin_upsert(user=alice, weight=Decimal("70"))

    weight = period_report(user=alice, period="week", end=today_for(alice))["weight"]

    assert weight["change"] is None and weight["trend"] is None
    assert len(weight["points"]) == 1


def test_another_users_data_never_counts(alices_week, bob):
    oats = _oats(bob)
    food_entry_create(user=bob, food=oats, quantity=1000, unit="g", entry_date=days_ago(bob, 5))
    checkin_upsert(user=bob, weight=Decimal("99"), entry_date=days_ago(bob, 5))
    exercise_entry_create(user=bob, duration_minutes=300, entry_date=days_ago(bob, 5))

    alices = period_report(user=alices_week, period="week", end=today_for(alices_week))
    bobs = period_report(user=bob, period="week", end=today_for(bob))

    assert alices["days_logged"] == 3 and alices["exercise"]["minutes"] == 95
    assert Decimal("99") not in [value for _, value in alices["weight"]["points"]]
    assert bobs["days_logged"] == 1 and bobs["exercise"]["minutes"] == 300
    assert bobs["goals"]["calories"] is None


def test_least_squares_needs_two_days():
    day = dt.date(2026, 12, 1)
    assert least_squares([(day, 80.0)]) is None
    assert least_squares([(day, 80.0), (day + dt.timedelta(days=2), 79.0)]) == (-0.5, 80.0)


def test_an_unlogged_bar_is_an_empty_slot_not_a_zero():
    chart = bar_chart(
        [Bar("Mon", "Mon: 1,800 kcal", 1800, 2000), Bar("Tue", "Tue: not logged", None, 2000)],
        unit="kcal",
    )

    logged, missing = chart["bars"]
    assert not logged["missing"] and missing["missing"]
    assert float(missing["height"]) > 0  # drawn as a visible dashed slot
    assert logged["goal_y"] == missing["goal_y"]
    assert chart["axis"][-1]["label"] == "2,500"


def test_the_weight_chart_draws_the_trend_between_the_first_and_last_weigh_in():
    start = dt.date(2026, 12, 1)
    points = [(start, Decimal("81")), (start + dt.timedelta(days=6), Decimal("80"))]
    trend = {"start": 81.0, "end": 80.0, "per_week": -1.0}

    chart = weight_chart(points, trend, start=start, end=start + dt.timedelta(days=6), unit="kg")

    assert chart["line"]["x1"] == chart["dots"][0]["x"]
    assert chart["line"]["x2"] == chart["dots"][1]["x"]
    assert float(chart["line"]["y2"]) > float(chart["line"]["y1"])  # lower weight, lower on screen
    assert weight_chart([], None, start=start, end=start, unit="kg") is None
