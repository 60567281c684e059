"""Which time zones a person is offered, and which names are zones at all.

The tz database holds 599 names on a typical system, and many are not places: "Factory" (a
placeholder), "localtime" and "posixrules" (files of the host), "Etc/GMT+5" (a fixed offset with
the sign inverted), and legacy links such as "US/Eastern" or "Japan". The settings page offers
the browser's own zone first (sparky.js), then the common zones below, then every other
Area/City zone. The API still takes any real IANA name, links included, since a client may send
what its platform reports.
"""

from __future__ import annotations

import datetime as dt
import functools
import zoneinfo

# The regions of the tz database's own zones; names outside them are links or system files.
AREAS = frozenset(
    {"Africa", "America", "Antarctica", "Arctic", "Asia", "Atlantic", "Australia"}
    | {"Europe", "Indian", "Pacific"}
)
# Names in the system's tz folder that are not zones a person lives in.
NOT_ZONES = frozenset({"Factory", "localtime", "posixrules"})
NOT_ZONE_PREFIXES = ("posix/", "right/", "SystemV/")

# One zone for each of the world's busy offsets and regions, west to east.
COMMON = (
    "Pacific/Honolulu",
    "America/Anchorage",
    "America/Los_Angeles",
    "America/Vancouver",
    "America/Denver",
    "America/Phoenix",
    "America/Chicago",
    "America/Mexico_City",
    "America/New_York",
    "America/Toronto",
    "America/Bogota",
    "America/Lima",
    "America/Halifax",
    "America/Santiago",
    "America/Sao_Paulo",
    "America/Argentina/Buenos_Aires",
    "Atlantic/Azores",
    "UTC",
    "Europe/London",
    "Europe/Dublin",
    "Europe/Lisbon",
    "Africa/Lagos",
    "Europe/Paris",
    "Europe/Berlin",
    "Europe/Madrid",
    "Europe/Rome",
    "Europe/Amsterdam",
    "Europe/Stockholm",
    "Europe/Warsaw",
    "Africa/Johannesburg",
    "Africa/Cairo",
    "Europe/Athens",
    "Europe/Helsinki",
    "Europe/Kyiv",
    "Asia/Jerusalem",
    "Europe/Istanbul",
    "Europe/Moscow",
    "Africa/Nairobi",
    "Asia/Riyadh",
    "Asia/Tehran",
    "Asia/Dubai",
    "Asia/Karachi",
    "Asia/Kolkata",
    "Asia/Kathmandu",
    "Asia/Dhaka",
    "Asia/Bangkok",
    "Asia/Jakarta",
    "Asia/Singapore",
    "Asia/Shanghai",
    "Asia/Hong_Kong",
    "Australia/Perth",
    "Asia/Manila",
    "Asia/Seoul",
    "Asia/Tokyo",
    "Australia/Adelaide",
    "Australia/Brisbane",
    "Australia/Sydney",
    "Pacific/Auckland",
)


def is_zone(name: str) -> bool:
    """A real IANA zone (links included), not a placeholder or a file of the host."""
    if not isinstance(name, str) or name in NOT_ZONES or name.startswith(NOT_ZONE_PREFIXES):
        return False
    return name in _available()


def is_offered(name: str) -> bool:
    """A zone of a place (Area/City) or UTC: what the settings page lists."""
    return name == "UTC" or (name.split("/", 1)[0] in AREAS and is_zone(name))


@functools.cache
def _available() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones())


def label(name: str, *, now: dt.datetime | None = None) -> str:
    """'Europe/Berlin (UTC+01:00)': the name as people read it, with today's offset."""
    now = now or dt.datetime.now(dt.UTC)
    offset = now.astimezone(zoneinfo.ZoneInfo(name)).utcoffset() or dt.timedelta(0)
    minutes = int(offset.total_seconds() // 60)
    sign = "+" if minutes >= 0 else "-"
    hours, rest = divmod(abs(minutes), 60)
    return f"{name.replace('_', ' ')} (UTC{sign}{hours:02d}:{rest:02d})"


def choices(current: str | None = None) -> list:
    """Grouped choices for a <select>: the current zone, the common ones, then all the others.

    The browser's zone is put first by the page's script, which knows it; the server does not.
    """
    now = dt.datetime.now(dt.UTC)
    common = [z for z in COMMON if is_zone(z)]
    others = sorted(z for z in _available() if is_offered(z) and z not in common)
    groups = []
    if current and is_zone(current) and current not in common and current not in others:
        groups.append(("Your current time zone", [(current, label(current, now=now))]))
    groups.append(("Common time zones", [(z, label(z, now=now)) for z in common]))
    groups.append(("Other time zones", [(z, label(z, now=now)) for z in others]))
    return groups
