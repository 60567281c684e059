"""The third conversation set, conversation_cases_3.jsonl: 184 multi-turn cases written apart from
the reader (by a helper who never read chat/reading, chat/turn, chat/tools or any word list, nor the
first two sets' texts), as a DEVELOPMENT set: unlike the second, it may be read and tuned on, so
that the second stays the unseen measure. Corrections after one to three logging turns (an amount,
a swap, a removal, a meal, a workout's minutes or distance, a weight, waist or steps, one more, an
undo, a reference back), judged on the whole diary after the last turn; questions per domain and
period (food, exercise, body, water, goals) that answer from the right domain and write nothing;
advice, small talk, wishes, plans, negations and other people's meals that write nothing, ask
nothing back and do not echo the message. Floored at its first measure so later changes cannot
lose what it reads. The same run with the failing cases and why:
`.venv/bin/python bench/diary_eval.py --set conversation3 --failures`.
"""

import pytest

from tests.evals.conversations import NOTHING, check_score, check_shape
from tests.evals.scoring import SETS
from tests.evals.test_diary_eval import real_catalog  # noqa: F401  (a fixture)

# 97 of 184 (52.7%) on first measure, offline (2026-12-06, on 1ed06ef's reader), before anyone
# tuned on it; 165 at 2fa9619, tuned on (a development set); 178 in the seventh session. It only
# ever rises.
FLOOR = 178 / 184


def test_the_third_set_covers_every_kind_and_is_a_development_set():
    cases = check_shape("conversation3", nothing=NOTHING, corrections=85, quiet=85)
    header = [
        line for line in SETS["conversation3"].read_text().splitlines() if line.startswith("//")
    ]

    assert len(cases) >= 170
    assert len(header) == 8 and "DEVELOPMENT" in header[0]
    assert all(case.id.startswith("cv3-") for case in cases)
    chat = [c for c in cases if c.tags[0] in NOTHING]
    assert all(c.expect.get("asks") is False and c.expect.get("reply_not") for c in chat)


@pytest.mark.django_db
def test_the_third_set_scores_at_least_the_floor_and_quiet_messages_write_nothing(
    real_catalog,  # noqa: F811
):
    # 3 of 93 messages that report nothing wrote anyway on first measure: no more.
    check_score("conversation3", floor=FLOOR, quiet=90, wrote=3)
