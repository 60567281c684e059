"""What a tool is: plain data the provider payload, the MCP server, the docs and the tests all read.

A handler gets a ToolContext (the acting user, fixed by the server, never by the model) and the
validated arguments, and returns a ToolResult the model can read. Handlers raise Django
ValidationError / ObjectDoesNotExist for bad input; `chat.tools.run_tool` turns those into results.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
import zoneinfo
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from chat.categories import CATEGORIES
from sparky.dates import parse_day, spoken_day, today_for
from sparky.services import preferences_for

from .schema import DATE_ARG, obj

FULL = frozenset({"full"})
CORE = frozenset({"full", "core"})

ENABLE_TOOL_NAME = "sparky_enable_tools"


@dataclasses.dataclass
class ToolContext:
    user: Any
    tz: zoneinfo.ZoneInfo
    image: Any = None  # the turn's attached image (chat.images.StoredImage), if any
    source: str = "chat"  # chat | mcp | api
    profile: str = "full"  # the tool profile of the turn: what escalation can load
    # What the user said (chat.tools.grounding.Said), when a model's writes must be grounded in
    # it; None for callers that decide for themselves (MCP agents, the API, the offline parser).
    said: Any = None
    # The user confirmed these calls after Sparky asked (an amount out of range, a bulk turn):
    # set by the coach when it replays a pending confirmation, never by a model.
    confirmed: bool = False

    @classmethod
    def for_user(cls, user, **kw) -> ToolContext:
        return cls(user=user, tz=user.tz, **kw)


@dataclasses.dataclass
class Written:
    """One diary row a tool call wrote, for the reply's metadata and the diary refresh."""

    kind: str  # food_entry | exercise_entry | checkin | custom_measurement | water | goal | food
    id: str
    summary: str
    date: str | None = None  # the diary day it belongs to (ISO), when it has one
    # What the reply's chip shows: the row in a few words ("Egg, raw · 143 kcal"). The summary
    # above is the full sentence the reply is made of; a chip repeating it would say it twice.
    chip: str = ""
    # The chip's tooltip when there is more to say than the summary: the food's full catalog name.
    title: str = ""
    # How to take it back (chat.turn.undo): {"op": "delete", "after": {...}} for a row it created,
    # {"op": "restore", "before": {...}, "after": {...}} for values it changed, {"op":
    # "recreate", "row": {...}} for a row it deleted, {"op": "water", "added": n}.
    undo: dict | None = None
    # The row as a reply says it ("2 large eggs (143 kcal)") and the meal it went to: replies that
    # log several rows join them into one sentence (logged_sentence).
    phrase: str = ""
    meal: str | None = None

    def as_dict(self) -> dict:
        return dataclasses.asdict(self)


def undo_of(before: dict | None, after: dict) -> dict:
    """How undo takes back a row the call created (`before` None: delete it) or changed (restore
    `before`)."""
    if before is None:
        return {"op": "delete", "after": after}
    return {"op": "restore", "before": before, "after": after}


def written_new(kind: str, row, *, noun: str) -> Written:
    """A food or exercise of the user's own that the call created: undo deletes it while nothing
    uses it."""
    return Written(
        kind=kind,
        id=str(row.id),
        summary=row.name,
        chip=f"New {noun}: {row.name}",
        undo={"op": "delete"},
    )


def and_list(items: list[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def logged_sentence(rows: list[Written], user) -> str:
    """The rows a turn logged as one sentence: "Logged 2 large eggs (143 kcal) and a slice of
    whole-wheat bread (86 kcal) for breakfast." The day only when it is not today, said once
    ("yesterday", "on Saturday", "on 03/11/2026" in the user's date format)."""
    today = today_for(user)
    pattern = preferences_for(user).date_format
    groups: dict[tuple, list[str]] = {}
    for row in rows:
        groups.setdefault((row.meal, row.date), []).append(row.phrase or row.summary)
    parts = []
    for (meal, day), phrases in groups.items():
        when = (" as a snack" if meal == "snack" else f" for {meal}") if meal else ""
        if day and day != today.isoformat():
            when += " " + spoken_day(dt.date.fromisoformat(day), today=today, pattern=pattern)
        parts.append(and_list(phrases) + when)
    return f"Logged {'; '.join(parts)}."


@dataclasses.dataclass
class ToolResult:
    ok: bool
    message: str
    data: dict = dataclasses.field(default_factory=dict)
    written: list[Written] = dataclasses.field(default_factory=list)
    # Set when the handler wants the user to choose (not-found food -> options).
    options: dict | None = None
    # Set when the call needs the user's confirmation first (an implausible amount): the question.
    confirm: str | None = None
    # A checked call's writes, not done yet (a tool registered with `plans=True`): called once the
    # turn decides to keep them, it writes and returns the result as done. `written` meanwhile
    # lists the rows it would write, with their ids.
    plan: Callable[[], ToolResult] | None = dataclasses.field(default=None, repr=False)
    # The unsaved rows a plan would write (a FoodEntry, an ExerciseEntry), for checks that need
    # their numbers (what a turn would add up to).
    rows: list = dataclasses.field(default_factory=list, repr=False)

    def held(self) -> ToolResult:
        """This result as a call's that waits for the user: nothing written, nothing offered."""
        return dataclasses.replace(self, written=[], options=None, plan=None, rows=[])

    def for_model(self) -> dict:
        out = {"ok": self.ok, "message": self.message}
        if self.data:
            out["data"] = jsonable(self.data)
        return out


@dataclasses.dataclass(frozen=True)
class Tool:
    name: str
    category: str
    description: str
    parameters: dict
    handler: Callable[[ToolContext, dict], ToolResult]
    profiles: frozenset[str] = FULL
    example: dict | None = None
    writes: bool = False
    # Its handler writes nothing: it checks the call and returns the writes as a plan
    # (ToolResult.plan), so a turn sees what every call would do before anything is saved.
    plans: bool = False

    def spec(self) -> dict:
        """The OpenAI function-tool format; litellm translates it for every other provider."""
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": self.parameters,
            },
        }


def bounded(args: dict, name: str, default: int, low: int, high: int) -> int:
    """A whole-number argument (a limit, a number of days) held between `low` and `high`."""
    return max(low, min(int(args.get(name, default)), high))


def jsonable(value):
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    if isinstance(value, Decimal):
        return float(round(value, 2))
    if isinstance(value, dt.date | dt.datetime):
        return value.isoformat()
    if isinstance(value, float):
        return round(value, 2)
    if hasattr(value, "hex") and hasattr(value, "int"):  # UUID
        return str(value)
    return value


_REGISTRY: dict[str, Tool] = {}


def tool(
    *,
    name: str,
    category: str,
    description: str,
    parameters: dict,
    profiles: frozenset[str] = FULL,
    example: dict | None = None,
    writes: bool = False,
    plans: bool = False,
):
    """Register a handler as a tool (`plans`: a writing handler that returns its writes as a
    plan instead of doing them)."""
    if category not in CATEGORIES:
        raise ValueError(f"unknown category {category!r}")

    def register(handler):
        if name in _REGISTRY:
            raise ValueError(f"tool {name!r} registered twice")
        _REGISTRY[name] = Tool(
            name=name,
            category=category,
            description=description,
            parameters=parameters,
            handler=handler,
            profiles=profiles,
            example=example,
            writes=writes,
            plans=plans,
        )
        return handler

    return register


def day_tool(*, date: dict = DATE_ARG, **registration):
    """Register a tool that reads one diary day: its one argument is the `date` (today when left
    out), and the handler is given the day instead of the arguments."""

    def register(read):
        @functools.wraps(read)
        def handler(ctx, args) -> ToolResult:
            return read(ctx, parse_day(ctx.user, args.get("date")))

        return tool(parameters=obj(date=date), example={"date": "today"}, **registration)(handler)

    return register


def registry() -> dict[str, Tool]:
    return _REGISTRY
