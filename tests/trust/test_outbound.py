"""The custom URL of an AI service is a request the user makes the server send. End to end: a user
who is not staff cannot save one aiming at loopback, the private network or the cloud metadata
service (the reason says who can allow it); a row saved while it was allowed (or before the check
existed) is refused at turn time, with the reason, while the message is still answered by the
offline parser. Staff, or SPARKY_ALLOW_PRIVATE_AI_URLS, let loopback through; cloud metadata
never."""

from __future__ import annotations

import pytest
from django.test import Client

from aiservices.models import AIServiceSettings
from chat.models import ChatMessage
from chat.turn.coach import handle_turn
from nutrition.models import FoodEntry
from sparky.crypto import encrypt_secret
from tests.trust.conftest import api_client_for

pytestmark = pytest.mark.django_db

TARGETS = {
    "loopback": ("http://127.0.0.1:{port}/v1", "127.0.0.1 is a loopback address"),
    "private": ("http://10.1.2.3:8080/v1", "10.1.2.3 is a private address"),
    "link-local metadata": (
        "http://169.254.169.254/latest/meta-data",
        "169.254.169.254 is a cloud metadata address",
    ),
    "metadata by name": (
        "http://metadata.google.internal/v1",
        "metadata.google.internal is a cloud metadata service",
    ),
}


def _save_over_the_api(user, url):
    response = api_client_for(user).post(
        "/api/ai-services/",
        {
            "service_name": "My server",
            "service_type": "custom",
            "api_key": "sk-user-0001",
            "model_name": "m",
            "custom_url": url,
            "is_active": True,  # used at once, untested: the requests below are the test
        },
        format="json",
    )
    assert response.status_code == 201, response.content
    return response.json()["id"]


def _saved_earlier(user, url):
    """A row stored while private targets were allowed (the services refuse them now)."""
    return str(
        AIServiceSettings.objects.create(
            user=user,
            service_name="My server",
            service_type="custom",
            api_key=encrypt_secret("sk-user-0001"),
            model_name="m",
            custom_url=url,
        ).id
    )


@pytest.mark.parametrize("target", list(TARGETS))
def test_a_private_target_is_refused_when_saved_with_the_reason(alice, fake_llm, settings, target):
    settings.SPARKY_ALLOW_PRIVATE_AI_URLS = False
    url, reason = TARGETS[target]
    response = api_client_for(alice).post(
        "/api/ai-services/",
        {
            "service_name": "My server",
            "service_type": "custom",
            "api_key": "sk-user-0001",
            "model_name": "m",
            "custom_url": url.format(port=fake_llm.port),
        },
        format="json",
    )
    assert response.status_code == 400
    assert reason in response.content.decode()
    if "metadata" not in target:
        assert "SPARKY_ALLOW_PRIVATE_AI_URLS" in response.content.decode()
    assert not AIServiceSettings.objects.for_user(alice).exists()
    assert fake_llm.requests == []


@pytest.mark.parametrize("target", list(TARGETS))
def test_a_private_target_is_refused_at_turn_time_with_the_reason(
    alice, catalog, fake_llm, settings, target
):
    settings.SPARKY_ALLOW_PRIVATE_AI_URLS = False
    url, reason = TARGETS[target]
    _saved_earlier(alice, url.format(port=fake_llm.port))

    response = handle_turn(alice, "2 eggs for breakfast")

    assert fake_llm.requests == []  # not one byte went out
    assert response.engine == "offline" and response.action == "logged"
    assert f"Your AI service needs attention (refused: {reason}" in response.message
    assert "Sparky answered this one on its own" in response.message
    if "metadata" not in target:
        assert "ask an admin to set SPARKY_ALLOW_PRIVATE_AI_URLS" in response.message
    assert FoodEntry.objects.for_user(alice).count() == 1  # the message was still logged
    stored = ChatMessage.objects.for_user(alice).filter(message_type="assistant").get()
    assert reason in stored.content


def test_the_settings_page_test_button_says_the_same(alice, fake_llm, settings):
    settings.SPARKY_ALLOW_PRIVATE_AI_URLS = False
    service_id = _saved_earlier(alice, f"http://127.0.0.1:{fake_llm.port}/v1")
    client = Client()
    client.force_login(alice)
    page = client.post(f"/settings/ai/{service_id}/test/", follow=True).content.decode()
    assert "127.0.0.1 is a loopback address" in page
    assert fake_llm.requests == []


def test_staff_may_use_a_loopback_server(alice, fake_llm, settings):
    settings.SPARKY_ALLOW_PRIVATE_AI_URLS = False
    alice.is_staff = True
    alice.save(update_fields=["is_staff"])
    _save_over_the_api(alice, fake_llm.openai_base)
    fake_llm.reply_text("Hello from the local model.")

    response = handle_turn(alice, "hello", categories=["coaching"])

    assert response.engine == "tools" and response.message == "Hello from the local model."
    assert len(fake_llm.completion_requests) == 1


def test_the_setting_lets_everyone_use_a_loopback_server(bob, fake_llm, settings):
    settings.SPARKY_ALLOW_PRIVATE_AI_URLS = True  # a self-hoster running Ollama next door
    _save_over_the_api(bob, fake_llm.openai_base)
    fake_llm.reply_text("Hi bob.")

    assert handle_turn(bob, "hello", categories=["coaching"]).message == "Hi bob."


@pytest.mark.parametrize("who", ["staff", "setting"])
def test_cloud_metadata_stays_refused_for_staff_and_with_the_setting(alice, settings, who):
    settings.SPARKY_ALLOW_PRIVATE_AI_URLS = who == "setting"
    alice.is_staff = who == "staff"
    alice.save(update_fields=["is_staff"])
    refused = api_client_for(alice).post(
        "/api/ai-services/",
        {
            "service_name": "Meta",
            "service_type": "custom",
            "api_key": "sk-user-0001",
            "model_name": "m",
            "custom_url": "http://169.254.169.254/latest/meta-data",
        },
        format="json",
    )
    assert refused.status_code == 400
    _saved_earlier(alice, "http://169.254.169.254/latest/meta-data")

    response = handle_turn(alice, "hello")

    assert "169.254.169.254 is a cloud metadata address" in response.message
    assert response.engine == "offline"


def test_a_redirect_to_an_internal_address_is_not_followed(alice, catalog, fake_llm, settings):
    settings.SPARKY_ALLOW_PRIVATE_AI_URLS = True
    _save_over_the_api(alice, fake_llm.openai_base)
    fake_llm.reply_redirect("http://169.254.169.254/latest/meta-data/iam/")

    response = handle_turn(alice, "any tips for breakfast?", categories=["food"])

    assert response.action == "error"
    assert "redirect" in response.message and "does not follow" in response.message
    assert len(fake_llm.requests) == 1


@pytest.mark.parametrize(
    "url", ["http://[::169.254.169.254]/latest", "http://[::ffff:169.254.169.254]/latest"]
)
@pytest.mark.parametrize("allow_private", [False, True])
def test_metadata_inside_an_ipv6_address_is_refused_for_everyone(url, allow_private):
    from sparky.netguard import BlockedURL, check_url

    with pytest.raises(BlockedURL) as refused:
        check_url(url, allow_private=allow_private)

    assert "cloud metadata address" in str(refused.value)


@pytest.mark.parametrize("url", ["http://[::10.1.2.3]/v1", "http://[::ffff:10.1.2.3]/v1"])
def test_a_private_address_inside_an_ipv6_address_is_refused_as_private(url):
    from sparky.netguard import BlockedURL, check_url

    with pytest.raises(BlockedURL) as refused:
        check_url(url, allow_private=False)

    assert "a private address inside an IPv6 address" in str(refused.value)
