"""The items a message names, as Sparky's parser reads them, and which of them a model's calls
have dealt with: a small model makes one call per reply and then answers, so after each call it
is told what is left ("Still to save: toast"), and what it never calls a tool for is logged the
parser's way when it stops."""

from __future__ import annotations

import dataclasses
import json

from chat.reading.intents import Intent
from chat.reading.message import Reading
from chat.tools.grounding import EXERCISE_TOOLS, FOOD_TOOLS, Said
from measurements.services import STANDARD_TYPES

_CHECKIN_FIELDS = STANDARD_TYPES
_CATEGORY = {
    "food": "food",
    "exercise": "exercise",
    "water": "checkin",
    "checkin": "checkin",
    "custom": "checkin",
}
_KINDS = {
    **dict.fromkeys(FOOD_TOOLS, "food"),
    **dict.fromkeys(EXERCISE_TOOLS, "exercise"),
    "log_water": "water",
    "set_water": "water",
    "log_checkin": "checkin",
    "log_custom_measurement": "custom",
}


@dataclasses.dataclass
class Item:
    kind: str  # food | exercise | water | checkin | custom
    label: str  # as the user would read it: "toast", "weight"
    intent: Intent  # the parser's reading of it, to log it the parser's way
    handled: bool = False


class NamedItems:
    """What the user's message names, and which items the turn's calls have dealt with (saved,
    refused, offered as options: a call was made for it)."""

    def __init__(self, reading: Reading):
        parsed = reading.parse
        self.items: list[Item] = []
        self.calls: dict[str, int] = {}  # calls the model made, by kind of item
        # Parts of the message the parser could not read, or read on a hunch ("the usual" as a
        # food called "usual"): the list may be short of the truth, and hunches are no items.
        self.partial = bool(parsed.errors) or parsed.bare_food
        for intent in parsed.intents:
            if parsed.bare_food or intent.tentative:
                self.partial = True
                continue
            data = intent.data or {}
            if intent.name in ("log_food", "log_external") and data.get("food_name"):
                self.items.append(Item("food", str(data["food_name"]), intent))
            elif intent.name == "log_exercise" and data.get("exercise_name"):
                self.items.append(Item("exercise", str(data["exercise_name"]), intent))
            elif intent.name == "log_water":
                self.items.append(Item("water", "water", intent))
            elif intent.name == "log_measurement":
                for m in data.get("measurements") or []:
                    kind = "custom" if m.get("type") == "custom" else "checkin"
                    alone = dataclasses.replace(intent, data={**data, "measurements": [m]})
                    self.items.append(Item(kind, str(m.get("name") or m.get("type")), alone))

    def __bool__(self) -> bool:
        return bool(self.items)

    def categories(self) -> set[str]:
        """The tool categories the items belong to."""
        return {_CATEGORY[item.kind] for item in self.items}

    @property
    def left(self) -> list[Item]:
        return [item for item in self.items if not item.handled]

    def mark(self, tool: str, arguments) -> None:
        """Count a call the model made as dealing with the items it is about."""
        if isinstance(arguments, str):
            try:
                arguments = json.loads(arguments)
            except ValueError:
                return
        if not isinstance(arguments, dict):
            return
        kind = _KINDS.get(tool)
        if kind is None:
            return
        self.calls[kind] = self.calls.get(kind, 0) + 1
        if tool in FOOD_TOOLS:
            self._mark_named("food", arguments.get("food_name") or arguments.get("name"))
        elif tool in EXERCISE_TOOLS:
            self._mark_named("exercise", arguments.get("exercise_name") or arguments.get("name"))
        elif tool in ("log_water", "set_water"):
            self._mark_kind("water", lambda item: True)
        elif tool == "log_checkin":
            given = {k for k in _CHECKIN_FIELDS if arguments.get(k) is not None}
            self._mark_kind("checkin", lambda item: item.label in given)
        elif tool == "log_custom_measurement":
            self._mark_named("custom", arguments.get("name"))

    def unlogged(self) -> list[Intent]:
        """The parser's intents for the items no call dealt with, at most as many of a kind as
        the model made fewer calls of that kind than there are items (its "orange juice" may
        be the parser's "oj": never logged twice)."""
        intents = []
        for kind in {item.kind for item in self.left}:
            room = sum(i.kind == kind for i in self.items) - self.calls.get(kind, 0)
            left = [i for i in self.left if i.kind == kind][: max(room, 0)]
            intents += [item.intent for item in left]
        order = {id(item.intent): n for n, item in enumerate(self.items)}
        return sorted(intents, key=lambda intent: order[id(intent)])

    def _mark_kind(self, kind, matches) -> None:
        for item in self.items:
            if item.kind == kind and matches(item):
                item.handled = True

    def _mark_named(self, kind: str, name) -> None:
        candidates = [i for i in self.items if i.kind == kind and not i.handled]
        if not candidates:
            return
        said = Said.of(str(name or ""))
        for item in candidates:
            if said.names(item.label) or Said.of(item.label).names(str(name or "")):
                item.handled = True
                return
        if kind == "exercise":  # "a run" may be logged as "running": one call, one activity
            candidates[0].handled = True

    def hint(self) -> str | None:
        """What to tell the model after a write: what is left, or that nothing is."""
        if not self.items:
            return None
        left = self.left
        if left:
            return (
                "Still to save from the user's message: "
                + ", ".join(item.label for item in left)
                + ". Call a tool for the next one."
            )
        if self.partial:
            return None
        return "Every item the user named is saved: tell the user, in one sentence, no tool call."
