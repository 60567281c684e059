"""The agent loop: the model calls tools through litellm, step after step, within a step and time
budget. In auto mode the tools offered are the classified categories' (narrowed from the user's
surface), widened for the next step when the model calls sparky_enable_tools; in manual mode the
user's pick is a ceiling.

The loop holds against what small local models do (LOCAL-MODEL.md):
- the same write (same tool, same arguments) runs once a turn; asked again in a later step, the
  model is told it is already done, and two steps of nothing but repeats end the loop;
- a write the user's message does not support is refused by the registry (chat.tools.grounding)
  with the reason, so the model answers instead;
- a tool call written as text ("```json {"name": "log_food", ...}```") is run as the call it is
  when it names an offered tool, and never shown to the user;
- every step's reply is bounded (max_tokens) and reasoning is stripped from the answer;
- a turn that saved something always ends with an answer that lists what was saved, whatever the
  model wrote last; a reply that claims a save when nothing was saved, or words alone for a
  message Sparky reads as logging, is no answer (`run` returns None): the coach hands the message
  to the next engine, Sparky's parser.
"""

from __future__ import annotations

import json
import re
import time
import uuid

from django.conf import settings

from aiservices import llm
from chat.reading.classify import Classification
from chat.reading.vocabulary import CLAIMS
from chat.tools import (
    ENABLE_TOOL_NAME,
    ToolContext,
    ToolResult,
    active_tool_names,
    build_chat_tool_surface,
    build_chatbot_tools,
    check_tool,
    prepare_arguments,
)
from chat.tools.grounding import Said, unneeded_tools
from chat.turn import steps
from chat.turn.answers import answer_for, answer_question
from chat.turn.engines.dispatch import check_intents
from chat.turn.engines.items import NamedItems
from chat.turn.engines.machinery import is_json, names_a_tool, not_an_answer, only_machinery
from chat.turn.engines.messages import current_message, custom_prompts, history_messages
from chat.turn.execute import commit, gate, question_for, settle
from chat.turn.prompts import compose_system_prompt
from chat.turn.types import CoachResponse, Turn, said_logged
from sparky.words import alternation

# Tokens a step may write: a few tool calls, or the answer. Small models run away without one.
STEP_TOKENS = {"full": 1024, "core": 256}
# Steps in a row with nothing but repeated calls before the loop gives up on the model.
MAX_REPEAT_STEPS = 2
_NEXT = (
    "This item is saved. If the user named another item, call a tool for it; if not, tell the "
    "user what was saved, in one sentence."
)

_CLAIM = re.compile(rf"\b{alternation(CLAIMS['saved'])}\b", re.I)
_NOT_CLAIM = re.compile(
    rf"\b{alternation(CLAIMS['not_done'])}\b[^.!?\n]{{0,40}}\b{alternation(CLAIMS['saved'])}\b"
    rf"|\b{alternation(CLAIMS['offering'])}\b[^.!?\n]{{0,20}}\b(me to )?"
    rf"{alternation(CLAIMS['saving'])}\b",
    re.I,
)
_FENCED = re.compile(r"```(?:json|tool_call|tool)?\s*(.*?)```", re.S)
_TAGGED = re.compile(r"<tool_call>\s*(.*?)\s*(?:</tool_call>|\Z)", re.S)


def run(
    turn: Turn, config, classification: Classification, profile: str, service
) -> CoachResponse | None:
    user = turn.user
    categories = list(classification.categories)
    mode = classification.mode
    previous_user = next(
        (m.content for m in reversed(turn.history) if m.message_type == "user"), ""
    )
    said = Said.of(
        turn.text,
        before=(previous_user, turn.previous.content if turn.previous else ""),
        image=turn.image is not None,
        reading=turn.reading,
    )
    ctx = ToolContext.for_user(
        user, image=turn.image, source=turn.source, profile=profile, said=said
    )
    # A small model reads every tool it is offered: not the ones this message cannot use.
    unneeded = unneeded_tools(said) if profile == "core" else set()
    if mode == "manual":
        active = build_chatbot_tools(user, profile, categories).without(unneeded)
        surface = None
        hint = "The user switched that category off; tell them to enable it in the tool selector."
    else:
        surface = build_chat_tool_surface(user, user.tz)
        active = surface.narrowed(active_tool_names(profile, categories)).without(unneeded)
        hint = f"Call {ENABLE_TOOL_NAME} with its category first."
    system = compose_system_prompt(
        profile=profile,
        categories=categories,
        mode=mode,
        custom_prompts=custom_prompts(turn, service),
    )
    messages = [
        {"role": "system", "content": system},
        # a small local model repeats what its history shows: its earlier calls, not only words
        *history_messages(
            turn, profile, calls=profile == "core" and not config.supports_cache_control
        ),
        current_message(turn),
    ]
    deadline = time.monotonic() + turn_time_limit(config)
    max_steps = settings.SPARKY_MAX_AGENT_STEPS
    final_text = None
    done: dict[str, ToolResult] = {}  # each write call made this turn -> what it did
    repeat_steps = 0
    # A small model makes one call a reply: it is told what the message named and is not saved.
    named = NamedItems(turn.reading) if profile == "core" and turn.text else None
    # What the message named, followed for every model: once each item is saved and nothing is
    # asked, Sparky writes the confirmation itself instead of asking the model for one.
    covered = named or (NamedItems(turn.reading) if turn.text and turn.image is None else None)
    for number in range(max_steps):
        remaining = deadline - time.monotonic()
        if remaining <= 1:
            break
        tools_payload = active.payload(cache_control=config.supports_cache_control) or None
        turn.step(steps.WRITING if number else steps.THINKING)
        draft = _Draft.for_turn(turn)
        result = llm.complete(
            config,
            messages=messages,
            tools=tools_payload,
            timeout=min(config.timeout, remaining),
            temperature=0 if profile == "core" else None,
            max_tokens=STEP_TOKENS.get(profile, STEP_TOKENS["full"]),
            allow_empty=bool(turn.written or turn.option_requests),
            on_text=draft,
            on_call=_announce_call(turn),
        )
        if draft is not None:
            draft.finish()
        turn.add_usage(result.usage.as_dict())
        calls = list(result.tool_calls)
        text = llm.strip_reasoning(result.text)
        if not calls:
            calls, text = written_calls(text, active)
        if not calls:
            final_text = text
            break
        messages.append(_assistant_message(text, calls))
        step = _Step(turn, ctx, active, hint, categories, done, covered)
        question = step.run(calls)
        messages += step.replies
        enabled = step.enabled
        repeat_steps = repeat_steps + 1 if step.repeats == len(calls) else 0
        if repeat_steps >= MAX_REPEAT_STEPS:
            break  # the model keeps asking for what is done: answer for it
        if _all_saved(turn, covered) and not question:
            break  # every item the message named is saved: Sparky says what, in one request
        if enabled and surface is not None:
            categories += enabled
            turn.escalations.append(enabled)
            active = surface.narrowed(active_tool_names(profile, categories)).without(unneeded)
    classification.categories = categories
    # "log_food: chicken, rice", '{"weight": 0.5}': a call the server could not read
    botched = bool(final_text) and (names_a_tool(final_text, active) or is_json(final_text))
    if botched:
        final_text = None  # never shown
    # the items the model never made a call for, logged as Sparky's parser read them; its
    # answer does not know of them, so Sparky lists the turn instead
    engaged = named and (named.calls or botched) and not turn.pending_confirmation
    if engaged and _complete(turn, named.unlogged()):
        final_text = None
    if botched and not turn.written and not turn.option_requests:
        return None  # nothing came of it: the message goes to Sparky's parser, as for a claim
    # "had 2 slices of pepperoni pizza for dinner" answered with words and no call: Sparky read
    # it whole as something to log, so its parser answers it (options, if need be)
    untouched = named and not named.partial and not named.calls and not turn.written
    untouched = untouched and not turn.reading.reports_nothing  # its words may be the answer
    allowed = mode != "manual" or named and named.categories() <= set(categories)
    if untouched and allowed and not turn.option_requests and not turn.pending_confirmation:
        return None
    if final_text and only_machinery(final_text, messages):
        final_text = None  # "1 food entries on 2026-12-04", "Enabled checkin...": no answer
    waiting = turn.written or turn.option_requests or turn.pending_confirmation
    if final_text and not_an_answer(final_text, turn.reading):
        final_text = None  # never shown
        if not waiting:
            return None  # Sparky answers the message alone
    if final_text is None and not waiting and deadline - time.monotonic() > 5:
        final_text = _once_more(turn, config, messages, deadline)
    return _answer(turn, final_text)


def _all_saved(turn: Turn, covered) -> bool:
    """Whether the calls so far saved every item the message named, with nothing asked of the
    user (options, a confirmation) and no question in the message to answer."""
    if not covered or covered.left or covered.partial or not turn.written:
        return False
    if turn.option_requests or turn.confirm_requests or turn.pending_confirmation:
        return False
    return not (turn.reading is not None and turn.reading.asks)


def turn_time_limit(config) -> float:
    """Seconds a turn may run: a server of the user's own gets the long limit (a cold start)."""
    if config.local:
        return max(settings.SPARKY_LOCAL_TURN_TIME_LIMIT, settings.SPARKY_TURN_TIME_LIMIT)
    return settings.SPARKY_TURN_TIME_LIMIT


def _complete(turn: Turn, intents) -> bool:
    """Log each intent the way the offline parser would, keeping only plain saves: an item the
    catalog does not know, or one to confirm, is left out rather than asked about, since the
    model had its turn at it. Whether anything was saved."""
    saved = False
    ctx = gate(turn, origin="parser")
    for intent in intents:
        batch, hunches, _ = check_intents(turn, ctx, [intent], [])
        plain = not hunches and any(c.keeps for c in batch)
        plain = plain and not any(c.result.options or c.result.confirm for c in batch)
        if not plain or question_for(turn, batch):
            continue
        commit(turn, batch)
        saved = saved or any(c.done.ok for c in batch)
    return saved


_ONCE_MORE = (
    "Answer the user's last message now, in plain words, from the results above. Do not call "
    "a tool, and do not name tools or steps."
)


def _once_more(turn: Turn, config, messages: list[dict], deadline: float) -> str | None:
    """The model asked once more, with no tools, for a plain answer from what it found; None
    when that is no answer either."""
    turn.step(steps.WRITING)
    draft = _Draft.for_turn(turn)
    try:
        result = llm.complete(
            config,
            messages=[*messages, {"role": "user", "content": _ONCE_MORE}],
            timeout=min(config.timeout, max(deadline - time.monotonic(), 1)),
            temperature=0,
            max_tokens=STEP_TOKENS["full"],
            on_text=draft,
        )
    except llm.LLMError:
        return None
    if draft is not None:
        draft.finish()
    turn.add_usage(result.usage.as_dict())
    text = llm.strip_reasoning(result.text or "")
    calls, text = written_calls(text, build_chatbot_tools(turn.user, "full", None))
    if calls or not text or is_json(text) or only_machinery(text, messages):
        return None
    return None if not_an_answer(text, turn.reading) else text


def _answer(turn: Turn, final_text: str | None) -> CoachResponse | None:
    response = CoachResponse(action="answered", message="", engine="tools")
    if turn.written:
        response.action = "logged"
        saved = said_logged(turn.user, turn.written)
        if final_text and _covers(final_text, turn) and not _only_a_claim(final_text):
            response.message = final_text
        elif final_text and not _only_a_claim(final_text) and not _CLAIM.search(final_text):
            response.message = f"{saved}\n\n{final_text}"
        else:
            response.message = saved
        if final_text is None and turn.refusals:  # Sparky answers for the model: all of it
            response.message += "".join(f"\nNot saved: {why}" for why in turn.refusals)
        return response
    if final_text is None and not turn.option_requests:
        # Sparky answers from what it can read itself: a question's numbers from the diary or
        # the catalog; else it says plainly that nothing was saved
        reading = turn.reading
        answer = answer_for(user=turn.user, reading=reading) if reading.asks else None
        if answer is None and reading.kind == "data_question":
            answer = answer_question(user=turn.user, text=turn.text)
        response.message = answer or (
            "I couldn't finish that one, and nothing was saved. Try it again in a few words."
        )
        response.error = None if answer else "unfinished"
        return response
    waiting = turn.option_requests or turn.pending_confirmation
    claimed = final_text and claims_a_save(final_text) and not turn.reading.asks
    if claimed and not waiting:
        return None  # a save claimed and not made: the message goes to Sparky's parser
    if final_text:
        response.message = final_text
    elif not turn.option_requests:
        raise llm.LLMBadResponse("the model sent an empty reply")
    return response


def claims_a_save(text: str) -> bool:
    """Whether a reply says something was logged or saved ("Logged 2 eggs!"), as opposed to
    saying it was not, or offering to."""
    return bool(_CLAIM.search(text)) and not _NOT_CLAIM.search(text)


def _only_a_claim(text: str) -> bool:
    """A reply that is only the word: "logged", "Saved!", "Done."."""
    return len(re.findall(r"[a-z]+", text.lower())) <= 2


def _covers(text: str, turn: Turn) -> bool:
    """Whether the model's answer names everything the turn saved."""
    said = Said.of(text)
    for item in turn.written:
        name = item.summary.split(" (", 1)[0]
        if not said.names(name):
            return False
    return True


class _Step:
    """One step's tool calls: each write once a turn, the replies to the model in `replies`."""

    def __init__(self, turn, ctx, active, hint, categories, done, named=None):
        self.turn, self.ctx, self.active, self.hint = turn, ctx, active, hint
        self.categories, self.done, self.named = categories, done, named
        # Calls repeated from an earlier step are the small-model loop. The same call twice in
        # one reply is a capable model's way of saying two of them, and a small model's
        # stutter ("some broccoli" logged twice): with the core profile it runs once.
        self.earlier = dict(done)
        self.replies: list[dict] = []
        self.enabled: list[str] = []
        self.repeats = 0

    def run(self, calls) -> str | None:
        """Check the step's calls in order (a read is done as it is checked), then settle its
        writes at once (chat.turn.execute); the replies to the model follow, in the calls'
        order. The question the writes wait on, if they wait: then nothing of them is saved and
        the model is told to ask the user."""
        core = self.ctx.profile == "core"
        steps_of: list[tuple] = []  # (call, key, checked or None, the earlier outcome or index)
        batch = []
        seen: dict[str, int] = {}
        for call in calls:
            if self.named is not None:
                self.named.mark(call.name, call.arguments)
            key = _write_key(self.active, call)
            if key is not None and key in self.earlier:
                self.repeats += 1
                steps_of.append((call, key, None, self.earlier[key]))
                continue
            if key is not None and core and key in seen:  # a small model's stutter: once
                self.repeats += 1
                steps_of.append((call, key, None, seen[key]))
                continue
            if self.turn.events is not None:
                self.turn.step(steps.doing(call.name, call.arguments))
            checked = check_tool(
                self.ctx, call.name, call.arguments, allowed=self.active, dormant_hint=self.hint
            )
            if checked.writes:
                batch.append(checked)
            else:
                self.turn.record(call.name, checked.result, call.arguments)
            if key is not None:
                seen[key] = len(steps_of)
            steps_of.append((call, key, checked, None))
        question = settle(self.turn, batch)
        held = {"ok": False, "message": f"Not saved yet. {question} Ask the user."}
        outcomes: list[ToolResult] = []
        for call, key, checked, first in steps_of:
            if checked is None:
                earlier = outcomes[first] if isinstance(first, int) else first
                outcome = _repeated(earlier)
            else:
                outcome = checked.done or checked.result
                if key is not None and not question and (outcome.ok or outcome.data.get("refused")):
                    self.done[key] = outcome
            outcomes.append(outcome)
            if call.name == ENABLE_TOOL_NAME and outcome.ok:
                self.enabled += [
                    c for c in outcome.data.get("enabled", []) if c not in self.categories
                ]
            reply = outcome.for_model()
            if question and checked is not None and checked.writes:
                reply = held
            elif outcome.written and core:
                # A small model reads a short result best, and repeats the call unless told
                # what comes next.
                hint = self.named.hint() if self.named is not None else None
                reply = {"ok": True, "message": outcome.message, "next": hint or _NEXT}
            content = json.dumps(reply)
            self.replies.append({"role": "tool", "tool_call_id": call.id, "content": content})
        return question


class _Draft:
    """The text of one model reply, passed on to the turn's listener as it is written. What a
    user must never see is held back: a reasoning block (the answer after it streams), a reply
    that opens like JSON, and everything from a tool call written as text on ("```json",
    "<tool_call>"). A few characters stay back until the next piece, in case they begin such a
    marker. The reply the turn ends with may still differ: the final "done" event carries it."""

    _MARKERS = ("```", "<tool_call", '{"name"', '{"tool"', '{"function"')
    _HOLD = max(len(m) for m in _MARKERS) - 1

    def __init__(self, turn: Turn):
        self.turn = turn
        self.text = ""
        self.sent = 0
        self.hidden = False

    @classmethod
    def for_turn(cls, turn: Turn):
        return cls(turn) if turn.events is not None else None

    def __call__(self, piece: str) -> None:
        self.text += piece
        self._send(self._showable())

    def finish(self) -> None:
        """The reply is complete: what was held back in case a marker began is sent."""
        self._send(self._showable(complete=True))

    def _send(self, shown: str) -> None:
        if len(shown) > self.sent:
            piece = shown[self.sent :]
            if not self.sent and self.turn.drafted:
                piece = f"\n\n{piece}"  # after an earlier reply's words
            self.turn.tell("text", text=piece)
            self.turn.drafted = True
            self.sent = len(shown)

    def _showable(self, *, complete: bool = False) -> str:
        if self.hidden:
            return ""
        text = self.text.lstrip()
        closed = _CLOSED_REASONING.match(text)
        if closed:  # the thinking is over: what follows it is the answer
            text = text[closed.end() :].lstrip()
        elif _thinking(text):
            return ""
        if text.startswith(("{", "[")):
            self.hidden = True
            return ""
        cuts = [at for at in (text.find(m) for m in self._MARKERS) if at >= 0]
        if cuts:
            self.hidden = True
            return text[: min(cuts)].rstrip()
        return text if complete else text[: max(len(text) - self._HOLD, 0)]


_CLOSED_REASONING = re.compile(rf"<({'|'.join(llm.REASONING_TAGS)})>.*?</\1>", re.I | re.S)


def _announce_call(turn: Turn):
    """A listener naming a tool call's step while the model is still writing it, as soon as
    the call names its subject ("Looking up oatmeal…" once `"food_name": "oatmeal"` is out)."""
    if turn.events is None:
        return None

    def heard(name: str, arguments: str) -> None:
        line = steps.doing_so_far(name, arguments)
        if line:
            turn.step(line)

    return heard


def _thinking(text: str) -> bool:
    """Whether a reply opens a reasoning block ("<think>...") or may be about to ("<thi")."""
    head = text[:12].lower()
    return bool(head) and any(
        head.startswith(f"<{tag}>") or f"<{tag}>".startswith(head) for tag in llm.REASONING_TAGS
    )


def _write_key(active, call) -> str | None:
    """The identity of a write call, to run it once per turn: the tool and its arguments as
    the registry reads them. None for reads and calls that do not parse."""
    tool = active.get(call.name)
    if tool is None or not tool.writes:
        return None
    try:
        args = prepare_arguments(tool, call.arguments)
    except ValueError:
        return None
    if call.name in ("log_food", "log_external_food", "log_exercise"):
        # a small model repeats a food with a meal added or an amount dropped: the same food
        name_key = "exercise_name" if call.name == "log_exercise" else "food_name"
        name = " ".join(str(args.get(name_key) or "").lower().split())
        return json.dumps([call.name, name, args.get("date")])
    return json.dumps([call.name, args], sort_keys=True, default=str)


def _repeated(first: ToolResult) -> ToolResult:
    what = "Already done in this turn" if first.ok else "Already refused in this turn"
    return ToolResult(
        ok=first.ok,
        message=f"{what}: {first.message} Do not call it again: go on with the next item the "
        "user named, or answer the user.",
        data={"repeat": True},
    )


class _Call:
    """A tool call the model wrote as text, made into a call."""

    def __init__(self, name: str, arguments: dict):
        self.id = f"call_text_{uuid.uuid4().hex[:12]}"
        self.name = name
        self.arguments = json.dumps(arguments)


def written_calls(text: str, active) -> tuple[list, str]:
    """Tool calls a model wrote into its answer as JSON, and the answer without them.

    A call naming an offered tool is returned to be run; any other call-shaped JSON is removed
    from the text all the same (a user never sees raw tool JSON).
    """
    calls = []
    cleaned = text
    spans = [m for pattern in (_FENCED, _TAGGED) for m in pattern.finditer(text)]
    candidates = [(m.group(0), m.group(1)) for m in spans]
    if not candidates and text.strip().startswith("{"):
        candidates = [(text, text)]
    for whole, body in candidates:
        for value in _json_objects(body):
            name = value.get("name") or value.get("tool") or value.get("function")
            arguments = value.get("arguments", value.get("parameters", value.get("args")))
            if not isinstance(name, str) or not isinstance(arguments, dict | str | None):
                continue
            if isinstance(arguments, str):
                try:
                    arguments = json.loads(arguments)
                except ValueError:
                    continue
            cleaned = cleaned.replace(whole, "")
            if active.get(name) is not None:
                calls.append(_Call(name, arguments or {}))
    return calls, cleaned.strip()


def _json_objects(body: str) -> list[dict]:
    body = body.strip()
    try:
        value = json.loads(body)
    except ValueError:
        return []
    if isinstance(value, dict):
        return [value]
    if isinstance(value, list):
        return [v for v in value if isinstance(v, dict)]
    return []


def _assistant_message(text: str, calls) -> dict:
    return {
        "role": "assistant",
        "content": text or None,
        "tool_calls": [
            {
                "id": call.id,
                "type": "function",
                "function": {"name": call.name, "arguments": call.arguments},
            }
            for call in calls
        ],
    }
