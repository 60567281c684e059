"""The JSON schema of a tool's parameters: plain JSON-schema that every provider accepts (no
patterns, no type unions, no $refs, no additionalProperties), so Gemini, Ollama and Anthropic all
take it as is."""

from __future__ import annotations

from nutrition.vocabulary import MEALS


# A description is left out where the name says it all ("quantity" of an edit): every token is
# sent on every turn, and small models read the names.
def string(description: str | None, enum: list[str] | None = None) -> dict:
    out = {"type": "string"}
    if description:
        out["description"] = description
    if enum:
        out["enum"] = enum
    return out


def number(description: str | None) -> dict:
    return {"type": "number", **({"description": description} if description else {})}


def integer(description: str) -> dict:
    return {"type": "integer", "description": description}


def boolean(description: str) -> dict:
    return {"type": "boolean", "description": description}


def array(description: str, items: dict) -> dict:
    return {"type": "array", "description": description, "items": items}


def obj(required: list[str] | None = None, **properties) -> dict:
    out: dict = {"type": "object", "properties": properties}
    if required:
        out["required"] = required
    return out


DATE_ARG = string("YYYY-MM-DD, 'today' or 'yesterday'. Omit for today.")
MEAL_ARG = string(
    "Omit to use the meal of the user's local time.",
    enum=list(MEALS),
)
