"""Sparky the coach: one turn of the conversation, whoever asks (chat page, API, tests, benches).

`handle_turn(user, text, image=..., categories=...)` stores the user's message first (a provider
outage never costs it), resolves a pending numbered choice or `manual: ...` reply without any model
call, classifies the categories, then runs one of three engines:

- tools: the agent loop through litellm with the active tool list, widened by sparky_enable_tools;
- intent-json: one JSON intent reply for models without tool calling;
- offline: Sparky's deterministic parser, when no AI service is configured (or the circuit is open).

Every tool call runs in its own transaction through `chat.tools.run_tool`, so a turn that fails
half-way leaves whole tool calls or nothing. The reply is stored with its metadata and returned as
a CoachResponse. A listener (`events=`, chat.web.streaming) hears the turn as it runs: the step, the
model's words as they are written, each entry once saved.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
import hashlib
import logging
import re
import time
import uuid
from collections.abc import Callable

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from aiservices import circuit, llm
from aiservices.services import active_ai_service
from chat.categories import CATEGORIES
from chat.images import ImageRejected, image_digest, prepare_image
from chat.models import ChatMessage
from chat.reading.classify import classify
from chat.reading.message import wants_advice
from chat.reading.parser import guess_categories
from chat.tools.base import jsonable
from chat.turn import steps
from chat.turn.corrections import correct
from chat.turn.engines import agent, intent_json, offline
from chat.turn.offers import attach_options
from chat.turn.picks import resolve_confirmation, resolve_pick
from chat.turn.prompts import classifier_prompt
from chat.turn.review import review_items
from chat.turn.summaries import KIND as SUMMARY_KIND
from chat.turn.summaries import queue_progress_summary
from chat.turn.types import CoachResponse, Turn, TurnRejected, said_logged

__all__ = ["IDEMPOTENCY_KEY_LIMIT", "SUMMARY_KIND", "CoachResponse", "TurnRejected", "handle_turn"]

logger = logging.getLogger(__name__)

HISTORY_MESSAGES = 5


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
    events: Callable[[str, dict], None] | None = None,
) -> CoachResponse:
    """One turn, answered and stored. `events`, when given, hears the turn as it runs (see
    chat.web.streaming): the step being run, the reply's text as the model writes it, each entry
    once it is saved; the turn itself is the same with or without it."""
    idempotency_key = _checked_key(idempotency_key)
    text = _clean_text(text)
    if not text and image is None:
        raise TurnRejected("Type a message or attach a photo.", code="empty")
    manual = _manual_categories(categories)
    asked = _request_parts(text, image, manual)
    if idempotency_key:
        # A retry that arrives while the first request is still being answered waits for that
        # answer (bounded) instead of getting "pending": the client asked for the first answer.
        waiting = functools.partial(events, "step", {"text": steps.ALREADY}) if events else None
        if done := _replay(user, idempotency_key, asked, wait=True, waiting=waiting):
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
            metadata={
                **({"image": stored.as_metadata()} if stored else {}),
                **({"request": asked} if idempotency_key else {}),
            }
            or None,
            idempotency_key=idempotency_key,
        )
    except IntegrityError:  # the same key raced in from a retry: answer with the first one
        return _replay(user, idempotency_key, asked, wait=True) or CoachResponse(
            action="pending", message="This message is already being answered."
        )

    previous = next((m for m in reversed(history) if m.message_type == "assistant"), None)
    turn = Turn(
        user=user,
        text=text,
        image=stored,
        manual=manual,
        source=source,
        history=history,
        previous=previous,
        events=events,
    )
    turn.step(steps.READING)
    try:
        response = _respond(turn)
    except Exception:
        logger.exception("chat turn failed")
        response = CoachResponse(
            action="error",
            error="internal",
            message=(
                "Something went wrong on Sparky's side while answering. Your message is saved"
                + ". "
                + (said_logged(turn.user, turn.written) + " " if turn.written else "")
                + "Please try again."
            ),
        )
    turn.announce_saved()
    if not turn.drafted:  # not written word by word (the offline parser, Sparky's own words)
        turn.tell("text", text=response.message)
    response.entries = [w.as_dict() for w in turn.written]
    response.tools_called = turn.tools_called
    response.escalations = turn.escalations
    response.usage = turn.usage
    response.user_message_id = str(user_message.id)
    reply = _store_reply(turn, user_message, response)
    response.message_id = str(reply.id)
    if turn.written:
        queue_progress_summary(user=user, message=reply)
    return response


IDEMPOTENCY_KEY_LIMIT = ChatMessage._meta.get_field("idempotency_key").max_length
# What a request with a key said, part by part, to tell a retry from a new request under the same
# key (the words are what people call the parts, for the 422 that names the difference).
_PARTS = {"text": "the message", "image": "the photo", "categories": "the tool categories"}


def _checked_key(key) -> str | None:
    """The Idempotency-Key as sent, or a refusal: a key is never cut, since two keys that share
    their beginning would then answer each other's requests."""
    if key is None:
        return None
    key = str(key).strip()
    if len(key) > IDEMPOTENCY_KEY_LIMIT:
        raise TurnRejected(
            f"The Idempotency-Key is {len(key):,} characters long; the limit is "
            f"{IDEMPOTENCY_KEY_LIMIT}. Send a shorter key (a UUID is 36).",
            code="bad_idempotency_key",
        )
    return key or None


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _request_parts(text: str, image, manual: list[str] | None) -> dict:
    return {
        "text": _digest(text.encode()),
        "image": image_digest(image) if image is not None else None,
        "categories": sorted(manual) if manual else None,
    }


def _same_request(user_message: ChatMessage, asked: dict) -> None:
    """Refuse a request that reuses a key for something else (422 through the API): answering it
    with the first turn's reply would drop it without a word."""
    first = (user_message.metadata or {}).get("request")
    if first is None:  # stored before keys were checked against their request
        return
    differs = [words for part, words in _PARTS.items() if first.get(part) != asked.get(part)]
    if differs:
        raise TurnRejected(
            f"This Idempotency-Key was already used for another request ({' and '.join(differs)}"
            f" {'differ' if len(differs) > 1 else 'differs'}). Send a new message with a new key; "
            "reuse a key only to retry the very same request.",
            code="idempotency_conflict",
        )


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


def _replay(
    user, key: str, request: dict, *, wait: bool = False, waiting=None
) -> CoachResponse | None:
    """The stored answer to an earlier request with this idempotency key (refused when `request`
    is not that request). `waiting` is called once if the answer is still being written and this
    waits for it."""
    deadline = time.monotonic() + (15 if wait else 0)
    while True:
        asked = ChatMessage.objects.for_user(user).filter(idempotency_key=key).first()
        if asked is None:
            return None
        _same_request(asked, request)
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
            seconds=max(settings.SPARKY_TURN_TIME_LIMIT, settings.SPARKY_LOCAL_TURN_TIME_LIMIT) + 30
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
        if waiting is not None:
            waiting()
            waiting = None
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


def _store_reply(turn: Turn, user_message: ChatMessage, response: CoachResponse) -> ChatMessage:
    meta = {
        "reply_to": str(user_message.id),
        "response": {k: v for k, v in response.as_dict().items() if k not in ("message",)},
    }
    if response.options is not None and turn.option_requests:
        meta["options"] = turn.option_requests[0]
    if response.action == "confirm" and turn.pending_confirmation:
        meta["confirm"] = turn.pending_confirmation
    if turn.saved_calls:
        meta["saved_calls"] = jsonable(turn.saved_calls)
    return ChatMessage.objects.create(
        user=turn.user,
        session_id=user_message.session_id,
        message_type=ChatMessage.Type.ASSISTANT,
        content=response.message,
        metadata=meta,
    )


# --- one turn --------------------------------------------------------------------------------


@dataclasses.dataclass
class _Route:
    """Who answers the turn: the user's AI service and its connection (None: Sparky alone), the
    tools it may be offered, the categories the message was classified into, and what came of
    the model if it was asked (it failed before saving anything; it handed the message back)."""

    service: object = None
    config: object = None
    profile: str = "core"
    classification: object = None
    failure: Exception | None = None
    handed_back: bool = False


def _route(turn: Turn) -> _Route:
    """The AI service that answers this turn, or none, with one plain note when the user's
    service is set up but can't be asked (its settings need attention, it keeps failing)."""
    service = active_ai_service(turn.user)
    route = _Route(service=service, profile=service.tool_profile if service else "core")
    if service is None:
        return route
    try:
        route.config = llm.config_for(service, turn.user)
    except llm.LLMError as exc:
        # the settings' own words (a refused address, an unknown type): no model, no path
        turn.notes.append(
            f"Your AI service needs attention ({exc}); Sparky answered this one on its own."
        )
        return route
    if circuit.is_open(turn.user):
        who = route.config.spoken_name
        turn.notes.append(
            f"{who[0].upper()}{who[1:]} failed several times in a row, so Sparky answered this "
            "one on its own."
        )
        route.config = None
    return route


def _classified(turn: Turn, route: _Route, llm_classify) -> None:
    route.classification = classify(
        text=turn.text,
        has_image=turn.image is not None,
        profile=route.profile,
        manual=turn.manual,
        previous_reply=turn.previous.content if turn.previous else None,
        llm_classify=llm_classify,
        keywords=list(turn.reading.categories),
    )
    turn.add_usage(route.classification.usage, prefix="classifier_")


def _answers_a_question(turn: Turn) -> CoachResponse | None:
    """The user's answer to Sparky's last question (yes/no to a review, an option's number), or
    a correction of what Sparky just saved ("make that 3 eggs", "undo that")."""
    if turn.image is not None:
        return None
    response = resolve_confirmation(turn) or resolve_pick(turn) or correct(turn)
    if response is not None and response.action == "confirm" and turn.pending_confirmation:
        response.review = review_items(turn.pending_confirmation, user=turn.user)
    return response


def _sparky_reads_first(turn: Turn, route: _Route) -> CoachResponse | None:
    """In front of a model, Sparky's parser answers what it reads with certainty."""
    if route.config is None or not (route.service.sparky_reads_first or turn.reading.diary_command):
        return None
    _classified(turn, route, _offline_classifier(turn))
    return offline.run_if_sure(turn, route.classification)


def _the_model(turn: Turn, route: _Route) -> CoachResponse | None:
    """The model, by tool calls or intent JSON. None when it handed the message back or failed
    before saving anything: Sparky's parser answers then."""
    if route.config is None:
        return None
    config = route.config
    _classified(turn, route, _llm_classifier(turn, config))
    engine = agent if config.supports_tools else intent_json
    try:
        response = engine.run(turn, config, route.classification, route.profile, route.service)
    except llm.LLMError as exc:
        opened = circuit.record_failure(turn.user)
        if turn.written:
            return _provider_failure(turn, config, exc, opened)
        route.failure = exc
        return None
    circuit.record_success(turn.user)
    route.handed_back = response is None
    return response


def _sparky_alone(turn: Turn, route: _Route) -> CoachResponse:
    """Sparky's parser: with no model, after the model failed, or with what it handed back."""
    if route.classification is None:
        _classified(turn, route, _offline_classifier(turn))
    if route.failure is not None:
        return _offline_instead(turn, route.config, route.failure, route.classification)
    if route.handed_back:
        return _handed_back(turn, route.classification)
    return offline.run(turn, route.classification)


# Who may answer a turn, in order: the first with an answer answers. Each writes nothing unless
# it answers, and then only through the executor (chat.turn.execute).
_ANSWERERS = (_sparky_reads_first, _the_model, _sparky_alone)


def _respond(turn: Turn) -> CoachResponse:
    if (chosen := _answers_a_question(turn)) is not None:
        return chosen  # answered as the question was asked, with nothing else added
    route = _route(turn)
    response = None
    for answer in _ANSWERERS:
        if (response := answer(turn, route)) is not None:
            break
    return _finished(turn, route, response)


def _finished(turn: Turn, route: _Route, response: CoachResponse) -> CoachResponse:
    """The reply as sent: its categories, the question it waits on, its options and notes."""
    if route.classification is not None:
        response.categories = route.classification.categories
        response.mode = route.classification.mode
        response.phase = route.classification.phase
    if turn.pending_confirmation and response.action not in ("error", "confirm"):
        question = turn.pending_confirmation["question"]
        if question not in response.message:
            response.message = f"{response.message}\n\n{question}".strip()
        response.action = "confirm" if not turn.written else response.action
    if response.action == "confirm" and turn.pending_confirmation:
        response.review = review_items(turn.pending_confirmation, user=turn.user)
    if turn.option_requests and response.action != "error":
        attach_options(turn, response, route.config)
    if turn.notes:
        response.message = "\n\n".join([response.message, *turn.notes]).strip()
    return response


def _handed_back(turn: Turn, classification) -> CoachResponse:
    """The model said it logged something but called no tool, or answered a message Sparky reads
    as logging with words alone: its words never reach the user as they are. Sparky's parser
    reads the message instead; what it cannot log is said plainly not to be saved."""
    fallback = offline.run(turn, classification)
    fallback.engine = "offline"
    if turn.written or turn.option_requests or turn.pending_confirmation:
        return fallback
    if fallback.action == "answered" or turn.reading.reports_nothing:
        return fallback  # a question answered, or "nothing logged: you said you didn't"
    fallback.action = "none"
    fallback.message = (
        "I didn't save anything for that: I couldn't tell what to log. Say it in a few words, "
        "e.g. '2 eggs and toast for breakfast' or 'walked 30 minutes'."
    )
    return fallback


def _offline_instead(turn: Turn, config, exc, classification) -> CoachResponse:
    """The AI service failed before anything was saved: Sparky handles the message at once (a
    meal is logged all the same, a question Sparky can read is answered), with one plain
    sentence about the service; what needs a model says the service failed and where to fix
    it."""
    problem = llm.plain_problem(exc, config)
    where = "Check it in Settings, AI services (Test connection names the cause)."
    logger.info("AI service failed, Sparky answered alone: %s", exc)
    fallback = None if wants_advice(turn.text) else offline.run(turn, classification)
    if fallback is not None and (
        fallback.action in ("logged", "answered", "options", "confirm") or turn.written
    ):
        fallback.engine = "offline"
        fallback.message = f"{fallback.message}\n\n({problem}, so Sparky answered this itself.)"
        return fallback
    return CoachResponse(
        action="error",
        engine="tools" if config.supports_tools else "intent-json",
        error=type(exc).__name__,
        message=(
            f"{problem}, and this needs it: I couldn't answer on my own. {where} Your message is "
            "saved; send it again once the service works."
        ),
    )


def _provider_failure(turn, config, exc, opened: bool) -> CoachResponse:
    logger.info("AI service failed mid-turn: %s", exc)
    parts = [f"{llm.plain_problem(exc, config)} before I could finish."]
    if turn.written:
        parts.append(f"Already saved: {said_logged(turn.user, turn.written)}")
    parts.append("Your message is saved; send it again in a moment.")
    if opened:
        parts.append(
            "It has failed several times, so for the next few minutes Sparky will answer on its "
            "own."
        )
    return CoachResponse(
        action="logged" if turn.written else "error",
        message=" ".join(parts),
        engine="tools" if config.supports_tools else "intent-json",
        error=type(exc).__name__,
    )


# --- numbered options and manual entry ---------------------------------------------------------


# --- classification ----------------------------------------------------------------------------


def _llm_classifier(turn: Turn, config):
    def run(previous_reply, text):
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
        return llm.strip_reasoning(result.text), result.usage.as_dict()

    return run


def _offline_classifier(turn: Turn):
    def run(previous_reply, text):
        guessed = guess_categories(text, reading=turn.reading)
        return (", ".join(guessed) if guessed else "none"), {}

    return run


# --- the agent loop ---------------------------------------------------------------------------


# --- intent-JSON mode and the offline parser ----------------------------------------------------
