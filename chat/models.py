"""Chat history (the spec's sparky_chat_history table). The user's AI services are
aiservices.models."""

import uuid

from django.contrib.postgres.functions import RandomUUID
from django.db import models

from sparky.models import UserRow, created_at_field


class ChatMessage(UserRow):
    class Type(models.TextChoices):
        USER = "user", "User"
        ASSISTANT = "assistant", "Assistant"

    session_id = models.UUIDField(default=uuid.uuid4, db_default=RandomUUID())
    message_type = models.CharField(max_length=50, choices=Type.choices)
    content = models.TextField()
    created_at = created_at_field()
    metadata = models.JSONField(null=True, blank=True)
    # Deprecated by the spec, kept for history.
    message = models.TextField(null=True, blank=True)
    response = models.TextField(null=True, blank=True)
    image_url = models.TextField(null=True, blank=True)
    # Added: a client-chosen key that makes a retried chat turn a no-op.
    idempotency_key = models.CharField(max_length=100, null=True, blank=True)

    class Meta:
        db_table = "sparky_chat_history"
        ordering = ["created_at"]
        indexes = [models.Index(fields=["user", "created_at"], name="chat_history_user_created")]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "idempotency_key"],
                condition=models.Q(idempotency_key__isnull=False),
                name="chat_history_user_idempotency_unique",
            )
        ]

    def __str__(self) -> str:
        return f"{self.message_type}: {self.content[:40]}"
