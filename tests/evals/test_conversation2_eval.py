"""The second conversation set, conversation_cases_2.jsonl: 223 multi-turn cases written apart from
the reader (by a helper who never read chat/reading, chat/turn, chat/tools or any word list, nor the
first set's texts), after the first conversation set had been tuned on and no longer measured
unseen wording. Corrections after one to three logging turns (an amount, a swap, a removal, a meal,
a workout's minutes or distance, a weight, waist or steps, one more, an undo, a reference back),
judged on the whole diary after the last turn; questions per domain and period (food, exercise,
body, water, goals) that answer from the right domain and write nothing; advice, small talk,
wishes, plans, negations and other people's meals that write nothing, ask nothing back and do not
echo the message. NOT TO BE TUNED ON (its header says why): floored at its first measure so later
changes cannot lose what it reads. The same run with the failing cases and why (never to be read
to change the reader): `.venv/bin/python bench/diary_eval.py --set conversation2 --failures`.
"""

import pytest

from tests.evals.scoring import (
    SETS,
    evaluate,
    load_cases,
    machinery_replies,
    nothing_writes,
    report,
    score,
)
from tests.evals.test_diary_eval import real_catalog  # noqa: F401  (a fixture)

# 119 of 223 (53.4%) on first measure, offline (2026-12-06, on a264b25's reader), before anyone
# read its failures to change the reader; 171 at the sixth session's end, still unread (only
# counts per tag were looked at). It only ever rises.
FLOOR = 171 / 223
CORRECTIONS = {
    "correction-amount",
    "correction-swap",
    "correction-delete",
    "correction-meal",
    "correction-workout",
    "correction-weight",
    "one-more",
    "undo",
    "reference",
}
QUESTIONS = {
    "question-food",
    "question-exercise",
    "question-body",
    "question-water",
    "question-goals",
}
NOTHING = {"advice", "small-talk", "wish", "plan", "negation", "other-person"}


def test_the_second_set_covers_every_kind_and_is_not_to_be_tuned_on():
    path = SETS["conversation2"]
    cases = load_cases(path)
    header = [line for line in path.read_text().splitlines() if line.startswith("//")]

    assert len(cases) >= 200
    assert len(header) == 8 and "NOT TO BE TUNED ON" in header[0] and "UNSEEN" in header[0]
    assert all(case.id.startswith("cv2-") and len(case.tags) == 1 for case in cases)
    assert {case.tags[0] for case in cases} == CORRECTIONS | QUESTIONS | NOTHING
    corrections = [c for c in cases if c.tags[0] in CORRECTIONS]
    assert len(corrections) >= 80 and all(c.before and "diary" in c.expect for c in corrections)
    quiet = [c for c in cases if c.tags[0] in QUESTIONS | NOTHING]
    assert len(quiet) >= 120 and all(
        set(c.expect) <= {"reply", "reply_not", "reply_number", "asks"} for c in quiet
    )
    chat = [c for c in cases if c.tags[0] in NOTHING]
    assert all(c.expect.get("asks") is False and c.expect.get("reply_not") for c in chat)
    texts = [c.text.lower() for c in cases]
    assert len(set(texts)) == len(texts)
    others = {
        c.text.lower() for name, p in SETS.items() if name != "conversation2" for c in load_cases(p)
    }
    assert not set(texts) & others


@pytest.mark.django_db
def test_the_second_set_scores_at_least_the_floor_and_quiet_messages_write_nothing(
    real_catalog,  # noqa: F811
):
    results = evaluate(load_cases(SETS["conversation2"]))

    passed, total = score(results)
    assert passed / total >= FLOOR, report(results, failures=True)
    assert machinery_replies(results) == []
    wrote, quiet = nothing_writes(results)
    assert quiet >= 130
    # 5 of 137 messages that report nothing wrote anyway on first measure: no more.
    assert len(wrote) <= 5, report(wrote, failures=True)
