"""Writes of the user's AI services: add, change, activate, delete, and re-encrypting their keys.

An API key is encrypted (sparky.crypto) before it reaches the model and is decrypted only by
`ai_service_api_key`, for the LLM gateway. No message, log line or repr built here contains it.

A service is saved inactive. It becomes the one the coach uses through `ai_service_activate`,
given a passing connection test (aiservices.llm.test_service, which the caller runs: the gateway
builds on this module), or when the user insists. Creating or updating with is_active=True is
that insisting, said up front.
"""

from __future__ import annotations

import uuid
from urllib.parse import urlsplit

from cryptography.fernet import Fernet, InvalidToken
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction

from aiservices.models import AIServiceSettings
from sparky import netguard
from sparky.crypto import decrypt_secret, encrypt_secret, rotate_secret
from sparky.models import User
from sparky.services import MAX_PROMPT_CHARS, clean_choice, optional_text, storable_text

# Provider aliases that always name the provider's current model, so a user can paste only a key.
# Other providers have no such alias (or, like Ollama, serve whatever the user pulled).
DEFAULT_MODELS = {
    AIServiceSettings.ServiceType.MISTRAL: "mistral-small-latest",
    AIServiceSettings.ServiceType.GOOGLE: "gemini-flash-latest",
}


DEFAULT_URLS = {AIServiceSettings.ServiceType.OLLAMA: "http://127.0.0.1:11434"}

# A model id each provider lists, for the message that asks for one.
EXAMPLE_MODELS = {
    AIServiceSettings.ServiceType.OPENAI: "gpt-4o-mini",
    AIServiceSettings.ServiceType.ANTHROPIC: "claude-haiku-4-5",
    AIServiceSettings.ServiceType.OLLAMA: "llama3.2",
    AIServiceSettings.ServiceType.OPENROUTER: "openai/gpt-4o-mini",
    AIServiceSettings.ServiceType.GROQ: "llama-3.1-8b-instant",
}


def provider_label(service_type: str) -> str:
    """'OpenAI', 'Google Gemini', 'your OpenAI-compatible server'... for messages."""
    if service_type == AIServiceSettings.ServiceType.CUSTOM:
        return "An OpenAI-compatible server"
    return dict(AIServiceSettings.ServiceType.choices).get(service_type, service_type)


# Local and self-hosted servers usually take no key; the cloud providers always want one.
KEYLESS_TYPES = {AIServiceSettings.ServiceType.OLLAMA, AIServiceSettings.ServiceType.CUSTOM}


MAX_API_KEY_CHARS = 4096


MAX_URL_CHARS = 2048


_SERVICE_FIELDS = {
    "service_name",
    "service_type",
    "api_key",
    "model_name",
    "custom_url",
    "system_prompt",
    "tool_profile",
    "supports_tools",
    "sparky_reads_first",
    "is_active",
}


def _service_for(user: User, service_id) -> AIServiceSettings:
    """The user's own service, else AIServiceSettings.DoesNotExist (also for malformed ids)."""
    try:
        pk = service_id if isinstance(service_id, uuid.UUID) else uuid.UUID(str(service_id))
    except ValueError:
        raise AIServiceSettings.DoesNotExist("No such AI service.") from None
    return AIServiceSettings.objects.for_user(user).select_for_update().get(pk=pk)


def _lock_user(user: User) -> None:
    # Every change of which service is active takes this row lock, so two concurrent
    # activations cannot leave two services active.
    User.objects.select_for_update().filter(pk=user.pk).first()


def _clean_url(value, service_type: str) -> str | None:
    if value is not None and not isinstance(value, str):
        raise ValidationError("custom_url must be text.", code="invalid_url")
    text = storable_text((value or "").strip(), field="custom_url")
    if not text:
        if service_type == AIServiceSettings.ServiceType.CUSTOM:
            raise ValidationError(
                "An OpenAI-compatible server needs its address, e.g. http://192.168.1.20:8080/v1.",
                code="url_required",
            )
        return DEFAULT_URLS.get(service_type)
    if len(text) > MAX_URL_CHARS or any(ch.isspace() for ch in text):
        raise ValidationError(
            "The server URL must be a single address without spaces.", code="invalid_url"
        )
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValidationError(
            "The server URL must start with http:// or https:// and name a host, e.g. "
            "http://127.0.0.1:11434.",
            code="invalid_url",
        )
    # Never echo the URL back: it may be exactly the credential-bearing string we refuse.
    if parts.username is not None or parts.password is not None:
        raise ValidationError(
            "The server URL must not contain a user name or password; put the key in the API "
            "key field.",
            code="invalid_url",
        )
    try:
        parts.port  # noqa: B018  (raises ValueError on a malformed port)
    except ValueError:
        raise ValidationError(
            "The server URL has a port that is not a number from 1 to 65535.", code="invalid_url"
        ) from None
    if parts.fragment:
        raise ValidationError(
            "The server URL must not end in a #fragment; remove it.", code="invalid_url"
        )
    return text.rstrip("/")


def _check_reachable(service: AIServiceSettings) -> None:
    """Refuse at save time a URL the coach would refuse at turn time (private, metadata...).

    A name that does not resolve right now is saved anyway: DNS may be down for a moment, and the
    turn-time check, which connects only to the address it resolved, still applies.
    """
    if not service.custom_url:
        return

    try:
        netguard.check_url(service.custom_url, allow_private=netguard.private_allowed(service.user))
    except netguard.UnresolvableHost:
        return
    except netguard.BlockedURL as exc:
        message = str(exc)
        raise ValidationError(message[:1].upper() + message[1:], code="blocked_url") from None


def _clean_key(value) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise ValidationError("The API key must be text.", code="invalid_api_key")
    key = value.strip()
    if len(key) > MAX_API_KEY_CHARS or any(ch.isspace() for ch in key):
        raise ValidationError(
            "The API key looks malformed (it contains spaces or is far too long); paste it again.",
            code="invalid_api_key",
        )
    return key


def _apply(service: AIServiceSettings, values: dict, *, new_key: str) -> None:
    """Validate the combined state of a service and put it on the instance."""
    service_type = clean_choice(
        values["service_type"],
        AIServiceSettings.ServiceType.values,
        field="service_type",
        expected=", ".join(AIServiceSettings.ServiceType.values),
    )
    name = values.get("service_name")
    name = storable_text(name.strip(), field="service_name") if isinstance(name, str) else ""
    if not name:
        raise ValidationError(
            "Give the service a name, e.g. 'My OpenAI'.", code="service_name_required"
        )
    if len(name) > 255:
        raise ValidationError("The service name must be under 255 characters.", code="too_long")
    model_name = optional_text(values.get("model_name"), field="model_name", limit=255)
    if not model_name:
        model_name = DEFAULT_MODELS.get(service_type)
        if not model_name:
            example = EXAMPLE_MODELS.get(service_type)
            listed = f", e.g. {example}" if example else ""
            raise ValidationError(
                f"{provider_label(service_type)} needs a model name: the model id it lists"
                f"{listed}.",
                code="model_required",
            )
    tool_profile = clean_choice(
        values.get("tool_profile") or "full",
        AIServiceSettings.ToolProfile.values,
        field="tool_profile",
        expected="full or core",
    )
    if values.get("sparky_reads_first") is None:  # small models do better with it (bench/RESULTS)
        values["sparky_reads_first"] = tool_profile == "core"
    for flag in ("supports_tools", "sparky_reads_first", "is_active"):
        if not isinstance(values.get(flag), bool):
            raise ValidationError(f"{flag} must be true or false.", code="invalid")

    if new_key:
        service.api_key = encrypt_secret(new_key)
    if not service.api_key and service_type not in KEYLESS_TYPES:
        label = provider_label(service_type)
        raise ValidationError(
            f"{label} needs an API key: create one in your {label} account and paste it here.",
            code="api_key_required",
        )
    service.service_type = service_type
    service.service_name = name
    service.model_name = model_name
    service.custom_url = _clean_url(values.get("custom_url"), service_type)
    _check_reachable(service)
    service.system_prompt = optional_text(
        values.get("system_prompt"), field="system_prompt", limit=MAX_PROMPT_CHARS
    )
    service.tool_profile = tool_profile
    service.supports_tools = values["supports_tools"]
    service.sparky_reads_first = values["sparky_reads_first"]
    service.is_active = values["is_active"]
    # api_key is ciphertext validated above, and "" for keyless local servers (the column is
    # NOT NULL, so "" rather than NULL means "no key").
    service.full_clean(exclude=["user", "api_key"])


@transaction.atomic
def ai_service_create(
    *,
    user: User,
    service_name: str,
    service_type: str,
    api_key: str,
    model_name: str | None = None,
    custom_url: str | None = None,
    system_prompt: str | None = None,
    tool_profile: str = "full",
    supports_tools: bool = True,
    sparky_reads_first: bool | None = None,
    is_active: bool = False,
) -> AIServiceSettings:
    """A new AI service for the user, saved inactive: `ai_service_activate` tests it and makes it
    the one in use. is_active=True makes it active at once, untested (the user insists)."""
    _lock_user(user)
    service = AIServiceSettings(user=user, api_key="")
    _apply(
        service,
        {
            "service_name": service_name,
            "service_type": service_type,
            "model_name": model_name,
            "custom_url": custom_url,
            "system_prompt": system_prompt,
            "tool_profile": tool_profile,
            "supports_tools": supports_tools,
            "sparky_reads_first": sparky_reads_first,
            "is_active": is_active,
        },
        new_key=_clean_key(api_key),
    )
    if service.is_active:
        AIServiceSettings.objects.for_user(user).active().update(is_active=False)
    service.save()
    return service


@transaction.atomic
def ai_service_update(*, user: User, service_id, **fields) -> AIServiceSettings:
    """Change the given fields of the user's service.

    api_key changes only when a non-empty new key is given: the settings form never shows the
    stored key, so a blank field means "keep it".
    """
    unknown = sorted(set(fields) - _SERVICE_FIELDS)
    if unknown:
        raise ValidationError(
            f"Unknown AI service field {', '.join(unknown)}.", code="unknown_field"
        )
    _lock_user(user)
    service = _service_for(user, service_id)
    values = {name: getattr(service, name) for name in _SERVICE_FIELDS - {"api_key"}}
    values.update({k: v for k, v in fields.items() if k != "api_key"})
    _apply(service, values, new_key=_clean_key(fields.get("api_key")))
    if service.is_active:
        AIServiceSettings.objects.for_user(user).active().exclude(pk=service.pk).update(
            is_active=False
        )
    service.save()
    return service


class ServiceTestFailed(ValidationError):
    """The service was not made active: its connection test failed (or none was run).
    `result` says why."""

    def __init__(self, result):
        message = result.message if result is not None else "Test the connection first."
        super().__init__(message, code="test_failed")
        self.result = result


@transaction.atomic
def ai_service_activate(
    *, user: User, service_id, tested=None, insist: bool = False
) -> AIServiceSettings:
    """Make this service the user's only active one, once it passed a connection test, or at
    once when the user insists.

    `tested` is the service's aiservices.llm.test_service result; the caller runs it before this
    transaction, since it waits on the network for up to SPARKY_AI_TEST_SECONDS. Without a
    passing one (and without insisting) this raises ServiceTestFailed and changes nothing: the
    coach goes on with the service it had, or the offline parser.
    """
    _lock_user(user)
    service = _service_for(user, service_id)  # someone else's service: DoesNotExist first
    if not insist and not getattr(tested, "ok", False):
        raise ServiceTestFailed(tested)
    AIServiceSettings.objects.for_user(user).active().exclude(pk=service.pk).update(is_active=False)
    if not service.is_active:
        service.is_active = True
        service.save(update_fields=["is_active", "updated_at"])
    return service


@transaction.atomic
def ai_service_deactivate(*, user: User) -> None:
    """No active service: the coach falls back to the built-in offline model."""
    _lock_user(user)
    AIServiceSettings.objects.for_user(user).active().update(is_active=False)


@transaction.atomic
def ai_service_delete(*, user: User, service_id) -> None:
    """Delete the user's service (the key goes with it). No other service is activated."""
    _lock_user(user)
    _service_for(user, service_id).delete()


def active_ai_service(user: User) -> AIServiceSettings | None:
    return AIServiceSettings.objects.for_user(user).active().order_by("-updated_at").first()


def ai_service_api_key(service: AIServiceSettings) -> str:
    """The plain API key, for the LLM gateway only ("" when the service has none).

    Raises sparky.crypto.SecretError if the key it was encrypted with is no longer configured.
    """
    return decrypt_secret(service.api_key)


@transaction.atomic
def ai_service_rotate_keys() -> dict[str, int]:
    """Re-encrypt every stored API key under the newest SPARKY_ENCRYPTION_KEYS key.

    Keys already under the newest key are left as they are, so running it twice changes
    nothing the second time. Returns counts: rotated, current, failed (undecryptable).
    """
    keys = list(settings.SPARKY_ENCRYPTION_KEYS)
    newest = Fernet(keys[0].encode()) if keys else None
    counts = {"rotated": 0, "current": 0, "failed": 0}
    services = AIServiceSettings.objects.exclude(api_key="").select_for_update().order_by("pk")
    for service in services:
        if newest is None:
            # No configured keys: everything is under the one key derived from SECRET_KEY.
            counts["current"] += 1
            continue
        try:
            newest.decrypt(service.api_key.encode())
        except InvalidToken:
            pass
        else:
            counts["current"] += 1
            continue
        try:
            service.api_key = rotate_secret(service.api_key)
        except InvalidToken:
            counts["failed"] += 1
            continue
        service.save(update_fields=["api_key", "updated_at"])
        counts["rotated"] += 1
    return counts
