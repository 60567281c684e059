"""What Sparky says when asked about exercise: the catalog searched by name or muscle group, one
exercise described with what it burns for this user, and the user's workouts over a period.
Each answer is a plain sentence or two; nothing is logged."""

from __future__ import annotations

import datetime as dt
import re

from django.db.models import Case, IntegerField, Q, When
from django.db.models.functions import Length

from exercise import vocabulary
from exercise.models import Exercise, ExerciseEntry
from exercise.phrases import activity_words
from exercise.services.search import exercise_find_best, exercise_search
from exercise.services.values import exercise_calories
from sparky.dates import today_for

# "Muscle group: Chest." in the catalog's descriptions (wger's exercises).
_GROUP_IN = "Muscle group: {}."
# A word of the question -> the muscle group it asks for.
_GROUP_OF_WORD = {
    word: group for group, words in vocabulary.MUSCLE_GROUPS.items() for word in words
}
# A word of the question -> the muscle it asks for, as the catalog names it ("glute" -> "Glutes").
_MUSCLE_OF_WORD = {word: muscle for muscle, words in vocabulary.MUSCLES.items() for word in words}
# "Muscles: Gluteus maximus (Glutes)." (worked most) and "Also works: ... (Glutes)." in wger's
# descriptions.
_WORKS_FIRST = r"Muscles: [^(.\n]*\({}\)"
_WORKS_MOST = r"Muscles: [^.\n]*\({}\)"
_WORKS_ALSO = r"Also works: [^.\n]*\({}\)"
SHOWN = 5
# The half hour an exercise's burn is told for.
_HALF_HOUR = 30


def muscle_group(words: str) -> str | None:
    """The muscle group a phrase names ("leg", "my abs", "upper back"), as the catalog names it."""
    plain = f" {re.sub(r'[^a-z ]+', ' ', (words or '').lower())} "
    for word in sorted(_GROUP_OF_WORD, key=len, reverse=True):
        if f" {word} " in plain:
            return _GROUP_OF_WORD[word]
    return None


def muscle_named(words: str) -> str | None:
    """The muscle a phrase names ("glute", "my triceps"), as the catalog's descriptions name it;
    None when it names none (a group alone, "legs", is muscle_group's)."""
    plain = f" {re.sub(r'[^a-z ]+', ' ', (words or '').lower())} "
    for word in sorted(_MUSCLE_OF_WORD, key=len, reverse=True):
        if f" {word} " in plain:
            return _MUSCLE_OF_WORD[word]
    return None


def _burn(user, exercise: Exercise, minutes: int = _HALF_HOUR) -> str:
    kcal = exercise_calories(
        user=user, exercise=exercise, duration_minutes=minutes, day=today_for(user)
    )
    return f"about {kcal} kcal in {_for_how_long(minutes)}"


def _said(words: str, phrases) -> bool:
    plain = f" {re.sub(r'[^a-z ]+', ' ', (words or '').lower())} "
    return any(f" {phrase} " in plain for phrase in phrases)


def equipment_asked(words: str) -> str | None:
    """The equipment a search asks for ("with dumbbells" -> "dumbbell"), "none" for "no
    equipment" or "bodyweight", else None."""
    if _said(words, vocabulary.NO_EQUIPMENT):
        return "none"
    return next((kind for kind, said in vocabulary.EQUIPMENT.items() if _said(words, said)), None)


def _with_equipment(exercises, equipment: str | None):
    """The exercises done with the equipment asked for (named in their name or instructions),
    or with none of it."""
    if equipment is None:
        return exercises
    if equipment == "none":
        for kind in vocabulary.EQUIPMENT:
            exercises = exercises.exclude(name__icontains=kind).exclude(description__icontains=kind)
        return exercises
    return exercises.filter(Q(name__icontains=equipment) | Q(description__icontains=equipment))


def search_answer(user, subject: str) -> str:
    """The exercises a search asks for: by muscle group when it names one ("chest exercises"),
    by the equipment it names ("with dumbbells", "no equipment"), else by name ("rowing"), each
    with what half an hour of it burns for this user."""
    group = muscle_group(subject)
    muscle = muscle_named(subject)
    if muscle == group:  # "shoulder exercises": the group's own exercises say it best
        muscle = None
    equipment = equipment_asked(subject)
    with_what = {None: "", "none": " with no equipment"}.get(equipment, f" with a {equipment}")
    if group is not None or equipment is not None or muscle is not None:
        exercises = Exercise.objects.visible_to(user)
        if muscle is not None:  # those that work it most first, then those that work it too
            most = Q(description__regex=_WORKS_MOST.format(muscle))
            exercises = exercises.filter(most | Q(description__regex=_WORKS_ALSO.format(muscle)))
            first = Q(description__regex=_WORKS_FIRST.format(muscle))
            exercises = exercises.annotate(
                most=Case(
                    When(first, then=0), When(most, then=1), default=2, output_field=IntegerField()
                )
            )
        elif group is not None:
            exercises = exercises.filter(description__contains=_GROUP_IN.format(group))
        order = ("most",) if muscle is not None else ()
        found = list(
            _with_equipment(exercises, equipment).order_by(
                "-is_custom", *order, Length("name"), "name"
            )[:SHOWN]
        )
        named = muscle or group
        what = f"exercises for the {named.lower()}" if named else "exercises"
        what += with_what
        heading = f"In the exercise catalog, {what}:"
    else:
        found = exercise_search(user=user, query=subject, limit=SHOWN)
        what = repr(subject)
        heading = f"In the exercise catalog for {what}:"
    if not found:
        return f"Nothing in the exercise catalog matches {what}. Try another name for it."
    lines = [f"{n}. {e.name}: {_burn(user, e)}" for n, e in enumerate(found, 1)]
    return (
        f"{heading}\n"
        + "\n".join(lines)
        + "\nNothing was logged; tell me what you did (e.g. '20 minutes of it') to log it."
    )


def _first_sentence(description: str | None) -> str:
    text = (description or "").split("\n")[0].strip()
    if "http" in text:  # a link, not a description
        return ""
    found = re.match(r"(.+?[.!?])(\s|$)", text)
    return (found.group(1) if found else text).strip()


def detail_answer(user, subject: str, minutes: int | None = None) -> str | None:
    """One exercise described: what it is, its muscle group, and what it burns for this user
    in `minutes` (half an hour when not asked); None when the catalog has no confident match
    for `subject`."""
    exercise = exercise_find_best(user=user, name=subject)
    if exercise is None:
        return None
    about = _first_sentence(exercise.description)
    said_again = about.lower().startswith(exercise.name.lower()[:12])  # "Swimming, ...": the name
    line = exercise.name if not about or said_again else f"{exercise.name}: {about}"
    line = line.rstrip(".") + "."
    line += _works(exercise.description or "")
    return f"{line} For you, {_burn(user, exercise, minutes or _HALF_HOUR)}. Nothing was logged."


def _works(description: str) -> str:
    """ " It works the legs: mostly the quads, and the glutes too.", from the catalog's
    description; "" when it names no muscle group."""
    group = re.search(r"Muscle group: ([A-Za-z ]+)\.", description)
    if group is None:
        return ""
    text = f" It works the {group.group(1).lower()}"
    most, also = (_bracketed(description, lead) for lead in ("Muscles", "Also works"))
    if most:
        text += f": mostly the {_listed(most)}"
        if also:
            text += f", and the {_listed(also)} too"
    return text + "."


def _bracketed(description: str, lead: str) -> list[str]:
    """The muscles in brackets after `lead` ("Muscles: Gluteus maximus (Glutes)." -> Glutes)."""
    found = re.search(rf"{lead}: ([^.\n]*)", description)
    return re.findall(r"\(([A-Za-z ]+)\)", found.group(1)) if found else []


def _listed(names: list[str]) -> str:
    names = [n.lower() for n in dict.fromkeys(names)]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _minutes(minutes: int) -> str:
    return f"{minutes} min"


def _for_how_long(minutes: int) -> str:
    """ "30 min", "an hour", "2 hours": how long a burn is told for."""
    if minutes % 60:
        return f"{minutes} min"
    return "an hour" if minutes == 60 else f"{minutes // 60} hours"


def history_answer(user, start: dt.date, end: dt.date, when: str) -> str:
    """The user's workouts from `start` to `end` (a day or several): each with its minutes and
    kcal, then the total. `when` names the period ("Today (2026-12-02)", "This week")."""
    entries = list(
        ExerciseEntry.objects.for_user(user)
        .filter(entry_date__gte=start, entry_date__lte=end)
        .select_related("exercise")
        .order_by("entry_date", "created_at", "id")
    )
    if not entries:
        return f"{when}: no workouts logged."
    several_days = start != end
    parts = []
    for entry in entries:
        part = f"{activity_words(entry.exercise.name)} {_minutes(entry.duration_minutes)}"
        if entry.distance is not None:
            part += f", {float(entry.distance):g} {entry.distance_unit or 'km'}"
        part += f" ({entry.calories_burned} kcal)"
        if several_days:
            part += f" on {entry.entry_date:%a %-d %b}"
        parts.append(part)
    minutes = sum(e.duration_minutes for e in entries)
    kcal = sum(e.calories_burned or 0 for e in entries)
    count = len(entries)
    total = f"{count} workout{'s' if count != 1 else ''}, {minutes} min, {kcal} kcal in all"
    return f"{when}: " + "; ".join(parts) + f". {total}."
