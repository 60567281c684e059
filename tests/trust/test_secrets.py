"""Alice's planted API key, hunted everywhere it could surface: API responses, pages (settings and
admin), logs at DEBUG while a provider echoes the key back in its errors, exception messages,
chat history and its metadata, and every column of every table. Plus key rotation, CSRF on every
form and htmx post, and `check --deploy` with production settings."""

from __future__ import annotations

import io
import logging
import os
import subprocess
import sys
import traceback
from pathlib import Path
from urllib.parse import unquote

import pytest
from cryptography.fernet import Fernet
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.urls import Resolver404, resolve

from aiservices import llm
from aiservices.models import AIServiceSettings
from aiservices.services import ai_service_api_key, ai_service_update
from chat.models import ChatMessage
from chat.turn.coach import handle_turn
from tests.trust.conftest import PLANTED_KEY, api_client_for, as_text, png_bytes
from tests.trust.test_isolation_pages import _matrix as page_matrix

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]

# The key whole, without its "sk-" prefix, and its random tail: each of them is a leak.
FORMS = (PLANTED_KEY, PLANTED_KEY[3:], PLANTED_KEY[-14:])


def secret_in(text) -> list[str]:
    text = as_text(text)
    return [form for form in FORMS if form in text]


def _body(response) -> str:
    if getattr(response, "streaming", False):
        return as_text(b"".join(response.streaming_content))
    return as_text(response.content)


class Collect(logging.Handler):
    """Every record that reaches the root logger, formatted with its traceback."""

    def __init__(self):
        super().__init__(logging.DEBUG)
        self.setFormatter(logging.Formatter("%(levelname)s %(name)s %(message)s"))
        self.lines: list[str] = []

    def emit(self, record):
        self.lines.append(self.format(record))


@pytest.fixture
def root_logs(caplog):
    """Root at DEBUG (what LOG_LEVEL=DEBUG does); named loggers keep their configured levels."""
    caplog.set_level(logging.DEBUG)
    handler = Collect()
    logging.getLogger().addHandler(handler)
    yield handler, caplog
    logging.getLogger().removeHandler(handler)


def _point_at_fake(w, fake_llm, kind: str):
    base = fake_llm.openai_base if kind == "custom" else fake_llm.anthropic_base
    model = "fake-model" if kind == "custom" else "claude-haiku-4-5"
    return ai_service_update(
        user=w.alice, service_id=w.service.pk, service_type=kind, custom_url=base, model_name=model
    )


# How providers quote a key back: whole, without its prefix, in a header dump, cut short.
ECHOES = {
    "401 whole key": (401, {"error": {"message": f"Incorrect API key provided: {PLANTED_KEY}."}}),
    "400 key without prefix": (
        400,
        {"error": {"message": f"Invalid key '{PLANTED_KEY[3:]}' for this model"}},
    ),
    "404 key in a header dump": (
        404,
        {"error": {"message": f"no route; headers: Authorization=Bearer {PLANTED_KEY}"}},
    ),
    "403 key cut short": (403, {"error": {"message": f"key {PLANTED_KEY[:-6]}... is revoked"}}),
    "500 plain text": (500, f"upstream failure for x-api-key: {PLANTED_KEY}"),
}


# --- API responses ---------------------------------------------------------------------------


def test_no_ai_service_response_of_the_api_carries_the_key(alice_world):
    w = alice_world
    client = api_client_for(w.alice)
    other = "sk-trust-SECOND-99887766554433221100"
    created = client.post(
        "/api/ai-services/",
        {
            "service_name": "Second",
            "service_type": "openai",
            "api_key": other,
            "model_name": "gpt-4o-mini",
        },
        format="json",
    )
    assert created.status_code == 201 and created.json()["has_api_key"] is True
    new_id = created.json()["id"]
    responses = [
        created,
        client.get("/api/ai-services/"),
        client.get(f"/api/ai-services/{w.service.pk}/"),
        client.patch(f"/api/ai-services/{w.service.pk}/", {"service_name": "Renamed"}, "json"),
        client.patch(f"/api/ai-services/{new_id}/", {"api_key": PLANTED_KEY}, format="json"),
        client.post(f"/api/ai-services/{w.service.pk}/activate/"),
        # A refused write must not echo the key it was given either.
        client.patch(
            f"/api/ai-services/{w.service.pk}/",
            {"api_key": PLANTED_KEY + " with spaces", "custom_url": "ftp://x"},
            format="json",
        ),
        client.post(
            "/api/ai-services/",
            {"service_name": "", "service_type": "nope", "api_key": PLANTED_KEY},
            format="json",
        ),
        client.get("/api/schema/"),
    ]
    for response in responses:
        assert response.status_code < 500
        body = _body(response)
        assert secret_in(body) == [] and other not in body, body[:300]
    assert ai_service_api_key(AIServiceSettings.objects.get(pk=new_id)) == PLANTED_KEY


@pytest.mark.parametrize("case", list(ECHOES))
def test_a_provider_echoing_the_key_leaks_it_nowhere(
    alice_world, fake_llm, private_ai, root_logs, capsys, case
):
    w = alice_world
    _point_at_fake(w, fake_llm, "custom")
    status, body = ECHOES[case]
    fake_llm.reply_error(status, body)
    if status >= 500:
        fake_llm.reply_error(status, body)  # a 5xx is retried once
    handler, caplog = root_logs

    # advice needs the model: the reply carries the provider's error, as the user sees it
    response = handle_turn(w.alice, "any tips for breakfast?", categories=["food"])

    assert response.action == "error" and response.error, response.message
    assert fake_llm.last.api_key == PLANTED_KEY  # the key did go where it belongs
    assert secret_in(response.as_dict()) == []
    assert handler.lines, "nothing was logged: the handler is not seeing the logs"
    assert secret_in("\n".join(handler.lines)) == []
    assert secret_in(caplog.text) == []
    out = capsys.readouterr()
    assert secret_in(out.out + out.err) == []
    for message in ChatMessage.objects.for_user(w.alice):
        assert secret_in(message.content) == [] and secret_in(message.metadata) == []


@pytest.mark.parametrize("kind", ["custom", "anthropic"])
def test_the_gateways_exceptions_never_carry_the_key(alice_world, fake_llm, private_ai, kind):
    w = alice_world
    service = _point_at_fake(w, fake_llm, kind)
    config = llm.config_for(service, w.alice)
    assert secret_in(repr(config) + str(config)) == []
    for status, body in ECHOES.values():
        fake_llm.reply_error(status, body)
        if status >= 500:
            fake_llm.reply_error(status, body)
        with pytest.raises(llm.LLMError) as caught:
            llm.complete(config, messages=[{"role": "user", "content": "hi"}])
        shown = "".join(traceback.format_exception(caught.value))
        assert secret_in(shown + repr(caught.value) + repr(caught.value.args)) == [], status


def test_the_chat_surfaces_show_a_failed_turn_without_the_key(alice_world, fake_llm, private_ai):
    w = alice_world
    _point_at_fake(w, fake_llm, "anthropic")
    status, body = ECHOES["401 whole key"]
    for _ in range(3):
        fake_llm.reply_error(status, body)
    api = api_client_for(w.alice).post("/api/chat/", {"message": "2 eggs"}, format="json")
    web = Client()
    web.force_login(w.alice)
    page = web.post("/chat/send/", {"message": "2 eggs"}, HTTP_HX_REQUEST="true")
    test = web.post(f"/settings/ai/{w.service.pk}/test/", HTTP_HX_REQUEST="true")
    for response in (
        api,
        page,
        test,
        api_client_for(w.alice).get("/api/chat/history/"),
        web.get("/"),
    ):
        assert response.status_code == 200
        assert secret_in(_body(response)) == []
    assert "rejected the API key" in _body(test)


# --- pages -----------------------------------------------------------------------------------


def _service_form(**extra) -> dict:
    return {
        "service_name": "Alice's OpenAI",
        "service_type": "openai",
        "api_key": PLANTED_KEY,
        "model_name": "gpt-4o-mini",
        "custom_url": "",
        "tool_profile": "full",
        "supports_tools": "on",
        "system_prompt": "",
        "is_active": "on",
        **extra,
    }


def test_no_settings_page_shows_the_key(alice_world):
    w = alice_world
    client = Client()
    client.force_login(w.alice)
    pages = [
        client.get("/settings/ai/"),
        client.get("/settings/ai/add/"),
        client.get(f"/settings/ai/{w.service.pk}/edit/"),
        client.get("/settings/preferences/"),
        client.get("/settings/goals/"),
        client.get("/"),
        # Refused forms are shown again with their errors; the key field stays empty.
        client.post("/settings/ai/add/", _service_form(custom_url="ftp://nowhere")),
        client.post(f"/settings/ai/{w.service.pk}/edit/", _service_form(service_type="custom")),
        client.post("/settings/ai/add/", _service_form(service_name="")),
    ]
    for page in pages:
        assert page.status_code == 200
        assert secret_in(_body(page)) == []
        assert w.service.api_key not in _body(page)  # nor its ciphertext


def test_the_admin_never_shows_the_key_even_to_staff(alice_world):
    from sparky.models import User

    w = alice_world
    staff = User.objects.create_superuser(email="root@example.com", password="x")
    client = Client()
    client.force_login(staff)
    for path in (
        "/admin/aiservices/aiservicesettings/",
        f"/admin/aiservices/aiservicesettings/{w.service.pk}/change/",
        f"/admin/sparky/user/{w.alice.pk}/change/",
        "/admin/chat/chatmessage/",
        f"/admin/chat/chatmessage/{w.user_message.pk}/change/",
    ):
        page = client.get(path)
        assert page.status_code == 200, path
        assert secret_in(_body(page)) == [] and w.service.api_key not in _body(page), path


# --- at rest ---------------------------------------------------------------------------------


def test_the_database_holds_only_ciphertext(alice_world, settings):
    w = alice_world
    with connection.cursor() as cursor:
        cursor.execute("SELECT api_key FROM ai_service_settings WHERE id = %s", [w.service.pk])
        (stored,) = cursor.fetchone()
        assert stored.startswith("gAAAAA")  # a Fernet token
        assert secret_in(stored) == []
        cursor.execute(
            "SELECT table_name FROM information_schema.tables "
            "WHERE table_schema = 'public' AND table_type = 'BASE TABLE'"
        )
        tables = [row[0] for row in cursor.fetchall()]
        found = []
        for table in tables:
            cursor.execute(
                f'SELECT count(*) FROM "{table}" AS t WHERE t::text LIKE %s',  # noqa: S608
                [f"%{PLANTED_KEY[3:]}%"],
            )
            if cursor.fetchone()[0]:
                found.append(table)
    assert "ai_service_settings" in tables and found == []
    assert ai_service_api_key(w.service) == PLANTED_KEY


# --- rotation --------------------------------------------------------------------------------


def test_the_readme_says_how_to_rotate_the_encryption_key():
    readme = (ROOT / "README.md").read_text()
    assert "Rotating the encryption key" in readme
    section = readme.split("Rotating the encryption key", 1)[1].split("\n## ", 1)[0]
    assert "SPARKY_ENCRYPTION_KEYS" in section and "rotate_api_keys" in section


def test_after_rotation_the_coach_still_reaches_the_provider_with_only_the_new_key(
    alice, fake_llm, private_ai, settings
):
    from aiservices.services import ai_service_create

    old, new = Fernet.generate_key().decode(), Fernet.generate_key().decode()
    settings.SPARKY_ENCRYPTION_KEYS = [old]
    ai_service_create(
        user=alice,
        service_name="Loopback",
        service_type="custom",
        api_key=PLANTED_KEY,
        model_name="fake-model",
        custom_url=fake_llm.openai_base,
        is_active=True,
    )
    settings.SPARKY_ENCRYPTION_KEYS = [new, old]
    out = io.StringIO()
    call_command("rotate_api_keys", stdout=out)
    assert "Re-encrypted 1 API key(s)" in out.getvalue()

    settings.SPARKY_ENCRYPTION_KEYS = [new]  # the old key is gone from the environment
    fake_llm.reply_text("Hello!")
    response = handle_turn(alice, "hi there", categories=["coaching"])
    assert response.message == "Hello!"
    assert fake_llm.last.api_key == PLANTED_KEY


# --- CSRF ------------------------------------------------------------------------------------


@pytest.mark.parametrize("htmx", [False, True], ids=["form", "htmx"])
def test_every_post_is_refused_without_a_csrf_token(alice_world, htmx):
    """Every page route, posted by its logged-in owner with their own ids but no token: 403,
    and nothing changes. (The isolation matrix lists every page, so none is missed.)"""
    from tests.trust.conftest import snapshot

    w = alice_world
    client = Client(enforce_csrf_checks=True)
    client.force_login(w.alice)
    before = snapshot(w.alice)  # after the login, which stamps last_login
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    own = page_matrix(w, w.alice)
    refused = []
    for name, requests in own.items():
        paths = {path for _method, path, _data, _status in requests}
        for path in sorted(paths):
            try:
                resolve(unquote(path.split("?")[0]))
            except Resolver404:
                continue  # a probe of the isolation matrix that names no route at all
            data = next((d for _m, p, d, _s in requests if p == path and d), {})
            response = client.post(path, data, **headers)
            if response.status_code != 403:
                refused.append(f"{name} POST {path}: {response.status_code}")
    assert refused == []
    assert snapshot(w.alice) == before


def test_login_and_signup_need_the_token_too(db):
    client = Client(enforce_csrf_checks=True)
    assert (
        client.post("/accounts/login/", {"username": "a@b.c", "password": "x"}).status_code == 403
    )
    signup = {"email": "new@example.com", "password1": "x" * 12, "password2": "x" * 12}
    assert client.post("/accounts/signup/", signup).status_code == 403


def test_the_api_with_a_session_needs_the_token_but_a_token_client_does_not(alice_world):
    w = alice_world
    client = Client(enforce_csrf_checks=True)
    client.force_login(w.alice)
    refused = client.post("/api/water/", {"glasses": 1}, content_type="application/json")
    assert refused.status_code == 403
    assert client.get("/api/water/").json()["glasses"] == 7
    token = api_client_for(w.alice)
    assert token.post("/api/water/", {"glasses": 1}, format="json").json()["glasses"] == 8


def test_a_photo_upload_without_the_token_stores_nothing(alice_world, tmp_path, settings):
    from django.core.files.uploadedfile import SimpleUploadedFile

    w = alice_world
    client = Client(enforce_csrf_checks=True)
    client.force_login(w.alice)
    folder = Path(settings.MEDIA_ROOT) / "chat" / str(w.alice.pk)
    before = sorted(folder.iterdir())
    photo = SimpleUploadedFile("meal.png", png_bytes(), content_type="image/png")
    response = client.post("/chat/send/", {"message": "lunch", "image": photo})
    assert response.status_code == 403
    assert sorted(folder.iterdir()) == before


# --- production settings ---------------------------------------------------------------------


def _production_env(**extra) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "PYTEST"))}
    env.update(
        DEBUG="false",
        SECRET_KEY="prod-" + Fernet.generate_key().decode() + Fernet.generate_key().decode(),
        SPARKY_ENCRYPTION_KEYS=Fernet.generate_key().decode(),
        ALLOWED_HOSTS="sparky.example.com",
        DJANGO_SETTINGS_MODULE="config.settings",
    )
    env.update(extra)
    return env


def test_check_deploy_is_clean_with_production_settings():
    done = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=_production_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "System check identified no issues" in done.stdout


def test_production_refuses_to_start_without_an_encryption_key():
    env = _production_env()
    del env["SPARKY_ENCRYPTION_KEYS"]
    done = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode != 0
    assert "SPARKY_ENCRYPTION_KEYS must be set when DEBUG is off" in done.stderr
