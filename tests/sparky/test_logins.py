"""Guessing passwords, bounded: the client address is the socket's unless trusted proxies are
configured, failed logins lock the account (and the address) on the login page and the token
endpoint alike, and the sign-up form neither confirms an account nor guesses faster."""

import datetime as dt

import pytest
import time_machine
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from sparky.logins import locked_out_message
from sparky.views import SIGNUP_REFUSED

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery"
WRONG = "not the password"


def token(email, password, *, address="203.0.113.5", forwarded=None):
    extra = {"REMOTE_ADDR": address}
    if forwarded:
        extra["HTTP_X_FORWARDED_FOR"] = forwarded
    return APIClient().post(
        "/api/auth/token/", {"email": email, "password": password}, format="json", **extra
    )


def page_login(email, password, *, address="203.0.113.5"):
    client = Client(REMOTE_ADDR=address)
    response = client.post(reverse("login"), {"username": email, "password": password})
    return response, client


@pytest.fixture
def many_tries(settings):
    # The per-address throttle of the token endpoint out of the way: the lockout is under test.
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "auth": "1000/min",
        },
    }


def test_the_token_throttle_does_not_believe_x_forwarded_for(alice, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"auth": "3/min", "chat": "30/min"},
    }
    for i in range(3):
        token(alice.email, WRONG, forwarded=f"198.51.100.{i}")

    response = token(alice.email, PASSWORD, forwarded="198.51.100.99")

    assert response.status_code == 429
    assert response.json()["error"] == "throttled"


def test_behind_a_trusted_proxy_the_throttle_keys_on_the_address_the_proxy_saw(alice, settings):
    settings.SPARKY_TRUSTED_PROXIES = 1
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"auth": "3/min", "chat": "30/min"},
    }
    proxy = "10.0.0.2"
    # The client's own X-Forwarded-For entries come first; the proxy adds the real address last.
    for i in range(3):
        token(alice.email, WRONG, address=proxy, forwarded=f"198.51.100.{i}, 192.0.2.7")
    assert token(alice.email, PASSWORD, address=proxy, forwarded="192.0.2.7").status_code == 429

    other_client = token(alice.email, PASSWORD, address=proxy, forwarded="192.0.2.8")
    assert other_client.status_code == 200


def test_ten_wrong_passwords_from_ten_addresses_lock_the_account_on_the_token_endpoint(
    alice, many_tries
):
    for i in range(9):
        assert token(alice.email, WRONG, address=f"198.51.100.{i}").status_code == 400
    tenth = token(alice.email, WRONG, address="198.51.100.9")
    assert tenth.status_code == 429

    response = token(alice.email, PASSWORD, address="192.0.2.1")

    assert response.status_code == 429
    assert response.json() == {"error": "locked_out", "detail": locked_out_message()}
    assert response.json()["detail"] == (
        "Too many failed logins for this account or from this address. Try again in 15 minutes."
    )
    assert int(response["Retry-After"]) == 900
    assert "token" not in response.json()


def test_the_lock_ends_after_the_lockout_time(alice, many_tries):
    for i in range(10):
        token(alice.email, WRONG, address=f"198.51.100.{i}")
    assert token(alice.email, PASSWORD, address="192.0.2.1").status_code == 429

    with time_machine.travel(dt.datetime.now(dt.UTC) + dt.timedelta(minutes=16)):
        assert token(alice.email, PASSWORD, address="192.0.2.1").status_code == 200


def test_ten_wrong_passwords_on_the_login_page_lock_the_account(alice):
    for i in range(10):
        response, _ = page_login(alice.email, WRONG, address=f"198.51.100.{i}")

    response, client = page_login(alice.email, PASSWORD, address="192.0.2.1")

    assert response.status_code == 429
    assert locked_out_message() in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_failures_count_across_the_page_and_the_token_endpoint(alice, many_tries):
    for i in range(5):
        page_login("ALICE@example.com", WRONG, address=f"198.51.100.{i}")
        token(alice.email, WRONG, address=f"198.51.100.{i + 50}")

    assert token(alice.email, PASSWORD, address="192.0.2.1").status_code == 429
    assert page_login(alice.email, PASSWORD, address="192.0.2.1")[0].status_code == 429


def test_a_locked_account_leaves_other_accounts_alone(alice, bob, many_tries):
    for i in range(10):
        token(alice.email, WRONG, address=f"198.51.100.{i}")

    response, client = page_login(bob.email, PASSWORD, address="192.0.2.1")

    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(bob.pk)


def test_one_address_trying_many_accounts_is_locked_too(alice, many_tries):
    for i in range(10):
        token(f"someone{i}@example.com", WRONG, address="198.51.100.1")

    assert token(alice.email, PASSWORD, address="198.51.100.1").status_code == 429
    assert token(alice.email, PASSWORD, address="192.0.2.1").status_code == 200


def test_a_successful_login_clears_the_count(alice, many_tries):
    for i in range(9):
        token(alice.email, WRONG, address=f"198.51.100.{i}")
    assert token(alice.email, PASSWORD, address="192.0.2.1").status_code == 200
    for i in range(9):
        token(alice.email, WRONG, address=f"198.51.100.{i + 20}")

    assert token(alice.email, PASSWORD, address="192.0.2.1").status_code == 200


def test_signing_up_with_a_taken_email_counts_as_a_failed_login(alice):
    signup = {"email": alice.email, "password1": "xyzzy plugh 42", "password2": "xyzzy plugh 42"}
    for i in range(9):
        response = Client(REMOTE_ADDR=f"198.51.100.{i}").post(reverse("signup"), signup)
        assert SIGNUP_REFUSED in response.content.decode()

    response, _ = page_login(alice.email, WRONG, address="198.51.100.200")

    assert response.status_code == 429


def test_sign_ups_are_throttled_per_address(db, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "signup": "2/hour",
        },
    }
    client = Client(REMOTE_ADDR="198.51.100.1")
    for i in range(2):
        pw = f"a long unusual pass {i}"
        data = {"email": f"new{i}@example.com", "password1": pw, "password2": pw}
        assert client.post(reverse("signup"), data).status_code == 302
        client.logout()

    pw = "a long unusual pass 9"
    data = {"email": "new9@example.com", "password1": pw, "password2": pw}
    response = client.post(reverse("signup"), data)

    assert response.status_code == 429
    assert "Too many sign-ups from this address. Try again in" in response.content.decode()
    assert Client(REMOTE_ADDR="198.51.100.2").post(reverse("signup"), data).status_code == 302
