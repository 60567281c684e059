"""Chat turns through the API with the built-in offline model (no AI service configured)."""

import base64
import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image

from chat.models import ChatMessage
from nutrition import services
from nutrition.models import FoodEntry

pytestmark = pytest.mark.django_db


@pytest.fixture
def egg(alice):
    return services.food_create_custom(
        user=alice, name="Egg", serving_size=1, serving_unit="large", calories=72, protein=6.3
    )


def png_bytes() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (32, 24), (200, 120, 40)).save(out, format="PNG")
    return out.getvalue()


def test_two_eggs_for_breakfast_are_logged_and_returned(alice_api, alice, egg):
    response = alice_api.post("/api/chat/", {"message": "2 eggs for breakfast"}, format="json")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["engine"] == "offline" and body["action"] == "logged"
    assert [e["kind"] for e in body["entries"]] == ["food_entry"]
    entry = FoodEntry.objects.for_user(alice).get()
    assert str(entry.pk) == body["entries"][0]["id"]
    assert entry.food == egg and entry.quantity == 2 and entry.meal_type == "breakfast"
    assert body["user_message_id"] and body["message_id"]


def test_the_same_idempotency_key_writes_once_and_answers_the_same(alice_api, alice, egg):
    first = alice_api.post(
        "/api/chat/", {"message": "2 eggs for breakfast"}, format="json",
        HTTP_IDEMPOTENCY_KEY="retry-1",
    )  # fmt: skip
    second = alice_api.post(
        "/api/chat/", {"message": "2 eggs for breakfast"}, format="json",
        HTTP_IDEMPOTENCY_KEY="retry-1",
    )  # fmt: skip
    assert first.status_code == second.status_code == 200
    assert FoodEntry.objects.for_user(alice).count() == 1
    a, b = first.json(), second.json()
    for field in ("message", "action", "entries", "message_id", "user_message_id", "engine"):
        assert a[field] == b[field], field
    assert ChatMessage.objects.for_user(alice).filter(message_type="user").count() == 1


def test_the_idempotency_key_also_works_as_a_field(alice_api, alice, egg):
    for _ in range(2):
        alice_api.post("/api/chat/", {"message": "2 eggs", "idempotency_key": "k-2"}, format="json")
    assert FoodEntry.objects.for_user(alice).count() == 1


def test_an_empty_message_is_refused_and_nothing_stored(alice_api, alice):
    response = alice_api.post("/api/chat/", {"message": "   "}, format="json")
    assert response.status_code == 400
    assert response.json() == {"error": "empty", "detail": "Type a message or attach a photo."}
    assert not ChatMessage.objects.for_user(alice).exists()


def test_an_unknown_category_is_a_400(alice_api):
    response = alice_api.post(
        "/api/chat/", {"message": "hi", "categories": ["food", "astrology"]}, format="json"
    )
    assert response.status_code == 400 and "categories" in response.json()["fields"]


def test_manual_categories_are_passed_to_the_coach(alice_api, egg):
    body = alice_api.post(
        "/api/chat/", {"message": "2 eggs", "categories": "food,goals"}, format="multipart"
    ).json()
    assert body["mode"] == "manual" and set(body["categories"]) <= {"food", "goals"}


def test_a_small_png_upload_is_accepted_and_stored_with_the_message(alice_api, alice):
    upload = SimpleUploadedFile("lunch.png", png_bytes(), content_type="image/png")
    response = alice_api.post(
        "/api/chat/", {"message": "my lunch", "image": upload}, format="multipart"
    )
    assert response.status_code == 200, response.content
    asked = ChatMessage.objects.for_user(alice).get(message_type="user")
    assert asked.metadata["image"]["width"] == 32


def test_a_base64_data_url_is_accepted(alice_api, alice):
    data_url = "data:image/png;base64," + base64.b64encode(png_bytes()).decode()
    response = alice_api.post("/api/chat/", {"image": data_url}, format="json")
    assert response.status_code == 200, response.content
    assert ChatMessage.objects.for_user(alice).get(message_type="user").metadata["image"]


def test_a_text_file_is_refused_with_a_reason(alice_api, alice):
    upload = SimpleUploadedFile("notes.txt", b"just some text", content_type="text/plain")
    response = alice_api.post("/api/chat/", {"message": "x", "image": upload}, format="multipart")
    assert response.status_code == 400
    assert response.json()["error"] == "bad_image"
    assert "not a photo" in response.json()["detail"]
    assert not ChatMessage.objects.for_user(alice).exists()


def test_base64_of_text_is_refused_too(alice_api, alice):
    response = alice_api.post(
        "/api/chat/", {"image": base64.b64encode(b"hello, not a picture").decode()}, format="json"
    )
    assert response.status_code == 400 and response.json()["error"] == "bad_image"
    broken = alice_api.post("/api/chat/", {"image": "data:image/png;base64,@@@"}, format="json")
    assert broken.status_code == 400 and broken.json()["error"] == "bad_image"


def test_turns_are_throttled_with_retry_after(alice_api, bob_api, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"chat": "2/min", "auth": "10/min"},
    }
    for _ in range(2):
        assert alice_api.post("/api/chat/", {"message": "hello"}, format="json").status_code == 200
    response = alice_api.post("/api/chat/", {"message": "hello"}, format="json")
    assert response.status_code == 429
    assert int(response["Retry-After"]) > 0
    assert response.json()["error"] == "throttled"
    # the limit is per user, and reading history is not a turn
    assert bob_api.post("/api/chat/", {"message": "hello"}, format="json").status_code == 200
    assert alice_api.get("/api/chat/history/").status_code == 200
