"""The report page's charts as SVG coordinates, drawn by templates/diary/report.html (no chart
library, nothing sent to the browser but the picture).

    bar_chart([Bar("Mon", "2026-12-01", 1850, 2000, None), ...], unit="kcal")
    weight_chart(points, trend, start=..., end=..., unit="kg")

A bar whose value is None is a day with nothing logged: it is drawn as an empty dashed slot
marked "–", never as a zero-height bar, so a missing day does not read as a fast.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from decimal import Decimal

WIDTH = 320
HEIGHT = 150
LEFT = 34  # room for the value axis
RIGHT = 6
TOP = 12
BOTTOM = 20  # room for the day labels


@dataclasses.dataclass(frozen=True)
class Bar:
    label: str  # under the bar ("Mon", "3"), may be empty
    title: str  # the whole story on hover and for screen readers
    value: float | Decimal | None  # None: nothing logged
    goal: float | Decimal | None = None
    verdict: str | None = None  # "low", "high" or None, from diary.reports


def _nice_top(value: float) -> float:
    """A round axis top at or above value: 1, 2, 2.5 or 5 times a power of ten."""
    if value <= 0:
        return 1.0
    power = 10 ** (len(str(int(value))) - 1)
    for step in (1, 2, 2.5, 5, 10):
        if value <= step * power:
            return step * power
    return 10.0 * power


def _amount(value) -> str:
    return f"{float(value):,.0f}" if float(value) >= 10 else f"{float(value):g}"


def bar_chart(bars: list[Bar], *, unit: str) -> dict:
    """Bars against per-bar goal ticks, on one scale from zero."""
    tallest = max(
        [float(b.value) for b in bars if b.value is not None]
        + [float(b.goal) for b in bars if b.goal is not None]
        + [0.0]
    )
    top = _nice_top(tallest * 1.05)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    slot = plot_w / max(len(bars), 1)
    gap = min(slot * 0.25, 6)
    base = TOP + plot_h

    def y(value: float) -> float:
        return base - plot_h * (value / top)

    drawn = []
    # Labels stay readable with four weeks of bars: every few days only.
    label_every = 1 if len(bars) <= 10 else 7
    for i, bar in enumerate(bars):
        x = LEFT + i * slot + gap / 2
        width = slot - gap
        item = {
            "x": f"{x:.1f}",
            "center": f"{x + width / 2:.1f}",
            "width": f"{width:.1f}",
            "title": bar.title,
            "label": bar.label if (len(bars) - 1 - i) % label_every == 0 else "",
            "missing": bar.value is None,
            "verdict": bar.verdict or "",
            "goal_y": None if bar.goal is None else f"{y(float(bar.goal)):.1f}",
            "goal_x1": f"{x - gap / 2:.1f}",
            "goal_x2": f"{x + width + gap / 2:.1f}",
        }
        if bar.value is None:
            item.update(y=f"{TOP + plot_h * 0.55:.1f}", height=f"{plot_h * 0.45:.1f}")
        else:
            top_y = y(float(bar.value))
            item.update(y=f"{top_y:.1f}", height=f"{base - top_y:.1f}")
        drawn.append(item)
    return {
        "width": WIDTH,
        "height": HEIGHT,
        "left": LEFT,
        "right": WIDTH - RIGHT,
        "baseline": f"{base:.1f}",
        "label_y": HEIGHT - 6,
        "missing_y": f"{base - 4:.1f}",
        "axis": [{"y": f"{y(value):.1f}", "label": _amount(value)} for value in (top / 2, top)],
        "bars": drawn,
        "unit": unit,
        "has_goal": any(b.goal is not None for b in bars),
    }


def weight_chart(
    points: list[tuple[dt.date, Decimal]],
    trend: dict | None,
    *,
    start: dt.date,
    end: dt.date,
    unit: str,
) -> dict | None:
    """Weigh-ins as dots over the period's days, and the trend line from the first weigh-in to
    the last (never drawn past the data it was fitted to)."""
    if not points:
        return None
    values = [float(v) for _, v in points]
    if trend is not None:
        values += [float(trend["start"]), float(trend["end"])]
    low, high = min(values), max(values)
    if high - low < 1:  # a flat week still shows a scale of about a unit
        middle = (high + low) / 2
        low, high = middle - 0.5, middle + 0.5
    margin = (high - low) * 0.12
    low, high = low - margin, high + margin
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    days = max((end - start).days, 1)

    def x(day: dt.date) -> float:
        return LEFT + 6 + (plot_w - 12) * ((day - start).days / days)

    def y(value: float) -> float:
        return TOP + plot_h - plot_h * ((value - low) / (high - low))

    chart = {
        "width": WIDTH,
        "height": HEIGHT,
        "left": LEFT,
        "right": WIDTH - RIGHT,
        "baseline": f"{TOP + plot_h:.1f}",
        "label_y": HEIGHT - 6,
        "start": start,
        "end": end,
        "unit": unit,
        "dots": [
            {
                "x": f"{x(day):.1f}",
                "y": f"{y(float(value)):.1f}",
                "title": f"{day:%a %-d %b}: {float(value):g} {unit}",
            }
            for day, value in points
        ],
        "axis": [
            {"y": f"{y(value):.1f}", "label": f"{value:.1f}"}
            for value in (low + margin, high - margin)
        ],
        "line": None,
    }
    if trend is not None:
        chart["line"] = {
            "x1": f"{x(points[0][0]):.1f}",
            "y1": f"{y(float(trend['start'])):.1f}",
            "x2": f"{x(points[-1][0]):.1f}",
            "y2": f"{y(float(trend['end'])):.1f}",
        }
    return chart
