"""The chat API: a turn with Sparky (chat.coach.handle_turn, source "api") and the history."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics, status
from rest_framework.parsers import FormParser, JSONParser, MultiPartParser
from rest_framework.response import Response
from rest_framework.views import APIView

from chat import serializers as s
from chat import services
from chat.coach import TurnRejected, handle_turn
from chat.models import ChatMessage
from sparky.api import ERRORS, ScopedThrottle


class ChatTurnView(APIView):
    parser_classes = [JSONParser, MultiPartParser, FormParser]
    throttle_classes = [ScopedThrottle]
    throttle_scope = "chat"

    @extend_schema(
        summary="Talk to Sparky",
        description="Sparky reads the message (and photo), logs what it describes and answers. "
        "A refused turn (empty, too long, bad photo, unknown categories) stores nothing and "
        "answers 400 with error empty, too_long, bad_image or bad_categories. Retrying with "
        "the same Idempotency-Key returns the first answer and logs nothing again.",
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
        responses={200: s.CoachResponseSerializer, 400: ERRORS["400"], 429: ERRORS["429"]},
        tags=["chat"],
    )
    def post(self, request):
        given = s.ChatTurnSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        data = given.validated_data
        key = request.headers.get("Idempotency-Key") or data.get("idempotency_key") or None
        try:
            response = handle_turn(
                request.user,
                data.get("message", ""),
                image=data.get("image"),
                categories=data.get("categories") or None,
                idempotency_key=key,
                source="api",
            )
        except TurnRejected as exc:
            return Response(
                {"error": exc.code, "detail": str(exc)}, status=status.HTTP_400_BAD_REQUEST
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
