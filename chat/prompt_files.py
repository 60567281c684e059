"""The prompt templates in prompts/*.md: read once, by name."""

from __future__ import annotations

import functools
from pathlib import Path

from django.conf import settings

from measurements import fields as checkin
from measurements import vocabulary as custom_words

PROMPTS_DIR = Path(settings.BASE_DIR) / "prompts"


def _checkin_units() -> str:
    """ "weight_unit kg or lb; length_unit cm or inches": what a check-in's units are given in."""
    return "; ".join(
        f"{kind.argument} {' or '.join(kind.units)}" for kind in checkin.KINDS if kind.argument
    )


# What a prompt file may name instead of writing out what a domain declares (the check-in's
# fields are measurements.fields'): the marker and its text.
FILLED = {
    "{checkin_fields}": checkin.names().capitalize(),
    "{checkin_units}": _checkin_units(),
    "{custom_examples}": ", ".join(custom_words.CUSTOM_EXAMPLES),
}


@functools.cache
def template(name: str) -> str:
    """A prompt file's text, its markers filled in; missing files are an error (they ship with
    the code)."""
    text = (PROMPTS_DIR / f"{name}.md").read_text(encoding="utf-8").strip()
    for marker, filled in FILLED.items():
        text = text.replace(marker, filled)
    return text


def template_exists(name: str) -> bool:
    return (PROMPTS_DIR / f"{name}.md").exists()


def category_prompt(profile: str, category: str) -> str | None:
    """The sub-prompt of a category in a profile, if the profile has one."""
    name = f"chatbot-{profile}-{category}"
    return template(name) if template_exists(name) else None
