"""Dates as the user sees them: "today" is the user's local date, and the future is refused."""

import datetime as dt
import re

from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.dateformat import format as date_format

EARLIEST = dt.date(1900, 1, 1)
_RELATIVE = {"today": 0, "yesterday": -1, "day before yesterday": -2}
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_WEEKDAY = re.compile(rf"(?:(on|last) )?({'|'.join(WEEKDAYS)})")


def is_weekday_phrase(text: str) -> bool:
    """'monday', 'on monday', 'last friday': a day word parse_day reads."""
    return _WEEKDAY.fullmatch(text) is not None


def _weekday(today: dt.date, text: str) -> dt.date | None:
    """'monday' / 'on monday': the latest Monday up to today; 'last monday': the one before
    today (a week ago when today is a Monday)."""
    m = _WEEKDAY.fullmatch(text)
    if m is None:
        return None
    back = (today.weekday() - WEEKDAYS.index(m.group(2))) % 7
    if back == 0 and m.group(1) == "last":
        back = 7
    return today - dt.timedelta(days=back)


def now_for(user) -> dt.datetime:
    """The current moment in the user's time zone."""
    return timezone.now().astimezone(user.tz)


def today_for(user) -> dt.date:
    return now_for(user).date()


# The date-format preference's tokens (yyyy-MM-dd, dd/MM/yyyy...) as Django date format characters.
_DATE_TOKENS = (("yyyy", "Y"), ("MM", "m"), ("dd", "d"))


def format_day(day: dt.date, pattern: str) -> str:
    """The day written the way the user chose in their preferences (UserPreferences.date_format:
    "yyyy-MM-dd", "dd/MM/yyyy"...)."""
    django_pattern = pattern or "yyyy-MM-dd"
    for token, char in _DATE_TOKENS:
        django_pattern = django_pattern.replace(token, char)
    return date_format(day, django_pattern)


def spoken_day(day: dt.date, *, today: dt.date, pattern: str = "") -> str:
    """A diary day as a sentence says it from `today`: "today", "yesterday", "on Thursday" (the
    week before), else "on" and the day in the user's format ("on 03/11/2026")."""
    if day == today:
        return "today"
    if day == today - dt.timedelta(days=1):
        return "yesterday"
    if today - dt.timedelta(days=6) <= day < today:
        return f"on {WEEKDAYS[day.weekday()].title()}"
    return f"on {format_day(day, pattern)}"


def diary_day_problem(day: dt.date, *, today: dt.date) -> str | None:
    """Why a diary cannot hold `day` (after today, or before EARLIEST), or None. The window of
    every entry: today and earlier, back to 1900."""
    if day > today:
        return f"{day.isoformat()} is in the future; a diary holds days up to today."
    if day < EARLIEST:
        return (
            f"{day.isoformat()} is too far in the past; a diary holds days from "
            f"{EARLIEST.isoformat()} on."
        )
    return None


def validate_not_future(user, day: dt.date) -> dt.date:
    today = today_for(user)
    if day > today:
        raise ValidationError(
            f"{day.isoformat()} is in the future (today is {today.isoformat()} in "
            f"{user.time_zone}); entries can only be logged for today or earlier.",
            code="future_date",
        )
    if diary_day_problem(day, today=today) is not None:
        raise ValidationError(diary_day_problem(day, today=today), code="invalid_date")
    return day


def parse_day(user, value) -> dt.date:
    """A date from what a caller gave: None (today), a date, an ISO string or a relative word
    ('yesterday', '3 days ago', 'monday', 'last friday').

    Never in the future; malformed values raise a ValidationError saying what was expected.
    """
    if value is None or value == "":
        return today_for(user)
    if isinstance(value, dt.datetime):
        day = value.astimezone(user.tz).date() if timezone.is_aware(value) else value.date()
    elif isinstance(value, dt.date):
        day = value
    elif isinstance(value, str):
        text = value.strip().lower()
        if text in _RELATIVE:
            day = today_for(user) + dt.timedelta(days=_RELATIVE[text])
        elif m := re.fullmatch(r"(\d+) days? ago", text):
            day = today_for(user) - dt.timedelta(days=min(int(m.group(1)), 100000))
        elif weekday := _weekday(today_for(user), " ".join(text.split())):
            day = weekday
        else:
            try:
                day = dt.date.fromisoformat(text[:10])
            except ValueError:
                raise ValidationError(
                    f"{value!r} is not a date; use YYYY-MM-DD, 'today' or 'yesterday'.",
                    code="invalid_date",
                ) from None
    else:
        raise ValidationError(f"{value!r} is not a date.", code="invalid_date")
    return validate_not_future(user, day)
