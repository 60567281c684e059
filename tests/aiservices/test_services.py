import threading

import pytest
from cryptography.fernet import Fernet
from django.core.exceptions import ValidationError
from django.db import connection

from aiservices.llm import test_service
from aiservices.models import AIServiceSettings
from aiservices.services import (
    ServiceTestFailed,
    active_ai_service,
    ai_service_activate,
    ai_service_api_key,
    ai_service_create,
    ai_service_delete,
    ai_service_update,
)
from tests.conftest import make_user

PLAIN_KEY = "sk-test-Zq8v1plainSECRET0123456789"


def openai(user, **extra):
    fields = {
        "user": user,
        "service_name": "My OpenAI",
        "service_type": "openai",
        "api_key": PLAIN_KEY,
        "model_name": "gpt-4.1-mini",
        "is_active": True,
        **extra,
    }
    return ai_service_create(**fields)


def stored_key(service) -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT api_key FROM ai_service_settings WHERE id = %s", [service.id])
        return cursor.fetchone()[0]


# --- AI services: keys -----------------------------------------------------------------------


def test_the_api_key_is_encrypted_in_the_database(alice):
    service = openai(alice)

    raw = stored_key(service)
    assert PLAIN_KEY not in raw
    assert "Zq8v1plain" not in raw
    assert ai_service_api_key(AIServiceSettings.objects.get(pk=service.pk)) == PLAIN_KEY


def test_the_key_never_appears_in_str_or_repr(alice):
    service = openai(alice)

    assert PLAIN_KEY not in str(service)
    assert PLAIN_KEY not in repr(service)


def test_a_blank_key_on_update_keeps_the_stored_key(alice):
    service = openai(alice)
    before = stored_key(service)

    ai_service_update(user=alice, service_id=service.id, api_key="", model_name="gpt-4.1")
    ai_service_update(user=alice, service_id=service.id, api_key="   ")
    ai_service_update(user=alice, service_id=service.id, api_key=None)

    service.refresh_from_db()
    assert stored_key(service) == before
    assert service.model_name == "gpt-4.1"
    assert ai_service_api_key(service) == PLAIN_KEY


def test_a_new_key_on_update_replaces_the_old_one(alice):
    service = openai(alice)

    ai_service_update(user=alice, service_id=service.id, api_key="sk-new-key-42")

    service.refresh_from_db()
    assert ai_service_api_key(service) == "sk-new-key-42"


def test_a_malformed_key_is_refused_without_echoing_it(alice):
    with pytest.raises(ValidationError) as caught:
        openai(alice, api_key="sk-part one SECRETPART")

    assert caught.value.code == "invalid_api_key"
    assert "SECRETPART" not in " ".join(caught.value.messages)


def test_cloud_services_need_a_key_and_local_ones_do_not(alice, settings):
    settings.SPARKY_ALLOW_PRIVATE_AI_URLS = True  # Ollama's default URL is loopback
    with pytest.raises(ValidationError) as caught:
        openai(alice, api_key="")
    ollama = ai_service_create(
        user=alice,
        service_name="Laptop",
        service_type="ollama",
        api_key="",
        model_name="gemma3:1b",
        is_active=True,
    )

    assert caught.value.code == "api_key_required"
    assert ollama.custom_url == "http://127.0.0.1:11434"
    assert ai_service_api_key(ollama) == ""


# --- AI services: validation -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"service_type": "skynet"}, "invalid_choice"),
        ({"service_name": " "}, "service_name_required"),
        ({"model_name": None}, "model_required"),
        ({"tool_profile": "tiny"}, "invalid_choice"),
        ({"custom_url": "ftp://models.example.com"}, "invalid_url"),
        ({"custom_url": "https://"}, "invalid_url"),
        ({"custom_url": "https://api.example.com:99999/v1"}, "invalid_url"),
        ({"custom_url": "https://api.example .com/v1"}, "invalid_url"),
        ({"system_prompt": "x" * 5000}, "too_long"),
        ({"service_name": "My\x00AI"}, "invalid_characters"),
        ({"custom_url": "https://llm.example.com/\x00"}, "invalid_characters"),
    ],
)
def test_bad_ai_services_are_refused_and_nothing_is_written(alice, fields, code):
    with pytest.raises(ValidationError) as caught:
        openai(alice, **fields)

    assert caught.value.code == code
    assert not AIServiceSettings.objects.exists()


def test_a_url_with_credentials_is_refused_without_echoing_them(alice):
    with pytest.raises(ValidationError) as caught:
        openai(alice, custom_url="https://bob:hunter2pass@llm.example.com/v1")

    assert caught.value.code == "invalid_url"
    assert "hunter2pass" not in " ".join(caught.value.messages)


def test_a_custom_service_needs_its_url(alice):
    with pytest.raises(ValidationError) as caught:
        ai_service_create(
            user=alice,
            service_name="vLLM",
            service_type="custom",
            api_key="",
            model_name="qwen",
            is_active=True,
        )
    service = ai_service_create(
        user=alice,
        service_name="vLLM",
        service_type="Custom",
        api_key="",
        model_name="qwen",
        custom_url="https://llm.example.com/v1/",
        is_active=True,
    )

    assert caught.value.code == "url_required"
    assert (service.service_type, service.custom_url) == ("custom", "https://llm.example.com/v1")


def test_a_provider_with_a_current_model_alias_needs_no_model_name(alice):
    service = ai_service_create(
        user=alice, service_name="Mistral", service_type="mistral", api_key="mk-1", is_active=True
    )

    assert service.model_name == "mistral-small-latest"


def test_tool_profile_and_tool_support_are_kept(alice):
    service = openai(alice, tool_profile="core", supports_tools=False)

    assert (service.tool_profile, service.supports_tools) == ("core", False)


# --- AI services: one active per user --------------------------------------------------------


def test_a_new_active_service_replaces_the_active_one(alice, bob):
    first = openai(alice)
    theirs = openai(bob)
    second = openai(alice, service_name="Second")

    first.refresh_from_db()
    theirs.refresh_from_db()
    assert not first.is_active
    assert theirs.is_active
    assert active_ai_service(alice) == second


def test_activating_a_service_deactivates_the_others(alice):
    first = openai(alice)
    second = openai(alice, service_name="Second")
    inactive = openai(alice, service_name="Third", is_active=False)

    ai_service_activate(user=alice, service_id=first.id, insist=True)

    assert active_ai_service(alice) == first
    assert AIServiceSettings.objects.for_user(alice).active().count() == 1
    second.refresh_from_db()
    inactive.refresh_from_db()
    assert not second.is_active and not inactive.is_active


def test_reactivating_by_update_keeps_exactly_one_active(alice):
    first = openai(alice)
    openai(alice, service_name="Second")

    ai_service_update(user=alice, service_id=first.id, is_active=True)

    assert list(AIServiceSettings.objects.for_user(alice).active()) == [first]


def test_deleting_the_active_service_leaves_none_active(alice):
    first = openai(alice, is_active=False)
    second = openai(alice, service_name="Second")

    ai_service_delete(user=alice, service_id=second.id)

    assert active_ai_service(alice) is None
    assert list(AIServiceSettings.objects.for_user(alice)) == [first]


def test_bob_cannot_touch_alices_services(alice, bob):
    service = openai(alice)

    with pytest.raises(AIServiceSettings.DoesNotExist):
        ai_service_update(user=bob, service_id=service.id, api_key="sk-bob")
    with pytest.raises(AIServiceSettings.DoesNotExist):
        ai_service_activate(user=bob, service_id=service.id, insist=True)
    with pytest.raises(AIServiceSettings.DoesNotExist):
        ai_service_activate(user=bob, service_id=service.id)
    with pytest.raises(AIServiceSettings.DoesNotExist):
        ai_service_delete(user=bob, service_id=service.id)
    with pytest.raises(AIServiceSettings.DoesNotExist):
        ai_service_delete(user=bob, service_id="not-a-uuid")

    service.refresh_from_db()
    assert ai_service_api_key(service) == PLAIN_KEY
    assert active_ai_service(bob) is None


@pytest.mark.django_db(transaction=True)
def test_concurrent_activations_leave_exactly_one_active():
    user = make_user("erin@example.com")
    services = [openai(user, service_name=f"S{i}", is_active=False) for i in range(6)]
    barrier = threading.Barrier(len(services))
    errors: list[Exception] = []

    def activate(service):
        try:
            barrier.wait()
            ai_service_activate(user=user, service_id=service.id, insist=True)
        except Exception as exc:  # collected and asserted on below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=activate, args=(s,)) for s in services]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    assert AIServiceSettings.objects.for_user(user).active().count() == 1


def test_a_key_encrypted_under_a_removed_key_is_reported_not_leaked(alice, settings):
    settings.SPARKY_ENCRYPTION_KEYS = [Fernet.generate_key().decode()]
    service = openai(alice)
    settings.SPARKY_ENCRYPTION_KEYS = [Fernet.generate_key().decode()]

    from sparky.crypto import SecretError

    with pytest.raises(SecretError) as caught:
        ai_service_api_key(service)
    assert PLAIN_KEY not in str(caught.value)


def test_a_private_url_is_refused_when_saved_by_a_member(alice, settings):
    settings.SPARKY_ALLOW_PRIVATE_AI_URLS = False
    with pytest.raises(ValidationError) as caught:
        ai_service_create(
            user=alice,
            service_name="Laptop",
            service_type="ollama",
            api_key="",
            model_name="g",
            is_active=True,
        )
    assert caught.value.code == "blocked_url"
    assert "127.0.0.1 is a loopback address" in caught.value.message
    assert "SPARKY_ALLOW_PRIVATE_AI_URLS" in caught.value.message
    assert not AIServiceSettings.objects.exists()


def test_a_name_that_does_not_resolve_now_is_saved_and_checked_at_turn_time(alice):
    service = ai_service_create(
        user=alice,
        service_name="Lab",
        service_type="custom",
        api_key="k",
        model_name="m",
        custom_url="https://llm.invalid/v1",
        is_active=True,
    )
    assert service.custom_url == "https://llm.invalid/v1"


def test_a_new_service_is_saved_inactive(alice):
    service = ai_service_create(
        user=alice, service_name="New", service_type="openai", api_key=PLAIN_KEY, model_name="m"
    )

    assert not service.is_active and active_ai_service(alice) is None


def test_activating_tests_first_and_a_failed_test_changes_nothing(alice, settings):
    settings.SPARKY_ALLOW_PRIVATE_AI_URLS = True
    in_use = openai(alice, service_name="In use")
    down = ai_service_create(
        user=alice, service_name="Down", service_type="custom", api_key="", model_name="m",
        custom_url="http://sparky-test.invalid/v1",
    )  # fmt: skip

    with pytest.raises(ServiceTestFailed) as failed:
        ai_service_activate(user=alice, service_id=down.id, tested=test_service(down, alice))
    with pytest.raises(ServiceTestFailed) as untested:
        ai_service_activate(user=alice, service_id=down.id)

    assert failed.value.code == "test_failed"
    assert failed.value.result.cause == "name_not_resolved"
    assert untested.value.messages == ["Test the connection first."]
    assert active_ai_service(alice) == in_use


def test_a_user_who_insists_gets_the_service_without_a_test(alice, settings):
    settings.SPARKY_ALLOW_PRIVATE_AI_URLS = True
    down = ai_service_create(
        user=alice, service_name="Down", service_type="custom", api_key="", model_name="m",
        custom_url="http://sparky-test.invalid/v1",
    )  # fmt: skip

    ai_service_activate(user=alice, service_id=down.id, insist=True)

    assert active_ai_service(alice) == down


def test_messages_name_the_provider_in_plain_words(alice):
    with pytest.raises(ValidationError) as no_model:
        ai_service_create(user=alice, service_name="A", service_type="anthropic", api_key="k")
    with pytest.raises(ValidationError) as no_key:
        ai_service_create(
            user=alice, service_name="G", service_type="groq", api_key="", model_name="m"
        )

    assert no_model.value.messages == [
        "Anthropic needs a model name: the model id it lists, e.g. claude-haiku-4-5."
    ]
    assert no_key.value.messages == [
        "Groq needs an API key: create one in your Groq account and paste it here."
    ]
