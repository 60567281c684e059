import pytest
from django.core.exceptions import ValidationError

from diary.services import preferences_update
from sparky.models import User, UserPreferences
from sparky.services import account_create, preferences_for

# --- preferences -----------------------------------------------------------------------------


def test_preferences_read_as_the_spec_defaults_and_are_stored_once_changed(alice):
    prefs = preferences_for(alice)

    assert UserPreferences.objects.filter(user=alice).count() == 0  # reading writes nothing
    preferences_update(user=alice, date_format="dd/MM/yyyy")
    preferences_update(user=alice, review_photos=False)
    assert UserPreferences.objects.filter(user=alice).count() == 1
    assert (prefs.default_weight_unit, prefs.default_measurement_unit) == ("kg", "cm")
    assert (prefs.date_format, prefs.auto_clear_history, prefs.chat_categories) == (
        "yyyy-MM-dd",
        "never",
        [],
    )


def test_preferences_can_be_changed(alice):
    prefs = preferences_update(
        user=alice,
        default_weight_unit="lbs",
        default_measurement_unit="in",
        auto_clear_history="7days",
        date_format="dd/MM/yyyy",
        system_prompt="  Be brief.  ",
        chat_categories=["Food", "exercise", "food"],
    )

    prefs.refresh_from_db()
    assert (prefs.default_weight_unit, prefs.default_measurement_unit) == ("lb", "inches")
    assert (prefs.auto_clear_history, prefs.date_format) == ("7days", "dd/MM/yyyy")
    assert prefs.system_prompt == "Be brief."
    assert prefs.chat_categories == ["food", "exercise"]


def test_the_time_zone_lives_on_the_user(alice):
    preferences_update(user=alice, time_zone="Europe/Berlin")

    assert User.objects.get(pk=alice.pk).time_zone == "Europe/Berlin"


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"default_weight_unit": "stone"}, "invalid_choice"),
        ({"default_measurement_unit": "furlongs"}, "invalid_choice"),
        ({"auto_clear_history": "weekly"}, "invalid_choice"),
        ({"date_format": "%Y"}, "invalid_choice"),
        ({"chat_categories": ["food", "medications"]}, "invalid_categories"),
        ({"chat_categories": 7}, "invalid_categories"),
        ({"time_zone": "Mars/Olympus"}, "invalid_time_zone"),
        ({"system_prompt": "x" * 5000}, "too_long"),
        ({"favourite_colour": "blue"}, "unknown_field"),
    ],
)
def test_bad_preferences_are_refused(alice, fields, code):
    with pytest.raises(ValidationError) as caught:
        preferences_update(user=alice, **fields)

    assert caught.value.code == code


def test_a_bad_preference_writes_none_of_the_others(alice):
    with pytest.raises(ValidationError):
        preferences_update(
            user=alice, default_weight_unit="lb", time_zone="Asia/Tokyo", auto_clear_history="x"
        )

    assert preferences_for(alice).default_weight_unit == "kg"
    assert User.objects.get(pk=alice.pk).time_zone == "UTC"


def test_an_empty_category_list_means_automatic(alice):
    preferences_update(user=alice, chat_categories=["food"])

    assert preferences_update(user=alice, chat_categories=[]).chat_categories == []


def test_the_first_account_of_an_instance_is_its_owner(db):
    owner = account_create(email="Owner@Example.com", password="a long enough pass 1")
    member = account_create(email="member@example.com", password="a long enough pass 2")
    assert owner.email == "owner@example.com"
    assert owner.is_staff and owner.is_superuser
    assert not member.is_staff and not member.is_superuser
    assert owner.check_password("a long enough pass 1")
