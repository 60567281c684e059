"""Check-in tools: weight and body measurements, steps, water, custom measurements."""

from __future__ import annotations

import datetime as dt
import math

from django.core.exceptions import ValidationError

from measurements import fields as checkin_fields
from measurements import selectors as measurement_selectors
from measurements import services as measurement_services
from measurements import vocabulary as body
from measurements.fields import CHECKIN
from measurements.models import CheckInMeasurement, CustomMeasurement
from nutrition import services as food_services
from nutrition.models import WaterIntake
from sparky.dates import parse_day, today_for
from sparky.rows import row_state
from sparky.services import preferences_for, spoken_day_for

from .base import CORE, ToolResult, Written, bounded, logged_sentence, tool, undo_of
from .schema import DATE_ARG, integer, number, obj, string

_STANDARD = measurement_services.STANDARD_TYPES


def _checkin_summary(row, given: dict, prefs) -> str:
    parts = []
    readings = checkin_fields.readings_in(given)
    for field in CHECKIN.values():
        if field.name not in given:
            continue
        value = getattr(row, field.name)
        unit = measurement_selectors.kept_unit(field.name, prefs)
        reading = next((r for r in readings if field.name in r.fields), None)
        if reading:  # "blood pressure 120/80 mmHg", said once for its first field
            if field.name == reading.fields[0]:
                values = "/".join(f"{float(getattr(row, name)):g}" for name in reading.fields)
                parts.append(f"{reading.label.lower()} {values} {unit}")
        elif unit == field.name:  # "9,500 steps"
            parts.append(f"{value:,} {unit}")
        else:
            parts.append(f"{field.label.lower()} {float(value):g} {unit}")
    return ", ".join(parts)


def _checkin_parameters() -> dict:
    """Each field with its help, a whole-number field as an integer, and each kind's unit after
    its last field (measurements.fields)."""
    params = {}
    for field in CHECKIN.values():
        params[field.name] = (integer if field.whole else number)(field.help)
        kind = field.kind
        if kind.argument and checkin_fields.last_of_kind(field):
            params[kind.argument] = string(
                checkin_fields.argument_help(kind), enum=list(kind.units)
            )
    return params


@tool(
    name="log_checkin",
    category="checkin",
    profiles=CORE,
    writes=True,
    plans=True,
    description=(
        f"Record standard check-in measurements for a day: {checkin_fields.names()}. "
        "Give only what the user said; several at once is fine."
    ),
    parameters=obj(**_checkin_parameters(), date=DATE_ARG),
    example={"weight": 80.2, "weight_unit": "kg", "waist": 84, "length_unit": "cm"},
)
def log_checkin(ctx, args) -> ToolResult:
    given = {k: args[k] for k in _STANDARD if k in args}
    if not given:
        raise ValidationError(
            f"Give at least one of {checkin_fields.names('or')}.", code="nothing_to_log"
        )
    day = parse_day(ctx.user, args.get("date"))
    earlier = CheckInMeasurement.objects.for_user(ctx.user).filter(entry_date=day).first()
    before = row_state(earlier, given) if earlier else dict.fromkeys(given)
    units = {name: args.get(name) for name in checkin_fields.unit_arguments()}
    try:
        row = measurement_services.checkin_prepare(
            user=ctx.user, entry_date=args.get("date"), **units, **given
        )
    except ValidationError as refused:
        readings = checkin_fields.readings_in(given)
        if not readings:
            raise
        # The numbers of one reading (a blood pressure's 120/80) stand or fall together: a
        # refusal that names the reading is not split into its fields with half of it kept.
        return ToolResult(
            ok=False,
            message=f"{refused.messages[0]} Nothing was saved.",
            data={"refused": [reading.name for reading in readings]},
        )
    measured = _checkin_summary(row, given, preferences_for(ctx.user))

    def done(row) -> ToolResult:
        written = Written(
            kind="checkin",
            id=str(row.id),
            summary=f"{measured} on {row.entry_date}",
            date=str(row.entry_date),
            chip=measured[:1].upper() + measured[1:],
            undo={"op": "restore", "before": before, "after": row_state(row, given)},
            phrase=f"your {measured}",
        )
        return ToolResult(
            ok=True,
            message=logged_sentence([written], ctx.user),
            data={"date": row.entry_date},
            written=[written],
        )

    result = done(row)  # what it would record, for the turn to decide on
    result.rows = [row]
    result.plan = lambda: done(
        measurement_services.checkin_upsert(
            user=ctx.user, entry_date=args.get("date"), **units, **given
        )
    )
    return result


@tool(
    name="log_custom_measurement",
    category="checkin",
    profiles=CORE,
    writes=True,
    description=(
        f"Record any other measurement the user tracks ({', '.join(body.CUSTOM_EXAMPLES)}...). "
        "A new name starts a new daily category."
    ),
    parameters=obj(
        required=["name", "value"],
        name=string("What is measured, e.g. 'Resting heart rate'."),
        value=number("The numeric value."),
        unit=string("Unit, e.g. 'bpm', 'hours'."),
        date=DATE_ARG,
        hour=integer("Hour of the day 0-23, for measurements taken several times a day."),
    ),
    example={"name": "Resting heart rate", "value": 58, "unit": "bpm"},
)
def log_custom_measurement(ctx, args) -> ToolResult:
    day = parse_day(ctx.user, args.get("date"))
    earlier = dict(
        CustomMeasurement.objects.for_user(ctx.user)
        .filter(entry_date=day)
        .values_list("id", "value")
    )
    row = measurement_services.custom_measurement_log(
        user=ctx.user,
        name=args["name"].strip(),
        value=args["value"],
        unit=args.get("unit"),
        entry_date=args.get("date"),
        entry_hour=args.get("hour"),
    )
    unit = f" {row.category.unit}" if row.category.unit else ""
    measured = f"{row.category.name} {float(row.value):g}{unit}"
    summary = f"{measured} on {row.entry_date}"
    name = row.category.name
    spoken = name[:1].lower() + name[1:] if name[1:2].islower() else name  # "HRV" stays
    written = Written(
        kind="custom_measurement",
        id=str(row.id),
        summary=summary,
        date=str(row.entry_date),
        chip=measured,
        phrase=f"your {spoken} {float(row.value):g}{unit}",  # "your mood 7 out of 10"
        undo=undo_of(
            {"value": float(round(earlier[row.id], 2))} if row.id in earlier else None,
            row_state(row, ["value"]),
        ),
    )
    return ToolResult(
        ok=True,
        message=logged_sentence([written], ctx.user),
        written=[written],
    )


def _written_water(day, summary: str, *, chip: str, undo: dict) -> Written:
    """The day's water total the call changed: one a day, the day its id."""
    return Written(
        kind="water",
        id=day.isoformat(),
        summary=summary,
        date=day.isoformat(),
        chip=chip,
        undo=undo,
    )


def _day_words(ctx, day) -> str:
    """ "today", "yesterday", "on Saturday" or "on 28/11/2026" (the user's date format): the day
    a total is about."""
    return spoken_day_for(ctx.user, day)


@tool(
    name="log_water",
    category="checkin",
    profiles=CORE,
    writes=True,
    description="Add glasses of water (250 ml each) the user drank to the day's total.",
    parameters=obj(
        glasses=number("Glasses to add (default 1). 500 ml is 2 glasses."),
        date=DATE_ARG,
    ),
    example={"glasses": 2},
)
def log_water(ctx, args) -> ToolResult:
    glasses = args.get("glasses", 1)
    if not math.isfinite(glasses) or glasses != int(glasses):
        raise ValidationError(f"Water is counted in whole glasses; {glasses:g} is not one.")
    day = parse_day(ctx.user, args.get("date"))
    total = food_services.water_add(user=ctx.user, glasses=int(glasses), entry_date=day)
    added = int(glasses)
    glass = "glass" if glasses == 1 else "glasses"
    summary = f"{int(glasses)} {glass} of water ({total} {_day_words(ctx, day)})"
    when = "today" if day == today_for(ctx.user) else "that day"
    return ToolResult(
        ok=True,
        message=f"Added {summary}.",
        data={"total_glasses": total, "date": day},
        written=[
            _written_water(
                day,
                summary,
                chip=f"Water +{int(glasses)} · {total} {when}",
                undo={"op": "water", "added": added},
            )
        ],
    )


@tool(
    name="set_water",
    category="checkin",
    writes=True,
    description="Correct the day's water total to an exact number of glasses.",
    parameters=obj(
        required=["glasses"], glasses=integer("The day's total in glasses."), date=DATE_ARG
    ),
    example={"glasses": 6, "date": "today"},
)
def set_water(ctx, args) -> ToolResult:
    day = parse_day(ctx.user, args.get("date"))
    earlier = WaterIntake.objects.for_user(ctx.user).filter(entry_date=day).first()
    before = earlier.glasses_consumed if earlier else 0
    total = food_services.water_set(user=ctx.user, glasses=args["glasses"], entry_date=day)
    summary = f"water total {total} glasses on {day}"
    return ToolResult(
        ok=True,
        message=f"Set {summary}.",
        written=[
            _written_water(
                day,
                summary,
                chip=f"Water: {total} glasses",
                undo=undo_of({"glasses": before}, {"glasses": total}),
            )
        ],
    )


@tool(
    name="get_checkins",
    category="checkin",
    profiles=CORE,
    description=(
        "Read the user's check-ins: weight, body measurements, steps and custom measurements, for "
        "one day or the last N days."
    ),
    parameters=obj(
        date=DATE_ARG,
        days=integer("How many days back from date, 1 to 90 (default 1: just that day)."),
    ),
    example={"days": 7},
)
def get_checkins(ctx, args) -> ToolResult:
    end = parse_day(ctx.user, args.get("date"))
    days = bounded(args, "days", 1, 1, 90)
    out = []
    for offset in range(days):
        day = end - dt.timedelta(days=offset)
        found = measurement_selectors.measurements_for(user=ctx.user, day=day)
        if found.get("checkin") or found.get("custom"):
            out.append({"date": day, **found})
    since = end - dt.timedelta(days=days - 1)
    label = end.isoformat() if days == 1 else f"{since.isoformat()} to {end.isoformat()}"
    return ToolResult(
        ok=True,
        message=f"{len(out)} days with check-ins, {label}.",
        data={"today": today_for(ctx.user), "checkins": out},
    )
