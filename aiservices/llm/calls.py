"""The call: one litellm completion with the gateway's retry rules, over a client pinned to the
checked address; and counting a prompt's tokens.

Retries are ours, not litellm's, so they are few and predictable: a 429 is retried only when the
provider says when (Retry-After), at most twice and for at most five seconds of waiting in all; a
5xx is retried once.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from aiservices.llm.config import LLMConfig
from aiservices.llm.errors import LLMError, LLMRateLimited, LLMUnavailable
from aiservices.llm.failures import log_failure, translate
from aiservices.llm.library import load_litellm
from aiservices.llm.results import LLMResult, gathered, result_of
from sparky import netguard

logger = logging.getLogger(__name__)

MAX_RATE_LIMIT_RETRIES = 2
MAX_RETRY_WAIT = 5.0  # seconds of Retry-After we are willing to sit through in one call
SERVER_ERROR_BACKOFF = 0.5  # seconds before the single retry of a 5xx without Retry-After
_NO_KEY = "no-key"  # sent to keyless local servers so litellm never falls back to env keys


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
    litellm = load_litellm()
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
                    response = gathered(
                        litellm, response, kwargs["messages"], on_text=on_text, on_call=on_call
                    )
                return result_of(response, config, allow_empty=allow_empty)
            except LLMError as error:
                log_failure(config, error)
                raise
            except Exception as exc:
                error = translate(exc, config, timeout)
            attempts.append(error)
            delay = _retry_delay(attempts) if retry else None
            if delay is None:
                log_failure(config, error)
                raise error from None  # the provider exception may quote the request
            logger.info("Retrying %s in %.1f s after: %s", config.description, delay, error)
            time.sleep(delay)
    finally:
        if http_client is not None:
            http_client.close()


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


def count_tokens(
    config_or_model: LLMConfig | str,
    messages: Sequence[Mapping[str, Any]] | None = None,
    tools: Sequence[Mapping[str, Any]] | None = None,
    text: str | None = None,
) -> int:
    """Tokens of a prompt for this model, counted offline with litellm's bundled tokenizers."""
    model = config_or_model.model if isinstance(config_or_model, LLMConfig) else config_or_model
    litellm = load_litellm()
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
