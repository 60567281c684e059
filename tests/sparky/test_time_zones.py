"""The time zones a person is offered: places, never placeholders, host files or links."""

import datetime as dt

from sparky import time_zones


def _offered(groups) -> list[str]:
    return [value for _label, options in groups for value, _text in options]


def test_the_list_has_no_placeholders_host_files_or_fixed_offset_aliases():
    offered = _offered(time_zones.choices())

    for name in ("Factory", "localtime", "posixrules", "Etc/GMT+5", "US/Eastern", "Japan", "GMT"):
        assert name not in offered
    assert len(offered) == len(set(offered))
    assert len(offered) < 500


def test_common_zones_come_first_and_utc_is_among_them():
    groups = time_zones.choices()

    assert groups[0][0] == "Common time zones"
    common = [value for value, _text in groups[0][1]]
    assert common[:3] == ["Pacific/Honolulu", "America/Anchorage", "America/Los_Angeles"]
    assert "UTC" in common and "Europe/Berlin" in common
    assert "Asia/Ulaanbaatar" in [value for value, _text in groups[1][1]]


def test_a_current_zone_outside_the_lists_is_kept_on_top():
    groups = time_zones.choices("US/Eastern")

    assert groups[0][0] == "Your current time zone"
    assert [value for value, _text in groups[0][1]] == ["US/Eastern"]


def test_labels_show_the_offset_of_the_day():
    winter = dt.datetime(2026, 1, 15, tzinfo=dt.UTC)
    summer = dt.datetime(2026, 7, 15, tzinfo=dt.UTC)

    assert time_zones.label("Europe/Berlin", now=winter) == "Europe/Berlin (UTC+01:00)"
    assert time_zones.label("Europe/Berlin", now=summer) == "Europe/Berlin (UTC+02:00)"
    assert time_zones.label("America/St_Johns", now=winter) == "America/St Johns (UTC-03:30)"


def test_real_zones_are_accepted_and_placeholders_are_not():
    assert time_zones.is_zone("Europe/Berlin")
    assert time_zones.is_zone("Asia/Calcutta")  # an old browser's name for Asia/Kolkata
    for name in ("Factory", "localtime", "posixrules", "Mars/Olympus_Mons", ""):
        assert not time_zones.is_zone(name)
