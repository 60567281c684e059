"""A per-user circuit around the configured AI service.

After repeated provider failures in a short window, logging turns go to the offline parser for a
while (and say so) instead of failing again; a success closes the circuit. State lives in Django's
cache: per process with the local-memory default, shared when CACHE_URL points at Redis.
"""

from __future__ import annotations

from django.core.cache import cache

FAILURES_TO_OPEN = 3
WINDOW_SECONDS = 300
OPEN_SECONDS = 120


def _key(user) -> str:
    return f"sparky:circuit:{user.pk}"


def is_open(user) -> bool:
    return bool(cache.get(_key(user) + ":open"))


def record_failure(user) -> bool:
    """Count a failure; returns True when this one opened the circuit."""
    key = _key(user) + ":failures"
    cache.add(key, 0, WINDOW_SECONDS)
    try:
        failures = cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, WINDOW_SECONDS)
        failures = 1
    if failures >= FAILURES_TO_OPEN:
        cache.set(_key(user) + ":open", True, OPEN_SECONDS)
        cache.delete(key)
        return True
    return False


def record_success(user) -> None:
    cache.delete_many([_key(user) + ":failures", _key(user) + ":open"])
