"""The chat page's streamed turn: the composer posts with `Accept: text/event-stream` and reads the
turn as events, the chips drawn as the page draws them, then the same fragment htmx would get."""

import json

import httpx
import pytest
from django.test import Client
from django.urls import reverse

from chat.models import ChatMessage
from nutrition.models import FoodEntry
from tests.mcp import conftest as mcp_fixtures
from tests.web.conftest import HTMX

pytestmark = pytest.mark.django_db(transaction=True)  # the turn runs in a thread of its own

STREAM = {**HTMX, "HTTP_ACCEPT": "text/event-stream"}

mcp_url = mcp_fixtures.mcp_url  # config.asgi under uvicorn


def events_of(response) -> list[tuple[str, dict]]:
    assert response.status_code == 200
    found = []
    for block in b"".join(response.streaming_content).decode().split("\n\n"):
        lines = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line)
        if "event" in lines:
            found.append((lines["event"], json.loads(lines["data"])))
    return found


def test_a_streamed_turn_sends_its_chips_then_the_drawn_reply_and_the_days(
    alice, alice_client, catalog
):
    response = alice_client.post(
        reverse("chat:send"), {"message": "2 eggs and toast for breakfast"}, **STREAM
    )

    events = events_of(response)
    assert [name for name, _ in events] == ["step", "entry", "entry", "text", "done"]
    chips = [data for name, data in events if name == "entry"]
    assert chips[0]["text"].startswith("Egg · ") and chips[0]["kind"] == "food_entry"
    assert chips[0]["title"].startswith("2 large Egg (")
    done = events[-1][1]
    reply = ChatMessage.objects.for_user(alice).filter(metadata__has_key="reply_to").get()
    assert f'id="msg-{reply.pk}"' in done["html"] and "Undo" in done["html"]
    assert done["dates"] == [FoodEntry.objects.for_user(alice).first().entry_date.isoformat()]


def test_a_refused_streamed_turn_gets_the_thread_notice_and_stores_nothing(alice, alice_client):
    response = alice_client.post(reverse("chat:send"), {"message": "  "}, **STREAM)

    assert response.status_code == 422
    assert "Not sent." in response.content.decode()
    assert not ChatMessage.objects.for_user(alice).exists()


def test_a_plain_post_still_redirects_back_to_the_page(alice, alice_client, catalog):
    response = alice_client.post(reverse("chat:send"), {"message": "2 eggs"})

    assert response.status_code == 302
    assert FoodEntry.objects.for_user(alice).count() == 1


def test_under_the_asgi_server_the_page_gets_its_turn_as_events(mcp_url, alice, catalog):
    login = Client()
    login.force_login(alice)
    cookies = {"sessionid": login.cookies["sessionid"].value}
    with httpx.Client(base_url=mcp_url, cookies=cookies, timeout=20) as browser:
        assert browser.get("/").status_code == 200  # the page, which sets the CSRF cookie
        response = browser.post(
            "/chat/send/",
            data={"message": "2 eggs for breakfast"},
            headers={
                "Accept": "text/event-stream",
                "HX-Request": "true",
                "X-CSRFToken": browser.cookies["csrftoken"],
                "Referer": mcp_url + "/",
            },
        )

    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/event-stream")
    names = [line[7:] for line in response.text.splitlines() if line.startswith("event: ")]
    assert names == ["step", "entry", "text", "done"]
    assert FoodEntry.objects.for_user(alice).count() == 1
