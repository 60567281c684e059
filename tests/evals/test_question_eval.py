"""The questions-and-conversation set, scored through the offline coach against the real catalog.

question_cases.jsonl holds what people ask and say besides logging a meal: a food's facts (a number
in range), their own numbers after earlier turns, catalog searches, moods, sleep and custom
measurements, advice, small talk, wishes, plans, negations and other people's meals. Run as
test_diary_eval runs its set (scoring.evaluate); every reply is also checked for machinery. The
same run with the failing cases: `.venv/bin/python bench/diary_eval.py --set questions --failures`;
with the real model: `bench/model_eval.py --set questions` (in chunks: --offset, --limit).

The set has two batches: the first 180 cases were written with the parser's question answers
(2026-12-05), the second 138 ("b2-" ids) apart from the parser, in everyday wording with typos and
longer messages; the second batch's failures are the parser's next work (bench/RESULTS.md).
Its typos and phrasings have since been tuned on, so it no longer measures unseen wording: that is
unseen_question_cases.jsonl's job (`bench/diary_eval.py --set unseen`), a batch kept out of tuning
with no floor here, so that nothing pushes anyone to tune on it.
"""

import pytest

from tests.evals.scoring import (
    HERE,
    SETS,
    Case,
    Scored,
    evaluate,
    judge,
    load_cases,
    machinery_replies,
    nothing_writes,
    report,
    score,
)
from tests.evals.test_diary_eval import _outcome, real_catalog  # noqa: F401  (a fixture)

QUESTION_CASES = HERE / "question_cases.jsonl"
# 178 of 180 (98.9%) when the set was written, 2026-12-05; with the second batch 283 of 318
# (89.0%), then 300 of 318 (94.3%, same day), rounded down to 0.96; issue 35 set it at the score
# on main (315 of 318, 2026-12-06), to the case: one more failing case fails it. It only ever rises.
FLOOR = 315 / 318
# The kinds of message that report nothing done: none of them may write anything.
REPORTS_NOTHING = {"advice", "smalltalk", "wish", "plan", "negation", "others", "search"}
TAGS = REPORTS_NOTHING | {"food-fact", "my-data", "mood", "sleep", "custom"}


def test_the_set_is_well_formed_and_covers_every_kind():
    cases = load_cases(QUESTION_CASES)

    assert len(cases) >= 150
    assert {tag for case in cases for tag in case.tags} == TAGS
    assert all(len(case.tags) == 1 and set(case.tags) <= TAGS for case in cases)


@pytest.mark.django_db
def test_the_question_set_scores_at_least_the_floor_and_writes_nothing_for_nothing_done(
    real_catalog,  # noqa: F811
):
    results = evaluate(load_cases(QUESTION_CASES))

    passed, total = score(results)
    assert passed / total >= FLOOR, report(results, failures=True)
    wrote, quiet = nothing_writes(results)
    assert quiet >= 250  # every question, advice, chat, wish, plan, negation and other person
    assert wrote == [], report(wrote, failures=True)  # a wish, a question: never an entry
    assert machinery_replies(results) == []


def test_the_unseen_batch_loads_and_says_it_is_not_to_be_tuned_on():
    path = SETS["unseen"]
    cases = load_cases(path)

    assert len(cases) >= 60
    assert "NOT TO BE TUNED ON" in path.read_text().splitlines()[0]
    assert not {c.text.lower() for c in cases} & {
        c.text.lower() for c in load_cases(QUESTION_CASES)
    }


def _case(expect: dict) -> Case:
    return Case.from_dict({"id": "x", "text": "x", "expect": expect})


def test_a_number_must_carry_its_unit_and_fall_in_range():
    case = _case({"reply_number": [20, 35, "g"]})

    assert judge(case, _outcome(reply="2 slices have about 29 g of carbs (154 kcal)")) == []
    assert judge(case, _outcome(reply="2 slices have 154 kcal and 29 kcal"))  # no grams
    assert judge(case, _outcome(reply="about 40 g of carbs"))
    assert judge(_case({"reply_number": [1800, 2000]}), _outcome(reply="goal 1,900")) == []


def test_a_reply_must_not_say_what_reply_not_names():
    case = _case({"reply_not": ["apple"]})

    assert judge(case, _outcome(reply="lunch: a turkey sandwich")) == []
    assert judge(case, _outcome(reply="lunch: a turkey sandwich; snack: an apple"))


@pytest.mark.parametrize(
    "reply",
    [
        "Nothing was saved: OpenAI-compatible server (/root/.cache/m.gguf) answered as if...",
        "I stopped after 6 steps without a final answer",
        "Enabled checkin. Their tools are available from your next step.",
        "I called log_food for you",
        'Here: {"name": "log_food", "arguments": {}}',
    ],
)
def test_machinery_in_any_reply_fails_the_case(reply):
    assert any("machinery" in p for p in judge(_case({}), _outcome(reply=reply)))


def test_plain_words_are_no_machinery():
    reply = "Logged 2 large eggs (143 kcal) for breakfast. Nothing else was saved."
    assert judge(_case({}), _outcome(reply=reply)) == []


def test_numbers_of_dates_and_times_are_not_read():
    case = _case({"reply_number": [1, 12]})

    assert judge(case, _outcome(reply="Today (2026-12-02): nothing logged yet."))
    assert judge(case, _outcome(reply="You ran at 7:30 and ate at 6pm."))
    assert judge(case, _outcome(reply="3 more glasses to go (2026-12-02)")) == []


def test_machinery_in_an_earlier_reply_fails_the_case_and_is_counted():
    outcome = _outcome(reply="You had 2 eggs.", earlier=["Enabled food. Their tools are available"])
    problems = judge(_case({}), outcome)

    assert any("earlier reply" in p for p in problems)
    assert len(machinery_replies([Scored(_case({}), outcome, problems)])) == 1


@pytest.mark.parametrize(
    "reply", ["I used the food tool for that", "ValueError: bad amount", "Exception raised"]
)
def test_the_word_tool_and_exceptions_are_machinery(reply):
    assert any("machinery" in p for p in judge(_case({}), _outcome(reply=reply)))


def test_nothing_writes_counts_writes_of_messages_that_report_nothing():
    wish = _case({"asks": False})
    pick = _case({"asks": "options"})
    logs = _case({"water": 1})
    water = _outcome(water=1)
    results = [Scored(c, water, []) for c in (wish, pick, logs)]

    wrote, quiet = nothing_writes(results)

    assert ([r.case for r in wrote], quiet) == ([wish], 1)
