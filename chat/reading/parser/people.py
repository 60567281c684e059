"""Other people: a clause about someone else ("my son had 3 pancakes", "he ran 10 km", "John
had a coffee") is not the user's to log; what follows it belongs to that person too, until the
user speaks of themselves again ("... and I had 2 eggs")."""

from __future__ import annotations

from chat.reading.parser.tokens import token_at
from chat.reading.parser.vocabulary import (
    EATING,
    IS_DOING,
    NOT_NAMES,
    OWN_SUBJECTS,
    PEOPLE_VERBS,
    PRONOUNS,
    RELATION_DETERMINERS,
    RELATIONS,
)

_YOUR = {"my": "your", "our": "your"}


def someone_else(clause: list[str]) -> str | None:
    """Who a clause is about, as the reply names them ("your son", "he", "John"), when it is
    not the user; None when it is the user's or says nobody."""
    first, second = token_at(clause, 0), token_at(clause, 1)
    if first in PRONOUNS:
        return {"him": "he", "her": "she"}.get(first, first.split("'")[0])
    if first in RELATION_DETERMINERS and second in RELATIONS:
        return f"{_YOUR.get(first, first)} {second}"
    if (
        first in RELATION_DETERMINERS
        and second.endswith("'s")
        and second[:-2] in RELATIONS
        and token_at(clause, 2) in IS_DOING  # "my sister's on keto", never "my cousin's wedding"
    ):
        return f"{_YOUR.get(first, first)} {second[:-2]}"
    if first in RELATIONS and (second in PEOPLE_VERBS or second in EATING):
        return f"your {first}"  # "bf got a pizza", "hubby had a beer", "dad polished off"
    if first in RELATION_DETERMINERS and token_at(clause, 2) in RELATIONS:  # "my best friend"
        return f"{_YOUR.get(first, first)} {second} {token_at(clause, 2)}"
    if first.isalpha() and first not in OWN_SUBJECTS | NOT_NAMES and second in PEOPLE_VERBS:
        return first.title()  # a name: "John had a coffee"
    return None


def about_the_user(clause: list[str]) -> bool:
    """Whether a clause opens with the user as its subject ("I had", "we walked")."""
    return token_at(clause, 0) in OWN_SUBJECTS
