"""The LLM gateway: from a user's AI service settings to one litellm call, and back.

`config_for(service, user)` turns an AIServiceSettings row into an `LLMConfig` (provider route,
decrypted key, checked and pinned URL). `complete(config, messages=...)` makes the call and
returns an `LLMResult`, or raises one of the `LLMError` classes below with a message a user can
read and no secret in it. Retries are ours, not litellm's, so they are few and predictable:
a 429 is retried only when the provider says when (Retry-After), at most twice and for at most
five seconds of waiting in all; a 5xx is retried once.

litellm is imported on first use only: it takes seconds to import.
"""

from __future__ import annotations

import concurrent.futures
import email.utils
import functools
import json
import logging
import os
import re
import socket
import time
import urllib.parse
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, NamedTuple

from django.conf import settings

from chat import services as chat_services
from sparky import netguard
from sparky.crypto import SecretError

logger = logging.getLogger(__name__)

MAX_RATE_LIMIT_RETRIES = 2
MAX_RETRY_WAIT = 5.0  # seconds of Retry-After we are willing to sit through in one call
SERVER_ERROR_BACKOFF = 0.5  # seconds before the single retry of a 5xx without Retry-After
_NO_KEY = "no-key"  # sent to keyless local servers so litellm never falls back to env keys


# Errors ----------------------------------------------------------------------------------------
class LLMError(Exception):
    """A model call failed; str(error) is safe to show the user and to log."""

    def __init__(self, message: str, *, status: int | None = None):
        super().__init__(message)
        self.message = message
        self.status = status


class LLMConfigError(LLMError):
    """The AI service settings cannot be used as they are (no model, no key, bad URL)."""


class LLMBlockedURL(LLMConfigError):
    """The service URL points at an address Sparky refuses to connect to."""


class LLMUnresolvable(LLMBlockedURL):
    """The service URL's host name does not resolve (now): a typo, or no network."""


class LLMTimeout(LLMError):
    pass


class LLMRateLimited(LLMError):
    def __init__(self, message: str, *, status: int | None = 429, retry_after: float | None):
        super().__init__(message, status=status)
        self.retry_after = retry_after


class LLMUnavailable(LLMError):
    """The service could not be reached or answered with a server error."""

    def __init__(self, message: str, *, status: int | None = None, retry_after=None):
        super().__init__(message, status=status)
        self.retry_after = retry_after


class LLMBadResponse(LLMError):
    """The service answered, but not with anything usable (garbage, empty, a redirect)."""


class LLMAuthError(LLMError):
    pass


# Configuration ---------------------------------------------------------------------------------
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
        raise LLMConfigError("This AI service belongs to another user.")
    provider = _PROVIDERS.get(service.service_type)
    if provider is None:
        raise LLMConfigError(f"Unknown AI service type {service.service_type!r}.")

    service_type = service.service_type
    model_name = (service.model_name or "").strip()
    for prefix in provider.strip_prefixes:
        if model_name.startswith(prefix):
            model_name = model_name[len(prefix) :]
    model_name = model_name or chat_services.DEFAULT_MODELS.get(service_type, "")
    if not model_name:
        raise LLMConfigError(f"Set a model name for {service.service_name} in settings.")

    try:
        api_key = chat_services.ai_service_api_key(service)
    except SecretError:
        raise LLMConfigError(
            f"The API key of {service.service_name} cannot be read any more; enter it again."
        ) from None
    url = (service.custom_url or "").strip() or chat_services.DEFAULT_URLS.get(service_type)
    if url and service_type == "anthropic":
        # litellm appends /v1/messages itself; a base that already ends in /v1 would double it.
        url = re.sub(r"/v1/?$", "", url.rstrip("/"))
    if service_type == "custom" and not url:
        raise LLMConfigError(f"Set the URL of the server for {service.service_name}.")
    # A cloud service without a key would make litellm reach for the server's own env keys.
    if not api_key and service_type not in chat_services.KEYLESS_TYPES:
        raise LLMConfigError(f"{service.service_name} has no API key; add one in settings.")

    target = None
    api_base = None
    if url:
        allowed = netguard.private_allowed(user) if allow_private is None else allow_private
        try:
            target = netguard.check_url(url, allow_private=allowed)
        except netguard.UnresolvableHost as exc:
            raise LLMUnresolvable(str(exc)) from None
        except netguard.BlockedURL as exc:
            raise LLMBlockedURL(str(exc)) from None
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


def plain_problem(exc: LLMError, config: LLMConfig) -> str:
    """What went wrong with the AI service, in one plain sentence for a chat reply: the service
    as the user named it, never a server's model file, an address or an exception's text."""
    who = config.spoken_name
    if isinstance(exc, LLMTimeout):
        what = "didn't answer in time"
    elif isinstance(exc, LLMRateLimited):
        what = "is busy right now (it asked Sparky to slow down)"
    elif isinstance(exc, LLMAuthError):
        what = "refused its API key"
    elif isinstance(exc, LLMUnavailable) and (exc.status or 0) >= 500:
        what = "had a server error"
    elif isinstance(exc, LLMUnavailable):
        what = "couldn't be reached"
    elif isinstance(exc, LLMConfigError):
        what = f"needs attention ({exc})"
    elif isinstance(exc, LLMBadResponse) and 300 <= (exc.status or 0) < 400:
        what = "answered with a redirect, which Sparky does not follow (set its final address)"
    elif isinstance(exc, LLMBadResponse):
        what = "sent a reply Sparky couldn't read"
    else:
        what = "failed"
    return f"{who[0].upper()}{who[1:]} {what}"


# Results ---------------------------------------------------------------------------------------
class ToolCall(NamedTuple):
    id: str
    name: str
    arguments: str  # JSON text, as the model wrote it


@dataclass(frozen=True)
class Usage:
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cache_read_tokens: int = 0
    cache_creation_tokens: int = 0

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def as_dict(self) -> dict[str, int]:
        return {
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "cache_read_tokens": self.cache_read_tokens,
            "cache_creation_tokens": self.cache_creation_tokens,
        }


@dataclass(frozen=True)
class LLMResult:
    text: str
    tool_calls: list[ToolCall]
    usage: Usage
    finish_reason: str | None
    model: str | None

    def assistant_message(self) -> dict[str, Any]:
        """This reply as an OpenAI-format history message, for the next step of a loop."""
        message: dict[str, Any] = {"role": "assistant", "content": self.text or None}
        if self.tool_calls:
            message["tool_calls"] = [
                {
                    "id": c.id,
                    "type": "function",
                    "function": {"name": c.name, "arguments": c.arguments},
                }
                for c in self.tool_calls
            ]
        return message


# Reasoning -------------------------------------------------------------------------------------
# Reasoning models write their thinking before the answer (<think>...</think> and the like); a
# small model may also never close the tag. Only what follows is the answer.
REASONING_TAGS = ("think", "thinking", "reasoning", "reflection")
_REASONING = re.compile(
    rf"<({'|'.join(REASONING_TAGS)})>.*?(?:</\1>|\Z)", re.IGNORECASE | re.DOTALL
)


def strip_reasoning(text: str) -> str:
    """The answer without any reasoning block before or inside it."""
    if not text:
        return ""
    return _REASONING.sub("", text).strip()


# The call --------------------------------------------------------------------------------------
@functools.cache
def _litellm():
    # Same switches as config.settings, for scripts that use the gateway without Django setup.
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    os.environ.setdefault("LITELLM_OFFLINE_MODE", "true")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    import litellm

    litellm.suppress_debug_info = True
    litellm.drop_params = True  # a parameter the model lacks (temperature on o-series) is dropped
    return litellm


def complete(
    config: LLMConfig,
    *,
    messages: Sequence[Mapping[str, Any]],
    tools: Sequence[Mapping[str, Any]] | None = None,
    tool_choice: str | Mapping[str, Any] | None = None,
    max_tokens: int | None = None,
    temperature: float | None = None,
    timeout: float | None = None,
    allow_empty: bool = False,
    response_format: Mapping[str, Any] | None = None,
    retry: bool = True,
    on_text: Callable[[str], None] | None = None,
    on_call: Callable[[str, str], None] | None = None,
) -> LLMResult:
    """One model reply (text and/or tool calls), with the gateway's retry rules applied.

    A reply with neither text nor tool calls raises LLMBadResponse, unless `allow_empty`: an
    agent loop may accept a silent final step after its tools have done the work. `retry=False`
    makes exactly one attempt (the settings page's connection test, which has a time bound).
    With `on_text` the reply is streamed from the provider and each piece of its text is handed
    to `on_text` as it arrives (and, with `on_call`, each tool call as it is written: its name
    and its arguments so far); the result is the same whole reply as without them.
    """
    litellm = _litellm()
    timeout = float(timeout if timeout is not None else config.timeout)
    kwargs: dict[str, Any] = {
        "model": config.model,
        "messages": list(messages) if config.supports_cache_control else _strip_cache(messages),
        "api_key": config.api_key or _NO_KEY,
        "timeout": timeout,
        "num_retries": 0,  # retries are ours, below
        "max_retries": 0,
    }
    if config.api_base:
        kwargs["api_base"] = config.api_base
    if tools:
        kwargs["tools"] = list(tools) if config.supports_cache_control else _strip_cache(tools)
        if tool_choice is not None:
            kwargs["tool_choice"] = tool_choice
    if max_tokens is not None:
        kwargs["max_tokens"] = max_tokens
    if temperature is not None:
        kwargs["temperature"] = temperature
    if response_format is not None:
        kwargs["response_format"] = dict(response_format)
    if on_text is not None or on_call is not None:
        kwargs["stream"] = True
        kwargs["stream_options"] = {"include_usage": True}

    http_client = None
    if config.target is not None:
        http_client, kwargs["client"] = _pinned_litellm_client(config, timeout)
    attempts: list[LLMError] = []
    try:
        while True:
            try:
                response = litellm.completion(**kwargs)
                if kwargs.get("stream"):
                    response = _gathered(
                        litellm, response, kwargs["messages"], on_text=on_text, on_call=on_call
                    )
                return _result(response, config, allow_empty=allow_empty)
            except LLMError as error:
                _log_failure(config, error)
                raise
            except Exception as exc:
                error = _translate(exc, config, timeout)
            attempts.append(error)
            delay = _retry_delay(attempts) if retry else None
            if delay is None:
                _log_failure(config, error)
                raise error from None  # the provider exception may quote the request
            logger.info("Retrying %s in %.1f s after: %s", config.description, delay, error)
            time.sleep(delay)
    finally:
        if http_client is not None:
            http_client.close()


def _gathered(litellm, stream, messages, *, on_text=None, on_call=None):
    """A streamed reply read to its end, its text and calls handed on as they come, rebuilt
    whole."""
    chunks = []
    calls: dict[int, list[str]] = {}  # index -> [name, arguments so far]
    for chunk in stream:
        chunks.append(chunk)
        for choice in getattr(chunk, "choices", None) or []:
            delta = getattr(choice, "delta", None)
            piece = getattr(delta, "content", None)
            if on_text is not None and isinstance(piece, str) and piece:
                on_text(piece)
            for number, call in enumerate(getattr(delta, "tool_calls", None) or []):
                index = getattr(call, "index", None)
                written = calls.setdefault(number if index is None else index, ["", ""])
                function = getattr(call, "function", None)
                written[0] = getattr(function, "name", None) or written[0]
                written[1] += getattr(function, "arguments", None) or ""
                if on_call is not None and written[0]:
                    on_call(written[0], written[1])
    if not chunks:
        return None
    return litellm.stream_chunk_builder(chunks, messages=list(messages))


def _retry_delay(failures: list[LLMError]) -> float | None:
    """Seconds to wait before trying again after these failures, or None to give up.

    Only where the provider asks for it: a 429 that says when (Retry-After), up to
    MAX_RATE_LIMIT_RETRIES times within MAX_RETRY_WAIT seconds of waiting; a 5xx once.
    Timeouts, refused connections and 4xx are not retried: the turn has a time budget.
    """
    error = failures[-1]
    waited = sum(_planned_wait(f) for f in failures[:-1])
    if isinstance(error, LLMRateLimited):
        earlier = sum(isinstance(f, LLMRateLimited) for f in failures[:-1])
        if error.retry_after is None or earlier >= MAX_RATE_LIMIT_RETRIES:
            return None
        return error.retry_after if waited + error.retry_after <= MAX_RETRY_WAIT else None
    if isinstance(error, LLMUnavailable) and (error.status or 0) >= 500:
        if any(isinstance(f, LLMUnavailable) and (f.status or 0) >= 500 for f in failures[:-1]):
            return None
        return min(_planned_wait(error), max(0.0, MAX_RETRY_WAIT - waited))
    return None


def _planned_wait(error: LLMError) -> float:
    if isinstance(error, LLMRateLimited):
        return error.retry_after or 0.0
    if isinstance(error, LLMUnavailable):
        return SERVER_ERROR_BACKOFF if error.retry_after is None else error.retry_after
    return 0.0


def _pinned_litellm_client(config: LLMConfig, timeout: float):
    """(httpx client, what litellm's `client=` takes for this route) bound to the checked IP.

    litellm's OpenAI route takes an openai.OpenAI client (ours wraps the pinned httpx client);
    every other route used here (anthropic, ollama_chat, gemini, groq, mistral, openrouter) goes
    through litellm's HTTPHandler, which takes an httpx client as is.
    """
    http_client = netguard.pinned_client(config.target, timeout=timeout)
    if config.provider == "openai":
        import openai

        sdk = openai.OpenAI(
            api_key=config.api_key or _NO_KEY,
            base_url=config.api_base,
            http_client=http_client,
            max_retries=0,
            timeout=timeout,
        )
        return http_client, sdk
    from litellm.llms.custom_httpx.http_handler import HTTPHandler

    return http_client, HTTPHandler(client=http_client, timeout=timeout)


def _strip_cache(items: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Drop Anthropic cache_control markers for providers that may reject unknown fields."""
    cleaned = []
    for item in items:
        item = {k: v for k, v in item.items() if k != "cache_control"}
        content = item.get("content")
        if isinstance(content, list):
            item["content"] = [
                {k: v for k, v in block.items() if k != "cache_control"}
                if isinstance(block, Mapping)
                else block
                for block in content
            ]
        cleaned.append(item)
    return cleaned


def _result(response, config: LLMConfig, *, allow_empty: bool) -> LLMResult:
    choices = getattr(response, "choices", None) or []
    if not choices:
        raise LLMBadResponse(f"{config.description} sent a reply with no message in it.")
    choice = choices[0]
    message = getattr(choice, "message", None)
    text = _text_of(getattr(message, "content", None))
    calls = []
    for index, call in enumerate(getattr(message, "tool_calls", None) or []):
        function = getattr(call, "function", None)
        name = getattr(function, "name", None)
        if not name:
            continue
        arguments = getattr(function, "arguments", None)
        if not isinstance(arguments, str):
            arguments = json.dumps(arguments if arguments is not None else {})
        call_id = getattr(call, "id", None) or f"call_{index}_{uuid.uuid4().hex[:12]}"
        calls.append(ToolCall(call_id, name, arguments or "{}"))
    if not text.strip() and not calls and not allow_empty:
        raise LLMBadResponse(f"{config.description} sent an empty reply.")
    return LLMResult(
        text=text,
        tool_calls=calls,
        usage=_usage_of(getattr(response, "usage", None)),
        finish_reason=getattr(choice, "finish_reason", None),
        model=getattr(response, "model", None),
    )


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # content parts
        return "".join(p.get("text", "") for p in content if isinstance(p, Mapping))
    return ""


def _usage_of(usage: Any) -> Usage:
    if usage is None:
        return Usage()

    def number(obj: Any, name: str) -> int:
        value = getattr(obj, name, None) if obj is not None else None
        return int(value) if isinstance(value, int | float) else 0

    details = getattr(usage, "prompt_tokens_details", None)
    return Usage(
        prompt_tokens=number(usage, "prompt_tokens"),
        completion_tokens=number(usage, "completion_tokens"),
        cache_read_tokens=number(usage, "cache_read_input_tokens")
        or number(details, "cached_tokens"),
        cache_creation_tokens=number(usage, "cache_creation_input_tokens")
        or number(details, "cache_creation_tokens"),
    )


# Failures --------------------------------------------------------------------------------------
def _chain(exc: BaseException) -> list[BaseException]:
    seen: list[BaseException] = []
    while exc is not None and exc not in seen and len(seen) < 12:
        seen.append(exc)
        exc = exc.__cause__ or exc.__context__
    return seen


def _translate(exc: Exception, config: LLMConfig, timeout: float) -> LLMError:
    """A provider/litellm/httpx exception as one of ours, with a message fit for the user."""
    import httpx

    litellm = _litellm()
    chain = _chain(exc)
    what = config.description
    for inner in chain:
        if isinstance(inner, netguard.BlockedURL):
            return LLMBlockedURL(str(inner))
    status = _status_of(chain)

    def has(*types) -> bool:
        return any(isinstance(e, types) for e in chain)

    if has(litellm.Timeout, httpx.TimeoutException):
        return LLMTimeout(f"{what} did not answer within {timeout:g} seconds.", status=status)
    if has(json.JSONDecodeError):
        return LLMBadResponse(f"{what} sent a reply that is not valid JSON.", status=status)
    if status == 429 or has(litellm.RateLimitError):
        retry_after = _retry_after(exc)
        when = f" It asks to wait {retry_after:g} s." if retry_after is not None else ""
        return LLMRateLimited(
            f"{what} is rate limiting requests; try again shortly.{when}", retry_after=retry_after
        )
    if status in (401, 403) or has(litellm.AuthenticationError, litellm.PermissionDeniedError):
        return LLMAuthError(
            f"{what} refused the API key ({status or 'unauthorised'}); check the key in settings.",
            status=status,
        )
    if has(httpx.ConnectError, ConnectionError, httpx.RemoteProtocolError):
        # Only scheme, host and port: a path or query of a user's URL may carry a secret.
        where = f" at {config.target.scheme}://{config.target.host_header}" if config.target else ""
        return LLMUnavailable(f"{what} could not be reached{where}.")
    if status is not None and 300 <= status < 400:
        return LLMBadResponse(
            f"{what} answered with a redirect ({status}); Sparky does not follow redirects of "
            "AI services. Set the final URL in settings.",
            status=status,
        )
    detail = _provider_detail(exc, config)
    if (status is not None and status >= 500) or has(
        litellm.InternalServerError, litellm.ServiceUnavailableError
    ):
        return LLMUnavailable(
            f"{what} had a server error ({status or 'unknown'}); try again later.",
            status=status,
            retry_after=_retry_after(exc),
        )
    if has(litellm.ContextWindowExceededError):
        return LLMError(f"The conversation is too long for {what}.", status=status)
    if status is not None:
        return LLMError(f"{what} refused the request ({status}): {detail}", status=status)
    return LLMError(f"The call to {what} failed: {detail}", status=status)


def _status_of(chain: list[BaseException]) -> int | None:
    """The HTTP status the provider really sent: the deepest response in the chain.

    litellm's outer exception can disagree (a 307 from Anthropic surfaces as an
    APIConnectionError with status 500), so the wrapped httpx response wins.
    """
    for inner in reversed(chain):
        code = getattr(getattr(inner, "response", None), "status_code", None)
        if isinstance(code, int):
            return code
    code = getattr(chain[0], "status_code", None)
    return code if isinstance(code, int) else None


def _retry_after(exc: Exception) -> float | None:
    headers = getattr(exc, "litellm_response_headers", None)
    if headers is None:
        response = getattr(exc, "response", None)
        headers = getattr(response, "headers", None)
    if headers is None:
        return None
    try:
        millis = headers.get("retry-after-ms")
        value = headers.get("retry-after")
    except AttributeError:
        return None
    try:
        if millis is not None:
            return max(0.0, float(millis) / 1000)
        if value is None:
            return None
        return max(0.0, float(value))
    except ValueError:
        pass
    try:  # an HTTP date
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - datetime.now(UTC)).total_seconds())


_PREFIXES = re.compile(r"^(?:litellm\.\w+:\s*)?(?:\w+:\s*)?(?:\w+Exception\s*-\s*)?")
_SECRET_PATTERNS = [
    re.compile(r"(?i)(bearer\s+)[^\s'\",}]+"),
    re.compile(r"(?i)((?:x-api-key|api[_-]?key|x-goog-api-key)['\"]?\s*[:=]\s*['\"]?)[^\s'\",}&]+"),
    re.compile(r"(?i)([?&]key=)[^&\s'\"]+"),
    re.compile(r"\b(?:sk|pk|rk|gsk|xai|key)[-_][A-Za-z0-9*._-]{6,}"),
    re.compile(r"\bAIza[0-9A-Za-z_-]{20,}"),
]


# A provider may echo part of the key ("Incorrect API key: trust-7f3a...", the key without its
# prefix, or cut short); any word sharing this many consecutive characters with it goes.
_KEY_FRAGMENT = 8
_WORD = re.compile(r"[A-Za-z0-9_.*+/=-]+")


def _without_key(text: str, key: str) -> str:
    if len(key) < _KEY_FRAGMENT:
        return text.replace(key, "[redacted]") if len(key) >= 4 else text
    pieces = {key[i : i + _KEY_FRAGMENT] for i in range(len(key) - _KEY_FRAGMENT + 1)}
    return _WORD.sub(
        lambda m: "[redacted]" if any(p in m.group(0) for p in pieces) else m.group(0), text
    )


def _sanitise(text: str, config: LLMConfig) -> str:
    if config.api_key:
        text = _without_key(text, config.api_key)
    for pattern in _SECRET_PATTERNS:
        text = pattern.sub(lambda m: (m.group(1) if m.groups() else "") + "[redacted]", text)
    return text


def _provider_detail(exc: Exception, config: LLMConfig) -> str:
    raw = getattr(exc, "message", None) or str(exc) or type(exc).__name__
    text = _PREFIXES.sub("", str(raw)).strip()
    # A JSON error body: keep just its message.
    try:
        body = json.loads(text)
        error = body.get("error", body) if isinstance(body, dict) else body
        if isinstance(error, dict):
            text = str(error.get("message") or text)
        elif isinstance(error, str):
            text = error
    except (ValueError, AttributeError):
        pass
    text = text.split(". Received Model Group=")[0].split("Handle with `litellm")[0].strip()
    text = _sanitise(text, config)
    return text[:300] + ("..." if len(text) > 300 else "")


def _log_failure(config: LLMConfig, error: LLMError) -> None:
    logger.warning(
        "LLM call failed: %s [%s, model %s, status %s]",
        error,
        type(error).__name__,
        config.model,
        error.status,
    )


# Tokens and the settings page ------------------------------------------------------------------
def count_tokens(
    config_or_model: LLMConfig | str,
    messages: Sequence[Mapping[str, Any]] | None = None,
    tools: Sequence[Mapping[str, Any]] | None = None,
    text: str | None = None,
) -> int:
    """Tokens of a prompt for this model, counted offline with litellm's bundled tokenizers."""
    model = config_or_model.model if isinstance(config_or_model, LLMConfig) else config_or_model
    litellm = _litellm()
    kwargs: dict[str, Any] = {"model": model or "", "use_default_image_token_count": True}
    if messages is not None:
        kwargs["messages"] = list(messages)
    if text is not None:
        kwargs["text"] = text
    if tools:
        kwargs["tools"] = list(tools)
    if messages is None and text is None:
        kwargs["text"] = ""
    return int(litellm.token_counter(**kwargs))


# The connection test -----------------------------------------------------------------------------
# Where each cloud provider's API lives, for the network part of the test (custom and Ollama URLs
# are the user's own).
PROVIDER_HOSTS = {
    "openai": "api.openai.com",
    "anthropic": "api.anthropic.com",
    "google": "generativelanguage.googleapis.com",
    "mistral": "api.mistral.ai",
    "groq": "api.groq.com",
    "openrouter": "openrouter.ai",
}
_MODEL_MISSING = re.compile(
    r"model.{0,80}(not[ _]found|does not exist|not exist|unknown|invalid|no such|not available|"
    r"try pulling)|(unknown|invalid|no such) model",
    re.IGNORECASE | re.DOTALL,
)


class Cause:
    """What a failed connection test found, from the network up."""

    OK = "ok"
    SETTINGS = "settings"  # the service cannot be used as saved (no model, key unreadable...)
    BLOCKED = "blocked"  # the URL points somewhere Sparky refuses to go
    NAME_NOT_RESOLVED = "name_not_resolved"
    REFUSED = "refused"
    UNREACHABLE = "unreachable"
    TIMEOUT = "timeout"
    KEY_REJECTED = "key_rejected"
    MODEL_MISSING = "model_missing"
    RATE_LIMITED = "rate_limited"
    SERVER_ERROR = "server_error"
    OTHER = "other"


@dataclass(frozen=True)
class ConnectionTest:
    """The outcome of a connection test: whether it worked, why not, and what to tell the user
    (never the key, and of a URL only its scheme, host and port)."""

    ok: bool
    cause: str
    message: str
    seconds: float = 0.0


def test_service(service, user, *, budget: float | None = None) -> ConnectionTest:
    """Test an AI service as the settings page does: settings, name, connection, key, model.

    Each step has its own short time limit and the whole test stays within about `budget`
    seconds (SPARKY_AI_TEST_SECONDS, 10 by default): the first failure found is the cause.
    """
    budget = float(settings.SPARKY_AI_TEST_SECONDS if budget is None else budget)
    started = time.monotonic()
    try:
        config = config_for(service, user)
    except LLMUnresolvable:
        host = (urllib.parse.urlsplit(service.custom_url or "").hostname or "the server").lower()
        return _failed(Cause.NAME_NOT_RESOLVED, _name_message(host), started)
    except LLMBlockedURL as error:
        return _failed(Cause.BLOCKED, _sentence(str(error)), started)
    except LLMConfigError as error:
        return _failed(Cause.SETTINGS, str(error), started)
    return test_connection(config, budget=budget, started=started)


def test_connection(
    config: LLMConfig, *, budget: float | None = None, started: float | None = None
) -> ConnectionTest:
    """Reach the service's host (name, then a TCP connection), then ask for a one-word reply
    with the key and the model: the first step that fails is reported with its cause."""
    budget = float(settings.SPARKY_AI_TEST_SECONDS if budget is None else budget)
    started = time.monotonic() if started is None else started
    step = max(1.0, min(3.0, budget / 3))
    where, problem = _reach(config, step)
    if problem is not None:
        return _failed(problem[0], problem[1], started)
    remaining = max(2.0, budget - (time.monotonic() - started))
    try:
        complete(
            config,
            messages=[{"role": "user", "content": "Reply with the single word: ok"}],
            max_tokens=16,
            timeout=min(config.timeout, remaining),
            allow_empty=True,  # an answer of any kind proves the connection works
            retry=False,
        )
    except LLMError as error:
        cause, message = _explain(error, config, where, min(config.timeout, remaining))
        return _failed(cause, message, started)
    seconds = time.monotonic() - started
    return ConnectionTest(
        ok=True,
        cause=Cause.OK,
        message=f"Connected: {config.description} answered in {seconds:.1f} s.",
        seconds=seconds,
    )


test_connection.__test__ = False  # not a pytest test, despite the name
test_service.__test__ = False


def _failed(cause: str, message: str, started: float) -> ConnectionTest:
    return ConnectionTest(
        ok=False, cause=cause, message=message, seconds=time.monotonic() - started
    )


def _sentence(text: str) -> str:
    text = text.strip()
    return text[:1].upper() + text[1:]


def _name_message(host: str) -> str:
    return (
        f"The name {host} could not be found (DNS lookup failed). Check the address for typos, "
        "and that this machine is online."
    )


def _reach(config: LLMConfig, timeout: float) -> tuple[str, tuple[str, str] | None]:
    """(where, None) when a TCP connection to the service opens within `timeout` seconds, else
    (where, (cause, message)). `where` is scheme://host:port, nothing more of the URL."""
    if config.target is not None:
        target = config.target
        where = f"{target.scheme}://{target.host_header}"
        addresses = [str(target.address)]
        port = target.port
    else:
        host = PROVIDER_HOSTS.get(config.service_type)
        if host is None:
            return config.description, None
        where, port = f"https://{host}", 443
        try:
            addresses = _lookup(host, port, timeout)
        except TimeoutError:
            return where, (
                Cause.NAME_NOT_RESOLVED,
                f"Looking up {host} took longer than {timeout:g} s (DNS timed out). Check that "
                "this machine is online.",
            )
        except OSError:
            return where, (Cause.NAME_NOT_RESOLVED, _name_message(host))
    try:
        with socket.create_connection((addresses[0], port), timeout=timeout):
            pass
    except ConnectionRefusedError:
        hint = " Start it with: ollama serve." if config.service_type == "ollama" else ""
        return where, (
            Cause.REFUSED,
            f"Nothing is listening at {where} (connection refused). Is the server running, on "
            f"that port?{hint}",
        )
    except TimeoutError:
        return where, (
            Cause.TIMEOUT,
            f"{where} did not accept a connection within {timeout:g} s (timed out). Check the "
            "address and port, and any firewall in between.",
        )
    except OSError as error:
        reason = error.strerror or type(error).__name__
        return where, (
            Cause.UNREACHABLE,
            f"{where} cannot be reached from this machine ({reason}). Check the network.",
        )
    return where, None


def _lookup(host: str, port: int, timeout: float) -> list[str]:
    """The addresses of `host`, or TimeoutError when the resolver takes longer than `timeout`."""
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=1)
    try:
        future = pool.submit(socket.getaddrinfo, host, port, type=socket.SOCK_STREAM)
        try:
            infos = future.result(timeout=timeout)
        except concurrent.futures.TimeoutError:
            raise TimeoutError from None
    finally:
        pool.shutdown(wait=False)
    return [info[4][0] for info in infos]


def _explain(error: LLMError, config: LLMConfig, where: str, timeout: float) -> tuple[str, str]:
    """A model call's failure, once the server was reached, as (cause, message)."""
    what = config.label or config.service_type
    status = error.status
    if isinstance(error, LLMTimeout):
        return Cause.TIMEOUT, (
            f"{what} at {where} accepted the connection but sent no answer within {timeout:g} s "
            "(timed out). It may be busy, or still loading the model; try again in a minute."
        )
    if isinstance(error, LLMAuthError):
        return Cause.KEY_REJECTED, (
            f"{what} rejected the API key ({status or 'unauthorised'}). Paste the key again, and "
            "check that it is active and allowed to use this model."
        )
    if status == 404 or (status in (400, 422) and _MODEL_MISSING.search(str(error))):
        hint = (
            f" For Ollama, download it first: ollama pull {config.model_name}"
            if (config.service_type == "ollama")
            else ""
        )
        return Cause.MODEL_MISSING, (
            f"{what} has no model called '{config.model_name}' ({status}). Check the model name "
            f"against the list your provider shows.{hint}"
        )
    if isinstance(error, LLMRateLimited):
        return Cause.RATE_LIMITED, str(error)
    if isinstance(error, LLMBlockedURL):
        return Cause.BLOCKED, _sentence(str(error))
    if isinstance(error, LLMUnavailable) and status is None:
        return Cause.UNREACHABLE, str(error)
    if isinstance(error, LLMUnavailable):
        return Cause.SERVER_ERROR, str(error)
    return Cause.OTHER, str(error)
