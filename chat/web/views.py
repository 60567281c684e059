"""The chat page: the thread, the message box, the tool selector, and the day's diary beside it.

A message is posted by htmx and answered with the fragment of new messages (the user's message,
Sparky's reply, and the progress summary once it exists), so the page never reloads. A turn that
wrote diary rows also sends the `diary-changed` client event, on which the diary panel reloads
itself. Where the browser can read a fetch stream, the page asks for the turn as events instead
(`Accept: text/event-stream`, chat.web.streaming): the step being run, the reply as it is written
and each saved entry's chip show as they come, then the same fragment takes their place. Without
JavaScript the same form posts normally and the page is redirected back.
"""

from __future__ import annotations

import datetime as dt
import functools
import uuid
from pathlib import Path

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import FileResponse, Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import trigger_client_event

from aiservices.services import active_ai_service
from chat.categories import CATEGORIES, CORE_CATEGORIES
from chat.categories import LABELS as CATEGORY_LABELS
from chat.images import STORED_NAME, image_url
from chat.models import ChatMessage
from chat.services import CHAT_SESSION_KEY, history_start_session
from chat.turn import offers as chat_options
from chat.turn.coach import SUMMARY_KIND, TurnRejected, handle_turn
from chat.turn.review import (
    ReviewRefused,
    pending_review,
    review_cancel,
    review_confirm,
    review_items,
)
from chat.turn.types import too_old
from chat.turn.undo import UndoRefused, can_undo, reply_undo, undo_entries
from chat.web import streaming
from diary.views import diary_context, diary_day
from nutrition.models import MealType
from sparky import services
from sparky.api import throttle_wait
from sparky.uploads import refused_upload

THREAD_LIMIT = 60
SUMMARY_POLL_TRIES = 8
DIARY_EVENT = "diary-changed"
MEALS = list(MealType.values)
# What a manual pick starts with when nothing was picked before: the core logging set.
DEFAULT_MANUAL = list(CORE_CATEGORIES)
EXAMPLES = (
    "2 eggs and toast for breakfast",
    "walked 45 min",
    "weight 80.2 kg",
    "3 glasses of water",
)


# --- reading the thread ----------------------------------------------------------------------


def chip_for(entry: dict) -> dict:
    """A saved row as its chip: a few words, with the reply's full line as the tooltip.

    Replies stored before chips had their own words carry only the summary: its first part (the
    amount and the food, before the meal and date in brackets) stands in.
    """
    summary = str(entry.get("summary") or "")
    text = entry.get("chip") or summary.split(" (", 1)[0]
    return {
        "kind": entry.get("kind") or "entry",
        "text": text,
        "title": entry.get("title") or summary,
    }


def summary_label(message: ChatMessage) -> str:
    """A progress note's heading, naming the day it is about: "Progress today", "Progress
    yesterday", "Progress on Saturday"."""
    try:
        day = dt.date.fromisoformat((message.metadata or {}).get("date") or "")
    except ValueError:
        return "Progress today"  # notes from before they kept their day were about that day
    return f"Progress {services.spoken_day_for(message.user, day)}"


def _is_reply(message: ChatMessage) -> bool:
    return (
        message.message_type == ChatMessage.Type.ASSISTANT
        and (message.metadata or {}).get("kind") != SUMMARY_KIND
    )


def message_view(message: ChatMessage, *, latest_reply: bool = False) -> dict:
    """What the thread template needs to draw one message."""
    meta = message.metadata or {}
    view = {"id": message.id, "content": message.content, "created_at": message.created_at}
    if message.message_type == ChatMessage.Type.USER:
        image = meta.get("image") or {}
        return {**view, "kind": "user", "image": image, "image_url": image_url(image.get("name"))}
    if meta.get("kind") == SUMMARY_KIND:
        return {**view, "kind": "summary", "label": summary_label(message)}
    response = meta.get("response") or {}
    choices = None
    pending = chat_options.pending_options(message) if latest_reply else None
    if pending and not too_old(pending):
        choices = [
            {
                "number": i,
                "label": chat_options.describe_option(pending.get("kind"), option),
                "title": option.get("full_name") or "",
            }
            for i, option in enumerate(pending["options"], 1)
        ]
    confirm = meta.get("confirm")
    asks_confirmation = (
        latest_reply and isinstance(confirm, dict) and pending_review(message) is not None
    )
    categories = response.get("categories") or []
    return {
        **view,
        "kind": "reply",
        "mode": response.get("mode") or "auto",
        "categories": [CATEGORY_LABELS.get(c, c) for c in categories],
        "chips": [chip_for(e) for e in response.get("entries") or [] if isinstance(e, dict)],
        "error": response.get("error"),
        "engine": response.get("engine") or "",
        "options": choices,
        "confirm": asks_confirmation,
        "review": review_items(confirm, user=message.user) if asks_confirmation else None,
        "reviewed": (confirm or {}).get("said") if isinstance(confirm, dict) else None,
        "meals": MEALS,
        "can_undo": can_undo(message),
        "undone": meta.get("undone"),
    }


def thread_for(user) -> list[dict]:
    recent = list(ChatMessage.objects.for_user(user).order_by("-created_at", "-id")[:THREAD_LIMIT])
    recent.reverse()
    latest = next((m for m in reversed(recent) if _is_reply(m)), None)
    return [message_view(m, latest_reply=m is latest) for m in recent]


def _summary_of(user, reply_id) -> ChatMessage | None:
    return (
        ChatMessage.objects.for_user(user)
        .filter(metadata__kind=SUMMARY_KIND, metadata__summary_for=str(reply_id))
        .first()
    )


def _session_id(request) -> uuid.UUID:
    """This login's chat session; one is started when the session has none yet."""
    try:
        return uuid.UUID(str(request.session.get(CHAT_SESSION_KEY)))
    except ValueError:
        session_id = history_start_session(user=request.user)
        request.session[CHAT_SESSION_KEY] = str(session_id)
        return session_id


# --- the tool selector -----------------------------------------------------------------------


def selector_context(*, mode: str, picked: list[str], error: str | None = None) -> dict:
    return {
        "mode": mode,
        "picked": picked,
        "error": error,
        "categories": [
            {"slug": slug, "label": CATEGORY_LABELS.get(slug, slug), "help": text}
            for slug, text in CATEGORIES.items()
        ],
    }


def _saved_selector(user) -> dict:
    picked = list(services.preferences_for(user).chat_categories or [])
    return selector_context(mode="manual" if picked else "auto", picked=picked)


class _SelectionError(Exception):
    pass


def _posted_selection(request) -> tuple[str, list[str]]:
    """(mode, categories) from the selector fields of a post, remembered when they changed.

    A post without selector fields (an API-like client, an old page) uses the remembered pick.
    """
    prefs = services.preferences_for(request.user)
    if "tool_mode" not in request.POST:
        saved = list(prefs.chat_categories or [])
        return ("manual" if saved else "auto"), saved
    mode = "manual" if request.POST.get("tool_mode") == "manual" else "auto"
    picked = [c for c in request.POST.getlist("categories") if c in CATEGORIES]
    if mode == "manual" and not picked:
        if prefs.chat_categories or "categories" in request.POST:
            raise _SelectionError(
                "Pick at least one tool category, or switch the selector to Auto."
            )
        picked = list(DEFAULT_MANUAL)  # just switched to Manual: start from the core set
    wanted = picked if mode == "manual" else []
    if wanted != list(prefs.chat_categories or []):
        try:
            services.preferences_update(user=request.user, chat_categories=wanted)
        except ValidationError as exc:
            raise _SelectionError(" ".join(exc.messages)) from None
    return mode, wanted


@login_required
@require_POST
def tool_selector(request):
    try:
        mode, picked = _posted_selection(request)
        context = selector_context(mode=mode, picked=picked)
        status = 200
    except _SelectionError as exc:
        context = selector_context(mode="manual", picked=[], error=str(exc))
        status = 422
    if request.htmx:
        return render(request, "chat/page.html#selector", {"selector": context}, status=status)
    if context["error"]:
        messages.error(request, context["error"])
    return redirect("chat:page")


# --- pages and endpoints ---------------------------------------------------------------------


@login_required
@require_GET
def page(request):
    _session_id(request)
    user = request.user
    service = active_ai_service(user)
    context = {
        "thread": thread_for(user),
        "selector": _saved_selector(user),
        "diary": diary_context(user, diary_day(request)),
        "service": service,
        "max_image_bytes": settings.SPARKY_MAX_IMAGE_BYTES,
        "max_image_mb": settings.SPARKY_MAX_IMAGE_BYTES // (1024 * 1024),
        "max_chars": settings.SPARKY_MAX_MESSAGE_CHARS,
        "examples": EXAMPLES,
        "poll_tries": SUMMARY_POLL_TRIES,
    }
    return render(request, "chat/page.html", context)


def _rejected(request, message: str, code: str):
    if not request.htmx:
        messages.error(request, message)
        return redirect("chat:page")
    return render(request, "chat/page.html#rejected", {"reason": message, "code": code}, status=422)


def throttled(view):
    """The chat's rate (REST_FRAMEWORK's `chat`, the API's) on a page's chat post: past it, a
    429 with a plain sentence, swapped in where the reply would go."""

    @functools.wraps(view)
    def checked(request, *args, **kwargs):
        wait = throttle_wait(request, "chat")
        if wait is None:
            return view(request, *args, **kwargs)
        seconds = max(1, round(wait))
        message = (
            "Too many messages in a short time. Wait "
            f"{seconds} second{'s' if seconds != 1 else ''}, then send it again."
        )
        headers = {"Retry-After": str(seconds)}
        if request.htmx:
            response = render(
                request,
                "chat/page.html#rejected",
                {"reason": message, "code": "throttled"},
                status=429,
            )
        else:
            response = HttpResponse(message, status=429, content_type="text/plain; charset=utf-8")
        for name, value in headers.items():
            response[name] = value
        return response

    return checked


@login_required
@require_POST
@throttled
def send(request):
    image = request.FILES.get("image")  # read first: a photo over the limit stops here
    if refused_upload(request):
        return _rejected(request, refused_upload(request), "bad_image")
    try:
        _mode, categories = _posted_selection(request)
    except _SelectionError as exc:
        return _rejected(request, str(exc), "bad_categories")
    turn = functools.partial(
        handle_turn,
        request.user,
        request.POST.get("message", ""),
        image=image,
        categories=categories or None,
        idempotency_key=request.POST.get("idempotency_key") or None,
        session_id=_session_id(request),
        source="chat",
    )
    try:
        if request.htmx and streaming.wants_stream(request):
            return streaming.TurnStream.start(
                lambda events: _streamed(request, turn(events=_page_events(events)))
            ).response(request)
        response = turn()
    except TurnRejected as exc:
        return _rejected(request, str(exc), exc.code)
    if not request.htmx:
        return redirect("chat:page")
    return _turn_fragment(request, response)


def _page_events(events):
    """The turn's events as the page draws them: an entry as its chip."""

    def tell(event: str, data: dict) -> None:
        events(event, chip_for(data) if event == "entry" else data)

    return tell


def _streamed(request, response) -> dict:
    """The `done` event of a streamed turn on the page: the turn drawn as the thread shows it,
    and the diary days it changed."""
    rendered = _turn_fragment(request, response)
    return {"html": rendered.content.decode(), "dates": _dates(response)}


def _dates(response) -> list[str]:
    return sorted({e.get("date") for e in response.entries if e.get("date")})


def _turn_fragment(request, response) -> HttpResponse:
    ids = [i for i in (response.user_message_id, response.message_id) if i]
    rows = {str(m.id): m for m in ChatMessage.objects.for_user(request.user).filter(id__in=ids)}
    asked = rows.get(response.user_message_id or "")
    reply = rows.get(response.message_id or "")
    summary = None
    if reply is not None and response.entries:
        found = _summary_of(request.user, reply.id)
        summary = message_view(found) if found else None
    context = {
        "asked": message_view(asked) if asked else None,
        "reply": message_view(reply, latest_reply=True) if reply else None,
        "pending": response.message if reply is None else None,
        "summary": summary,
        "poll": reply is not None and bool(response.entries) and summary is None,
        "poll_try": 1,
        "poll_delay": 1,
    }
    rendered = render(request, "chat/page.html#turn", context)
    if response.entries:
        trigger_client_event(rendered, DIARY_EVENT, {"dates": _dates(response)})
    return rendered


def _own_reply(request, reply_id) -> ChatMessage:
    """One of the user's own replies by id; anyone else's (or none) is a 404."""
    return get_object_or_404(
        ChatMessage.objects.for_user(request.user).filter(message_type="assistant"), pk=reply_id
    )


@login_required
@require_POST
@throttled
def undo(request, reply_id: uuid.UUID):
    """Undo one reply: what it saved is taken back and the reply is drawn again, saying so."""
    reply = _own_reply(request, reply_id)
    dates = sorted({e.get("date") for e in undo_entries(reply) if e.get("date")})
    try:
        done = reply_undo(request.user, reply.id)
    except UndoRefused as exc:
        if not request.htmx:
            messages.error(request, str(exc))
            return redirect("chat:page")
        reply.refresh_from_db()
        rendered = render(request, "chat/page.html#message", {"m": message_view(reply)})
        return rendered
    if not request.htmx:
        return redirect("chat:page")
    reply.refresh_from_db()
    rendered = render(
        request,
        "chat/page.html#undone",
        {"m": message_view(reply), "summaries_removed": done.summaries_removed},
    )
    trigger_client_event(rendered, DIARY_EVENT, {"dates": dates})
    return rendered


def _review_edits(post, count: int) -> list[dict]:
    edits = []
    for index in range(count):
        fields = (f"quantity_{index}", f"unit_{index}", f"meal_{index}")
        if any(len(post.getlist(field)) > 1 for field in fields):  # never the last one silently
            raise ReviewRefused(
                f"Item {index + 1} is changed twice; send one change per item.", "bad_item"
            )
        if post.get(f"remove_{index}"):
            edits.append({"index": index, "remove": True})
            continue
        edit = {"index": index}
        quantity = (post.get(f"quantity_{index}") or "").strip()
        if quantity:
            try:
                edit["quantity"] = float(quantity)
            except ValueError:
                raise ReviewRefused(f"'{quantity}' is not an amount.", "bad_item") from None
        if post.get(f"unit_{index}") is not None:
            edit["unit"] = post[f"unit_{index}"].strip()
        if post.get(f"meal_{index}") in MEALS:
            edit["meal_type"] = post[f"meal_{index}"]
        edits.append(edit)
    return edits


@login_required
@require_POST
@throttled
def review(request, reply_id: uuid.UUID):
    """The review card's answer: Log all (with the amounts, units and meals as edited, removed
    items left out) or Cancel; the reply is drawn again, saying what was logged."""
    reply = _own_reply(request, reply_id)
    problem, entries = None, []
    try:
        if request.POST.get("answer") == "log":
            count = len(review_items((reply.metadata or {}).get("confirm")))
            entries = review_confirm(
                request.user, reply.id, edits=_review_edits(request.POST, count), source="chat"
            ).entries
        else:
            review_cancel(request.user, reply.id)
    except ReviewRefused as exc:
        problem = str(exc)
    if not request.htmx:
        if problem:
            messages.error(request, problem)
        return redirect("chat:page")
    reply.refresh_from_db()
    view = message_view(reply, latest_reply=problem is not None)
    rendered = render(request, "chat/page.html#message", {"m": {**view, "problem": problem}})
    dates = sorted({e.get("date") for e in entries if e.get("date")})
    if dates:
        trigger_client_event(rendered, DIARY_EVENT, {"dates": dates})
    return rendered


@login_required
@require_GET
def summary(request, reply_id: uuid.UUID):
    """The progress summary of one reply, polled by the thread until it exists (a few tries)."""
    reply = _own_reply(request, reply_id)
    found = _summary_of(request.user, reply.id)
    if found is not None:
        return render(request, "chat/page.html#message", {"m": message_view(found)})
    try:
        tried = max(int(request.GET.get("try", "1")), 1)
    except ValueError:
        tried = 1
    if tried >= SUMMARY_POLL_TRIES:
        return HttpResponse("")  # no summary after all: the placeholder simply goes away
    return render(
        request,
        "chat/page.html#summary-poll",
        {"reply_id": reply.id, "poll_try": tried + 1, "poll_delay": min(tried + 1, 4)},
    )


@login_required
@require_GET
def image(request, user_id: uuid.UUID, filename: str):
    """A photo the user attached to a chat message; nobody else's, never from a public URL."""
    if user_id != request.user.pk or not STORED_NAME.match(filename):
        raise Http404("No such photo.")
    path = Path(settings.MEDIA_ROOT) / "chat" / str(request.user.pk) / filename
    if not path.is_file():
        raise Http404("No such photo.")
    response = FileResponse(path.open("rb"), content_type="image/jpeg")
    response["Cache-Control"] = "private, max-age=86400"
    return response
