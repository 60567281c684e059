"""Writes of the sparky app: user preferences and the user's AI services.

An API key is encrypted (sparky.crypto) before it reaches the model and is decrypted only by
`ai_service_api_key`, for the LLM gateway. No message, log line or repr built here contains it.
"""

import uuid
from urllib.parse import urlsplit

from cryptography.fernet import Fernet, InvalidToken
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import connection, transaction

from sparky.crypto import decrypt_secret, encrypt_secret, rotate_secret
from sparky.models import AIServiceSettings, User, UserPreferences, validate_time_zone

# Slugs of the chat tool selector (chat.tools uses the same ones); [] means automatic selection.
CHAT_CATEGORIES = (
    "food",
    "exercise",
    "checkin",
    "goals",
    "coaching",
    "vision",
    "profile",
    "reports",
)
DATE_FORMATS = ("yyyy-MM-dd", "MM/dd/yyyy", "dd/MM/yyyy", "dd.MM.yyyy", "dd-MM-yyyy")
MAX_PROMPT_CHARS = 4000
MAX_NOTES_CHARS = 1000

# Provider aliases that always name the provider's current model, so a user can paste only a key.
# Other providers have no such alias (or, like Ollama, serve whatever the user pulled).
DEFAULT_MODELS = {
    AIServiceSettings.ServiceType.MISTRAL: "mistral-small-latest",
    AIServiceSettings.ServiceType.GOOGLE: "gemini-flash-latest",
}
DEFAULT_URLS = {AIServiceSettings.ServiceType.OLLAMA: "http://127.0.0.1:11434"}
# Local and self-hosted servers usually take no key; the cloud providers always want one.
KEYLESS_TYPES = {AIServiceSettings.ServiceType.OLLAMA, AIServiceSettings.ServiceType.CUSTOM}
MAX_API_KEY_CHARS = 4096
MAX_URL_CHARS = 2048

_PREFERENCE_FIELDS = {
    "date_format",
    "default_weight_unit",
    "default_measurement_unit",
    "auto_clear_history",
    "system_prompt",
    "chat_categories",
    "dietary_notes",
    "time_zone",
}
_SERVICE_FIELDS = {
    "service_name",
    "service_type",
    "api_key",
    "model_name",
    "custom_url",
    "system_prompt",
    "tool_profile",
    "supports_tools",
    "is_active",
}


# --- accounts --------------------------------------------------------------------------------


@transaction.atomic
def account_create(*, email: str, password: str) -> User:
    """A new account. The first account of an instance is its owner: staff and superuser, so the
    person who installed Sparky can curate the catalog in the admin and use a local AI server
    (Ollama on this machine) without further setup."""
    with connection.cursor() as cursor:  # two first sign-ups at once: only one becomes owner
        cursor.execute("SELECT pg_advisory_xact_lock(hashtext('sparky:first-account'))")
    owner = not User.objects.exists()
    return User.objects.create_user(
        email=email, password=password, is_staff=owner, is_superuser=owner
    )


# --- preferences -----------------------------------------------------------------------------


def storable_text(value: str, *, field: str) -> str:
    """`value` unchanged, unless it holds what Postgres text cannot store (NUL) or UTF-8 cannot
    encode (lone surrogates): those would fail at the database instead of as a clear message."""
    if "\x00" in value or any("\ud800" <= ch <= "\udfff" for ch in value):
        raise ValidationError(
            f"{field} contains characters that cannot be stored; remove control characters.",
            code="invalid_characters",
        )
    return value


def preferences_for(user: User) -> UserPreferences:
    """The user's preferences, created with the spec's defaults on first use."""
    prefs, _ = UserPreferences.objects.get_or_create(user=user)
    return prefs


def _choice(value, choices, *, field: str, expected: str) -> str:
    text = str(value).strip() if value is not None else ""
    for choice in choices:
        if text.lower() == str(choice).lower():
            return str(choice)
    raise ValidationError(
        f"{field} {value!r} is not allowed; use {expected}.", code="invalid_choice"
    )


def _optional_text(value, *, field: str, limit: int) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise ValidationError(f"{field} must be text.", code="invalid")
    value = storable_text(value.strip(), field=field)
    if len(value) > limit:
        raise ValidationError(
            f"{field} is {len(value)} characters long; keep it under {limit}.", code="too_long"
        )
    return value or None


def _chat_categories(value) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        value = [part for part in value.replace(",", " ").split() if part]
    if not isinstance(value, list | tuple):
        raise ValidationError(
            "chat_categories must be a list of category names.", code="invalid_categories"
        )
    cleaned: list[str] = []
    for item in value:
        slug = str(item).strip().lower()
        if slug not in CHAT_CATEGORIES:
            raise ValidationError(
                f"{item!r} is not a chat category; use any of {', '.join(CHAT_CATEGORIES)} "
                "(an empty list means automatic).",
                code="invalid_categories",
            )
        if slug not in cleaned:
            cleaned.append(slug)
    return cleaned


@transaction.atomic
def preferences_update(*, user: User, **fields) -> UserPreferences:
    """Change the given preferences; unknown names and bad values raise, nothing is written.

    time_zone is stored on User.time_zone (the one place dates are computed from). Changing a
    default unit converts the stored check-ins, which are always kept in the preferred units.
    """
    from measurements.units import parse_length_unit, parse_weight_unit

    unknown = sorted(set(fields) - _PREFERENCE_FIELDS)
    if unknown:
        raise ValidationError(
            f"Unknown preference {', '.join(unknown)}; known ones are "
            f"{', '.join(sorted(_PREFERENCE_FIELDS))}.",
            code="unknown_field",
        )
    prefs = UserPreferences.objects.select_for_update().filter(pk=preferences_for(user).pk).get()
    old_weight_unit, old_length_unit = prefs.default_weight_unit, prefs.default_measurement_unit
    new_time_zone = None

    for name, value in fields.items():
        if name == "date_format":
            prefs.date_format = _choice(
                value, DATE_FORMATS, field="date_format", expected=", ".join(DATE_FORMATS)
            )
        elif name == "default_weight_unit":
            try:
                prefs.default_weight_unit = parse_weight_unit(value, default="")
            except ValidationError:
                raise ValidationError(
                    f"default_weight_unit {value!r} is not allowed; use kg or lb.",
                    code="invalid_choice",
                ) from None
            if not prefs.default_weight_unit:
                raise ValidationError("default_weight_unit needs kg or lb.", code="invalid_choice")
        elif name == "default_measurement_unit":
            try:
                prefs.default_measurement_unit = parse_length_unit(value, default="")
            except ValidationError:
                raise ValidationError(
                    f"default_measurement_unit {value!r} is not allowed; use cm or inches.",
                    code="invalid_choice",
                ) from None
            if not prefs.default_measurement_unit:
                raise ValidationError(
                    "default_measurement_unit needs cm or inches.", code="invalid_choice"
                )
        elif name == "auto_clear_history":
            prefs.auto_clear_history = _choice(
                "never" if value is None else value,
                UserPreferences.AutoClear.values,
                field="auto_clear_history",
                expected="never, session, 7days or 30days",
            )
        elif name == "system_prompt":
            prefs.system_prompt = _optional_text(
                value, field="system_prompt", limit=MAX_PROMPT_CHARS
            )
        elif name == "dietary_notes":
            prefs.dietary_notes = (
                _optional_text(value, field="dietary_notes", limit=MAX_NOTES_CHARS) or ""
            )
        elif name == "chat_categories":
            prefs.chat_categories = _chat_categories(value)
        elif name == "time_zone":
            new_time_zone = str(value or "").strip()
            try:
                validate_time_zone(new_time_zone)
            except ValidationError:
                raise ValidationError(
                    f"Unknown time zone {value!r}; use an IANA name such as Europe/Berlin.",
                    code="invalid_time_zone",
                ) from None

    prefs.full_clean()
    prefs.save()
    if new_time_zone is not None and new_time_zone != user.time_zone:
        user.time_zone = new_time_zone
        user.save(update_fields=["time_zone"])
    if (old_weight_unit, old_length_unit) != (
        prefs.default_weight_unit,
        prefs.default_measurement_unit,
    ):
        from measurements.services import checkins_convert_units

        checkins_convert_units(
            user=user,
            weight_from=old_weight_unit,
            weight_to=prefs.default_weight_unit,
            length_from=old_length_unit,
            length_to=prefs.default_measurement_unit,
        )
    return prefs


# --- AI services -----------------------------------------------------------------------------


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
                "An OpenAI-compatible service needs its base URL, e.g. https://host/v1.",
                code="url_required",
            )
        return DEFAULT_URLS.get(service_type)
    if len(text) > MAX_URL_CHARS or any(ch.isspace() for ch in text):
        raise ValidationError("custom_url must be a single URL without spaces.", code="invalid_url")
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValidationError(
            "custom_url must start with http:// or https:// and name a host.", code="invalid_url"
        )
    # Never echo the URL back: it may be exactly the credential-bearing string we refuse.
    if parts.username is not None or parts.password is not None:
        raise ValidationError(
            "custom_url must not contain a user name or password; put the key in the API key "
            "field.",
            code="invalid_url",
        )
    try:
        parts.port  # noqa: B018  (raises ValueError on a malformed port)
    except ValueError:
        raise ValidationError("custom_url has an invalid port.", code="invalid_url") from None
    if parts.fragment:
        raise ValidationError("custom_url must not contain a #fragment.", code="invalid_url")
    return text.rstrip("/")


def _check_reachable(service: AIServiceSettings) -> None:
    """Refuse at save time a URL the coach would refuse at turn time (private, metadata...).

    A name that does not resolve right now is saved anyway: DNS may be down for a moment, and the
    turn-time check, which connects only to the address it resolved, still applies.
    """
    if not service.custom_url:
        return
    from chat import netguard  # the network policy lives with the LLM gateway

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
    service_type = _choice(
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
    model_name = _optional_text(values.get("model_name"), field="model_name", limit=255)
    if not model_name:
        model_name = DEFAULT_MODELS.get(service_type)
        if not model_name:
            raise ValidationError(
                f"A {service_type} service needs a model name (e.g. the model id the provider "
                "lists).",
                code="model_required",
            )
    tool_profile = _choice(
        values.get("tool_profile") or "full",
        AIServiceSettings.ToolProfile.values,
        field="tool_profile",
        expected="full or core",
    )
    for flag in ("supports_tools", "is_active"):
        if not isinstance(values.get(flag), bool):
            raise ValidationError(f"{flag} must be true or false.", code="invalid")

    if new_key:
        service.api_key = encrypt_secret(new_key)
    if not service.api_key and service_type not in KEYLESS_TYPES:
        raise ValidationError(
            f"A {service_type} service needs an API key.", code="api_key_required"
        )
    service.service_type = service_type
    service.service_name = name
    service.model_name = model_name
    service.custom_url = _clean_url(values.get("custom_url"), service_type)
    _check_reachable(service)
    service.system_prompt = _optional_text(
        values.get("system_prompt"), field="system_prompt", limit=MAX_PROMPT_CHARS
    )
    service.tool_profile = tool_profile
    service.supports_tools = values["supports_tools"]
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
    is_active: bool = True,
) -> AIServiceSettings:
    """A new AI service for the user; when active (the default) it replaces the active one."""
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


@transaction.atomic
def ai_service_activate(*, user: User, service_id) -> AIServiceSettings:
    """Make this service the user's only active one."""
    _lock_user(user)
    service = _service_for(user, service_id)
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
