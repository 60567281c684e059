"""Prompt composition: base + active sub-prompts only + the dormant note + the user's own prompt."""

import pytest

from chat.categories import CATEGORIES
from chat.turn.prompts import compose_system_prompt


def test_only_active_categories_bring_their_sub_prompt():
    prompt = compose_system_prompt(profile="full", categories=["food"], mode="auto")
    assert "## Food" in prompt
    for heading in ("## Exercise", "## Check-ins", "## Goals", "## Photos", "## Reports"):
        assert heading not in prompt


def test_every_full_category_has_a_sub_prompt():
    prompt = compose_system_prompt(profile="full", categories=list(CATEGORIES), mode="auto")
    for heading in (
        "## Food",
        "## Exercise",
        "## Check-ins",
        "## Goals",
        "## Coaching",
        "## Photos",
        "## Preferences",
        "## Reports",
    ):
        assert heading in prompt
    assert "not loaded yet" not in prompt  # nothing is dormant


def test_auto_mode_names_dormant_categories_and_the_escalation_tool():
    prompt = compose_system_prompt(profile="core", categories=["food"], mode="auto")
    assert "sparky_enable_tools" in prompt
    assert "exercise (" in prompt and "checkin (" in prompt
    assert "tool selector" not in prompt


def test_manual_mode_tells_the_model_to_send_the_user_to_the_selector():
    prompt = compose_system_prompt(profile="full", categories=["exercise"], mode="manual")
    assert "tool selector" in prompt
    assert "sparky_enable_tools" not in prompt
    assert "food (" in prompt


def test_the_core_base_is_much_shorter_than_the_full_one():
    core = compose_system_prompt(profile="core", categories=["food"], mode="auto")
    full = compose_system_prompt(profile="full", categories=["food"], mode="auto")
    assert len(core) < len(full) * 0.6


def test_custom_prompts_are_appended_under_their_own_heading_never_replacing_the_base():
    prompt = compose_system_prompt(
        profile="full",
        categories=["food"],
        mode="auto",
        custom_prompts=["Answer in French.", "", None, "I am vegetarian."],
    )
    assert prompt.startswith("# You are Sparky")
    tail = prompt.split("## The user's own instructions", 1)[1]
    assert "Answer in French." in tail and "I am vegetarian." in tail


@pytest.mark.parametrize("profile", ["full", "core"])
def test_equal_turns_compose_byte_identical_prompts(profile):
    a = compose_system_prompt(profile=profile, categories=["exercise", "food"], mode="auto")
    b = compose_system_prompt(profile=profile, categories=["food", "exercise"], mode="auto")
    assert a == b


def test_the_core_profile_offers_only_categories_it_can_load():
    prompt = compose_system_prompt(profile="core", categories=["food"], mode="auto")

    # photos and coaching work on core (food tools and their sub-prompts); profile and reports
    # have no core tools, so escalating to them would load nothing
    assert "vision (" in prompt and "coaching (" in prompt
    assert "profile (" not in prompt and "reports (" not in prompt
