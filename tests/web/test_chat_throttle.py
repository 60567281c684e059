"""The web chat's posts (send, undo, review) count against the API's chat rate, per user."""

import uuid

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_a_minute(settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "chat": "2/min",
        },
    }


def test_past_the_chat_rate_a_send_answers_429_in_plain_words(alice_client, catalog, two_a_minute):
    for _ in range(2):
        assert alice_client.post("/chat/send/", {"message": "a banana"}).status_code == 302

    response = alice_client.post("/chat/send/", {"message": "a banana"})

    assert response.status_code == 429
    assert response["Retry-After"].isdigit()
    assert response.content.decode().startswith("Too many messages in a short time. Wait ")


def test_the_htmx_answer_is_the_refusal_fragment(alice_client, catalog, two_a_minute):
    for _ in range(2):
        alice_client.post("/chat/send/", {"message": "a banana"}, HTTP_HX_REQUEST="true")

    response = alice_client.post("/chat/send/", {"message": "a banana"}, HTTP_HX_REQUEST="true")

    assert response.status_code == 429
    assert "Too many messages in a short time" in response.content.decode()


def test_undo_and_review_count_too_and_each_user_has_their_own_count(
    alice_client, bob, catalog, two_a_minute
):
    reply = uuid.uuid4()
    assert alice_client.post(f"/chat/turn/undo/{reply}/").status_code == 404
    assert alice_client.post(f"/chat/turn/review/{reply}/", {"answer": "log"}).status_code == 404

    assert alice_client.post(f"/chat/turn/undo/{reply}/").status_code == 429
    bobs = Client()
    bobs.force_login(bob)
    assert bobs.post("/chat/send/", {"message": "a banana"}).status_code == 302
