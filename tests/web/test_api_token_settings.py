"""Settings: the API token, made and revoked in the page, shown once."""

from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

URL = reverse("settings_api_token")


def api_get(token: str):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client.get("/api/food-entries/")


def test_a_new_token_is_shown_once_and_works(alice, alice_client):
    made = alice_client.post(URL, {"action": "create"}, follow=True)

    token = Token.objects.get(user=alice).key
    assert token in made.content.decode() and "will not show it again" in made.content.decode()
    assert "no-store" in made["Cache-Control"]
    assert api_get(token).status_code == 200
    later = alice_client.get(URL).content.decode()
    assert token not in later and "A token is set" in later


def test_a_new_token_replaces_the_old_one(alice, alice_client):
    alice_client.post(URL, {"action": "create"})
    old = Token.objects.get(user=alice).key

    alice_client.post(URL, {"action": "create"})

    assert Token.objects.get(user=alice).key != old
    assert api_get(old).status_code == 401


def test_revoking_stops_the_token(alice, alice_client):
    alice_client.post(URL, {"action": "create"})
    token = Token.objects.get(user=alice).key

    response = alice_client.post(URL, {"action": "revoke"}, follow=True)

    assert not Token.objects.filter(user=alice).exists()
    assert "API token revoked" in response.content.decode()
    assert api_get(token).status_code == 401


def test_the_page_needs_a_login(db, client):
    assert client.get(URL).status_code == 302
    assert client.post(URL, {"action": "create"}).status_code == 302
    assert not Token.objects.exists()


def test_settings_link_to_the_token_page(alice_client):
    page = alice_client.get(reverse("settings_preferences")).content.decode()

    assert f'href="{URL}"' in page


def test_creating_redirects_so_a_reload_never_makes_another_token(alice, alice_client):
    made = alice_client.post(URL, {"action": "create"})
    assert made.status_code == 302 and made["Location"] == URL
    shown = alice_client.get(URL).content.decode()
    token = Token.objects.get(user=alice).key
    assert token in shown

    reloaded = alice_client.get(URL).content.decode()

    assert Token.objects.get(user=alice).key == token
    assert token not in reloaded and "A token is set" in reloaded
    assert api_get(token).status_code == 200


def test_a_token_revoked_before_it_was_shown_is_not_shown(alice, alice_client):
    alice_client.post(URL, {"action": "create"})
    token = Token.objects.get(user=alice).key
    Token.objects.filter(user=alice).delete()

    page = alice_client.get(URL).content.decode()

    assert token not in page and "No token yet" in page
