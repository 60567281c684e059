"""sparky_tools and sparky_prompt: what a turn would send, for people debugging small models."""

import json
from io import StringIO

from django.core.management import call_command


def run(*args) -> str:
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def test_sparky_tools_json_lists_profiles_and_categories():
    data = json.loads(run("sparky_tools", "--json"))
    assert len(data["full"]) == 35 and len(data["core"]) == 19
    assert data["meta"] == ["sparky_enable_tools"]
    assert "log_food" in data["categories"]["food"]
    assert sorted(sum(data["categories"].values(), [])) == sorted(data["full"])


def test_sparky_tools_lists_the_core_profile():
    text = run("sparky_tools", "--profile", "core")
    assert "log_food" in text and "weekly_report" not in text


def test_sparky_prompt_json_classifies_each_message(db):
    lines = (
        run("sparky_prompt", "--json", "--profile", "core", "2 eggs for breakfast", "hello there")
        .strip()
        .splitlines()
    )
    first, second = (json.loads(line) for line in lines)
    assert first["phase"] == "keywords" and first["categories"] == ["food"]
    assert "log_food" in first["tools"] and first["tools"][-1] == "sparky_enable_tools"
    assert first["prompt_tokens"] > 50 and first["tool_tokens"] > 100
    assert second["phase"] in ("none", "classifier")
    assert set(first) == {"message", "phase", "categories", "tools", "prompt_tokens", "tool_tokens"}


def test_sparky_prompt_manual_categories(db):
    data = json.loads(run("sparky_prompt", "--json", "--categories", "goals", "hi"))
    assert data["phase"] == "manual" and data["categories"] == ["goals"]
    assert "sparky_enable_tools" not in data["tools"]


def test_sparky_prompt_prints_the_system_prompt(db):
    text = run("sparky_prompt", "ran 5 km")
    assert "# You are Sparky" in text and "## Exercise" in text
