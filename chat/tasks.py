"""Celery tasks of the chat app: thin wrappers that take ids, re-fetch, and call a service."""

from celery import shared_task

from chat import services

# The progress summary's task lives with the summaries (a turn queues it); imported here so that
# Celery's autodiscovery of chat.tasks registers it.
from chat.turn.summaries import progress_summary_task  # noqa: F401


@shared_task(bind=True, max_retries=3, default_retry_delay=60)
def auto_clear_history_task(self) -> int:
    """Enforce the '7days'/'30days' auto-clear preferences (scheduled hourly by beat).

    Safe to re-run: what is already deleted stays deleted and a second run deletes nothing.
    """
    try:
        return services.history_auto_clear()
    except Exception as exc:  # a database blip: the batches already done stay done
        raise self.retry(exc=exc) from exc
