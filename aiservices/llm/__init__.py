"""The LLM gateway: from a user's AI service settings to one litellm call, and back.

`config_for(service, user)` turns an AIServiceSettings row into an `LLMConfig` (provider route,
decrypted key, checked and pinned URL). `complete(config, messages=...)` makes the call and
returns an `LLMResult`, or raises one of the `LLMError` classes with a message a user can read and
no secret in it. `test_service` is the settings page's connection test.

    from aiservices import llm

    config = llm.config_for(service, user)
    reply = llm.complete(config, messages=[{"role": "user", "content": "2 eggs"}], tools=tools)

The modules, by job: `config` (settings to a call configuration), `calls` (the request and its
retries), `results` (reading the reply: text, tool calls, usage), `failures` (a provider's error
as one of ours, keys taken out), `errors` (those classes), `connection` (the connection test),
`library` (litellm, imported on first use only: it takes seconds to import).
"""

from aiservices.llm.calls import (
    MAX_RATE_LIMIT_RETRIES,
    MAX_RETRY_WAIT,
    SERVER_ERROR_BACKOFF,
    complete,
    count_tokens,
)
from aiservices.llm.config import LLMConfig, config_for, plain_problem
from aiservices.llm.connection import (
    PROVIDER_HOSTS,
    Cause,
    ConnectionTest,
    test_connection,
    test_service,
)
from aiservices.llm.errors import (
    LLMAuthError,
    LLMBadResponse,
    LLMBlockedURL,
    LLMConfigError,
    LLMError,
    LLMRateLimited,
    LLMTimeout,
    LLMUnavailable,
    LLMUnresolvable,
)
from aiservices.llm.results import (
    REASONING_TAGS,
    LLMResult,
    ToolCall,
    Usage,
    strip_reasoning,
)

__all__ = [
    "MAX_RATE_LIMIT_RETRIES",
    "MAX_RETRY_WAIT",
    "PROVIDER_HOSTS",
    "REASONING_TAGS",
    "SERVER_ERROR_BACKOFF",
    "Cause",
    "ConnectionTest",
    "LLMAuthError",
    "LLMBadResponse",
    "LLMBlockedURL",
    "LLMConfig",
    "LLMConfigError",
    "LLMError",
    "LLMRateLimited",
    "LLMResult",
    "LLMTimeout",
    "LLMUnavailable",
    "LLMUnresolvable",
    "ToolCall",
    "Usage",
    "complete",
    "config_for",
    "count_tokens",
    "plain_problem",
    "strip_reasoning",
    "test_connection",
    "test_service",
]
