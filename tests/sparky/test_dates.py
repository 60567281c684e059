"""What a day word means: relative to the user's own today, never in the future."""

import datetime as dt

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from sparky.dates import format_day, parse_day, spoken_day, today_for


@pytest.mark.parametrize(
    ("words", "back"),
    [
        ("today", 0),
        ("yesterday", 1),
        ("day before yesterday", 2),
        ("3 days ago", 3),
    ],
)
def test_relative_words_count_back_from_the_users_today(alice, words, back):
    assert parse_day(alice, words) == today_for(alice) - dt.timedelta(days=back)


def test_a_weekday_is_the_latest_such_day_and_last_one_the_one_before_today(alice):
    today = today_for(alice)
    names = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
    todays_name = names[today.weekday()]
    yesterdays_name = names[(today.weekday() - 1) % 7]

    assert parse_day(alice, todays_name) == today
    assert parse_day(alice, f"on {todays_name}") == today
    assert parse_day(alice, f"last {todays_name}") == today - dt.timedelta(days=7)
    assert parse_day(alice, f"Last  {yesterdays_name.title()}") == today - dt.timedelta(days=1)
    for name in names:  # never in the future, never more than a week back
        assert 0 <= (today - parse_day(alice, name)).days <= 6


@pytest.mark.parametrize("words", ["next monday", "someday", "mondays", "2026-13-01"])
def test_other_words_are_refused_saying_what_works(alice, words):
    with pytest.raises(ValidationError) as refused:
        parse_day(alice, words)
    assert refused.value.code == "invalid_date"


def test_a_future_date_is_refused(alice):
    tomorrow = (timezone.now() + dt.timedelta(days=2)).date().isoformat()
    with pytest.raises(ValidationError):
        parse_day(alice, tomorrow)


TUESDAY = dt.date(2026, 12, 8)


@pytest.mark.parametrize(
    ("day", "pattern", "said"),
    [
        (TUESDAY, "", "today"),
        (dt.date(2026, 12, 7), "", "yesterday"),
        (dt.date(2026, 12, 5), "", "on Saturday"),
        (dt.date(2026, 11, 3), "", "on 2026-11-03"),
        (dt.date(2026, 11, 3), "dd/MM/yyyy", "on 03/11/2026"),
        (dt.date(2026, 11, 3), "MM/dd/yyyy", "on 11/03/2026"),
    ],
)
def test_a_day_is_spoken_once_with_its_on_and_in_the_users_format(day, pattern, said):
    assert spoken_day(day, today=TUESDAY, pattern=pattern) == said


def test_a_day_is_written_in_the_users_format():
    assert format_day(dt.date(2026, 1, 9), "dd/MM/yyyy") == "09/01/2026"
    assert format_day(dt.date(2026, 1, 9), "") == "2026-01-09"
