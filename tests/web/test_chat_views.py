import json
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from aiservices.services import ai_service_create
from chat.models import ChatMessage
from chat.turn.coach import handle_turn
from chat.turn.summaries import create_progress_summary
from chat.web.views import chip_for
from diary.services import preferences_update
from nutrition.models import FoodEntry
from sparky.dates import today_for
from sparky.services import preferences_for
from tests.fake_llm import Reply
from tests.web.conftest import HTMX, png_bytes

pytestmark = pytest.mark.django_db
SEND = reverse("chat:send")


def send(client, message="", **extra):
    return client.post(SEND, {"message": message, **extra}, **HTMX)


def diary_event(response):
    return json.loads(response.headers.get("HX-Trigger", "{}")).get("diary-changed")


def test_the_chat_page_shows_the_conversation_and_todays_diary(alice, alice_client):
    ChatMessage.objects.create(user=alice, message_type="user", content="hello coach")
    ChatMessage.objects.create(user=alice, message_type="assistant", content="Hi Alice!")

    response = alice_client.get(reverse("chat:page"))

    assert response.status_code == 200
    html = response.content.decode()
    assert "hello coach" in html and "Hi Alice!" in html
    assert 'id="diary"' in html and "Today" in html
    assert 'hx-headers=\'{"X-CSRFToken": "' in html
    assert "/static/django_htmx/htmx-2" in html  # vendored htmx, no CDN
    assert "https://" not in html.split("<body")[0]


def test_a_logging_message_returns_the_reply_fragment_and_the_diary_event(
    alice, alice_client, catalog
):
    response = send(alice_client, "2 eggs for breakfast")

    assert response.status_code == 200
    html = response.content.decode()
    assert "<html" not in html  # a fragment, not a page
    assert "2 eggs for breakfast" in html  # the user's message
    assert 'class="msg msg--reply' in html
    assert 'class="chip chip--food_entry"' in html  # the entry it wrote
    assert ">Egg · 143 kcal<" in html  # the short name; the full one only on hover
    assert all(
        "Egg, whole, raw, fresh" in title
        for title in re.findall(r'title="([^"]*)"', html)
        if "Egg, whole" in title
    ) and html.count("Egg, whole, raw, fresh") == len(re.findall(r'title="[^"]*Egg, whole', html))
    assert diary_event(response) == {"dates": [today_for(alice).isoformat()]}
    entry = FoodEntry.objects.for_user(alice).get()
    assert entry.meal_type == "breakfast"


def test_a_chip_says_what_was_saved_in_a_few_words_not_the_reply_again(alice_client, catalog):
    response = send(alice_client, "2 eggs and a banana for breakfast")

    html = response.content.decode()
    reply = ChatMessage.objects.filter(message_type="assistant").latest("created_at")
    chips = re.findall(r'<li class="chip chip--food_entry"[^>]*>([^<]*)</li>', html)
    assert chips == ["Egg · 143 kcal", "Banana · 105 kcal"]
    for chip in chips:
        assert chip not in reply.content  # the reply has its own words
    assert 'title="2 large Egg (breakfast, ' in html  # the full line on hover
    assert "143 kcal) · Egg, whole, raw, fresh" in html  # and the food's full catalog name


def test_a_chip_of_an_older_reply_without_its_own_words_is_cut_short():
    old = {"kind": "food_entry", "summary": "2 large Egg, raw (breakfast, 2026-12-01, 143 kcal)"}

    assert chip_for(old) == {
        "kind": "food_entry",
        "text": "2 large Egg, raw",
        "title": "2 large Egg, raw (breakfast, 2026-12-01, 143 kcal)",
    }


def test_a_message_that_logs_nothing_sends_no_diary_event(alice_client):
    response = send(alice_client, "what a lovely day")

    assert response.status_code == 200
    assert 'class="msg msg--reply' in response.content.decode()
    assert diary_event(response) is None


def test_the_reply_shows_the_mode_and_the_categories(alice_client, catalog):
    response = send(alice_client, "2 eggs for breakfast")

    html = response.content.decode()
    assert 'data-mode="auto"' in html
    assert '<span class="tag tag--mode">Auto</span>' in html
    assert '<span class="tag">Food</span>' in html


def test_an_empty_message_is_refused_in_the_thread_and_nothing_is_stored(alice, alice_client):
    response = send(alice_client, "   ")

    assert response.status_code == 422
    html = response.content.decode()
    assert 'role="alert"' in html and "Type a message or attach a photo." in html
    assert not ChatMessage.objects.for_user(alice).exists()


def test_a_file_that_is_not_a_photo_is_refused_with_the_reason(alice, alice_client, media):
    upload = SimpleUploadedFile("notes.txt", b"just text", content_type="text/plain")

    response = send(alice_client, "lunch", image=upload)

    assert response.status_code == 422
    html = response.content.decode()
    assert 'data-code="bad_image"' in html
    assert "notes.txt is not a photo" in html
    assert not ChatMessage.objects.for_user(alice).exists()


def test_a_photo_over_the_size_limit_is_refused(alice, alice_client, media, settings):
    settings.SPARKY_MAX_IMAGE_BYTES = 200
    upload = SimpleUploadedFile("big.png", png_bytes((300, 300)), content_type="image/png")

    response = send(alice_client, "", image=upload)

    assert response.status_code == 422
    assert "the limit is" in response.content.decode()
    assert not ChatMessage.objects.for_user(alice).exists()


def test_an_unknown_food_offers_numbered_buttons_and_clicking_one_logs_it(
    alice, alice_client, catalog
):
    response = send(alice_client, "a greek yoghurt pot for a snack")

    html = response.content.decode()
    assert 'class="options"' in html
    assert 'hx-vals=\'{"message": "1"}\'' in html
    assert not FoodEntry.objects.for_user(alice).exists()

    picked = send(alice_client, "1")

    assert picked.status_code == 200
    assert FoodEntry.objects.for_user(alice).count() == 1
    assert diary_event(picked) is not None
    assert 'class="options"' not in picked.content.decode()


def test_options_are_buttons_only_on_the_newest_reply(alice, alice_client, catalog):
    send(alice_client, "a greek yoghurt pot for a snack")
    send(alice_client, "what a lovely day")

    html = alice_client.get(reverse("chat:page")).content.decode()

    assert 'class="options"' not in html


def test_the_tool_selector_is_remembered_for_the_user(alice, alice_client):
    url = reverse("chat:tools")

    response = alice_client.post(
        url, {"tool_mode": "manual", "categories": ["food", "goals"]}, **HTMX
    )

    assert response.status_code == 200
    assert preferences_for(alice).chat_categories == ["food", "goals"]
    page = alice_client.get(reverse("chat:page")).content.decode()
    assert 'id="tool-mode-manual" name="tool_mode" value="manual" checked' in page
    assert 'value="goals" checked' in page
    assert 'value="exercise" checked' not in page

    alice_client.post(url, {"tool_mode": "auto"}, **HTMX)

    assert preferences_for(alice).chat_categories == []


def test_switching_to_manual_starts_from_the_core_categories(alice, alice_client):
    alice_client.post(reverse("chat:tools"), {"tool_mode": "manual"}, **HTMX)

    assert preferences_for(alice).chat_categories == ["food", "exercise", "checkin", "goals"]


def test_unticking_every_category_is_refused_and_keeps_the_last_pick(alice, alice_client):
    preferences_update(user=alice, chat_categories=["food"])

    response = alice_client.post(reverse("chat:tools"), {"tool_mode": "manual"}, **HTMX)

    assert response.status_code == 422
    assert "Pick at least one tool category" in response.content.decode()
    assert preferences_for(alice).chat_categories == ["food"]


def test_a_manual_pick_goes_to_the_coach_and_shows_on_the_reply(alice, alice_client, catalog):
    response = send(alice_client, "2 eggs for breakfast", tool_mode="manual", categories=["food"])

    html = response.content.decode()
    assert 'data-mode="manual"' in html
    assert '<span class="tag tag--mode">Manual</span>' in html
    reply = ChatMessage.objects.for_user(alice).filter(message_type="assistant").get()
    assert reply.metadata["response"]["mode"] == "manual"
    assert reply.metadata["response"]["categories"] == ["food"]
    assert preferences_for(alice).chat_categories == ["food"]


def test_a_remembered_manual_pick_is_used_when_the_post_has_no_selector(
    alice, alice_client, catalog
):
    preferences_update(user=alice, chat_categories=["food", "checkin"])

    send(alice_client, "2 eggs for breakfast")

    reply = ChatMessage.objects.for_user(alice).filter(message_type="assistant").get()
    assert reply.metadata["response"]["mode"] == "manual"


def test_a_turn_uses_the_chat_session_started_at_login(alice, alice_client):
    alice_client.get(reverse("chat:page"))
    session_id = alice_client.session["chat_session"]

    send(alice_client, "what a lovely day")

    assert {str(m.session_id) for m in ChatMessage.objects.for_user(alice)} == {session_id}


def test_a_retried_message_with_the_same_key_logs_once(alice, alice_client, catalog):
    first = send(alice_client, "2 eggs for breakfast", idempotency_key="k-1")
    again = send(alice_client, "2 eggs for breakfast", idempotency_key="k-1")

    assert first.status_code == again.status_code == 200
    assert FoodEntry.objects.for_user(alice).count() == 1
    assert ChatMessage.objects.for_user(alice).filter(message_type="user").count() == 1


def test_a_provider_failure_comes_back_as_a_reply_in_the_thread(
    alice, alice_client, fake_llm, private_ai
):
    ai_service_create(
        user=alice,
        service_name="Loopback",
        service_type="custom",
        api_key="sk-web-test-0001",
        model_name="fake-model",
        custom_url=fake_llm.openai_base,
        is_active=True,
    )
    fake_llm.respond_with(lambda request: Reply.error(503, "upstream overloaded"))

    response = send(alice_client, "any tips for my sleep?")

    assert response.status_code == 200
    html = response.content.decode()
    assert "had a server error" in html and "Settings" in html
    assert "fake-model" not in html
    assert "sk-web-test-0001" not in html


def test_a_plain_post_without_htmx_redirects_back_to_the_page(alice, alice_client):
    response = alice_client.post(SEND, {"message": "what a lovely day"})

    assert response.status_code == 302
    assert response.url == reverse("chat:page")
    assert ChatMessage.objects.for_user(alice).filter(message_type="user").count() == 1


def test_the_chat_post_is_protected_by_csrf(alice):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)

    response = client.post(SEND, {"message": "2 eggs"}, **HTMX)

    assert response.status_code == 403
    assert not ChatMessage.objects.for_user(alice).exists()


def test_the_chat_post_accepts_the_csrf_header_htmx_sends(alice):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    page = client.get(reverse("chat:page"))
    token = page.context["csrf_token"]

    response = client.post(SEND, {"message": "hello"}, HTTP_X_CSRFTOKEN=str(token), **HTMX)

    assert response.status_code == 200


def test_the_progress_summary_is_polled_until_it_exists(alice, alice_client, catalog):
    turn = handle_turn(alice, "2 eggs for breakfast")  # the test transaction holds the summary
    url = reverse("chat:summary", args=[turn.message_id])

    waiting = alice_client.get(url, {"try": 1}, **HTMX)

    assert waiting.status_code == 200
    assert f"{url}?try=2" in waiting.content.decode()
    assert 'hx-trigger="load delay:' in waiting.content.decode()

    create_progress_summary(message_id=turn.message_id)
    ready = alice_client.get(url, {"try": 2}, **HTMX)

    html = ready.content.decode()
    assert 'class="msg msg--summary"' in html
    assert "so far" in html


def test_the_summary_poll_gives_up_after_a_few_tries(alice, alice_client, catalog):
    turn = handle_turn(alice, "2 eggs for breakfast")

    response = alice_client.get(
        reverse("chat:summary", args=[turn.message_id]), {"try": 99}, **HTMX
    )

    assert response.status_code == 200
    assert response.content == b""


def test_a_turn_whose_summary_is_ready_shows_it_right_away(alice, alice_client, catalog):
    from django.test import TestCase

    with TestCase.captureOnCommitCallbacks(execute=True):
        response = send(alice_client, "2 eggs for breakfast")

    assert response.status_code == 200
    # the summary task ran as the turn committed; the next poll finds it at once
    reply = ChatMessage.objects.for_user(alice).filter(metadata__response__isnull=False).get()
    polled = alice_client.get(reverse("chat:summary", args=[reply.id]), **HTMX)
    assert 'class="msg msg--summary"' in polled.content.decode()


def test_bob_gets_404_for_alices_summary(alice, bob_client, catalog):
    turn = handle_turn(alice, "2 eggs for breakfast")

    response = bob_client.get(reverse("chat:summary", args=[turn.message_id]), **HTMX)

    assert response.status_code == 404


def test_photos_are_served_to_their_owner_only(alice, alice_client, bob_client, media):
    upload = SimpleUploadedFile("lunch.png", png_bytes(), content_type="image/png")
    send(alice_client, "my lunch", image=upload)
    asked = ChatMessage.objects.for_user(alice).get(message_type="user")
    name = asked.metadata["image"]["name"]
    _, owner, filename = name.split("/")
    url = reverse("chat:image", args=[owner, filename])

    mine = alice_client.get(url)
    page = alice_client.get(reverse("chat:page")).content.decode()

    assert mine.status_code == 200
    assert mine["Content-Type"] == "image/jpeg"
    assert b"".join(mine.streaming_content).startswith(b"\xff\xd8")
    assert f'src="{url}"' in page
    assert "/media/" not in page
    assert bob_client.get(url).status_code == 404
    assert Client().get(url).status_code == 302  # to the login page


@pytest.mark.parametrize("filename", ["..%2F..%2Fsecret.jpg", "x.png", "notes.txt"])
def test_the_photo_view_serves_nothing_but_stored_photo_names(alice, alice_client, filename):
    response = alice_client.get(f"/chat/images/{alice.pk}/{filename}")

    assert response.status_code == 404
