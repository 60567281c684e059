"""Meals told in sentences (told_meal_cases.jsonl), scored through the offline coach against the
real catalog like the diary set. The set was written apart from the meal reader, in a helper's own
words, so its first score measured wording the reader was not built from; it is floored so later
changes cannot lose what it reads. The same run with the failing cases and why:
`.venv/bin/python bench/diary_eval.py --set told --failures`.
"""

import pytest

from tests.evals.scoring import SETS, evaluate, load_cases, machinery_replies, report, score
from tests.evals.test_diary_eval import real_catalog  # noqa: F401  (a fixture)

# 52 of 110 (47.3%) on first measure (issue 32, 2026-12-06); 61 of 110 after the third session,
# which read its failures (so it no longer measures unseen wording: told2 does). It only rises.
FLOOR = 61 / 110


def test_the_set_holds_meals_and_messages_that_report_none():
    cases = load_cases(SETS["told"])

    assert len(cases) >= 100
    assert all("told" in case.tags for case in cases)
    assert sum("nothing" in case.tags for case in cases) >= 10
    assert "never read the reader" in SETS["told"].read_text().splitlines()[0]


@pytest.mark.django_db
def test_told_meals_score_at_least_the_floor_with_no_machinery(real_catalog):  # noqa: F811
    results = evaluate(load_cases(SETS["told"]))

    passed, total = score(results)
    assert passed / total >= FLOOR, report(results, failures=True)
    assert machinery_replies(results) == []
