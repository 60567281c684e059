"""Celery tasks of the chat app: thin wrappers that take ids, re-fetch, and call a service."""

from celery import shared_task
from django.db import transaction

from chat import services, summaries
from chat.models import ChatMessage


@shared_task(bind=True, max_retries=3, default_retry_delay=5, acks_late=True)
def progress_summary_task(self, message_id: str) -> str | None:
    """Write the progress summary of one assistant reply. Safe to re-run: one summary per reply."""
    try:
        summary = summaries.create_progress_summary(message_id=message_id)
    except Exception as exc:  # a database blip: try again shortly
        raise self.retry(exc=exc) from exc
    return str(summary.id) if summary else None


def queue_progress_summary(*, user, message: ChatMessage) -> None:
    """Queue the progress summary of a reply that logged something, once the turn commits."""
    message_id = str(message.id)
    # robust: with no broker the task runs right here, eagerly; a summary that fails (or a broker
    # that is down) is logged and must never turn the already-saved turn into an error.
    transaction.on_commit(lambda: progress_summary_task.delay(message_id), robust=True)


@shared_task(bind=True, max_retries=3, default_retry_delay=60)
def auto_clear_history_task(self) -> int:
    """Enforce the '7days'/'30days' auto-clear preferences (scheduled hourly by beat).

    Safe to re-run: what is already deleted stays deleted and a second run deletes nothing.
    """
    try:
        return services.history_auto_clear()
    except Exception as exc:  # a database blip: the batches already done stay done
        raise self.retry(exc=exc) from exc
