"""System prompt composition from prompts/*.md.

The system prompt is: the profile's base template, one sub-prompt per active category (only those),
the dormant-category note for the mode, the intent-JSON instructions for models without tool
calling, then the user's own custom prompt under its own heading. It carries no per-request values
(no date, no time): those travel with the user's message (`turn_context`) so a provider's prompt
cache stays warm across turns.
"""

from __future__ import annotations

from chat.categories import CATEGORIES, GLOSSES
from chat.prompt_files import PROMPTS_DIR, category_prompt, template, template_exists
from chat.tools import profile_categories

__all__ = [
    "PROMPTS_DIR",
    "category_prompt",
    "classifier_prompt",
    "compose_system_prompt",
    "dormant_categories",
    "template",
    "template_exists",
    "turn_context",
]


def dormant_categories(active, profile: str = "full") -> list[str]:
    """The profile's categories not active this turn: what escalation (or the selector) adds."""
    return [c for c in profile_categories(profile) if c not in set(active)]


def compose_system_prompt(
    *,
    profile: str,
    categories,
    mode: str,
    custom_prompts=(),
    intent_json: str | None = None,
) -> str:
    """The whole system prompt for a turn. `mode` is 'auto' or 'manual'."""
    parts = [template(f"chatbot-{profile}")]
    for category in CATEGORIES:  # stable order keeps equal turns byte-identical
        if category in categories and (text := category_prompt(profile, category)):
            parts.append(text)
    dormant = dormant_categories(categories, profile)
    if dormant and intent_json is None:
        listing = "; ".join(f"{c} ({GLOSSES[c]})" for c in dormant)
        parts.append(template(f"dormant-{mode}").format(dormant=listing))
    if intent_json:
        parts.append(template("intent-json").format(intents=intent_json))
    custom = [p.strip() for p in custom_prompts if p and p.strip()]
    if custom:
        parts.append("## The user's own instructions\n" + "\n\n".join(custom))
    return "\n\n".join(parts)


def turn_context(*, now, user, prefs) -> str:
    """Per-request facts, sent with the user's message rather than in the system prompt."""
    return (
        f"[Context: it is {now:%A} {now:%Y-%m-%d}, {now:%H:%M} in the user's time zone "
        f"({user.time_zone}). Units: weight {prefs.default_weight_unit}, lengths "
        f"{prefs.default_measurement_unit}.]"
    )


def classifier_prompt() -> str:
    listing = "\n".join(f"- {slug}: {text}" for slug, text in CATEGORIES.items())
    return template("classifier").format(categories=listing)
