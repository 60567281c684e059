"""What a turn is made of, shared by the coach and its engines: the turn in progress (`Turn`), the
answer it produces (`CoachResponse`) and the refusal of a turn that cannot start."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
from collections.abc import Callable

from django.utils import timezone

from chat.images import StoredImage
from chat.models import ChatMessage
from chat.reading.message import Reading, read
from chat.tools import ToolResult
from chat.tools.base import Written, logged_sentence
from sparky.services import preferences_for

OFFLINE_HELP = (
    "I'm running on Sparky's built-in offline parser, which understands everyday logging such as "
    "'2 eggs and toast for breakfast', 'walked 45 min', 'weight 80.2 kg waist 84 cm' or "
    "'3 glasses of water'. For open questions and coaching, add an AI service (OpenAI, Anthropic, "
    "Ollama...) in Settings."
)


# What a reply offered (options) or held (a review) waits this long for the user's answer.
ANSWER_WINDOW = dt.timedelta(hours=12)


def too_old(waiting: dict) -> bool:
    """Whether what a reply offered or held no longer waits: older than ANSWER_WINDOW by its
    "created_at", or undated."""
    try:
        created = dt.datetime.fromisoformat(waiting["created_at"])
    except (KeyError, TypeError, ValueError):
        return True
    return timezone.now() - created > ANSWER_WINDOW


class ReplyRefused(Exception):
    """What the user asked of an earlier reply (undo it, log or drop what it waits on) can't be
    done; `code` says why in one word (not_found, bad_item, already_undone, expired...)."""

    def __init__(self, message: str, code: str):
        super().__init__(message)
        self.code = code


def own_reply_locked(user, message_id, refusal: type[ReplyRefused] = ReplyRefused) -> ChatMessage:
    """One of the user's own replies, locked until the transaction ends; `refusal` (not_found)
    when there is no such reply of theirs."""
    message = (
        ChatMessage.objects.for_user(user)
        .select_for_update()
        .filter(pk=message_id, message_type=ChatMessage.Type.ASSISTANT)
        .first()
    )
    if message is None:
        raise refusal("There is no such reply of yours.", "not_found")
    return message


class TurnRejected(ValueError):
    """The turn cannot start (empty or oversized message, bad photo); nothing was stored."""

    def __init__(self, message: str, *, code: str):
        super().__init__(message)
        self.code = code


@dataclasses.dataclass
class CoachResponse:
    action: str  # logged | options | selected | answered | none | error | pending | confirm
    message: str
    entries: list[dict] = dataclasses.field(default_factory=list)
    categories: list[str] = dataclasses.field(default_factory=list)
    mode: str = "auto"
    phase: str = ""
    engine: str = ""
    escalations: list[list[str]] = dataclasses.field(default_factory=list)
    tools_called: list[str] = dataclasses.field(default_factory=list)
    usage: dict = dataclasses.field(default_factory=dict)
    options: list[dict] | None = None
    # The items a reply would log once the user reviews them (chat.turn.review), when it waits on
    # them.
    review: list[dict] | None = None
    error: str | None = None
    user_message_id: str | None = None
    message_id: str | None = None

    def as_dict(self) -> dict:
        return dataclasses.asdict(self)


@dataclasses.dataclass
class Turn:
    """One turn while it runs: who asks, what they said, and what the tools did so far."""

    user: object
    text: str
    image: StoredImage | None
    manual: list[str] | None
    source: str
    history: list[ChatMessage]
    previous: ChatMessage | None
    # The one reading of the message (chat.reading.message), built when the turn starts.
    reading: Reading = dataclasses.field(default=None)  # type: ignore[assignment]
    written: list[Written] = dataclasses.field(default_factory=list)
    tools_called: list[str] = dataclasses.field(default_factory=list)
    option_requests: list[dict] = dataclasses.field(default_factory=list)
    escalations: list[list[str]] = dataclasses.field(default_factory=list)
    usage: dict = dataclasses.field(default_factory=dict)
    notes: list[str] = dataclasses.field(default_factory=list)
    # Questions of calls that wait for the user's confirmation (an implausible amount).
    confirm_requests: list[str] = dataclasses.field(default_factory=list)
    # What the reply asks the user to confirm, stored in its metadata like options.
    pending_confirmation: dict | None = None
    # Why each refused call was refused (not options, not a confirmation): what was not saved.
    refusals: list[str] = dataclasses.field(default_factory=list)
    # Each call that saved something, as {"name", "arguments", "result"}: stored with the reply
    # so a small model's history shows the calls, not only the words that followed them.
    saved_calls: list[dict] = dataclasses.field(default_factory=list)
    # Who hears the turn as it runs (a streamed reply): called with ("step", {"text"}),
    # ("text", {"text"}) and ("entry", a Written's dict). None when nobody listens.
    events: Callable[[str, dict], None] | None = dataclasses.field(default=None, repr=False)
    # The rows already announced as "entry" events, so each is announced once.
    announced: set = dataclasses.field(default_factory=set, repr=False)
    last_step: str = dataclasses.field(default="", repr=False)
    # Whether a model reply's words were streamed already: the next reply's start on a new
    # paragraph.
    drafted: bool = dataclasses.field(default=False, repr=False)
    _prefs: object = dataclasses.field(default=None, repr=False)

    @property
    def prefs(self):
        """The user's preferences, read once a turn (and again once a call changed them)."""
        if self._prefs is None:
            self._prefs = preferences_for(self.user)
        return self._prefs

    def __post_init__(self):
        if self.reading is None:
            self.reading = read(self.text or "")

    def tell(self, event: str, **data) -> None:
        """Pass an event to whoever listens to the turn (nobody, most of the time)."""
        if self.events is not None:
            self.events(event, data)

    def step(self, text: str) -> None:
        """Name what the turn is doing now, in the user's words ("Looking up oatmeal…"); the
        same line twice in a row is said once."""
        if text != self.last_step:
            self.last_step = text
            self.tell("step", text=text)

    def announce_saved(self) -> None:
        """An "entry" event for each row saved for good (its batch committed) and not yet
        announced. Called where a batch can no longer be held back for a confirmation."""
        if self.events is None:
            return
        for written in self.written:
            key = (written.kind, written.id)
            if key not in self.announced:
                self.announced.add(key)
                self.events("entry", written.as_dict())

    def add_usage(self, values: dict | None, prefix: str = "") -> None:
        for key, value in (values or {}).items():
            if isinstance(value, int | float):
                self.usage[prefix + key] = self.usage.get(prefix + key, 0) + value

    def settled(self, batch: list, *, held: str | None = None, late: str | None = None) -> None:
        """Record a checked batch (chat.turn.execute): `held` for the user's answer to that
        question, its calls waiting for a yes with nothing written; else as done, `late` the
        question of calls that said only once done that they need the user's yes (their rows
        were not kept). A call not done (another of the batch was refused) wrote nothing. Rows
        saved for good are announced."""
        if held:
            self.wait_for([[c.name, c.raw] for c in batch if c.keeps or c.result.confirm], held)
        for c in batch:
            if held or (c.done is None and c.keeps):  # nothing of it written
                self.record(c.name, c.result.held(), c.raw)
            else:
                self.record(c.name, c.done or c.result, c.raw)
        if late:
            asked = [[c.name, c.raw] for c in batch if c.deferred and c.done and c.done.confirm]
            self.wait_for(asked, late)
        if not held:
            self.announce_saved()

    def wait_for(self, calls: list[list], question: str) -> None:
        """Calls that wait for the user's yes to `question`, with any already waiting."""
        self.pending_confirmation = {
            "calls": (self.pending_confirmation or {}).get("calls", []) + calls,
            "question": question,
            "created_at": timezone.now().isoformat(),
        }

    def record(self, name: str, result: ToolResult, arguments=None) -> None:
        self.tools_called.append(name)
        if name == "update_preferences":
            self._prefs = None  # read again when next asked
        self.written.extend(result.written)
        if result.options:
            self.option_requests.append(result.options)
        if result.confirm:
            self.confirm_requests.append(result.confirm)
        elif not result.ok and not result.options and not result.data.get("refused"):
            # the user's input refused by a service; a model's malformed or ungrounded call
            # (data "refused") is the model's to mend, not news for the user
            self.refusals.append(result.message)
        if result.written:
            if isinstance(arguments, str):
                try:
                    arguments = json.loads(arguments)
                except ValueError:
                    arguments = None
            self.saved_calls.append(
                {"name": name, "arguments": arguments or {}, "result": result.message}
            )


def said_logged(user, written: list[Written]) -> str:
    """What a reply says it saved: one sentence of the logged rows ("Logged 2 large eggs (143
    kcal) for breakfast."), then any other saved row by its summary."""
    phrased = [w for w in written if w.phrase]
    others = [w for w in written if not w.phrase]
    parts = [logged_sentence(phrased, user)] if phrased else []
    if others:
        parts.append(f"Saved {listing(others)}.")
    return " ".join(parts)


def listing(written: list[Written]) -> str:
    """What was saved, as one line for a reply (\"2 egg (breakfast...); 1 slice toast (...)\")."""
    return "; ".join(w.summary for w in written)
