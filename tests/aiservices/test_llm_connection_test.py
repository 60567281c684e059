"""The settings page's Test connection (aiservices.llm.test_service): the cause it finds, in time.

Real sockets throughout: a closed port for "refused", a reserved .invalid name for "not found",
the fake provider for keys, models and slow answers.
"""

import socket

import pytest

from aiservices.llm import Cause, test_service
from aiservices.services import ai_service_create

SECRET = "sk-test-connection-SECRET-0042"


@pytest.fixture
def private_ok(settings):
    settings.SPARKY_ALLOW_PRIVATE_AI_URLS = True  # the fake and the closed port are on loopback


def custom(user, url, *, model="fake-model", service_type="custom", api_key=SECRET):
    return ai_service_create(
        user=user,
        service_name="Home server",
        service_type=service_type,
        api_key=api_key,
        model_name=model,
        custom_url=url,
    )


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]  # nothing listens once the socket is closed


def test_a_service_that_answers_passes(alice, fake_llm, private_ok):
    fake_llm.reply_text("ok")

    result = test_service(custom(alice, fake_llm.openai_base), alice)

    assert result.ok and result.cause == Cause.OK
    assert result.message.startswith("Connected: OpenAI-compatible server (fake-model) answered")


def test_a_name_that_does_not_resolve_is_named(alice, private_ok):
    result = test_service(custom(alice, "http://sparky-test.invalid:8080/v1"), alice)

    assert not result.ok and result.cause == Cause.NAME_NOT_RESOLVED
    assert "sparky-test.invalid could not be found (DNS lookup failed)" in result.message


def test_a_cloud_providers_name_that_does_not_resolve_is_named(alice, monkeypatch):
    def no_dns(host, *args, **kwargs):
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(socket, "getaddrinfo", no_dns)  # this machine offline
    service = ai_service_create(
        user=alice, service_name="Work", service_type="openai", api_key=SECRET,
        model_name="gpt-4o-mini",
    )  # fmt: skip

    result = test_service(service, alice)

    assert result.cause == Cause.NAME_NOT_RESOLVED
    assert "api.openai.com could not be found" in result.message


def test_a_server_that_is_not_running_is_refused(alice, private_ok):
    port = closed_port()

    result = test_service(custom(alice, f"http://127.0.0.1:{port}/v1"), alice)

    assert result.cause == Cause.REFUSED
    assert f"Nothing is listening at http://127.0.0.1:{port} (connection refused)" in (
        result.message
    )


def test_an_ollama_that_is_not_running_says_how_to_start_it(alice, private_ok):
    service = custom(
        alice, f"http://127.0.0.1:{closed_port()}", service_type="ollama", api_key="",
        model="llama3.2",
    )  # fmt: skip

    result = test_service(service, alice)

    assert result.cause == Cause.REFUSED and "ollama serve" in result.message


def test_a_rejected_key_says_so_and_never_shows_it(alice, fake_llm, private_ok):
    fake_llm.reply_error(401)

    result = test_service(custom(alice, fake_llm.openai_base), alice)

    assert result.cause == Cause.KEY_REJECTED
    assert "rejected the API key (401)" in result.message
    assert SECRET not in result.message


def test_a_forbidden_key_is_a_rejected_key_too(alice, fake_llm, private_ok):
    fake_llm.reply_error(403)

    result = test_service(custom(alice, fake_llm.openai_base), alice)

    assert result.cause == Cause.KEY_REJECTED and "(403)" in result.message


def test_a_model_the_server_does_not_have_is_named(alice, fake_llm, private_ok):
    fake_llm.reply_error(404, {"error": {"message": 'model "llama9" not found, try pulling it'}})

    result = test_service(custom(alice, fake_llm.openai_base, model="llama9"), alice)

    assert result.cause == Cause.MODEL_MISSING
    assert "has no model called 'llama9' (404)" in result.message


def test_an_unknown_model_refused_as_a_bad_request_is_named_too(alice, fake_llm, private_ok):
    fake_llm.reply_error(400, {"error": {"message": "Invalid model: gpt-9"}})

    result = test_service(custom(alice, fake_llm.openai_base, model="gpt-9"), alice)

    assert result.cause == Cause.MODEL_MISSING


def test_a_server_that_never_answers_is_reported_as_timed_out_after_one_attempt(
    alice, fake_llm, private_ok, settings
):
    settings.SPARKY_AI_TEST_SECONDS = 2
    fake_llm.reply_delay(6)

    result = test_service(custom(alice, fake_llm.openai_base), alice)

    assert result.cause == Cause.TIMEOUT
    assert "didn't answer within 2 seconds" in result.message  # whole seconds, plain words
    assert "test it again in a minute" in result.message
    assert len(fake_llm.completion_requests) == 1  # one attempt: no retry in a test
    # How long it takes is measured, not asserted: bench/timings.py.


def test_a_server_error_is_tried_once(alice, fake_llm, private_ok):
    fake_llm.reply_error(503)
    fake_llm.reply_text("ok")

    result = test_service(custom(alice, fake_llm.openai_base), alice)

    assert result.cause == Cause.SERVER_ERROR and "server error (503)" in result.message


def test_a_url_refused_by_policy_is_blocked_before_any_connection(alice, settings):
    settings.SPARKY_ALLOW_PRIVATE_AI_URLS = True
    service = custom(alice, "http://10.0.0.7/v1")
    settings.SPARKY_ALLOW_PRIVATE_AI_URLS = False

    result = test_service(service, alice)

    assert result.cause == Cause.BLOCKED and result.message.startswith("Refused: 10.0.0.7")
