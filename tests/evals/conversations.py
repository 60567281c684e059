"""What the conversation sets share: their kinds of case, the shape every set keeps, and the
score each is floored at. tests/evals/test_conversation*_eval.py say each set's own numbers."""

from __future__ import annotations

from tests.evals.scoring import (
    SETS,
    WRITE_DOMAINS,
    evaluate,
    load_cases,
    machinery_replies,
    nothing_writes,
    report,
    score,
)

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
# What the first set asks nothing back for; the later sets add negations and other people's meals.
CHAT = {"advice", "small-talk", "wish", "plan"}
NOTHING = CHAT | {"negation", "other-person"}
# Plain logging after a turn of context (the fourth set).
LOGGING = "logging"


# Sets written by outsiders who read no other set: their texts are not held against the others'.
BLIND_SETS = frozenset({"conversation5", "conversation6"})


def check_shape(
    name: str, *, nothing: set[str], corrections: int, quiet: int, logging: int = 0
) -> list:
    """The set's cases, after checking what every conversation set keeps: one tag each, every
    kind covered, each correction judged on the whole diary after `before` turns, quiet messages
    judged only on their reply, no text twice or shared with another set. With `logging`, the
    set also has at least that many plain logging turns (tag "logging") after a `before` turn,
    each writing something."""
    path = SETS[name]
    cases = load_cases(path)
    assert all(len(case.tags) == 1 for case in cases)
    kinds = CORRECTIONS | QUESTIONS | nothing | ({LOGGING} if logging else set())
    assert {case.tags[0] for case in cases} == kinds
    logs = [c for c in cases if c.tags[0] == LOGGING]
    assert len(logs) >= logging and all(
        c.before and set(c.expect) & set(WRITE_DOMAINS) for c in logs
    )
    fixes = [c for c in cases if c.tags[0] in CORRECTIONS]
    assert len(fixes) >= corrections and all(c.before and "diary" in c.expect for c in fixes)
    calm = [c for c in cases if c.tags[0] in QUESTIONS | nothing]
    assert len(calm) >= quiet and all(
        set(c.expect) <= {"reply", "reply_not", "reply_number", "asks"} for c in calm
    )
    texts = [c.text.lower() for c in cases]
    assert len(set(texts)) == len(texts)
    # Issue 45's fresh sets (5 and 6) were written blind to every other set and may repeat one of
    # their short phrases ("undo that"): the sets checked here share no text with the others.
    others = {
        c.text.lower()
        for other, p in SETS.items()
        if other != name and other not in BLIND_SETS
        for c in load_cases(p)
    }
    assert not set(texts) & others
    return cases


def check_score(name: str, *, floor: float, quiet: int, wrote: int) -> None:
    """The set scores at least `floor` offline, with no machinery in any reply, and at most
    `wrote` of its messages that report nothing write anything."""
    results = evaluate(load_cases(SETS[name]))
    passed, total = score(results)
    assert passed / total >= floor, report(results, failures=True)
    assert machinery_replies(results) == []
    written, calm = nothing_writes(results)
    assert calm >= quiet
    assert len(written) <= wrote, report(written, failures=True)
