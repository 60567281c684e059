"""The second conversation set, conversation_cases_2.jsonl: 223 multi-turn cases written apart from
the reader (by a helper who never read chat/reading, chat/turn, chat/tools or any word list, nor the
first set's texts), after the first conversation set had been tuned on and no longer measured
unseen wording. Corrections after one to three logging turns (an amount, a swap, a removal, a meal,
a workout's minutes or distance, a weight, waist or steps, one more, an undo, a reference back),
judged on the whole diary after the last turn; questions per domain and period (food, exercise,
body, water, goals) that answer from the right domain and write nothing; advice, small talk,
wishes, plans, negations and other people's meals that write nothing, ask nothing back and do not
echo the message. Unseen until the seventh session, when set 4 became the unseen measure and this
one a development set, read and tuned on by class; floored so later changes cannot lose what it
reads. The failing cases and why: `.venv/bin/python bench/diary_eval.py --set conversation2
--failures`.
"""

import pytest

from tests.evals.conversations import NOTHING, check_score, check_shape
from tests.evals.scoring import SETS
from tests.evals.test_diary_eval import real_catalog  # noqa: F401  (a fixture)

# 119 of 223 (53.4%) on first measure, offline (2026-12-06, on a264b25's reader); 171 at the sixth
# session's end, still unread; 213 in the seventh, tuned on by class. It only ever rises.
FLOOR = 213 / 223


def test_the_second_set_covers_every_kind():
    cases = check_shape("conversation2", nothing=NOTHING, corrections=80, quiet=120)
    header = [
        line for line in SETS["conversation2"].read_text().splitlines() if line.startswith("//")
    ]

    assert len(cases) >= 200
    assert len(header) == 8 and "DEVELOPMENT" in header[0]
    assert all(case.id.startswith("cv2-") for case in cases)
    chat = [c for c in cases if c.tags[0] in NOTHING]
    assert all(c.expect.get("asks") is False and c.expect.get("reply_not") for c in chat)


@pytest.mark.django_db
def test_the_second_set_scores_at_least_the_floor_and_quiet_messages_write_nothing(
    real_catalog,  # noqa: F811
):
    # 5 of 137 messages that report nothing wrote anyway on first measure: no more.
    check_score("conversation2", floor=FLOOR, quiet=130, wrote=5)
