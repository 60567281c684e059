"""Profile tools: read and change the user's preferences (units, time zone, date format, notes).

Only preferences go through here. The user's identity (email, name, password) and their AI
services are not reachable from chat: the schema has no such fields and the service refuses
unknown names.
"""

from __future__ import annotations

from diary import services as diary_services
from measurements import fields as checkin
from measurements import vocabulary as body
from nutrition import services as food_services
from nutrition.vocabulary import MEALS
from sparky import services as sparky_services

from .base import ToolResult, Written, tool
from .schema import obj, string

# Tool argument -> UserPreferences field (time_zone lives on the user; the service handles it).
_FIELDS = {
    "weight_unit": "default_weight_unit",
    "measurement_unit": "default_measurement_unit",
    "time_zone": "time_zone",
    "date_format": "date_format",
    "dietary_notes": "dietary_notes",
}


def preferences_dict(user) -> dict:
    prefs = sparky_services.preferences_for(user)
    return {
        "weight_unit": prefs.default_weight_unit,
        "measurement_unit": prefs.default_measurement_unit,
        "time_zone": user.time_zone,
        "date_format": prefs.date_format,
        "dietary_notes": prefs.dietary_notes or "",
        "auto_clear_history": prefs.auto_clear_history or "never",
    }


@tool(
    name="get_preferences",
    category="profile",
    description=(
        "Read the user's settings: weight unit, body measurement unit, time zone, date format, "
        "dietary notes (allergies, diet) and when chat history is cleared."
    ),
    parameters=obj(),
    example={},
)
def get_preferences(ctx, args) -> ToolResult:
    prefs = preferences_dict(ctx.user)
    notes = prefs["dietary_notes"] or "none"
    return ToolResult(
        ok=True,
        message=(
            f"Units {prefs['weight_unit']} and {prefs['measurement_unit']}, time zone "
            f"{prefs['time_zone']}, dates {prefs['date_format']}, dietary notes: {notes}."
        ),
        data=prefs,
    )


# The check-in fields kept in the body measurement unit: "neck, waist and hips".
_LENGTHS = checkin.and_list([f.name for f in checkin.CHECKIN.values() if f.kind.name == "length"])


@tool(
    name="update_preferences",
    category="profile",
    writes=True,
    description=(
        "Change the user's settings when they ask: weight unit, body measurement unit, time zone, "
        "date format or dietary notes. Give only what changes. To keep existing dietary notes and "
        "add one, use add_dietary_note; dietary_notes replaces them all."
    ),
    parameters=obj(
        weight_unit=string("Unit for body weight.", enum=list(body.WEIGHT_UNITS)),
        measurement_unit=string(f"Unit for {_LENGTHS}.", enum=list(body.LENGTH_UNITS)),
        time_zone=string("IANA time zone name, e.g. 'Europe/Berlin' or 'America/New_York'."),
        date_format=string(
            "How dates are shown.",
            enum=list(sparky_services.DATE_FORMATS),
        ),
        dietary_notes=string(
            "The full new dietary notes, replacing the old ones, e.g. 'vegetarian, no nuts'. "
            "An empty string clears them."
        ),
        add_dietary_note=string("One note to add to the existing ones, e.g. 'lactose intolerant'."),
        save_usual_meal=string(
            "Save today's meal as the user's usual one ('save this as my usual breakfast'); "
            "'my usual breakfast' then logs it again. Empty: the meal of now.",
            enum=[*MEALS, ""],
        ),
    ),
    example={"weight_unit": "lb", "time_zone": "America/New_York"},
)
def update_preferences(ctx, args) -> ToolResult:
    if "save_usual_meal" in args:
        usual = food_services.usual_meal_save(user=ctx.user, meal=args["save_usual_meal"] or None)
        count = len(usual.items)
        meal = usual.meal_type
        return ToolResult(
            ok=True,
            message=f"Saved today's {meal} ({count} item{'s' * (count != 1)}) as your usual "
            f"{meal}: say 'my usual {meal}' to log it again.",
            written=[
                Written(
                    kind="usual_meal",
                    id=str(usual.id),
                    summary=f"usual {meal}: {count} item{'s' * (count != 1)}",
                    chip=f"Usual {meal} saved",
                )
            ],
        )
    before = preferences_dict(ctx.user)
    fields = {_FIELDS[k]: args[k] for k in _FIELDS if k in args}
    note = (args.get("add_dietary_note") or "").strip()
    if note:
        current = fields.get("dietary_notes", before["dietary_notes"]).strip()
        fields["dietary_notes"] = f"{current}; {note}" if current else note
    if not fields:
        return ToolResult(
            ok=False,
            message=(
                "Nothing to change: give weight_unit, measurement_unit, time_zone, date_format, "
                "dietary_notes or add_dietary_note."
            ),
        )
    diary_services.preferences_update(user=ctx.user, **fields)
    ctx.user.refresh_from_db(fields=["time_zone"])
    ctx.tz = ctx.user.tz  # later calls of this turn use the new zone
    after = preferences_dict(ctx.user)
    changed = {
        key: {"from": before[key], "to": after[key]} for key in after if before[key] != after[key]
    }
    if not changed:
        return ToolResult(ok=True, message="Those settings were already in place.", data=after)
    described = "; ".join(
        f"{key.replace('_', ' ')} {value['from'] or 'none'} -> {value['to'] or 'none'}"
        for key, value in changed.items()
    )
    extra = ""
    if "weight_unit" in changed or "measurement_unit" in changed:
        extra = " Earlier check-ins were converted to the new units."
    return ToolResult(ok=True, message=f"Updated: {described}.{extra}", data={"changed": changed})
