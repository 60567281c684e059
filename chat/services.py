"""Writes of the chat app outside a turn: the chat history's sessions and clearing (the user's
AI services are aiservices.services).

A turn's own messages are written by chat.turn.coach. History deletions are scoped to one user, or
(auto-clear) to the users whose preference asks for it, and take the photos those messages carried
along with them: a cleared history keeps no copy of the user's meal pictures.
"""

from __future__ import annotations

import datetime as dt
import logging
import uuid
from pathlib import Path

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from chat.models import ChatMessage
from sparky.models import UserPreferences
from sparky.services import preferences_for

logger = logging.getLogger(__name__)
CHAT_SESSION_KEY = "chat_session"  # the browser session's key for its chat session id

# Preference value -> how long messages are kept. 'session' is enforced when a session starts and
# 'never' keeps everything, so neither appears here.
RETENTION = {
    UserPreferences.AutoClear.DAYS_7: dt.timedelta(days=7),
    UserPreferences.AutoClear.DAYS_30: dt.timedelta(days=30),
}


def _image_paths(rows) -> list[Path]:
    """Stored photos of these messages, only under MEDIA_ROOT/chat/<owner id>/ (paths untrusted)."""
    root = Path(settings.MEDIA_ROOT).resolve()
    paths = []
    for user_id, metadata in rows:
        name = ((metadata or {}).get("image") or {}).get("name")
        if not isinstance(name, str) or not name:
            continue
        owner_dir = root / "chat" / str(user_id)
        path = (root / name).resolve()
        if path.is_relative_to(owner_dir):
            paths.append(path)
    return paths


def _remove_files(paths: list[Path]) -> None:
    for path in paths:
        try:
            path.unlink(missing_ok=True)
        except OSError:  # a file we cannot remove must not undo the deletion of the rows
            logger.warning("could not remove chat image %s", path)


def _delete(queryset) -> int:
    """Delete these messages and, once that is committed, their photos. Returns the row count."""
    with_images = list(
        queryset.filter(metadata__has_key="image").values_list("user_id", "metadata")
    )
    count, _ = queryset.delete()
    paths = _image_paths(with_images)
    if paths:
        transaction.on_commit(lambda: _remove_files(paths))
    return count


@transaction.atomic
def history_start_session(*, user) -> uuid.UUID:
    """A new chat session id; with auto-clear 'session' the user's earlier messages are deleted."""
    session_id = uuid.uuid4()
    if preferences_for(user).auto_clear_history == UserPreferences.AutoClear.SESSION:
        _delete(ChatMessage.objects.for_user(user).exclude(session_id=session_id))
    return session_id


def start_session_on_login(sender, request, user, **kwargs) -> None:
    """Every login opens a fresh chat session (connected to Django's user_logged_in signal)."""
    if request is not None and hasattr(request, "session"):
        request.session[CHAT_SESSION_KEY] = str(history_start_session(user=user))


@transaction.atomic
def history_clear(*, user) -> int:
    """Delete all of the user's chat history. Returns how many messages were deleted."""
    return _delete(ChatMessage.objects.for_user(user))


def history_auto_clear(*, now: dt.datetime | None = None, batch_size: int = 1000) -> int:
    """Delete messages older than the retention of users who chose '7days' or '30days'.

    Safe to re-run: a second run finds nothing left to delete. Rows go in batches of `batch_size`
    ids, each batch its own short transaction, so a large history is never locked for long and a
    run interrupted half-way keeps what it already did. Returns how many messages were deleted.
    """
    if batch_size < 1:
        raise ValueError("batch_size must be at least 1")
    now = now or timezone.now()
    total = 0
    for policy, keep in RETENTION.items():
        expired = ChatMessage.objects.filter(
            user__preferences__auto_clear_history=policy, created_at__lt=now - keep
        )
        while True:
            ids = list(expired.order_by("created_at").values_list("id", flat=True)[:batch_size])
            if not ids:
                break
            with transaction.atomic():
                # The policy is checked again: a user may have switched to 'never' meanwhile.
                total += _delete(expired.filter(id__in=ids))
            if len(ids) < batch_size:
                break
    if total:
        logger.info("auto-clear removed %d chat messages", total)
    return total


def history_export_rows(*, user) -> list[dict]:
    """The user's chat history as flat rows for their data export (diary.exports): who said
    what, when; the machinery in each message's metadata stays out."""
    messages = ChatMessage.objects.for_user(user).order_by("created_at", "id")
    return [
        {
            "id": str(message.id),
            "created_at": message.created_at.isoformat(),
            "session_id": str(message.session_id),
            "message_type": message.message_type,
            "content": message.content,
        }
        for message in messages
    ]
