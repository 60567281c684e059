"""The prompt templates in prompts/*.md: read once, by name."""

from __future__ import annotations

import functools
from pathlib import Path

from django.conf import settings

PROMPTS_DIR = Path(settings.BASE_DIR) / "prompts"


@functools.cache
def template(name: str) -> str:
    """A prompt file's text; missing files are an error (they ship with the code)."""
    return (PROMPTS_DIR / f"{name}.md").read_text(encoding="utf-8").strip()


def template_exists(name: str) -> bool:
    return (PROMPTS_DIR / f"{name}.md").exists()


def category_prompt(profile: str, category: str) -> str | None:
    """The sub-prompt of a category in a profile, if the profile has one."""
    name = f"chatbot-{profile}-{category}"
    return template(name) if template_exists(name) else None
