import uuid

import pytest
from django.test import Client
from django.urls import reverse

from chat.models import ChatMessage
from diary.services import preferences_update
from sparky.models import User
from sparky.views import SIGNUP_REFUSED

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery"


def test_signup_creates_the_account_logs_in_and_starts_a_chat_session(client):
    response = client.post(
        reverse("signup"),
        {
            "email": "Carol@Example.com",
            "password1": "a long and unusual pass",
            "password2": "a long and unusual pass",
            "time_zone": "Europe/Berlin",
        },
    )

    assert response.status_code == 302
    assert response.url == reverse("chat:page")
    user = User.objects.get(email="carol@example.com")
    assert user.time_zone == "Europe/Berlin"
    assert client.session["_auth_user_id"] == str(user.pk)
    uuid.UUID(client.session["chat_session"])


def test_signup_with_a_taken_email_does_not_confirm_the_account(client, alice):
    response = client.post(
        reverse("signup"),
        {
            "email": "ALICE@example.com",
            "password1": "xyzzy plugh 42",
            "password2": "xyzzy plugh 42",
        },
    )

    assert response.status_code == 200
    page = response.content.decode()
    assert SIGNUP_REFUSED in page
    assert "already exists" not in page and "alice@example.com is" not in page.lower()
    assert "_auth_user_id" not in client.session
    assert User.objects.filter(email__iexact="alice@example.com").count() == 1


def test_signup_with_a_taken_email_and_its_own_password_logs_its_owner_in(client, alice):
    response = client.post(
        reverse("signup"),
        {"email": "alice@example.com", "password1": PASSWORD, "password2": PASSWORD},
    )

    assert response.status_code == 302 and response.url == reverse("chat:page")
    assert client.session["_auth_user_id"] == str(alice.pk)
    assert User.objects.count() == 1


def test_signup_refuses_mismatched_passwords(client):
    response = client.post(
        reverse("signup"),
        {"email": "dan@example.com", "password1": "xyzzy plugh 42", "password2": "other one 42"},
    )

    assert response.status_code == 200
    assert not User.objects.filter(email="dan@example.com").exists()
    assert b"password" in response.content.lower()


def test_login_takes_the_email_in_any_case_and_starts_a_new_chat_session(alice):
    client = Client()
    response = client.post(
        reverse("login"), {"username": "Alice@Example.COM", "password": PASSWORD}
    )

    assert response.status_code == 302
    assert response.url == reverse("chat:page")
    first = client.session["chat_session"]

    client.post(reverse("logout"))
    client.post(reverse("login"), {"username": "alice@example.com", "password": PASSWORD})

    assert client.session["chat_session"] != first


def test_a_wrong_password_shows_an_error_and_logs_nobody_in(alice):
    client = Client()
    response = client.post(reverse("login"), {"username": "alice@example.com", "password": "nope"})

    assert response.status_code == 200
    assert b"correct email and password" in response.content.lower() or b"enter a correct" in (
        response.content.lower()
    )
    assert "_auth_user_id" not in client.session


def test_login_with_session_auto_clear_deletes_the_earlier_conversation(alice):
    preferences_update(user=alice, auto_clear_history="session")
    ChatMessage.objects.create(user=alice, message_type="user", content="old message")

    client = Client()
    client.post(reverse("login"), {"username": "alice@example.com", "password": PASSWORD})

    assert not ChatMessage.objects.for_user(alice).exists()


def test_login_keeps_the_conversation_when_auto_clear_is_off(alice):
    ChatMessage.objects.create(user=alice, message_type="user", content="old message")

    client = Client()
    client.post(reverse("login"), {"username": "alice@example.com", "password": PASSWORD})

    assert ChatMessage.objects.for_user(alice).count() == 1


def test_logout_needs_a_post(alice_client):
    assert alice_client.get(reverse("logout")).status_code == 405

    response = alice_client.post(reverse("logout"))

    assert response.status_code == 302
    assert "_auth_user_id" not in alice_client.session


def test_the_login_form_is_protected_by_csrf(alice):
    client = Client(enforce_csrf_checks=True)

    response = client.post(
        reverse("login"), {"username": "alice@example.com", "password": PASSWORD}
    )

    assert response.status_code == 403
    assert "_auth_user_id" not in client.session


def test_pages_need_a_login(client):
    for name in ("chat:page", "diary", "settings_ai", "settings_preferences", "settings_goals"):
        response = client.get(reverse(name))
        assert response.status_code == 302, name
        assert response.url.startswith(reverse("login")), name


def test_a_fresh_instance_opens_on_creating_the_owner_account(client):
    response = client.get("/", follow=True)

    assert response.redirect_chain[-1][0] == reverse("signup")
    html = response.content.decode()
    assert "<h1>Create the owner account</h1>" in html
    assert "Log in</a>" not in html


def test_the_first_account_is_the_owner_and_later_visitors_get_log_in(client):
    client.post(
        reverse("signup"),
        {"email": "owner@example.com", "password1": PASSWORD, "password2": PASSWORD},
    )
    owner = User.objects.get(email="owner@example.com")
    assert owner.is_staff and owner.is_superuser

    visitor = Client()
    response = visitor.get("/", follow=True)
    assert response.redirect_chain[-1][0].startswith(reverse("login"))
    assert "<h1>Log in</h1>" in response.content.decode()
    signup = visitor.get(reverse("signup")).content.decode()
    assert "<h1>Create your account</h1>" in signup and "owner" not in signup.lower()
