from decimal import Decimal

from chat.tools import ToolContext, run_tool
from diary.services import preferences_update
from measurements.models import CheckInMeasurement
from measurements.services import checkin_upsert
from sparky.models import User
from sparky.services import preferences_for


def call(user, name, args=None):
    return run_tool(ToolContext.for_user(user), name, args or {})


def test_get_preferences_shows_units_time_zone_and_notes(alice):
    preferences_update(user=alice, dietary_notes="vegetarian", time_zone="Europe/Berlin")

    result = call(alice, "get_preferences")

    assert result.ok
    assert result.data == {
        "weight_unit": "kg",
        "measurement_unit": "cm",
        "time_zone": "Europe/Berlin",
        "date_format": "yyyy-MM-dd",
        "dietary_notes": "vegetarian",
        "auto_clear_history": "never",
    }
    assert "vegetarian" in result.message and "Europe/Berlin" in result.message


def test_switching_to_pounds_stores_a_later_checkin_in_pounds(alice):
    checkin_upsert(user=alice, entry_date="yesterday", weight=80)

    result = call(alice, "update_preferences", {"weight_unit": "lb"})
    logged = call(alice, "log_checkin", {"weight": 176})

    assert result.ok
    assert result.data["changed"] == {"weight_unit": {"from": "kg", "to": "lb"}}
    assert "converted" in result.message
    assert logged.ok, logged.message
    rows = dict(CheckInMeasurement.objects.for_user(alice).values_list("entry_date", "weight"))
    assert sorted(rows.values()) == [Decimal("176.00"), Decimal("176.37")]


def test_changing_the_length_unit_and_time_zone_reports_both(alice):
    result = call(
        alice,
        "update_preferences",
        {
            "measurement_unit": "inches",
            "time_zone": "America/New_York",
            "date_format": "MM/dd/yyyy",
        },
    )

    assert result.ok
    assert set(result.data["changed"]) == {"measurement_unit", "time_zone", "date_format"}
    alice.refresh_from_db()
    assert alice.time_zone == "America/New_York"
    assert preferences_for(alice).default_measurement_unit == "inches"


def test_it_says_so_when_nothing_actually_changes(alice):
    result = call(alice, "update_preferences", {"weight_unit": "kg"})

    assert result.ok
    assert "already" in result.message


def test_add_dietary_note_keeps_the_notes_already_saved(alice):
    preferences_update(user=alice, dietary_notes="vegetarian")

    result = call(alice, "update_preferences", {"add_dietary_note": "no peanuts"})

    assert result.ok
    assert preferences_for(alice).dietary_notes == "vegetarian; no peanuts"


def test_an_unknown_time_zone_is_refused_and_nothing_changes(alice):
    result = call(alice, "update_preferences", {"time_zone": "Mars/Olympus", "weight_unit": "lb"})

    assert not result.ok
    assert "time zone" in result.message.lower()
    alice.refresh_from_db()
    assert alice.time_zone == "UTC"
    assert preferences_for(alice).default_weight_unit == "kg"


def test_the_model_cannot_change_the_email_or_another_users_settings(alice, bob):
    result = call(
        alice,
        "update_preferences",
        {"email": "mallory@example.com", "user_id": str(bob.id), "weight_unit": "lb"},
    )

    assert result.ok
    assert User.objects.get(pk=alice.pk).email == "alice@example.com"
    assert preferences_for(alice).default_weight_unit == "lb"
    assert preferences_for(bob).default_weight_unit == "kg"


def test_a_call_with_nothing_to_change_is_refused(alice):
    result = call(alice, "update_preferences", {})

    assert not result.ok
    assert "weight_unit" in result.message
