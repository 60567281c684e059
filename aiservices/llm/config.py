"""From a user's AI service settings to the configuration of a call.

`config_for(service, user)` turns an AIServiceSettings row into an `LLMConfig` (provider route,
decrypted key, checked and pinned URL); `plain_problem` says what went wrong with the service in
one sentence for a chat reply.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from django.conf import settings

from aiservices import services as ai_services
from aiservices.llm import errors
from sparky import netguard
from sparky.crypto import SecretError


@dataclass(frozen=True)
class _Provider:
    label: str
    prefix: str  # litellm route
    strip_prefixes: tuple[str, ...] = ()  # our route prefix, when the user typed it in the name


_PROVIDERS: dict[str, _Provider] = {
    "openai": _Provider("OpenAI", "openai", ("openai/",)),
    "anthropic": _Provider("Anthropic", "anthropic", ("anthropic/",)),
    "google": _Provider("Google Gemini", "gemini", ("gemini/",)),
    "ollama": _Provider("Ollama", "ollama_chat", ("ollama_chat/", "ollama/")),
    # OpenRouter model names carry their own vendor ("openai/gpt-4o"); only ours is stripped.
    "openrouter": _Provider("OpenRouter", "openrouter", ("openrouter/",)),
    "mistral": _Provider("Mistral", "mistral", ("mistral/",)),
    "groq": _Provider("Groq", "groq", ("groq/",)),
    # Any OpenAI-compatible server (vLLM, LM Studio, llama.cpp...): model names are its own.
    "custom": _Provider("OpenAI-compatible server", "openai"),
}


@dataclass(frozen=True)
class LLMConfig:
    """Everything a call needs. The key never appears in repr() or str()."""

    service_type: str
    model: str  # the litellm model string, route included ("anthropic/claude-haiku-4-5")
    api_key: str = field(repr=False)
    api_base: str | None = None  # as handed to litellm (the pinned address when guarded)
    timeout: float = 60.0
    supports_cache_control: bool = False
    tool_profile: str = "full"
    supports_tools: bool = True
    target: netguard.ResolvedTarget | None = None  # set when the URL went through the guard
    label: str = ""  # "Anthropic", "Ollama"... for messages
    name: str = ""  # the service as the user named it ("My Ollama"), for chat replies

    def __repr__(self) -> str:
        key = "'***'" if self.api_key else "''"
        return (
            f"LLMConfig(service_type={self.service_type!r}, model={self.model!r}, "
            f"api_key={key}, api_base={self.api_base!r}, timeout={self.timeout!r}, "
            f"supports_cache_control={self.supports_cache_control!r}, "
            f"tool_profile={self.tool_profile!r}, supports_tools={self.supports_tools!r})"
        )

    __str__ = __repr__

    @property
    def constrains_json(self) -> bool:
        """Whether the server can hold a reply to a JSON schema (llama.cpp, Ollama, vLLM...)."""
        return self.service_type in ("custom", "ollama")

    @property
    def provider(self) -> str:
        return self.model.split("/", 1)[0]

    @property
    def model_name(self) -> str:
        return self.model.split("/", 1)[1]

    @property
    def description(self) -> str:
        return f"{self.label or self.service_type} ({self.model_name})"

    @property
    def local(self) -> bool:
        """A server of the user's own (Ollama, llama.cpp...): a cold start on a small machine
        takes minutes, so it gets the long time limits."""
        return self.service_type in ("custom", "ollama")

    @property
    def spoken_name(self) -> str:
        """The service as a chat reply names it: as the user named it, never a model file."""
        name = " ".join((self.name or "").split())
        return f"your AI service \u201c{name}\u201d" if name else "your AI service"


def config_for(service, user, *, allow_private: bool | None = None) -> LLMConfig:
    """Build the call configuration for `service` (an AIServiceSettings row of `user`).

    Raises LLMConfigError (or LLMBlockedURL) with a message for the settings page. The service
    URL, when there is one, is checked and resolved here, once; every call made with the
    returned config connects to that address.
    """
    if service.user_id != user.pk:
        raise errors.LLMConfigError("This AI service belongs to another user.")
    provider = _PROVIDERS.get(service.service_type)
    if provider is None:
        raise errors.LLMConfigError(f"Unknown AI service type {service.service_type!r}.")

    service_type = service.service_type
    model_name = (service.model_name or "").strip()
    for prefix in provider.strip_prefixes:
        if model_name.startswith(prefix):
            model_name = model_name[len(prefix) :]
    model_name = model_name or ai_services.DEFAULT_MODELS.get(service_type, "")
    if not model_name:
        raise errors.LLMConfigError(f"Set a model name for {service.service_name} in settings.")

    try:
        api_key = ai_services.ai_service_api_key(service)
    except SecretError:
        raise errors.LLMConfigError(
            f"The API key of {service.service_name} cannot be read any more; enter it again."
        ) from None
    url = (service.custom_url or "").strip() or ai_services.DEFAULT_URLS.get(service_type)
    if url and service_type == "anthropic":
        # litellm appends /v1/messages itself; a base that already ends in /v1 would double it.
        url = re.sub(r"/v1/?$", "", url.rstrip("/"))
    if service_type == "custom" and not url:
        raise errors.LLMConfigError(f"Set the URL of the server for {service.service_name}.")
    # A cloud service without a key would make litellm reach for the server's own env keys.
    if not api_key and service_type not in ai_services.KEYLESS_TYPES:
        raise errors.LLMConfigError(f"{service.service_name} has no API key; add one in settings.")

    target = None
    api_base = None
    if url:
        allowed = netguard.private_allowed(user) if allow_private is None else allow_private
        try:
            target = netguard.check_url(url, allow_private=allowed)
        except netguard.UnresolvableHost as exc:
            raise errors.LLMUnresolvable(str(exc)) from None
        except netguard.BlockedURL as exc:
            raise errors.LLMBlockedURL(str(exc)) from None
        api_base = target.pinned_url

    return LLMConfig(
        service_type=service_type,
        model=f"{provider.prefix}/{model_name}",
        api_key=api_key,
        api_base=api_base,
        timeout=float(
            settings.SPARKY_LOCAL_LLM_TIMEOUT
            if service_type in ("custom", "ollama")
            else settings.SPARKY_LLM_TIMEOUT
        ),
        supports_cache_control=service_type == "anthropic",
        tool_profile=service.tool_profile,
        supports_tools=service.supports_tools,
        target=target,
        label=provider.label,
        name=service.service_name or "",
    )


def plain_problem(exc: errors.LLMError, config: LLMConfig) -> str:
    """What went wrong with the AI service, in one plain sentence for a chat reply: the service
    as the user named it, never a server's model file, an address or an exception's text."""
    who = config.spoken_name
    if isinstance(exc, errors.LLMTimeout):
        what = "didn't answer in time"
    elif isinstance(exc, errors.LLMRateLimited):
        what = "is busy right now (it asked Sparky to slow down)"
    elif isinstance(exc, errors.LLMAuthError):
        what = "refused its API key"
    elif isinstance(exc, errors.LLMUnavailable) and (exc.status or 0) >= 500:
        what = "had a server error"
    elif isinstance(exc, errors.LLMUnavailable):
        what = "couldn't be reached"
    elif isinstance(exc, errors.LLMConfigError):
        what = f"needs attention ({exc})"
    elif isinstance(exc, errors.LLMBadResponse) and 300 <= (exc.status or 0) < 400:
        what = "answered with a redirect, which Sparky does not follow (set its final address)"
    elif isinstance(exc, errors.LLMBadResponse):
        what = "sent a reply Sparky couldn't read"
    else:
        what = "failed"
    return f"{who[0].upper()}{who[1:]} {what}"
