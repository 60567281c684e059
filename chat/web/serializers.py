"""Shapes of the chat API: a turn's request and the coach's response, and the history."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from chat.categories import CATEGORIES
from chat.images import ImageRejected, decode_data_url, image_url
from chat.models import ChatMessage
from chat.turn.coach import IDEMPOTENCY_KEY_LIMIT, SUMMARY_KIND
from chat.turn.undo import can_undo
from nutrition.vocabulary import MEALS

# --- a turn ----------------------------------------------------------------------------------


@extend_schema_field(
    {
        "oneOf": [
            {"type": "string", "format": "binary"},
            {"type": "string", "description": "base64 or a data:image/...;base64, URL"},
        ]
    }
)
class ImageField(serializers.Field):
    """A meal photo: a multipart file, or base64 / a data URL in JSON. The coach checks and
    re-encodes it (chat.images); here base64 is only decoded."""

    default_error_messages = {"invalid": "Send the photo as a file upload or as base64 text."}

    def to_internal_value(self, data):
        if hasattr(data, "read"):
            return data
        if isinstance(data, str):
            try:
                return decode_data_url(data)
            except ImageRejected as exc:
                raise serializers.ValidationError(str(exc), code="bad_image") from None
        self.fail("invalid")

    def to_representation(self, value):  # never echoed back
        return None


class _CommaList(serializers.ListField):
    """A list, also given as one comma-separated value ("food,exercise") in a form."""

    def to_internal_value(self, data):
        if isinstance(data, str):
            data = [data]
        if isinstance(data, list):
            data = [part.strip() for item in data for part in str(item).split(",") if part.strip()]
        return super().to_internal_value(data)


class ChatTurnSerializer(serializers.Serializer):
    message = serializers.CharField(
        required=False, allow_blank=True, trim_whitespace=False, default=""
    )
    image = ImageField(required=False, allow_null=True)
    categories = _CommaList(
        child=serializers.ChoiceField(choices=list(CATEGORIES)),
        required=False,
        help_text="Manual tool categories (a strict ceiling); empty or absent = automatic.",
    )
    idempotency_key = serializers.CharField(
        max_length=IDEMPOTENCY_KEY_LIMIT,
        required=False,
        allow_blank=True,
        help_text="Same key again: the stored answer, nothing logged twice. The "
        "Idempotency-Key header does the same.",
    )


class ChatTurnMultipartSerializer(ChatTurnSerializer):
    """Documentation twin of ChatTurnSerializer for multipart/form-data: image is a file."""

    image = serializers.ImageField(required=False)


class ChatTurnJSONSerializer(ChatTurnSerializer):
    """Documentation twin of ChatTurnSerializer for JSON: image is base64 or a data URL."""

    image = serializers.CharField(
        required=False, allow_null=True, help_text="base64 or data:image/...;base64,..."
    )


class WrittenSerializer(serializers.Serializer):
    kind = serializers.CharField(help_text="food_entry, exercise_entry, checkin, water, goal...")
    id = serializers.CharField()
    summary = serializers.CharField()
    date = serializers.DateField(allow_null=True)


class ReviewItemSerializer(serializers.Serializer):
    index = serializers.IntegerField(help_text="Its place in the list, to name it in a change.")
    name = serializers.CharField(help_text="The item as the message named it.")
    quantity = serializers.FloatField(allow_null=True)
    unit = serializers.CharField(allow_blank=True)
    meal_type = serializers.CharField(allow_blank=True)
    editable = serializers.BooleanField(help_text="Whether amount, unit and meal may change.")
    kcal = serializers.IntegerField(
        allow_null=True,
        help_text="About how many kcal the item is as listed (the catalog's numbers for a food, "
        "a photo's estimate for one), or null when that can't be told before logging.",
    )


class ReviewEditSerializer(serializers.Serializer):
    index = serializers.IntegerField(min_value=0)
    quantity = serializers.FloatField(required=False, min_value=0)
    unit = serializers.CharField(required=False, allow_blank=True, max_length=40)
    meal_type = serializers.ChoiceField(choices=list(MEALS), required=False)
    remove = serializers.BooleanField(required=False, default=False)


class ReviewConfirmSerializer(serializers.Serializer):
    items = ReviewEditSerializer(
        many=True,
        required=False,
        help_text="Changes by item index; items not named are logged as shown. remove: true "
        "leaves an item out.",
    )


class ReviewedSerializer(serializers.Serializer):
    message = serializers.CharField()
    entries = WrittenSerializer(
        many=True, help_text="Rows written; undo of the reply takes them back."
    )
    resolved = serializers.ChoiceField(choices=["logged", "cancelled"])


class CoachResponseSerializer(serializers.Serializer):
    """What Sparky answered and did (chat.turn.coach.CoachResponse)."""

    action = serializers.ChoiceField(
        choices=["logged", "options", "selected", "answered", "none", "error", "pending", "confirm"]
    )
    message = serializers.CharField()
    entries = WrittenSerializer(many=True, help_text="Rows written by this turn.")
    categories = serializers.ListField(child=serializers.CharField())
    mode = serializers.ChoiceField(choices=["auto", "manual"])
    phase = serializers.CharField()
    engine = serializers.CharField(help_text="tools, intent-json, offline or options.")
    escalations = serializers.ListField(child=serializers.ListField(child=serializers.CharField()))
    tools_called = serializers.ListField(child=serializers.CharField())
    usage = serializers.DictField(child=serializers.FloatField())
    options = serializers.ListField(
        child=serializers.DictField(), allow_null=True, help_text="Numbered choices to reply to."
    )
    review = ReviewItemSerializer(
        many=True,
        allow_null=True,
        help_text="With action confirm: the items the reply would log, nothing saved yet. Log "
        "them (with changes) at POST /api/chat/messages/{message_id}/review/confirm/, or drop "
        "them at .../review/cancel/.",
    )
    error = serializers.CharField(allow_null=True)
    user_message_id = serializers.UUIDField(allow_null=True)
    message_id = serializers.UUIDField(allow_null=True)


# --- history ---------------------------------------------------------------------------------


class ImageInfoSerializer(serializers.Serializer):
    url = serializers.CharField(allow_null=True)
    width = serializers.IntegerField()
    height = serializers.IntegerField()
    size = serializers.IntegerField()


class ChatMessageSerializer(serializers.ModelSerializer):
    role = serializers.CharField(source="message_type", help_text="user or assistant.")
    kind = serializers.SerializerMethodField(help_text="message, or progress_summary.")
    reply_to = serializers.SerializerMethodField(help_text="The user message answered.")
    summary_for = serializers.SerializerMethodField(
        help_text="Progress summaries: the reply they follow."
    )
    action = serializers.SerializerMethodField()
    entries = serializers.SerializerMethodField()
    options = serializers.SerializerMethodField()
    image = serializers.SerializerMethodField()
    can_undo = serializers.SerializerMethodField(
        help_text="Whether POST .../undo/ would take back what this reply saved."
    )
    undone = serializers.SerializerMethodField(
        help_text="Once undone: what was taken back and what was left as it is."
    )

    class Meta:
        model = ChatMessage
        fields = [
            "id",
            "role",
            "kind",
            "content",
            "created_at",
            "session_id",
            "reply_to",
            "summary_for",
            "action",
            "entries",
            "options",
            "image",
            "can_undo",
            "undone",
        ]
        read_only_fields = fields

    def _meta(self, message) -> dict:
        return message.metadata if isinstance(message.metadata, dict) else {}

    def _response(self, message) -> dict:
        response = self._meta(message).get("response")
        return response if isinstance(response, dict) else {}

    def get_kind(self, message) -> str:
        return SUMMARY_KIND if self._meta(message).get("kind") == SUMMARY_KIND else "message"

    @extend_schema_field(OpenApiTypes.UUID)
    def get_reply_to(self, message) -> str | None:
        return self._meta(message).get("reply_to")

    @extend_schema_field(OpenApiTypes.UUID)
    def get_summary_for(self, message) -> str | None:
        return self._meta(message).get("summary_for")

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_action(self, message) -> str | None:
        return self._response(message).get("action")

    @extend_schema_field(WrittenSerializer(many=True))
    def get_entries(self, message) -> list:
        return self._response(message).get("entries") or []

    @extend_schema_field(serializers.ListField(child=serializers.DictField(), allow_null=True))
    def get_options(self, message):
        return self._response(message).get("options")

    @extend_schema_field(ImageInfoSerializer(allow_null=True))
    def get_image(self, message):
        image = self._meta(message).get("image")
        if not isinstance(image, dict):
            return None
        return {
            "url": image_url(image.get("name")),
            "width": image.get("width"),
            "height": image.get("height"),
            "size": image.get("size"),
        }

    def get_can_undo(self, message) -> bool:
        return can_undo(message)

    @extend_schema_field(serializers.DictField(allow_null=True))
    def get_undone(self, message):
        return self._meta(message).get("undone")


class UndoneSerializer(serializers.Serializer):
    taken_back = serializers.ListField(
        child=serializers.CharField(), help_text="What was removed or put back as it was."
    )
    kept = serializers.ListField(
        child=serializers.CharField(),
        help_text="What was changed or deleted since the reply and is left as it is now.",
    )
    message = serializers.CharField(help_text="The same in a sentence.")


class HistoryClearedSerializer(serializers.Serializer):
    deleted = serializers.IntegerField(help_text="How many messages were deleted.")
