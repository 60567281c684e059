"""The fourth conversation set, conversation_cases_4.jsonl: multi-turn cases written apart from the
reader (by a helper who never read chat/reading, chat/turn, chat/tools or any word list, nor the
other sets' texts), as an UNSEEN set: nobody has read its failures, and it is NOT TO BE TUNED ON,
so that it measures how Sparky reads conversations as people type them. Corrections after one to
three logging turns (an amount, a swap, a removal, a meal, a workout's minutes or distance, a
weight, steps, waist or water, one more, an undo, a reference back), judged on the whole diary
after the last turn; questions per domain and period (food, exercise, body, water, goals) that
answer from the right domain and write nothing; advice, small talk, wishes, plans, negations and
other people's meals that write nothing, ask nothing back and do not echo the message; plain
logging after a turn of context. Floored at its first measure so later changes cannot lose what
it reads. Its score, without the failing cases (keep it unseen):
`.venv/bin/python bench/diary_eval.py --set conversation4`.
"""

import pytest

from tests.evals.conversations import LOGGING, NOTHING, check_score, check_shape
from tests.evals.scoring import SETS
from tests.evals.test_diary_eval import real_catalog  # noqa: F401  (a fixture)

# 164 of 211 (77.7%) on first measure, offline (2026-12-06, on ee53b1f's reader; the set as
# committed in 81ae422), before anyone read a failure; 174 at 52d1576, still unread (only the
# total and the counts per tag were looked at). UNSEEN: not tuned on; it only ever rises.
FLOOR = 174 / 211


def test_the_fourth_set_covers_every_kind_and_is_unseen():
    cases = check_shape("conversation4", nothing=NOTHING, corrections=80, quiet=85, logging=28)
    header = [
        line for line in SETS["conversation4"].read_text().splitlines() if line.startswith("//")
    ]

    assert len(cases) >= 195
    assert len(header) == 8 and "UNSEEN" in header[0]
    assert all(case.id.startswith("cv4-") for case in cases)
    chat = [c for c in cases if c.tags[0] in NOTHING]
    assert len(chat) >= 38
    assert all(c.expect.get("asks") is False and c.expect.get("reply_not") for c in chat)
    assert all(c.tags[0] != LOGGING or c.before for c in cases)


@pytest.mark.django_db
def test_the_fourth_set_scores_at_least_the_floor_and_quiet_messages_write_nothing(
    real_catalog,  # noqa: F811
):
    # 0 of 92 messages that report nothing wrote anything on first measure: none ever may.
    check_score("conversation4", floor=FLOOR, quiet=90, wrote=0)
