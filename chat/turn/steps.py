"""What a turn is doing, in the user's words, while it runs: the line a streamed reply shows above
the text being written ("Looking up oatmeal…").

    >>> doing("log_food", '{"food_name": "oatmeal", "quantity": 1}')
    'Looking up oatmeal…'

Never a tool's name, a model, a file or an error: a step the table does not know is said by its
category ("Checking your diary…").
"""

from __future__ import annotations

import json
import re

from chat.tools.base import registry

READING = "Reading your message…"
ALREADY = "Sparky is already answering this message: waiting for that answer…"
THINKING = "Thinking it over…"
WRITING = "Writing the reply…"

# A tool and the argument that names its subject: the line says what is being looked up or saved.
_NAMED = {
    "search_foods": ("Looking up {}…", "query"),
    "log_food": ("Looking up {}…", "food_name"),
    "log_external_food": ("Saving {}…", "food_name"),
    "create_custom_food": ("Saving {} as your own food…", "food_name"),
    "food_details": ("Looking up {}…", "food_name"),
    "search_exercises": ("Looking up {}…", "query"),
    "log_exercise": ("Logging {}…", "exercise_name"),
    "create_custom_exercise": ("Saving {} as your own exercise…", "name"),
    "log_custom_measurement": ("Saving your {}…", "name"),
    "measurement_trend": ("Looking at your {} over time…", "measurement"),
}
_PLAIN = {
    "log_checkin": "Saving your check-in…",
    "log_water": "Adding your water…",
    "set_water": "Setting your water for the day…",
    "get_checkins": "Reading your check-ins…",
    "food_diary": "Reading your food diary…",
    "recent_foods": "Looking at what you usually have…",
    "edit_food_entry": "Changing the entry…",
    "delete_food_entry": "Removing the entry…",
    "exercise_diary": "Reading your exercise log…",
    "edit_exercise_entry": "Changing the exercise…",
    "delete_exercise_entry": "Removing the exercise…",
    "get_goals": "Reading your goals…",
    "set_goals": "Setting your goals…",
    "daily_summary": "Adding up your day…",
    "goal_progress": "Checking your goals…",
    "weekly_report": "Putting your week together…",
    "nutrition_trend": "Looking at your eating over time…",
    "logging_streak": "Counting your logging streak…",
    "exercise_report": "Putting your exercise together…",
    "coaching_snapshot": "Looking over your recent days…",
    "nutrient_gaps": "Checking your nutrients…",
    "get_preferences": "Reading your preferences…",
    "update_preferences": "Saving your preferences…",
    "analyze_meal_photo": "Looking at your photo…",
    "scan_nutrition_label": "Reading the label…",
}
_BY_CATEGORY = {
    "food": "Checking your food diary…",
    "exercise": "Checking your exercise…",
    "checkin": "Checking your check-ins…",
    "goals": "Checking your goals…",
    "coaching": "Looking over your recent days…",
    "photos": "Looking at your photo…",
    "profile": "Checking your preferences…",
    "reports": "Putting your numbers together…",
}
_LONGEST_SUBJECT = 40


def doing(name: str, arguments) -> str:
    """The line for a tool call about to run, from its name and arguments (JSON or a dict)."""
    if name in _NAMED:
        template, key = _NAMED[name]
        subject = _subject(arguments, key)
        if subject:
            return template.format(subject)
    if name in _PLAIN:
        return _PLAIN[name]
    tool = registry().get(name)
    return _BY_CATEGORY.get(tool.category if tool else "", THINKING)


def doing_so_far(name: str, arguments: str) -> str | None:
    """The line for a call the model is still writing, once its subject is written out in
    full ('{"food_name": "oatmeal", "qu'); None before that, and for calls named by their
    tool alone (their line comes when they run)."""
    if name not in _NAMED:
        return None
    key = _NAMED[name][1]
    found = re.search(rf'"{key}"\s*:\s*"((?:[^"\\]|\\.)*)"', arguments)
    if found is None:
        return None
    try:
        value = json.loads(f'"{found.group(1)}"')
    except ValueError:
        return None
    subject = _subject({key: value}, key)
    return _NAMED[name][0].format(subject) if subject else None


def _subject(arguments, key: str) -> str:
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments)
        except ValueError:
            return ""
    if not isinstance(arguments, dict):
        return ""
    value = arguments.get(key)
    if not isinstance(value, str):
        return ""
    words = " ".join(value.split())
    if len(words) > _LONGEST_SUBJECT:
        words = words[:_LONGEST_SUBJECT].rsplit(" ", 1)[0]  # the line's own "…" follows
    return words if any(c.isalpha() for c in words) else ""
