"""Sparky the coach: one turn of the conversation, whoever asks (chat page, API, tests, benches).

`handle_turn(user, text, image=..., categories=...)` stores the user's message first (a provider
outage never costs it), resolves a pending numbered choice or `manual: ...` reply without any model
call, classifies the categories, then runs one of three engines:

- tools: the agent loop through litellm with the active tool list, widened by sparky_enable_tools;
- intent-json: one JSON intent reply for models without tool calling;
- offline: Sparky's deterministic parser, when no AI service is configured (or the circuit is open).

Every tool call runs in its own transaction through `chat.tools.run_tool`, so a turn that fails
half-way leaves whole tool calls or nothing. The reply is stored with its metadata and returned as
a CoachResponse.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import logging
import re
import time
import uuid

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from chat import circuit, options
from chat.classify import Classification, classify
from chat.images import ImageRejected, StoredImage, prepare_image
from chat.models import ChatMessage
from chat.prompts import classifier_prompt, compose_system_prompt, turn_context
from chat.tools import (
    ENABLE_TOOL_NAME,
    ToolContext,
    ToolResult,
    build_chat_tool_surface,
    build_chatbot_tools,
    run_tool,
)
from chat.tools.base import CATEGORIES, Written
from measurements.units import parse_length_unit, parse_weight_unit
from sparky.dates import now_for

logger = logging.getLogger(__name__)

HISTORY_MESSAGES = 5
HISTORY_TOKEN_BUDGET = {"full": 6000, "core": 1500}
SUMMARY_KIND = "progress_summary"
OFFLINE_HELP = (
    "I'm running on Sparky's built-in offline parser, which understands everyday logging such as "
    "'2 eggs and toast for breakfast', 'walked 45 min', 'weight 80.2 kg waist 84 cm' or "
    "'3 glasses of water'. For open questions and coaching, add an AI service (OpenAI, Anthropic, "
    "Ollama...) in Settings."
)


class TurnRejected(ValueError):
    """The turn cannot start (empty or oversized message, bad photo); nothing was stored."""

    def __init__(self, message: str, *, code: str):
        super().__init__(message)
        self.code = code


@dataclasses.dataclass
class CoachResponse:
    action: str  # logged | options | selected | answered | none | error | pending
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
    error: str | None = None
    user_message_id: str | None = None
    message_id: str | None = None

    def as_dict(self) -> dict:
        return dataclasses.asdict(self)


@dataclasses.dataclass
class _Turn:
    user: object
    text: str
    image: StoredImage | None
    manual: list[str] | None
    source: str
    history: list[ChatMessage]
    previous: ChatMessage | None
    written: list[Written] = dataclasses.field(default_factory=list)
    tools_called: list[str] = dataclasses.field(default_factory=list)
    option_requests: list[dict] = dataclasses.field(default_factory=list)
    escalations: list[list[str]] = dataclasses.field(default_factory=list)
    usage: dict = dataclasses.field(default_factory=dict)
    notes: list[str] = dataclasses.field(default_factory=list)

    def add_usage(self, values: dict | None, prefix: str = "") -> None:
        for key, value in (values or {}).items():
            if isinstance(value, int | float):
                self.usage[prefix + key] = self.usage.get(prefix + key, 0) + value

    def record(self, name: str, result: ToolResult) -> None:
        self.tools_called.append(name)
        self.written.extend(result.written)
        if result.options:
            self.option_requests.append(result.options)


# --- entry point -----------------------------------------------------------------------------


def handle_turn(
    user,
    text: str | None,
    *,
    image=None,
    categories: list[str] | None = None,
    idempotency_key: str | None = None,
    source: str = "chat",
    session_id=None,
) -> CoachResponse:
    text = _clean_text(text)
    if not text and image is None:
        raise TurnRejected("Type a message or attach a photo.", code="empty")
    manual = _manual_categories(categories)
    if idempotency_key:
        idempotency_key = str(idempotency_key).strip()[:100] or None
        # A retry that arrives while the first request is still being answered waits for that
        # answer (bounded) instead of getting "pending": the client asked for the first answer.
        if idempotency_key and (done := _replay(user, idempotency_key, wait=True)):
            return done
    stored = None
    if image is not None:
        try:
            stored = prepare_image(image, user=user)
        except ImageRejected as exc:
            raise TurnRejected(str(exc), code="bad_image") from None

    history = _history(user)
    try:
        user_message = ChatMessage.objects.create(
            user=user,
            session_id=session_id or (history[-1].session_id if history else uuid.uuid4()),
            message_type=ChatMessage.Type.USER,
            content=text,
            metadata={"image": stored.as_metadata()} if stored else None,
            idempotency_key=idempotency_key,
        )
    except IntegrityError:  # the same key raced in from a retry: answer with the first one
        return _replay(user, idempotency_key, wait=True) or CoachResponse(
            action="pending", message="This message is already being answered."
        )

    previous = next((m for m in reversed(history) if m.message_type == "assistant"), None)
    turn = _Turn(
        user=user,
        text=text,
        image=stored,
        manual=manual,
        source=source,
        history=history,
        previous=previous,
    )
    try:
        response = _respond(turn)
    except Exception:
        logger.exception("chat turn failed")
        response = CoachResponse(
            action="error",
            error="internal",
            message=(
                "Something went wrong on Sparky's side while answering. Your message is saved"
                + (f" and these were logged: {_listing(turn.written)}" if turn.written else "")
                + ". Please try again."
            ),
        )
    response.entries = [w.as_dict() for w in turn.written]
    response.tools_called = turn.tools_called
    response.escalations = turn.escalations
    response.usage = turn.usage
    response.user_message_id = str(user_message.id)
    reply = _store_reply(turn, user_message, response)
    response.message_id = str(reply.id)
    if turn.written:
        from chat.tasks import queue_progress_summary

        queue_progress_summary(user=user, message=reply)
    return response


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _clean_text(text) -> str:
    # NUL and lone surrogates (JSON "\ud800" decodes to one) cannot be stored in Postgres text:
    # the first goes, the others become U+FFFD, instead of the turn failing at the database.
    text = _LONE_SURROGATE.sub("\ufffd", (text or "").replace("\x00", "")).strip()
    limit = settings.SPARKY_MAX_MESSAGE_CHARS
    if len(text) > limit:
        raise TurnRejected(
            f"Your message is {len(text):,} characters long; the limit is {limit:,}. "
            "Split it into shorter messages.",
            code="too_long",
        )
    return text


def _manual_categories(categories) -> list[str] | None:
    if not categories:
        return None
    picked = [c for c in categories if c in CATEGORIES]
    unknown = [c for c in categories if c not in CATEGORIES]
    if unknown:
        raise TurnRejected(
            f"Unknown tool categories: {', '.join(map(str, unknown))}. "
            f"Choose from {', '.join(CATEGORIES)}.",
            code="bad_categories",
        )
    return picked


def _history(user) -> list[ChatMessage]:
    recent = (
        ChatMessage.objects.for_user(user)
        .exclude(metadata__contains={"kind": SUMMARY_KIND})
        .order_by("-created_at")[:HISTORY_MESSAGES]
    )
    return list(reversed(recent))


def _replay(user, key: str, *, wait: bool = False) -> CoachResponse | None:
    """The stored answer to an earlier request with this idempotency key."""
    deadline = time.monotonic() + (15 if wait else 0)
    while True:
        asked = ChatMessage.objects.for_user(user).filter(idempotency_key=key).first()
        if asked is None:
            return None
        reply = (
            ChatMessage.objects.for_user(user)
            .filter(message_type="assistant", metadata__reply_to=str(asked.id))
            .first()
        )
        if reply is not None:
            meta = reply.metadata or {}
            stored = meta.get("response") or {}
            fields = {f.name for f in dataclasses.fields(CoachResponse)}
            data = {k: v for k, v in stored.items() if k in fields}
            data.update(
                message=reply.content, message_id=str(reply.id), user_message_id=str(asked.id)
            )
            data.setdefault("action", "answered")
            return CoachResponse(**data)
        abandoned_before = timezone.now() - dt.timedelta(
            seconds=settings.SPARKY_TURN_TIME_LIMIT + 30
        )
        if asked.created_at < abandoned_before:
            # The first attempt died mid-turn (no turn runs this long): close it with an honest
            # reply, so this and every later retry get an answer instead of "pending" forever.
            _close_abandoned(user, asked)
            continue
        if time.monotonic() >= deadline:
            return CoachResponse(
                action="pending",
                message="This message is already being answered.",
                user_message_id=str(asked.id),
            )
        time.sleep(0.2)


def _close_abandoned(user, asked: ChatMessage) -> None:
    with transaction.atomic():
        ChatMessage.objects.for_user(user).select_for_update().filter(pk=asked.pk).first()
        if (
            ChatMessage.objects.for_user(user)
            .filter(message_type="assistant", metadata__reply_to=str(asked.id))
            .exists()
        ):
            return  # another retry closed it first
        response = CoachResponse(
            action="error",
            error="interrupted",
            message=(
                "This message was interrupted before Sparky could answer it. Whatever it had "
                "already saved is in your diary: check it, then send the message again (as a new "
                "message) if something is missing."
            ),
            user_message_id=str(asked.id),
        )
        ChatMessage.objects.create(
            user=user,
            session_id=asked.session_id,
            message_type=ChatMessage.Type.ASSISTANT,
            content=response.message,
            metadata={
                "reply_to": str(asked.id),
                "response": {k: v for k, v in response.as_dict().items() if k != "message"},
            },
        )


def _store_reply(turn: _Turn, user_message: ChatMessage, response: CoachResponse) -> ChatMessage:
    meta = {
        "reply_to": str(user_message.id),
        "response": {k: v for k, v in response.as_dict().items() if k not in ("message",)},
    }
    if response.options is not None and turn.option_requests:
        meta["options"] = turn.option_requests[0]
    return ChatMessage.objects.create(
        user=turn.user,
        session_id=user_message.session_id,
        message_type=ChatMessage.Type.ASSISTANT,
        content=response.message,
        metadata=meta,
    )


def _listing(written: list[Written]) -> str:
    return "; ".join(w.summary for w in written)


# --- one turn --------------------------------------------------------------------------------


def _respond(turn: _Turn) -> CoachResponse:
    if turn.image is None:
        chosen = _resolve_pending_choice(turn)
        if chosen is not None:
            return chosen

    from chat.services import active_ai_service

    service = active_ai_service(turn.user)
    config, config_problem = None, None
    if service is not None:
        from chat import llm

        try:
            config = llm.config_for(service, turn.user)
        except llm.LLMError as exc:
            config_problem = str(exc)
    if config is not None and circuit.is_open(turn.user):
        turn.notes.append(
            f"{config.description} failed several times in a row, so I used Sparky's offline "
            "parser for this message."
        )
        config = None
    if config_problem:
        turn.notes.append(
            f"Your AI service needs attention ({config_problem}); I used Sparky's "
            "offline parser instead."
        )

    profile = service.tool_profile if service is not None else "core"
    classification = classify(
        text=turn.text,
        has_image=turn.image is not None,
        profile=profile,
        manual=turn.manual,
        previous_reply=turn.previous.content if turn.previous else None,
        llm_classify=_llm_classifier(turn, config) if config else _offline_classifier,
    )
    turn.add_usage(classification.usage, prefix="classifier_")

    if config is None:
        response = _offline_engine(turn, classification)
    else:
        from chat import llm

        try:
            if config.supports_tools:
                response = _agent_loop(turn, config, classification, profile, service)
            else:
                response = _intent_engine(turn, config, classification, profile, service)
        except llm.LLMError as exc:
            opened = circuit.record_failure(turn.user)
            response = _provider_failure(turn, config, exc, opened)
        else:
            circuit.record_success(turn.user)
        response.categories = classification.categories
        response.mode = classification.mode
        response.phase = classification.phase

    if turn.option_requests and response.action != "error":
        _attach_options(turn, response, config)
    if turn.notes:
        response.message = "\n\n".join([response.message, *turn.notes]).strip()
    return response


def _provider_failure(turn, config, exc, opened: bool) -> CoachResponse:
    parts = [f"I couldn't get an answer from {config.description}: {exc}"]
    if turn.written:
        parts.append(f"Already saved before it failed: {_listing(turn.written)}.")
    parts.append("Your message is saved; send it again in a moment.")
    if opened:
        parts.append(
            "It has failed several times, so for the next few minutes I'll log with Sparky's "
            "offline parser."
        )
    return CoachResponse(
        action="logged" if turn.written else "error",
        message=" ".join(parts),
        engine="tools" if config.supports_tools else "intent-json",
        error=type(exc).__name__,
    )


# --- numbered options and manual entry ---------------------------------------------------------


def _resolve_pending_choice(turn: _Turn) -> CoachResponse | None:
    number = options.numeric_reply(turn.text)
    manual = options.manual_reply(turn.text)
    if number is None and manual is None:
        return None
    previous = turn.previous
    meta = (previous.metadata or {}) if previous else {}
    if meta.get("options") is None:
        if manual is not None:
            # Numbers without a name to put them on: never read as food words ("20g protein"
            # is no 20 g of protein-fortified spaghetti).
            return CoachResponse(
                action="none",
                engine="options",
                message=(
                    "'manual:' fills in your own numbers for something I couldn't find, so tell "
                    "me first what it was (e.g. 'a protein bar for lunch'); if I don't know it, "
                    "reply with 'manual: 300 cal, 20g protein'. Nothing was saved."
                ),
            )
        # A bare number right after options were used up is a late pick, not a new request.
        offered_before = any(
            (m.metadata or {}).get("options") for m in turn.history if m.message_type == "assistant"
        )
        if not offered_before:
            return None  # no options were offered: a plain new request
    guide = CoachResponse(
        action="none",
        engine="options",
        message=(
            "Please reply with the number of one of the options above, or with your own values "
            "(e.g. 'manual: 250 cal, 10g protein'), or tell me what you'd like to do."
        ),
    )
    with transaction.atomic():
        # Lock the offer and read it again: a pick sent twice at once (a double tap, two tabs) is
        # applied once; the second waits here, then finds the options resolved.
        locked = (
            ChatMessage.objects.for_user(turn.user).select_for_update().filter(pk=previous.pk)
        ).first()
        meta = (locked.metadata or {}) if locked is not None else {}
        data = options.pending_options(locked)
        if data is None or options.is_stale(data):
            guide.message = (
                "Those options are no longer open. Tell me again what you'd like to log, and I'll "
                "look it up."
            )
            return guide
        try:
            if number is not None:
                if not 1 <= number <= len(data["options"]):
                    return guide
                written = options.apply_option(
                    user=turn.user, data=data, option=data["options"][number - 1]
                )
            else:
                written = options.apply_manual(user=turn.user, data=data, text=manual)
        except ValidationError as exc:
            return CoachResponse(
                action="none",
                engine="options",
                message=" ".join(exc.messages) + " Nothing was saved.",
            )
        turn.written.extend(written)
        data["resolved"] = True
        meta["options"] = data
        ChatMessage.objects.for_user(turn.user).filter(pk=locked.pk).update(metadata=meta)
    return CoachResponse(
        action="selected",
        engine="options",
        message=f"Logged {_listing(written)}.",
        categories=[data["kind"]],
    )


def _attach_options(turn: _Turn, response: CoachResponse, config) -> None:
    request = turn.option_requests[0]
    found, source = options.generate_options(
        user=turn.user,
        kind=request["kind"],
        query=request["query"],
        request_text=turn.text,
        config=config,
    )
    turn.option_requests[0] = options.options_metadata(
        request["kind"], request["query"], request.get("request") or {}, found, source
    )
    listing = options.options_message(request["kind"], request["query"], found)
    others = [r["query"] for r in turn.option_requests[1:]]
    if others:
        listing += f"\n(I also couldn't find: {', '.join(others)}. Ask me about them next.)"
    response.message = f"{response.message}\n\n{listing}".strip() if response.message else listing
    response.options = found
    if not turn.written:
        response.action = "options"


# --- classification ----------------------------------------------------------------------------


def _llm_classifier(turn: _Turn, config):
    def run(previous_reply, text):
        from chat import llm

        context = (
            f"Assistant's previous reply: {previous_reply[:600]}\n\n" if previous_reply else ""
        )
        result = llm.complete(
            config,
            messages=[
                {"role": "system", "content": classifier_prompt()},
                {"role": "user", "content": f"{context}User's latest message: {text}"},
            ],
            max_tokens=20,
            temperature=0,
        )
        return result.text, result.usage.as_dict()

    return run


def _offline_classifier(previous_reply, text):
    from chat.offline import guess_categories

    guessed = guess_categories(text)
    return (", ".join(guessed) if guessed else "none"), {}


# --- the agent loop ---------------------------------------------------------------------------


def _custom_prompts(turn, service) -> list[str]:
    from sparky.services import preferences_for

    prefs = preferences_for(turn.user)
    return [prefs.system_prompt or "", (service.system_prompt if service else "") or ""]


def _history_messages(turn: _Turn, profile: str) -> list[dict]:
    budget = HISTORY_TOKEN_BUDGET.get(profile, 6000)
    out: list[dict] = []
    used = 0
    for message in reversed(turn.history):
        content = message.content
        if message.message_type == "assistant" and (message.metadata or {}).get("options"):
            content += "\n[This reply offered numbered options.]"
        cost = len(content) // 4 + 4  # a cheap, conservative token estimate
        if used + cost > budget:
            break
        used += cost
        role = "assistant" if message.message_type == "assistant" else "user"
        out.append({"role": role, "content": content})
    return list(reversed(out))


def _current_message(turn: _Turn) -> dict:
    from sparky.services import preferences_for

    context = turn_context(now=now_for(turn.user), user=turn.user, prefs=preferences_for(turn.user))
    text = turn.text or "(photo attached, no text)"
    if turn.image is None:
        return {"role": "user", "content": f"{context}\n\n{text}"}
    return {
        "role": "user",
        "content": [
            {"type": "text", "text": f"{context}\n\n{text}"},
            {"type": "image_url", "image_url": {"url": turn.image.data_url()}},
        ],
    }


def _agent_loop(turn: _Turn, config, classification: Classification, profile: str, service):
    from chat import llm
    from chat.tools import active_tool_names

    user = turn.user
    categories = list(classification.categories)
    mode = classification.mode
    ctx = ToolContext.for_user(user, image=turn.image, source=turn.source, profile=profile)
    if mode == "manual":
        active = build_chatbot_tools(user, profile, categories)
        surface = None
        hint = "The user switched that category off; tell them to enable it in the tool selector."
    else:
        surface = build_chat_tool_surface(user, user.tz)
        active = surface.narrowed(active_tool_names(profile, categories))
        hint = f"Call {ENABLE_TOOL_NAME} with its category first."
    system = compose_system_prompt(
        profile=profile,
        categories=categories,
        mode=mode,
        custom_prompts=_custom_prompts(turn, service),
    )
    messages = [
        {"role": "system", "content": system},
        *_history_messages(turn, profile),
        _current_message(turn),
    ]
    deadline = time.monotonic() + settings.SPARKY_TURN_TIME_LIMIT
    max_steps = settings.SPARKY_MAX_AGENT_STEPS
    final_text = None
    for _step in range(max_steps):
        remaining = deadline - time.monotonic()
        if remaining <= 1:
            break
        tools_payload = active.payload(cache_control=config.supports_cache_control) or None
        result = llm.complete(
            config,
            messages=messages,
            tools=tools_payload,
            timeout=min(config.timeout, remaining),
            temperature=0.2 if profile == "core" else None,
            allow_empty=bool(turn.written or turn.option_requests),
        )
        turn.add_usage(result.usage.as_dict())
        if not result.tool_calls:
            final_text = result.text.strip()
            break
        messages.append(result.assistant_message())
        enabled: list[str] = []
        for call in result.tool_calls:
            outcome = run_tool(ctx, call.name, call.arguments, allowed=active, dormant_hint=hint)
            turn.record(call.name, outcome)
            if call.name == ENABLE_TOOL_NAME and outcome.ok:
                enabled += [c for c in outcome.data.get("enabled", []) if c not in categories]
            messages.append(
                {
                    "role": "tool",
                    "tool_call_id": call.id,
                    "content": json.dumps(outcome.for_model()),
                }
            )
        if enabled and surface is not None:
            categories += enabled
            turn.escalations.append(enabled)
            active = surface.narrowed(active_tool_names(profile, categories))
    response = CoachResponse(action="answered", message="", engine="tools")
    if final_text:
        response.message = final_text
    elif final_text is None:
        stopped = (
            f"I stopped after {max_steps} steps without a final answer"
            if time.monotonic() < deadline - 1
            else "I ran out of time before finishing"
        )
        response.message = stopped + (
            f". Saved so far: {_listing(turn.written)}." if turn.written else "; nothing was saved."
        )
        response.error = "unfinished"
    elif turn.written:
        response.message = f"Logged {_listing(turn.written)}."
    elif not turn.option_requests:
        raise llm.LLMBadResponse("the model sent an empty reply")
    if turn.written:
        response.action = "logged"
    classification.categories = categories
    return response


# --- intent-JSON mode and the offline parser ----------------------------------------------------


def _intent_engine(turn: _Turn, config, classification, profile, service) -> CoachResponse:
    from chat import llm
    from chat.intents import INTENT_JSON_INSTRUCTIONS, parse_intent_reply

    system = compose_system_prompt(
        profile=profile,
        categories=classification.categories,
        mode=classification.mode,
        custom_prompts=_custom_prompts(turn, service),
        intent_json=INTENT_JSON_INSTRUCTIONS,
    )
    result = llm.complete(
        config,
        messages=[
            {"role": "system", "content": system},
            *_history_messages(turn, profile),
            _current_message(turn),
        ],
        temperature=0.1,
    )
    turn.add_usage(result.usage.as_dict())
    parsed = parse_intent_reply(result.text)
    if not parsed.intents:
        if result.text.strip() and not result.text.strip().startswith("{"):
            return CoachResponse(
                action="answered", message=result.text.strip(), engine="intent-json"
            )
        problem = "; ".join(parsed.errors) or "an empty reply"
        raise llm.LLMBadResponse(f"the model's reply was not a usable intent ({problem})")
    return _dispatch_intents(turn, parsed.intents, engine="intent-json")


def _offline_engine(turn: _Turn, classification: Classification) -> CoachResponse:
    from chat.offline import parse_message

    if turn.image is not None and not turn.text:
        response = CoachResponse(
            action="none",
            engine="offline",
            message=(
                "I can't look at photos without an AI service. Tell me what you ate in words, "
                "or add a vision-capable AI service in Settings."
            ),
        )
    else:
        parsed = parse_message(turn.text)
        if parsed.intents:
            response = _dispatch_intents(
                turn, parsed.intents, engine="offline", bare_food=parsed.bare_food
            )
            if parsed.errors:
                response.message += "\n" + " ".join(parsed.errors)
        else:
            why = " ".join(parsed.errors) or "Sorry, I didn't understand that."
            response = CoachResponse(
                action="none", engine="offline", message=f"{why} {OFFLINE_HELP}"
            )
    response.categories = classification.categories
    response.mode = classification.mode
    response.phase = classification.phase
    return response


def _intent_calls(intent) -> list[tuple[str, dict]]:
    """The tool calls an intent stands for."""
    data = intent.data or {}
    if intent.name == "log_food":
        keys = ("food_name", "quantity", "unit", "meal_type", "date")
        return [("log_food", {k: data.get(k) for k in keys})]
    if intent.name == "log_exercise":
        keys = ("exercise_name", "duration_minutes", "distance", "distance_unit", "date")
        return [("log_exercise", {k: data.get(k) for k in keys})]
    if intent.name == "set_goals":  # offline only: the parser's goal sentences
        return [("set_goals", dict(data))]
    if intent.name == "log_external":  # offline only: "a burger, about 600 cal"
        return [("log_external_food", {k: v for k, v in data.items() if v is not None})]
    if intent.name == "log_water":
        return [("log_water", {"glasses": data.get("glasses_consumed"), "date": data.get("date")})]
    if intent.name == "log_measurement":
        calls: list[tuple[str, dict]] = []
        by_date: dict = {}
        for m in data.get("measurements") or []:
            kind = (m.get("type") or "").lower()
            unit = (m.get("unit") or "").lower() or None
            if kind == "custom":
                calls.append(
                    (
                        "log_custom_measurement",
                        {
                            "name": m.get("name"),
                            "value": m.get("value"),
                            "unit": m.get("unit"),
                            "date": m.get("date"),
                        },
                    )
                )
                continue
            args = by_date.setdefault(m.get("date"), {"date": m.get("date")})
            args[kind] = m.get("value")
            try:  # the tool's enums are kg/lb and cm/inches; an odd unit is left for it to refuse
                if kind == "weight" and unit:
                    args["weight_unit"] = parse_weight_unit(unit, unit)
                elif kind in ("neck", "waist", "hips") and unit:
                    args["length_unit"] = parse_length_unit(unit, unit)
            except ValidationError:
                args[f"{'weight' if kind == 'weight' else 'length'}_unit"] = unit
        calls[:0] = [("log_checkin", args) for args in by_date.values()]
        return calls
    return []


def _repeat_calls(turn: _Turn, data: dict, lines: list[str]) -> list[tuple[str, dict]]:
    """log_food calls that log a meal of another day again, today, as it was logged there."""
    from chat.tools.food import default_meal
    from nutrition.selectors import food_diary
    from sparky.dates import parse_day

    try:
        day = parse_day(turn.user, data.get("from"))
    except ValidationError as exc:
        lines.append(f"Not saved: {exc.messages[0]}")
        return []
    # "same as yesterday for dinner" is yesterday's dinner; with no meal said, the meal of now
    meal = data.get("meal") or data.get("to_meal") or default_meal(turn.user)
    to_meal = data.get("to_meal") or meal
    if day == parse_day(turn.user, "today") and to_meal == meal:
        lines.append(f"That is today's {meal}; say which day to repeat, e.g. 'same as yesterday'.")
        return []
    rows = food_diary(user=turn.user, day=day).get(meal) or []
    if not rows:
        lines.append(
            f"Nothing was logged for {meal} on {day.isoformat()}, so there is nothing to repeat."
        )
        return []
    return [
        (
            "log_food",
            {
                "food_name": row["food_name"],
                "food_id": str(row["food_id"]),
                "quantity": float(row["quantity"]),
                "unit": row["unit"],
                "meal_type": to_meal,
            },
        )
        for row in rows
    ]


def _names_food(args: dict) -> bool:
    """Whether every word of a bare name is in some food's name ("fruit", "nuts"), so options
    make sense; "watched football" or "lol" were not food."""
    from nutrition.services import food_words_known

    return food_words_known(str(args.get("food_name") or ""))


def _note(turn: _Turn, lines: list[str], name: str, result) -> None:
    turn.record(name, result)
    if result.ok or not result.options:
        lines.append(result.message if result.ok else f"Not saved: {result.message}")


def _dispatch_intents(turn: _Turn, intents, *, engine: str, bare_food=False) -> CoachResponse:
    ctx = ToolContext.for_user(turn.user, image=turn.image, source=turn.source)
    lines: list[str] = []
    held: list = []
    answered = False
    for intent in intents:
        if intent.name in ("ask_question", "chat"):
            answered = True
            if intent.response:
                lines.append(intent.response.strip())
            else:
                from chat.answers import answer_question

                lines.append(answer_question(user=turn.user, text=turn.text))
            continue
        if intent.name == "repeat_meal":  # offline only: "same breakfast as yesterday"
            calls = _repeat_calls(turn, intent.data, lines)
        else:
            calls = _intent_calls(intent)
        for name, args in calls:
            result = run_tool(ctx, name, args)
            if bare_food and not result.ok and not _names_food(args):
                held.append((name, result))  # food only if another name of it was
                continue
            _note(turn, lines, name, result)
    if held and not turn.written:
        # Bare words the catalog does not know were probably not food at all.
        shown = " ".join(turn.text.split())[:80]
        return CoachResponse(
            action="none",
            engine=engine,
            message=f"Sorry, I couldn't understand {shown!r}. {OFFLINE_HELP}",
        )
    for name, result in held:
        _note(turn, lines, name, result)
    if not lines and not turn.option_requests:
        lines.append(f"Sorry, I didn't understand that. {OFFLINE_HELP}")
    action = "logged" if turn.written else ("answered" if answered else "none")
    return CoachResponse(action=action, message="\n".join(lines), engine=engine)
