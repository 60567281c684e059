"""The exercise catalog search that logging depends on: corrected words, the best match for
a name, one exercise by id."""

import re

from django.contrib.postgres.search import TrigramWordSimilarity
from django.db.models import Case, DecimalField, IntegerField, Q, Value, When
from django.db.models.functions import Cast, Greatest, Length, Lower, Round
from rapidfuzz import fuzz, process

from exercise import vocabulary
from exercise.models import Exercise
from exercise.services.values import _TYPICAL, GENERAL_NAME, general_exercise
from measurements import vocabulary as durations
from sparky.services import uuid_pk

# A search hit at or above this word similarity is confident enough to log without asking.
CONFIDENT_SCORE = 0.6

# How people say it -> how catalogs name it (exercise/words/activities.toml). Trigrams cope with
# typos and plurals but not with irregular verbs ("ran") or synonyms ("bike").
_CANONICAL = vocabulary.SEARCH_TERMS
_VOCABULARY = sorted({*_CANONICAL, *_CANONICAL.values(), "yoga", "pilates", "elliptical"})
_FILLER = {
    "a", "an", "the", "i", "my", "some", "did", "do", "went", "go", "going", "for", "of", "to",
    "and", "had", "session", "morning", "afternoon", "evening", "today", "yesterday", "km",
    "kms", "mile", "miles", "quick", "little", "bit", "class", "classes",
    *durations.HOURS, *durations.MINUTES,  # "ran 30 min": measurements' words for time
}  # fmt: skip


# --- search ----------------------------------------------------------------------------------


def _correct(word: str) -> str:
    """A misspelt activity word ("runing", "swiming") to the nearest one we know."""
    if word in _CANONICAL or len(word) < 4:
        return word
    close = process.extractOne(word, _VOCABULARY, scorer=fuzz.ratio, score_cutoff=90)
    return close[0] if close else word


def _search_terms(query: str) -> list[tuple[str, float]]:
    """(term, weight) pairs to match: the query, the query in catalog words, and each activity
    word alone (weighted a little lower, so the whole phrase wins when it matches)."""
    words = re.sub(r"[^\w\s'-]", " ", query.lower()).replace("_", " ").split()
    content = [_correct(w) for w in words if w not in _FILLER and not w.isdigit()] or words
    terms = [(" ".join(words), 1.0), (" ".join(_CANONICAL.get(w, w) for w in content), 1.0)]
    terms += [(_CANONICAL[w], 0.9) for w in content if w in _CANONICAL]
    seen: dict[str, float] = {}
    for term, weight in terms:
        if term and weight > seen.get(term, 0.0):
            seen[term] = weight
    return list(seen.items())


def _flag(condition: Q) -> Case:
    return Case(When(condition, then=Value(1)), default=Value(0), output_field=IntegerField())


def exercise_search(*, user, query: str, limit: int = 10) -> list[Exercise]:
    """Exercises visible to the user matching `query`: the user's own custom ones first, then
    the public and shared catalog, each group by similarity. Each result has `.score` (0..1).

    Among names equally similar, the activity's everyday variant (_TYPICAL), then a name that
    starts with the query, then a "general" one, then the shortest wins.
    """
    query = (query or "").strip()
    limit = max(1, min(int(limit), 50))
    terms = _search_terms(query)
    if not terms:
        return []

    sims = [TrigramWordSimilarity(Value(term), "lname") * Value(weight) for term, weight in terms]
    matches, exact, prefix, typical = Q(), Q(), Q(), Q()
    for term, _ in terms:
        # %> uses the GIN trigram index on lower(name); LIKE catches short words inside names.
        matches |= Q(lname__trigram_word_similar=term)
        if len(term) >= 3:
            matches |= Q(lname__contains=term)
        exact |= Q(lname=term)
        prefix |= Q(lname__startswith=term)
        if term in _TYPICAL:
            typical |= Q(lname__startswith=_TYPICAL[term])
    results = (
        Exercise.objects.visible_to(user)
        .annotate(lname=Lower("name"))
        .filter(matches)
        .annotate(
            sim=Greatest(*sims) if len(sims) > 1 else sims[0],
            own=_flag(Q(user=user)),
            exact=_flag(exact),
            prefix=_flag(prefix),
            typical=_flag(typical) if typical else Value(0),
            general=_flag(Q(lname__contains="general")),
        )
        .annotate(
            # Two decimals, so near-equal similarities tie and the rules below decide.
            rounded=Round(Cast("sim", DecimalField(max_digits=8, decimal_places=4)), 2)
        )
        .order_by(
            "-own", "-exact", "-rounded", "-typical", "-prefix", "-general", Length("name"), "name"
        )[:limit]
    )
    results = list(results)
    for exercise in results:
        exercise.score = 1.0 if exercise.exact else round(min(float(exercise.sim), 1.0), 3)
    return results


def exercise_find_best(*, user, name: str) -> Exercise | None:
    """The exercise to log for `name` when the match is confident, else None (so the caller can
    offer options instead of logging the wrong thing)."""
    name = (name or "").strip()
    if not name:
        return None
    if name.lower() == GENERAL_NAME.lower():
        return general_exercise()
    for exercise in exercise_search(user=user, query=name, limit=5):
        if exercise.score >= CONFIDENT_SCORE:
            return exercise
    return None


def exercise_get(*, user, exercise_id) -> Exercise:
    """An exercise visible to the user, else Exercise.DoesNotExist."""
    exercise = Exercise.objects.visible_to(user).filter(pk=uuid_pk(exercise_id, Exercise)).first()
    if exercise is None:
        raise Exercise.DoesNotExist(
            f"No exercise with id {exercise_id} is yours or in the catalog."
        )
    return exercise
