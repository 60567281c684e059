"""The report page: a week or a month of calories, macros, weight and workouts as charts.

    GET /report/?period=week|month&end=YYYY-MM-DD   (defaults: week, ending today)

A thin view over diary.reports.period_report; the charts' geometry is diary.report_charts.
"""

from __future__ import annotations

import datetime as dt

from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import render
from django.views.decorators.http import require_GET

from diary.report_charts import Bar, bar_chart, weight_chart
from diary.reports import REPORT_PERIODS, TARGET_TOLERANCE, period_report
from sparky.dates import parse_day, today_for

MACROS = (("protein", "Protein", "g"), ("carbs", "Carbs", "g"), ("fat", "Fat", "g"))


def report_period(request) -> tuple[str, dt.date]:
    """(period, end) asked for: an unknown period is a week, a bad or future end is today."""
    period = request.GET.get("period", "week")
    if period not in REPORT_PERIODS:
        period = "week"
    try:
        end = parse_day(request.user, request.GET.get("end") or None)
    except ValidationError:
        end = today_for(request.user)
    return period, end


def _number(value) -> str:
    return f"{float(value):,.0f}"


def _day_label(day: dt.date, period: str) -> str:
    return f"{day:%a}" if period == "week" else f"{day.day}"


def _nutrient_bars(report: dict, name: str, unit: str) -> list[Bar]:
    bars = []
    for day in report["days"]:
        value, goal = day[name], day["goals"][name]
        when = f"{day['date']:%a %-d %b}"
        if value is None:
            title = f"{when}: not logged"
        else:
            title = f"{when}: {_number(value)} {unit}"
            if goal is not None:
                title += f" (goal {_number(goal)})"
        bars.append(
            Bar(
                label=_day_label(day["date"], report["period"]),
                title=title,
                value=value,
                goal=goal,
                verdict=day["verdicts"][name],
            )
        )
    return bars


def _average_row(report: dict, name: str, label: str, unit: str) -> dict:
    average, goal = report["averages"][name], report["goals"][name]
    return {
        "key": name,
        "label": label,
        "unit": unit,
        "average": None if average is None else _number(average),
        "goal": None if goal is None else _number(goal),
        "percent": round(float(average) * 100 / float(goal)) if average and goal else None,
    }


def report_context(user, period: str, end: dt.date) -> dict:
    report = period_report(user=user, period=period, end=end)
    today = today_for(user)
    length = dt.timedelta(days=REPORT_PERIODS[period])
    macros = [
        {
            "key": key,
            "label": label,
            "chart": bar_chart(_nutrient_bars(report, key, unit), unit=unit),
        }
        for key, label, unit in MACROS
    ]
    minutes_per_day = bar_chart(
        [
            Bar(
                label=_day_label(day["date"], period),
                title=f"{day['date']:%a %-d %b}: {day['minutes']} min, "
                f"{day['workouts']} workout{'s' if day['workouts'] != 1 else ''}",
                value=day["minutes"],
            )
            for day in report["days"]
        ],
        unit="min",
    )
    minutes_per_week = bar_chart(
        [
            Bar(
                label=f"{week['start']:%-d %b}",
                title=f"{week['start']:%-d %b} to {week['end']:%-d %b}: "
                f"{week['workouts']} workouts, {week['minutes']} min",
                value=week["minutes"],
            )
            for week in report["weeks"]
        ],
        unit="min",
    )
    weight = report["weight"]
    trend = weight["trend"]
    return {
        "report": report,
        "period": period,
        "periods": [(key, key.title()) for key in REPORT_PERIODS],
        "is_current": report["end"] == today,
        "previous_end": report["end"] - length,
        "next_end": min(report["end"] + length, today) if report["end"] < today else None,
        "days_count": len(report["days"]),
        "tolerance": round(TARGET_TOLERANCE * 100),
        "unlogged": len(report["days"]) - report["days_logged"],
        "averages": [
            _average_row(report, "calories", "Calories", "kcal"),
            *(_average_row(report, key, label, unit) for key, label, unit in MACROS),
        ],
        "calories_chart": bar_chart(_nutrient_bars(report, "calories", "kcal"), unit="kcal"),
        "macros": macros,
        "minutes_per_day": minutes_per_day if period == "week" else None,
        "minutes_per_week": minutes_per_week,
        "weight_chart": weight_chart(
            weight["points"], trend, start=report["start"], end=report["end"], unit=weight["unit"]
        ),
        "weight_change": None if weight["change"] is None else f"{float(weight['change']):+.1f}",
        "weight_trend": None if trend is None else f"{trend['per_week']:+.2f}",
        "weight_last": f"{float(weight['points'][-1][1]):g}" if weight["points"] else None,
    }


@login_required
@require_GET
def report(request):
    period, end = report_period(request)
    return render(request, "diary/report.html", report_context(request.user, period, end))
