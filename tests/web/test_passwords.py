"""Changing a password (Settings, Password), resetting a forgotten one by e-mail, and what any
change ends: the user's API token (MCP's too) and their other sessions."""

import re

import pytest
from django.contrib.auth.forms import AdminPasswordChangeForm
from django.core import mail
from django.test import Client
from django.urls import reverse
from rest_framework.authtoken.models import Token

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery"
NEW_PASSWORD = "a new and unusual pass"


@pytest.fixture
def alice_token(alice) -> str:
    return Token.objects.create(user=alice).key


def api_status(token: str) -> int:
    return Client().get("/api/preferences/", HTTP_AUTHORIZATION=f"Token {token}").status_code


def logged_in(email: str, password: str) -> Client:
    client = Client()
    response = client.post(reverse("login"), {"username": email, "password": password})
    assert response.status_code == 302, response.content
    return client


def test_settings_links_to_the_password_page(alice_client):
    page = alice_client.get(reverse("settings_preferences")).content.decode()

    assert f'href="{reverse("settings_password")}"' in page


def test_a_user_changes_their_password_with_the_current_one(alice, alice_token):
    client, elsewhere = logged_in(alice.email, PASSWORD), logged_in(alice.email, PASSWORD)
    assert api_status(alice_token) == 200
    assert elsewhere.get(reverse("settings_password")).status_code == 200

    response = client.post(
        reverse("settings_password"),
        {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )

    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.check_password(NEW_PASSWORD)
    assert api_status(alice_token) == 401  # the token is revoked
    assert client.get(reverse("settings_password")).status_code == 200  # this session stays
    other = elsewhere.get(reverse("settings_password"))
    assert other.status_code == 302 and reverse("login") in other["Location"]


def test_a_wrong_current_password_changes_nothing(alice, alice_client, alice_token):
    response = alice_client.post(
        reverse("settings_password"),
        {"old_password": "not it", "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )

    assert response.status_code == 200
    assert "incorrect" in response.content.decode()
    alice.refresh_from_db()
    assert alice.check_password(PASSWORD)
    assert api_status(alice_token) == 200


def test_a_forgotten_password_is_reset_by_a_link_in_an_email(alice, alice_token, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    elsewhere = logged_in(alice.email, PASSWORD)
    client = Client()

    assert "Forgot your password?" in client.get(reverse("login")).content.decode()
    response = client.post(reverse("password_reset"), {"email": "ALICE@example.com"})

    assert response.status_code == 302 and response["Location"] == reverse("password_reset_done")
    (message,) = mail.outbox
    assert message.to == ["alice@example.com"]
    link = re.search(r"http://testserver(/accounts/password-reset/\S+/)", message.body).group(1)
    form = client.get(link, follow=True)
    assert "Choose a new password" in form.content.decode()
    response = client.post(
        form.redirect_chain[-1][0],
        {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("password_reset_complete")
    logged_in(alice.email, NEW_PASSWORD)
    assert api_status(alice_token) == 401
    assert elsewhere.get(reverse("settings_password")).status_code == 302
    # the link works once
    assert "no longer works" in client.get(link, follow=True).content.decode()


def test_a_reset_for_an_email_without_an_account_sends_nothing_and_says_the_same(settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"

    response = Client().post(reverse("password_reset"), {"email": "nobody@example.com"})

    assert response.status_code == 302 and response["Location"] == reverse("password_reset_done")
    assert mail.outbox == []


def test_a_password_the_admin_sets_revokes_the_token_too(alice, alice_token):
    form = AdminPasswordChangeForm(
        alice, {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD, "usable_password": "true"}
    )
    assert form.is_valid(), form.errors
    assert api_status(alice_token) == 200

    form.save()

    assert api_status(alice_token) == 401


def test_saving_a_user_without_a_new_password_keeps_the_token(alice, alice_token):
    alice.display_name = "Alice"
    alice.save()

    assert api_status(alice_token) == 200
