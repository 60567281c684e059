"""The chat API: a turn with Sparky (chat.turn.coach.handle_turn, source "api") and the history (the
user's AI services are aiservices.api)."""

from __future__ import annotations

import functools

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)
from rest_framework import generics, status
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.renderers import BaseRenderer, BrowsableAPIRenderer, JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from chat import services
from chat.models import ChatMessage
from chat.turn.coach import TurnRejected, handle_turn
from chat.turn.review import review_cancel, review_confirm
from chat.turn.types import ReplyRefused
from chat.turn.undo import reply_undo
from chat.web import serializers as s
from chat.web import streaming
from sparky.api import ERRORS, ErrorSerializer, ScopedThrottle
from sparky.parsers import JSONParser
from sparky.uploads import refused_upload

STREAM_EXAMPLE = (
    'event: step\ndata: {"text": "Reading your message…"}\n\n'
    'event: step\ndata: {"text": "Looking up banana…"}\n\n'
    'event: entry\ndata: {"kind": "food_entry", "id": "…", "summary": "1 medium Bananas, raw '
    '(snack, 2026-12-05, 105 kcal)", "date": "2026-12-05", "chip": "Bananas, raw · 105 kcal", '
    '"undo": {…}}\n\n'
    'event: step\ndata: {"text": "Writing the reply…"}\n\n'
    'event: text\ndata: {"text": "Logged a"}\n\n'
    'event: text\ndata: {"text": " banana."}\n\n'
    'event: done\ndata: {"action": "logged", "message": "Logged a banana.", "entries": […], …}\n\n'
)


class EventStreamRenderer(BaseRenderer):
    """Lets a client ask for `text/event-stream`: the turn view answers it with a stream of its
    own; anything else it says (a refusal, a throttle) is JSON."""

    media_type = streaming.MEDIA_TYPE
    format = "sse"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        return JSONRenderer().render(data)


# A key reused for another request is well-formed but cannot be processed, as payment APIs answer.
_REJECTED_TURN_STATUS = {"idempotency_conflict": status.HTTP_422_UNPROCESSABLE_ENTITY}


class ChatTurnView(APIView):
    parser_classes = [JSONParser, MultiPartParser, FormParser]
    renderer_classes = [JSONRenderer, BrowsableAPIRenderer, EventStreamRenderer]
    throttle_classes = [ScopedThrottle]
    throttle_scope = "chat"

    def finalize_response(self, request, response, *args, **kwargs):
        if isinstance(response, Response) and streaming.wants_stream(request):
            request.accepted_renderer = JSONRenderer()  # errors of a streamed turn are JSON
            request.accepted_media_type = JSONRenderer.media_type
        return super().finalize_response(request, response, *args, **kwargs)

    @extend_schema(
        summary="Talk to Sparky",
        description="Sparky reads the message (and photo), logs what it describes and answers. "
        "A refused turn (empty, too long, bad photo, unknown categories) stores nothing and "
        "answers 400 with error empty, too_long, bad_image or bad_categories. Retrying with "
        "the same Idempotency-Key returns the first answer and logs nothing again; a key over "
        "100 characters is a 400 (bad_idempotency_key), never shortened, and the same key with "
        "a different message, photo or categories is a 422 (idempotency_conflict) naming what "
        "differs, with nothing stored. Keys are per user.\n\n"
        "**Streaming.** With `Accept: text/event-stream` the answer comes as server-sent events "
        "while the turn runs (a refusal is still a 400 in JSON):\n\n"
        '- `step` `{"text": "Looking up oatmeal…"}`: what Sparky is doing now, in plain '
        "words;\n"
        '- `text` `{"text": "…"}`: the next piece of the reply as the model writes it (a reply '
        "no model wrote comes whole, at once); a draft: the final wording is in `done`;\n"
        "- `entry`: a diary row once it is saved, shaped like an item of `entries`;\n"
        "- `done`: the whole answer, the same object as the JSON response;\n"
        '- `error` `{"message": "…"}`: the turn failed on Sparky\'s side.\n\n'
        "A line starting with `:` keeps a quiet connection open. A closed connection stops "
        "the events, never the turn: it completes and is stored once; the same Idempotency-Key "
        "then returns its answer (as a single `done` event when streaming).",
        parameters=[
            OpenApiParameter(
                "Idempotency-Key",
                str,
                OpenApiParameter.HEADER,
                description="Optional; the same as the idempotency_key field.",
            )
        ],
        request={
            "application/json": s.ChatTurnJSONSerializer,
            "multipart/form-data": s.ChatTurnMultipartSerializer,
        },
        responses={
            (200, "application/json"): s.CoachResponseSerializer,
            (200, streaming.MEDIA_TYPE): OpenApiResponse(
                OpenApiTypes.STR,
                description="Server-sent events: step, text, entry, then done (or error).",
                examples=[
                    OpenApiExample(
                        "A logging turn",
                        media_type=streaming.MEDIA_TYPE,
                        response_only=True,
                        value=STREAM_EXAMPLE,
                    )
                ],
            ),
            400: ERRORS["400"],
            422: OpenApiResponse(
                ErrorSerializer,
                description="idempotency_conflict: the key was used for another request.",
            ),
            429: ERRORS["429"],
        },
        tags=["chat"],
    )
    def post(self, request):
        given = s.ChatTurnSerializer(data=request.data)
        if refused_upload(request):
            return Response(
                {"error": "bad_image", "detail": refused_upload(request)},
                status=status.HTTP_400_BAD_REQUEST,
            )
        given.is_valid(raise_exception=True)
        data = given.validated_data
        key = request.headers.get("Idempotency-Key") or data.get("idempotency_key") or None
        turn = functools.partial(
            handle_turn,
            request.user,
            data.get("message", ""),
            image=data.get("image"),
            categories=data.get("categories") or None,
            idempotency_key=key,
            source="api",
        )
        try:
            if streaming.wants_stream(request):
                stream = streaming.TurnStream.start(lambda events: turn(events=events).as_dict())
                return stream.response(request)
            response = turn()
        except TurnRejected as exc:
            return Response(
                {"error": exc.code, "detail": str(exc)},
                status=_REJECTED_TURN_STATUS.get(exc.code, status.HTTP_400_BAD_REQUEST),
            )
        return Response(response.as_dict())


class ChatHistoryView(generics.ListAPIView):
    serializer_class = s.ChatMessageSerializer

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # schema generation: no user
            return ChatMessage.objects.none()
        return ChatMessage.objects.for_user(self.request.user).order_by("created_at", "id")

    @extend_schema(
        summary="Your chat history",
        description="Oldest first (newest last), paginated; progress summaries have kind "
        "progress_summary.",
        tags=["chat"],
    )
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    @extend_schema(
        summary="Clear your chat history",
        request=None,
        responses={200: OpenApiResponse(s.HistoryClearedSerializer)},
        tags=["chat"],
    )
    def delete(self, request):
        deleted = services.history_clear(user=request.user)
        return Response({"deleted": deleted})


_REFUSED_STATUS = {"not_found": status.HTTP_404_NOT_FOUND, "bad_item": status.HTTP_400_BAD_REQUEST}


class _ReplyActionView(APIView):
    """Something done to one of the user's earlier replies; a refusal answers 404 (not theirs or
    no such reply), 400 (an item that can't be read) or 409 (not now), with its code."""

    throttle_classes = [ScopedThrottle]
    throttle_scope = "chat"

    def act(self, request, message_id):
        """Do it; returns what was done (with as_dict) or raises ReplyRefused."""
        raise NotImplementedError

    def post(self, request, message_id):
        try:
            done = self.act(request, message_id)
        except ReplyRefused as exc:
            code = _REFUSED_STATUS.get(exc.code, status.HTTP_409_CONFLICT)
            return Response({"error": exc.code, "detail": str(exc)}, status=code)
        return Response(done.as_dict())


@extend_schema_view(
    post=extend_schema(
        summary="Undo a reply",
        description="Takes back, in one transaction, exactly what one of your replies saved: "
        "rows it created are removed, values it changed (water, check-ins, goals, edited "
        "entries) are put back, entries it deleted come back. A row edited or deleted since "
        "is left as it is and listed under kept. A reply is undone once: a second call "
        "answers 409 already_undone; a reply that saved nothing answers 409 nothing_to_undo; "
        "someone else's reply is 404.",
        request=None,
        responses={
            200: s.UndoneSerializer,
            404: ERRORS["404"],
            409: OpenApiResponse(description="already_undone or nothing_to_undo"),
        },
        tags=["chat"],
    )
)
class ChatUndoView(_ReplyActionView):
    def act(self, request, message_id):
        return reply_undo(request.user, message_id)


@extend_schema_view(
    post=extend_schema(
        summary="Log the items a reply is waiting on",
        description="A reply with action confirm lists, in review, what it would log. This logs "
        "them in one go, with any changes to an item's quantity, unit or meal, leaving out "
        "items marked remove. Undo of the reply then takes them back. A list is answered once: "
        "a second call answers 409 already_resolved (nothing logged again); a list older than "
        "12 hours 409 expired; a reply with nothing waiting 409 nothing_to_review; an item "
        "that cannot be logged 409 refused, with nothing logged; someone else's reply is 404.",
        request=s.ReviewConfirmSerializer,
        responses={
            200: s.ReviewedSerializer,
            400: ERRORS["400"],
            404: ERRORS["404"],
            409: OpenApiResponse(
                description="already_resolved, expired, nothing_to_review or refused"
            ),
        },
        tags=["chat"],
    )
)
class ChatReviewConfirmView(_ReplyActionView):
    def act(self, request, message_id):
        given = s.ReviewConfirmSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        edits = given.validated_data.get("items") or []
        return review_confirm(request.user, message_id, edits=edits)


@extend_schema_view(
    post=extend_schema(
        summary="Drop the items a reply is waiting on",
        description="Nothing is logged and the list is closed. A second call answers 409 "
        "already_resolved; someone else's reply is 404.",
        request=None,
        responses={200: s.ReviewedSerializer, 404: ERRORS["404"], 409: OpenApiResponse()},
        tags=["chat"],
    )
)
class ChatReviewCancelView(_ReplyActionView):
    def act(self, request, message_id):
        return review_cancel(request.user, message_id)
