"""Finding the user's own diary rows by what the model calls them ("the eggs", "my run").

Small models invent ids, so edits and deletes accept a name and a day as well as an id. The match is
always among the acting user's rows; a name that fits several rows is an ambiguity the model must
resolve with the user, never a guess.
"""

from __future__ import annotations

import re
import uuid

from django.core.exceptions import ObjectDoesNotExist
from rapidfuzz import fuzz

from sparky.dates import parse_day
from sparky.words import singular

_WORD = re.compile(r"[a-z0-9]+")


def _words(text: str) -> set[str]:
    return {singular(w) for w in _WORD.findall(text.lower())}


def name_score(query: str, name: str) -> float:
    """How well a row's name fits what the model wrote, 0..1."""
    q, n = _words(query), _words(name)
    if not q or not n:
        return 0.0
    overlap = len(q & n) / len(q)
    ratio = fuzz.ratio(query.lower(), name.lower()) / 100
    return max(overlap, ratio)


class Ambiguous(Exception):
    def __init__(self, candidates):
        super().__init__("several rows match")
        self.candidates = candidates


def find_own_row(*, ctx, queryset, entry_id=None, name=None, date=None, label, name_of, kind):
    """One row of `queryset` (already scoped to ctx.user) by id, or by name on a day.

    Raises ObjectDoesNotExist with a readable message, or Ambiguous with the candidates.
    """
    if entry_id:
        try:
            return queryset.get(pk=uuid.UUID(str(entry_id)))
        except (ValueError, ObjectDoesNotExist):
            raise ObjectDoesNotExist(f"You have no {kind} with id {entry_id}.") from None
    if not name:
        raise ObjectDoesNotExist(f"Say which {kind}: give its {label} or its id.")
    day = parse_day(ctx.user, date)
    rows = list(queryset.filter(entry_date=day))
    scored = sorted(((name_score(name, name_of(r)), r) for r in rows), key=lambda p: -p[0])
    good = [r for score, r in scored if score >= 0.6]
    if not good:
        raise ObjectDoesNotExist(f"You have no {kind} like {name!r} on {day.isoformat()}.")
    best = scored[0][0]
    top = [r for score, r in scored if score >= 0.6 and best - score < 0.05]
    if len(top) > 1:
        raise Ambiguous(top)
    return good[0]
