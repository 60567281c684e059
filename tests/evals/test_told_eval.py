"""Meals told in sentences, scored through the offline coach against the real catalog like the
diary set: told_meal_cases.jsonl (110) and its second batch told_meal_cases_2.jsonl (178). Each
was written apart from the meal reader, by a helper who never read its code, in its own words, so
its first score measured wording the reader was not built from; each is floored so later changes
cannot lose what it reads. The same run with the failing cases and why:
`.venv/bin/python bench/diary_eval.py --set told|told2 --failures`.
"""

import pytest

from tests.evals.scoring import SETS, evaluate, load_cases, machinery_replies, report, score
from tests.evals.test_diary_eval import real_catalog  # noqa: F401  (a fixture)

# Per set: the floor (it only rises), the fewest cases and the fewest that report nothing.
# told: 52 of 110 (47.3%) on first measure (issue 32, 2026-12-06); 61 of 110 after the third
# session, which read its failures (so it no longer measures unseen wording: told2 does); 64
# in the seventh.
# told2: 44 of 178 (24.7%) on first measure (issue 32, 2026-12-06, third session), unread.
SETS_FLOORED = {"told": (64 / 110, 100, 10), "told2": (44 / 178, 110, 12)}


@pytest.mark.parametrize("name", SETS_FLOORED)
def test_the_set_holds_meals_and_messages_that_report_none(name):
    _, fewest, fewest_nothing = SETS_FLOORED[name]
    cases = load_cases(SETS[name])

    assert len(cases) >= fewest
    assert all("told" in case.tags for case in cases)
    assert sum("nothing" in case.tags for case in cases) >= fewest_nothing
    assert "never read the reader" in SETS[name].read_text().splitlines()[0]


@pytest.mark.django_db
@pytest.mark.parametrize("name", SETS_FLOORED)
def test_told_meals_score_at_least_the_floor_with_no_machinery(name, real_catalog):  # noqa: F811
    results = evaluate(load_cases(SETS[name]))

    passed, total = score(results)
    assert passed / total >= SETS_FLOORED[name][0], report(results, failures=True)
    assert machinery_replies(results) == []
