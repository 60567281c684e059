"""The diary evaluation set, scored through the offline coach against the real catalog.

Every case of diary_cases.jsonl runs as a fresh user through `chat.turn.coach.handle_turn` with no
AI service (Sparky's offline parser), against USDA SR28 + Compendium + wger as `load_catalog` loads
them, at a fixed Wednesday 12:30 UTC (see scoring.evaluate). The accuracy must stay at or above
FLOOR, and no reply may show machinery (scoring.MACHINERY). The same run, with the failing cases
and why: `.venv/bin/python bench/diary_eval.py --failures`.
"""

from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection

from exercise.catalog import COMPENDIUM_SOURCE, SPARKY_SOURCE, WGER_SOURCE
from nutrition.catalog import SR28_SOURCE
from nutrition.models import FNDDS_SOURCE
from tests.evals.scoring import (
    DIARY_CASES,
    Case,
    Outcome,
    evaluate,
    judge,
    load_cases,
    machinery_replies,
    report,
    score,
)

# The accuracy measured when the set was written (354 of 517 cases, 68.5%, 2026-12-03), raised
# with the domain rules of issue 11 (474 of 517, 91.7%, 2026-12-03) and the parser's (513 of
# 517, 99.2%, 2026-12-03), rounded down. The floor may
# only ever rise: raise it when a change scores higher, never lower it to let a change in (a case
# that is wrong is fixed in diary_cases.jsonl, with its reason in the commit). Issue 23 added 67
# dish and portion cases that the parser was not built for (568 of 591, 96.1%, 2026-12-05; the
# 524 older cases 518 of 524): the floor was then set at 0.97 for review. Issue 35 set it back
# at the score on main (582 of 591, 2026-12-06), to the case: one more failing case fails it.
# Issue 32 added 18 meals told in sentences (tag "told", 12 of 18 on first measure) with the old
# 591 unchanged (582): 594 of 609, to the case. The catalog-covering meal reader (issue 32,
# second session): 597 of 609, the old 591 still 582 (the same 9 fail). It only ever rises.
FLOOR = 597 / 609

TAGS = {
    "container",
    "told",  # a meal told in sentences, its foods framed by other words (issue 32)
    "size",
    "dish",
    "drink",
    "brand",
    "compound",
    "other-people",
    "correction",
    "plan",
    "question",
    "chat",
    "exercise",
    "measurement",
    "custom",
    "water",
    "goals",
    "bulk",
    "options",
    "amount",
    "multi",
    "reply",
    "request",
}


def _remove_catalog() -> None:
    with connection.cursor() as cursor:
        cursor.execute(
            "DELETE FROM food_variants "
            "WHERE food_id IN (SELECT id FROM foods WHERE source = ANY(%s))",
            [[SR28_SOURCE, FNDDS_SOURCE]],
        )
        cursor.execute("DELETE FROM foods WHERE source = ANY(%s)", [[SR28_SOURCE, FNDDS_SOURCE]])
        cursor.execute(
            "DELETE FROM exercises WHERE source = ANY(%s)",
            [[COMPENDIUM_SOURCE, WGER_SOURCE, SPARKY_SOURCE]],
        )


@pytest.fixture(scope="module")
def real_catalog(django_db_setup, django_db_blocker):
    """The whole public catalog, loaded once for this module (seconds) and removed afterwards so
    other test modules keep their own small fixtures."""
    with django_db_blocker.unblock():
        _remove_catalog()
        call_command("load_catalog", stdout=StringIO(), verbosity=0)
        yield
        _remove_catalog()


def test_the_set_is_well_formed():
    cases = load_cases(DIARY_CASES)

    assert len(cases) >= 300
    assert all(case.tags and set(case.tags) <= TAGS for case in cases), [
        (case.id, case.tags) for case in cases if not set(case.tags) <= TAGS or not case.tags
    ]
    assert all(case.text.strip() for case in cases)


def test_the_diary_set_scores_at_least_the_floor_with_no_machinery(real_catalog, db):
    results = evaluate(load_cases(DIARY_CASES))

    passed, total = score(results)
    assert passed / total >= FLOOR, report(results, failures=True)
    # Every reply, `before` turns included: 0 offline (2026-12-05), and it stays 0.
    assert machinery_replies(results) == []


# --- the scorer's own rules --------------------------------------------------------------------


def _outcome(**kw) -> Outcome:
    values = {"food": [], "exercise": [], "checkin": {}, "custom": {}, "water": 0, "goals": {}}
    values.update(kw)
    return Outcome(**values)


def _food(kcal: float, name: str = "Bananas, raw") -> dict:
    return {"name": name, "kcal": kcal, "meal": "lunch", "quantity": 1, "unit": None}


def _case(expect: dict) -> Case:
    return Case.from_dict({"id": "x", "text": "x", "expect": expect})


def test_a_misspelt_expectation_is_refused_when_loaded():
    with pytest.raises(ValueError, match="unknown expectations"):
        _case({"food": {"kcals": [1, 2]}})
    with pytest.raises(ValueError, match="unknown expectations"):
        _case({"asked": True})


def test_reply_texts_are_all_needed_and_a_list_is_any_of_them():
    case = _case({"reply": [["coke", "cola"], "100"]})

    assert judge(case, _outcome(reply="100 cans of Cola is too much")) == []
    assert judge(case, _outcome(reply="100 cans is too much"))
    assert judge(case, _outcome(reply="That much cola is too much"))


def test_every_option_must_name_one_of_the_offered_words():
    case = _case({"asks": True, "offers": ["sandwich", "sub"]})
    sandwich = {"name": "Fast foods, submarine sandwich, turkey"}
    turkey = {"name": "Turkey, whole, meat only, roasted"}

    assert judge(case, _outcome(action="options", options=[sandwich])) == []
    assert judge(case, _outcome(action="options", options=[])) == []
    assert judge(case, _outcome(action="options", options=[sandwich, turkey]))


def test_a_pick_must_log_the_calories_its_option_showed():
    case = _case({"food": {"entries": 1, "kcal_offered": 1}})
    offered = [{"name": "Burrito", "calories": 206.0}]

    assert judge(case, _outcome(food=[_food(206.0)], offered=offered)) == []
    assert judge(case, _outcome(food=[_food(224.0)], offered=offered))
    assert judge(case, _outcome(food=[_food(206.0)], offered=[]))


def test_asks_options_needs_options_and_asks_false_forbids_a_question():
    wants_options = _case({"asks": "options"})
    quiet = _case({"asks": False})

    assert judge(wants_options, _outcome(action="options")) == []
    assert judge(wants_options, _outcome(action="none"))
    assert judge(_case({"asks": True}), _outcome(action="none")) == []
    assert judge(quiet, _outcome(action="answered")) == []
    assert judge(quiet, _outcome(action="none")) == []
    assert judge(quiet, _outcome(action="options"))
