"""Conversations (issue 34), scored through the offline coach against the real catalog like the
diary set: conversation_cases.jsonl, 210 multi-turn cases written apart from the reader, by a helper
who never read chat/reading or chat/turn, in the words people type. Corrections after one to three
logging turns (an amount, a swap, a removal, a meal, a workout's minutes, a weight, one more, an
undo, a reference back), judged on the whole diary after the last turn (`diary`: one entry per
item, never a second); questions per domain and period (food, exercise, body, water, goals) that
must answer from the right domain and write nothing; advice, small talk, wishes and plans that write
nothing and neither echo the message nor narrate "the user". NOT TO BE TUNED ON (its header says
why); floored at its first measure so later changes cannot lose what it reads. The same run with
the failing cases and why: `.venv/bin/python bench/diary_eval.py --set conversation --failures`.
"""

import pytest

from tests.evals.conversations import CHAT, check_score, check_shape
from tests.evals.scoring import SETS, Case, judge
from tests.evals.test_diary_eval import _food, _outcome, real_catalog  # noqa: F401  (a fixture)

# 97 of 210 (46.2%) on first measure, offline (issue 34, 2026-12-06, on 4ffff9e's reader), before
# anyone read its failures to change the reader; 167 with questions by domain and corrections
# (0c60cfb), after the correction cases' failures were read (bench/RESULTS.md): no longer an
# unseen measure; 203 with corrections read against what was saved and Sparky's own small talk
# (2fe0970); 205 in the seventh session. It only ever rises.
FLOOR = 205 / 210


def test_the_set_covers_every_kind_and_is_not_to_be_tuned_on():
    check_shape("conversation", nothing=CHAT, corrections=80, quiet=110)

    assert "NOT TO BE TUNED ON" in SETS["conversation"].read_text().splitlines()[0]


@pytest.mark.django_db
def test_conversations_score_at_least_the_floor_and_questions_write_nothing(
    real_catalog,  # noqa: F811
):
    # 3 of 124 messages that report nothing wrote anyway on first measure: no more.
    check_score("conversation", floor=FLOOR, quiet=110, wrote=3)


# --- the `diary` expectation -------------------------------------------------------------------


def _case(expect: dict) -> Case:
    return Case.from_dict({"id": "x", "text": "x", "expect": expect})


def _diary(food=(), exercise=(), checkin=None, water=None):
    from tests.evals.scoring import Diary

    return Diary(
        food={str(i): e for i, e in enumerate(food)},
        exercise={str(i): e for i, e in enumerate(exercise)},
        checkin=checkin or {},
        custom={},
        water=water or {},
        goals={},
    )


def test_the_diary_is_judged_whole_whether_edited_in_place_or_written_again():
    case = _case({"diary": {"food": {"entries": 2, "kcal": [250, 350], "names": ["toast", "egg"]}}})
    eggs, toast = _food(143, "Egg, whole, raw"), _food(150, "Bread, white, toasted")
    in_place = _outcome(diary=_diary([eggs, toast]))
    written_again = _outcome(food=[toast], diary=_diary([eggs, toast]))

    assert judge(case, in_place) == []
    assert judge(case, written_again) == []
    assert judge(case, _outcome(food=[toast], diary=_diary([eggs, _food(75, "Bread"), toast])))
    assert judge(case, _outcome(diary=_diary([eggs, _food(75, "Bread, white, toasted")])))


def test_diary_names_match_different_entries_in_any_order():
    case = _case({"diary": {"food": {"names": ["egg", "egg"]}}})

    assert judge(case, _outcome(diary=_diary([_food(72, "Egg"), _food(72, "Eggnog")]))) == []
    assert judge(case, _outcome(diary=_diary([_food(72, "Egg"), _food(95, "Apple")])))


def test_diary_meals_exercise_checkin_and_water():
    lunch, snack = _food(95, "Apple"), {**_food(105), "meal": "snack"}
    run = {"name": "Running", "minutes": 40, "kcal": 400}

    assert (
        judge(
            _case({"diary": {"food": {"meals": {"lunch": 1, "snack": 1}}}}),
            _outcome(diary=_diary([lunch, snack])),
        )
        == []
    )
    assert judge(
        _case({"diary": {"food": {"meals": {"lunch": 2}}}}), _outcome(diary=_diary([lunch, snack]))
    )
    assert (
        judge(
            _case({"diary": {"exercise": {"entries": 1, "minutes": 40}}}),
            _outcome(diary=_diary(exercise=[run])),
        )
        == []
    )
    weight = _case({"diary": {"checkin": {"weight": [81.4, 81.4]}}})
    assert judge(weight, _outcome(diary=_diary(checkin={("d", "weight"): 81.4}))) == []
    assert judge(weight, _outcome(diary=_diary(checkin={("d", "weight"): 84.1})))
    assert judge(weight, _outcome(diary=_diary()))
    water = _case({"diary": {"water": 3}})
    assert judge(water, _outcome(water=1, diary=_diary(water={"d": 3}))) == []
    assert judge(water, _outcome(diary=_diary(water={"d": 2})))


def test_a_domain_the_diary_does_not_name_must_still_receive_nothing():
    case = _case({"diary": {"food": {"entries": 1}}})

    assert judge(case, _outcome(water=1, diary=_diary([_food(95)], water={"d": 1})))
    with pytest.raises(ValueError, match="unknown expectations"):
        _case({"diary": {"food": {"entry": 1}}})
