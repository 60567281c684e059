"""The gateway's errors: str(error) is safe to show the user and to log (no key, no path or
query of a URL), and the class says what kind of failure it was."""

from __future__ import annotations


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
