"""The AI services API: the user's services (never their keys), activation after a connection
test, and going back to the built-in offline model. Thin over aiservices.services."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import serializers, status
from rest_framework.decorators import action
from rest_framework.response import Response

from aiservices import llm, services
from aiservices.models import AIServiceSettings
from sparky.api import DomainViewSet, Writes


class AIServiceSerializer(serializers.Serializer):
    """An AI service as shown: never the key, only whether one is stored."""

    id = serializers.UUIDField(read_only=True)
    service_name = serializers.CharField(max_length=255)
    service_type = serializers.ChoiceField(choices=AIServiceSettings.ServiceType.values)
    model_name = serializers.CharField(allow_null=True, allow_blank=True, required=False)
    custom_url = serializers.CharField(allow_null=True, allow_blank=True, required=False)
    system_prompt = serializers.CharField(allow_null=True, allow_blank=True, required=False)
    tool_profile = serializers.ChoiceField(
        choices=AIServiceSettings.ToolProfile.values, required=False
    )
    supports_tools = serializers.BooleanField(required=False)
    sparky_reads_first = serializers.BooleanField(
        required=False,
        help_text="Sparky's parser logs what it reads with certainty before the model is asked. "
        "Defaults to true for the core profile, false for full.",
    )
    is_active = serializers.BooleanField(required=False)
    api_key = serializers.CharField(
        write_only=True,
        required=False,
        allow_blank=True,
        trim_whitespace=False,
        style={"input_type": "password"},
        help_text="Write-only. Leave out (or blank) on update to keep the stored key.",
    )
    has_api_key = serializers.BooleanField(read_only=True)
    created_at = serializers.DateTimeField(read_only=True)
    updated_at = serializers.DateTimeField(read_only=True)


class ActivateSerializer(serializers.Serializer):
    insist = serializers.BooleanField(
        default=False, help_text="Make it active even without a passing connection test."
    )


@extend_schema_view(
    list=extend_schema(summary="List your AI services"),
    retrieve=extend_schema(summary="Read an AI service"),
    create=extend_schema(
        summary="Add an AI service",
        description=(
            "Saved inactive: POST .../activate/ tests the connection and makes it the one in "
            "use. `is_active: true` makes it active at once, untested."
        ),
    ),
    partial_update=extend_schema(summary="Change an AI service"),
    destroy=extend_schema(summary="Delete an AI service"),
)
@extend_schema(tags=["settings"])
class AIServiceViewSet(DomainViewSet):
    model = AIServiceSettings
    serializer_class = AIServiceSerializer
    writes = Writes(
        create=services.ai_service_create,
        update=services.ai_service_update,
        delete=services.ai_service_delete,
        id_name="service_id",
    )

    def rows(self, queryset):
        return queryset.order_by("created_at")

    def given(self) -> dict:
        values = super().given()
        if self.action == "partial_update":
            return values  # no key given: the stored one is kept
        # A new service without a key (Ollama, a local server) stores none.
        return {"api_key": "", **values}

    @extend_schema(
        summary="Make this the active AI service, once it passes a connection test",
        description=(
            "Tests the connection first (name, connection, key, model; about 10 s at most). A "
            "failed test answers 400 with error `test_failed` and the cause in `detail`, and "
            "changes nothing. `insist: true` makes it active without the test."
        ),
        request=ActivateSerializer,
        responses=AIServiceSerializer,
    )
    @action(detail=True, methods=["post"])
    def activate(self, request, pk=None):
        service = self.get_object()
        given = ActivateSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        insist = given.validated_data["insist"]
        service = services.ai_service_activate(
            user=request.user,
            service_id=service.pk,
            tested=None if insist else llm.test_service(service, request.user),
            insist=insist,
        )
        return Response(self.get_serializer(service).data)

    @extend_schema(
        summary="Use the built-in offline model (no active AI service)",
        request=None,
        responses={204: OpenApiResponse(description="No service is active now.")},
    )
    @action(detail=False, methods=["post"])
    def deactivate(self, request):
        services.ai_service_deactivate(user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
