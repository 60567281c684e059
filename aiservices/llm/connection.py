"""The settings page's connection test: settings, name, connection, key, model, each step
with its own short time limit; the first failure found is the cause, told in plain words."""

from __future__ import annotations

import concurrent.futures
import re
import socket
import time
import urllib.parse
from dataclasses import dataclass

from django.conf import settings

from aiservices.llm import errors
from aiservices.llm.calls import complete
from aiservices.llm.config import LLMConfig, config_for

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
    except errors.LLMUnresolvable:
        host = (urllib.parse.urlsplit(service.custom_url or "").hostname or "the server").lower()
        return _failed(Cause.NAME_NOT_RESOLVED, _name_message(host), started)
    except errors.LLMBlockedURL as error:
        return _failed(Cause.BLOCKED, _sentence(str(error)), started)
    except errors.LLMConfigError as error:
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
    except errors.LLMError as error:
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


def _explain(
    error: errors.LLMError, config: LLMConfig, where: str, timeout: float
) -> tuple[str, str]:
    """A model call's failure, once the server was reached, as (cause, message)."""
    what = config.label or config.service_type
    status = error.status
    if isinstance(error, errors.LLMTimeout):
        return Cause.TIMEOUT, (
            f"{what} didn't answer within {max(1, round(timeout))} seconds. It may be busy, or "
            "still loading the model: test it again in a minute."
        )
    if isinstance(error, errors.LLMAuthError):
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
    if isinstance(error, errors.LLMRateLimited):
        return Cause.RATE_LIMITED, str(error)
    if isinstance(error, errors.LLMBlockedURL):
        return Cause.BLOCKED, _sentence(str(error))
    if isinstance(error, errors.LLMUnavailable) and status is None:
        return Cause.UNREACHABLE, str(error)
    if isinstance(error, errors.LLMUnavailable):
        return Cause.SERVER_ERROR, str(error)
    return Cause.OTHER, str(error)
