"""What Sparky says when asked about water over several days. Nothing is logged."""

from __future__ import annotations

import datetime as dt

from nutrition.models import WaterIntake


def water_answer(user, start: dt.date, end: dt.date, when: str) -> str:
    """Glasses of water from `start` to `end`: the total, each day's, and a day's average."""
    rows = list(
        WaterIntake.objects.for_user(user)
        .filter(entry_date__gte=start, entry_date__lte=end, glasses_consumed__gt=0)
        .order_by("entry_date")
    )
    if not rows:
        return f"{when}: no water logged."
    total = sum(r.glasses_consumed for r in rows)
    days = (end - start).days + 1
    each = ", ".join(f"{r.glasses_consumed} on {r.entry_date:%a %-d %b}" for r in rows)
    glasses = "glass" if total == 1 else "glasses"
    return (
        f"{when}: {total} {glasses} of water in all ({each}), {total / days:.1f} a day on "
        f"average over {days} days."
    )
