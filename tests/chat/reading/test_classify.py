"""Which categories a turn gets: manual ceiling, vision, keywords, LLM classifier, default."""

import pytest

from chat.categories import CATEGORIES, CORE_CATEGORIES
from chat.reading.classify import classify, keyword_categories, parse_classifier_reply


def never_called(previous, text):
    raise AssertionError("the LLM classifier must not run when keywords decide")


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("two eggs and toast for breakfast", {"food"}),
        ("ran 5 km in 28 min", {"exercise"}),
        ("walked 45 minutes this morning", {"exercise"}),
        ("did 3 sets of squats", {"exercise"}),
        ("weight 81.4 kg", {"checkin"}),
        ("9,500 steps today", {"checkin"}),
        ("drank 3 glasses of water", {"checkin", "food"}),
        ("summarize what I ate and did yesterday", {"food", "exercise", "reports"}),
        ("I want to eat 1800 calories a day", {"food", "goals"}),
        ("trying to stay under 2000 a day", {"goals"}),
        ("150g protein per day please", {"food", "goals"}),
        ("give me a weekly report on my workouts", {"exercise", "reports"}),
        ("how has my sleep been this month", {"checkin", "reports"}),
        ("how active was I this week", {"exercise", "reports"}),
        ("set my calorie goal to 2000", {"food", "goals"}),
        ("any tips to hit my protein?", {"food", "coaching"}),
        ("can you read this nutrition label", {"vision"}),
        ("switch to pounds please", {"profile"}),
        ("show my weight trend for the last 30 days", {"checkin", "reports"}),
    ],
)
def test_keyword_rules_find_every_category_a_message_needs(message, expected):
    assert expected <= set(keyword_categories(message))


@pytest.mark.parametrize(
    "message",
    [
        "I ran out of milk",
        "I'm running late",
        "we need to work out how to split the bill",
        "it all worked out fine in the end",
        "I'm swimming in emails",
        "that really lifted my mood",
        "ran the dishwasher twice",
        "9,500 steps today",
    ],
)
def test_classic_false_positives_are_not_exercise(message):
    assert "exercise" not in keyword_categories(message)


def test_steps_are_a_checkin():
    assert "checkin" in keyword_categories("9,500 steps today")


@pytest.mark.parametrize("message", ["bp 120/80", "my systolic was 131", "diastolic 85"])
def test_a_blood_pressure_is_a_checkin(message):
    assert "checkin" in keyword_categories(message)


def test_weighing_options_is_not_a_weigh_in():
    assert "checkin" not in keyword_categories("I need to weigh my options")


def test_small_talk_matches_nothing():
    assert keyword_categories("hello there, how's it going?") == []


def test_keywords_decide_without_calling_the_classifier():
    found = classify(text="ran 5 km", has_image=False, profile="full", llm_classify=never_called)
    assert found.phase == "keywords"
    assert found.categories == ["exercise"]
    assert found.mode == "auto"


def test_an_image_always_brings_vision_and_food_first():
    found = classify(text="", has_image=True, profile="full", llm_classify=never_called)
    assert found.phase == "vision"
    assert set(found.categories) == {"vision", "food"}


def test_an_image_keeps_keyword_matches_too():
    found = classify(
        text="this was lunch after my run",
        has_image=True,
        profile="core",
        llm_classify=never_called,
    )
    assert {"vision", "food", "exercise"} <= set(found.categories)


def test_no_keyword_asks_the_llm_with_the_previous_reply():
    seen = {}

    def classifier(previous, text):
        seen.update(previous=previous, text=text)
        return "exercise, food", {"prompt_tokens": 30}

    found = classify(
        text="yes, the same as yesterday",
        has_image=False,
        profile="full",
        previous_reply="Shall I log your usual 30 minute swim?",
        llm_classify=classifier,
    )
    assert found.phase == "classifier"
    assert found.categories == ["food", "exercise"]
    assert seen == {
        "previous": "Shall I log your usual 30 minute swim?",
        "text": "yes, the same as yesterday",
    }
    assert found.usage == {"prompt_tokens": 30}


def test_a_confident_none_loads_coaching_only():
    found = classify(
        text="hello!", has_image=False, profile="full", llm_classify=lambda p, t: ("none", {})
    )
    assert found.phase == "none"
    assert found.categories == ["coaching"]


@pytest.mark.parametrize(
    ("profile", "expected"), [("full", list(CATEGORIES)), ("core", list(CORE_CATEGORIES))]
)
def test_a_classifier_failure_falls_back_to_the_profile_default(profile, expected):
    def broken(previous, text):
        raise ConnectionError("provider down")

    found = classify(text="hello!", has_image=False, profile=profile, llm_classify=broken)
    assert found.phase == "default"
    assert found.categories == expected


def test_an_unparseable_classifier_reply_falls_back_to_the_default():
    found = classify(
        text="hmm",
        has_image=False,
        profile="core",
        llm_classify=lambda p, t: ("I think the user wants help", {}),
    )
    assert found.phase == "default"
    assert found.categories == list(CORE_CATEGORIES)


def test_manual_selection_skips_everything_and_is_exact():
    found = classify(
        text="ran 5 km and ate a banana",
        has_image=True,
        profile="full",
        manual=["goals"],
        llm_classify=never_called,
    )
    assert found.phase == "manual"
    assert found.mode == "manual"
    assert found.categories == ["goals"]


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("food, exercise", ["food", "exercise"]),
        ("Food,Reports\n", ["food", "reports"]),
        ("categories: checkin", ["checkin"]),
        ("none", []),
        ("None.", []),
        ("", None),
        ("the user is chatting", None),
    ],
)
def test_classifier_replies_are_parsed_leniently(reply, expected):
    assert parse_classifier_reply(reply) == expected
