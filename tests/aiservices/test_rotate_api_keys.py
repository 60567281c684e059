import pytest
from cryptography.fernet import Fernet
from django.core.management import CommandError, call_command

from aiservices.models import AIServiceSettings
from aiservices.services import ai_service_api_key, ai_service_create


def new_key() -> str:
    return Fernet.generate_key().decode()


def service(user, api_key: str, name: str = "OpenAI"):
    return ai_service_create(
        user=user,
        service_name=name,
        service_type="openai",
        api_key=api_key,
        model_name="gpt-x",
        is_active=True,
    )


def run(capsys) -> str:
    call_command("rotate_api_keys")
    return capsys.readouterr().out


def test_it_re_encrypts_every_key_under_the_newest_key(alice, bob, settings, capsys):
    old, new = new_key(), new_key()
    settings.SPARKY_ENCRYPTION_KEYS = [old]
    settings.SPARKY_ALLOW_PRIVATE_AI_URLS = True  # the keyless Ollama below is on loopback
    service(alice, "sk-alice-1")
    service(bob, "sk-bob-2")
    ai_service_create(  # a local server without a key is not counted
        user=bob,
        service_name="Ollama",
        service_type="ollama",
        api_key="",
        model_name="gemma3",
        is_active=True,
    )

    settings.SPARKY_ENCRYPTION_KEYS = [new, old]
    out = run(capsys)

    assert "Re-encrypted 2 API key(s)" in out
    newest_only = Fernet(new.encode())
    tokens = AIServiceSettings.objects.exclude(api_key="").values_list("api_key", flat=True)
    assert {newest_only.decrypt(t.encode()).decode() for t in tokens} == {"sk-alice-1", "sk-bob-2"}
    # After rotation the old key can be dropped.
    settings.SPARKY_ENCRYPTION_KEYS = [new]
    assert {ai_service_api_key(s) for s in AIServiceSettings.objects.all()} == {
        "sk-alice-1",
        "sk-bob-2",
        "",
    }


def test_running_it_twice_changes_nothing_the_second_time(alice, settings, capsys):
    old, new = new_key(), new_key()
    settings.SPARKY_ENCRYPTION_KEYS = [old]
    svc = service(alice, "sk-alice-1")
    settings.SPARKY_ENCRYPTION_KEYS = [new, old]
    run(capsys)
    svc.refresh_from_db()
    after_first = svc.api_key

    out = run(capsys)

    svc.refresh_from_db()
    assert "Re-encrypted 0 API key(s); 1 already used the newest key." in out
    assert svc.api_key == after_first


def test_a_key_no_configured_key_can_open_fails_the_command_and_stays(alice, settings, capsys):
    lost = new_key()
    settings.SPARKY_ENCRYPTION_KEYS = [lost]
    svc = service(alice, "sk-alice-1")
    before = svc.api_key
    settings.SPARKY_ENCRYPTION_KEYS = [new_key()]

    with pytest.raises(CommandError, match="1 API key"):
        call_command("rotate_api_keys")

    svc.refresh_from_db()
    assert svc.api_key == before
    assert "sk-alice-1" not in capsys.readouterr().out
