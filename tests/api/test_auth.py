"""The token endpoint, token and session authentication, and the 401 for everyone else."""

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery"


def test_email_and_password_get_a_token_that_authenticates(alice, anon_api):
    response = anon_api.post(
        "/api/auth/token/", {"email": "Alice@Example.com", "password": PASSWORD}, format="json"
    )
    assert response.status_code == 200
    body = response.json()
    assert body["email"] == "alice@example.com" and body["user_id"] == str(alice.pk)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {body['token']}")
    assert client.get("/api/food-entries/").status_code == 200


def test_asking_twice_returns_the_same_token(alice, anon_api):
    first = anon_api.post("/api/auth/token/", {"email": alice.email, "password": PASSWORD})
    second = anon_api.post("/api/auth/token/", {"email": alice.email, "password": PASSWORD})
    assert first.json()["token"] == second.json()["token"]


def test_a_wrong_password_gets_a_clear_400_and_no_token(alice, anon_api):
    response = anon_api.post("/api/auth/token/", {"email": alice.email, "password": "nope"})
    assert response.status_code == 400
    assert response.json()["error"] == "invalid_credentials"
    assert response.json()["detail"] == "Wrong email or password."
    assert not Token.objects.filter(user=alice).exists()


def test_a_missing_field_names_the_field(anon_api):
    response = anon_api.post("/api/auth/token/", {"email": "alice@example.com"}, format="json")
    assert response.status_code == 400
    assert "password" in response.json()["fields"]


def test_delete_revokes_the_token(alice_api, alice):
    assert alice_api.delete("/api/auth/token/").status_code == 204
    assert not Token.objects.filter(user=alice).exists()
    response = alice_api.get("/api/food-entries/")
    assert response.status_code == 401
    assert response.json()["error"] == "authentication_failed"


def test_without_credentials_every_endpoint_answers_401(anon_api):
    for path in (
        "/api/foods/",
        "/api/food-entries/",
        "/api/exercises/",
        "/api/exercise-entries/",
        "/api/checkins/",
        "/api/custom-categories/",
        "/api/custom-measurements/",
        "/api/water/",
        "/api/goals/",
        "/api/summary/",
        "/api/chat/history/",
        "/api/ai-services/",
        "/api/preferences/",
    ):
        response = anon_api.get(path)
        assert response.status_code == 401, path
        assert response.json()["error"] == "not_authenticated", path
        assert response["WWW-Authenticate"] == "Token"
    for path in ("/api/schema/", "/api/docs/"):
        assert anon_api.get(path).status_code == 401, path
    assert anon_api.post("/api/chat/", {"message": "hi"}).status_code == 401


def test_a_browser_session_authenticates_too(alice):
    client = APIClient()
    client.force_login(alice)
    assert client.get("/api/summary/").status_code == 200


def test_the_token_endpoint_is_throttled(alice, anon_api, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"auth": "2/min", "chat": "30/min"},
    }
    for _ in range(2):
        anon_api.post("/api/auth/token/", {"email": alice.email, "password": "guess"})
    response = anon_api.post("/api/auth/token/", {"email": alice.email, "password": PASSWORD})
    assert response.status_code == 429
    assert int(response["Retry-After"]) > 0
    assert response.json()["error"] == "throttled"


def test_the_api_root_lists_the_docs_and_endpoints_without_a_login(anon_api):
    response = anon_api.get("/api/")

    assert response.status_code == 200
    body = response.json()
    assert body["docs"] == "http://testserver/api/docs/"
    assert body["token"] == "http://testserver/api/auth/token/"
    assert body["food_entries"] == "http://testserver/api/food-entries/"


def test_a_browser_opening_the_api_root_is_sent_to_the_docs(client):
    response = client.get("/api/", HTTP_ACCEPT="text/html,application/xhtml+xml")

    assert response.status_code == 302
    assert response.url == "/api/docs/"


def test_a_browser_without_a_session_is_asked_to_log_in_before_the_docs(client):
    response = client.get("/api/docs/", HTTP_ACCEPT="text/html")

    assert response.status_code == 302
    assert response.url == "/accounts/login/?next=/api/docs/"


def test_a_logged_in_browser_sees_the_docs(client, alice):
    client.force_login(alice)

    response = client.get("/api/docs/", HTTP_ACCEPT="text/html")

    assert response.status_code == 200
    assert b"swagger" in response.content.lower()
