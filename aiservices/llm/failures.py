"""A provider's failure as one of the gateway's errors: the HTTP status the provider really
sent, how long it asks to wait, and its message with every trace of a key taken out."""

from __future__ import annotations

import email.utils
import json
import logging
import re
from datetime import UTC, datetime

from aiservices.llm.config import LLMConfig
from aiservices.llm.errors import (
    LLMAuthError,
    LLMBadResponse,
    LLMBlockedURL,
    LLMError,
    LLMRateLimited,
    LLMTimeout,
    LLMUnavailable,
)
from aiservices.llm.library import load_litellm
from sparky import netguard

logger = logging.getLogger(__name__)


def _chain(exc: BaseException) -> list[BaseException]:
    seen: list[BaseException] = []
    while exc is not None and exc not in seen and len(seen) < 12:
        seen.append(exc)
        exc = exc.__cause__ or exc.__context__
    return seen


def translate(exc: Exception, config: LLMConfig, timeout: float) -> LLMError:
    """A provider/litellm/httpx exception as one of ours, with a message fit for the user."""
    import httpx

    litellm = load_litellm()
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


def log_failure(config: LLMConfig, error: LLMError) -> None:
    logger.warning(
        "LLM call failed: %s [%s, model %s, status %s]",
        error,
        type(error).__name__,
        config.model,
        error.status,
    )
