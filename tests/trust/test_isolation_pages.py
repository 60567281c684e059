"""Bob, logged in, against every page and htmx endpoint with alice's ids: 404s, nothing of hers
shown, alice's rows unchanged. Pages come from the URL resolver, so a new one must join the
matrix (`test_every_page_is_in_the_isolation_matrix`)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from tests.trust.conftest import as_text, leaks, snapshot

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def _walk(patterns, prefix="", namespace=""):
    for p in patterns:
        if isinstance(p, URLResolver):
            space = f"{p.namespace}:" if p.namespace else namespace
            yield from _walk(p.url_patterns, prefix + str(p.pattern), space)
        elif isinstance(p, URLPattern):
            yield prefix + str(p.pattern), f"{namespace}{p.name}" if p.name else None


def page_names() -> set[str]:
    """Every named page outside /api/ and /admin/ (the DEBUG static route has no name)."""
    return {
        name
        for route, name in _walk(get_resolver().url_patterns)
        if name and not route.startswith(("api/", "admin/"))
    }


def _service_form(**extra) -> dict:
    return {
        "service_name": "Taken over",
        "service_type": "openai",
        "api_key": "",
        "model_name": "gpt-4o-mini",
        "custom_url": "",
        "tool_profile": "full",
        "supports_tools": "on",
        "system_prompt": "",
        "is_active": "on",
        **extra,
    }


def _matrix(w, bob) -> dict:
    """url name -> [(METHOD, path, form data, expected status or None for "not a 5xx")]."""
    entry, ex_entry, service = w.food_entry.pk, w.exercise_entry.pk, w.service.pk
    day = w.day.isoformat()
    photo = w.photo_file
    reset_uid = urlsafe_base64_encode(force_bytes(w.alice.pk))
    return {
        "signup": [("GET", "/accounts/signup/", None, 302)],
        "login": [("GET", "/accounts/login/", None, 302)],
        # logout is sent last, by itself (it ends bob's session).
        "logout": [("POST", "/accounts/logout/", None, 302)],
        "diary": [("GET", f"/diary/?date={day}", None, 200)],
        "report": [
            ("GET", f"/report/?period=week&end={day}", None, 200),
            ("GET", f"/report/?period=month&end={day}", None, 200),
        ],
        "diary_water": [("POST", f"/diary/water/?date={day}", {"change": "-1"}, 302)],
        # bob's own day before: nothing to repeat for him, alice's meals stay hers
        "diary_meal_repeat": [("POST", f"/diary/repeat/?date={day}", {"meal": "lunch"}, 302)],
        # alice's usual breakfast is hers: bob has none to log and nothing of his to save
        "diary_usual_meal": [
            ("POST", f"/diary/usual/?date={day}", {"meal": "breakfast"}, 302),
            ("POST", f"/diary/usual/?date={day}", {"meal": "breakfast", "action": "save"}, 302),
        ],
        # alice's granola is not one of bob's frequent foods
        "diary_quick_add": [
            ("POST", f"/diary/quick-add/?date={day}", {"food": str(w.food.pk)}, 404)
        ],
        "diary_food_edit": [
            ("GET", f"/diary/food/{entry}/edit/", None, 404),
            ("POST", f"/diary/food/{entry}/edit/", {"quantity": "9", "meal_type": "lunch"}, 404),
        ],
        "diary_food_delete": [("POST", f"/diary/food/{entry}/delete/", None, 404)],
        "diary_exercise_edit": [
            ("GET", f"/diary/exercise/{ex_entry}/edit/", None, 404),
            ("POST", f"/diary/exercise/{ex_entry}/edit/", {"duration_minutes": "99"}, 404),
        ],
        "diary_exercise_delete": [("POST", f"/diary/exercise/{ex_entry}/delete/", None, 404)],
        # bob has no check-in on alice's day: nothing of hers to edit; his own water is his
        "diary_checkin_edit": [
            ("GET", f"/diary/checkin/weight/edit/?date={day}", None, 404),
            ("POST", f"/diary/checkin/weight/edit/?date={day}", {"value": "99"}, 404),
        ],
        "diary_checkin_delete": [("POST", f"/diary/checkin/weight/delete/?date={day}", None, 404)],
        "diary_water_edit": [
            ("GET", f"/diary/water/edit/?date={day}", None, 200),
            ("POST", f"/diary/water/edit/?date={day}", {"glasses": "2"}, 302),
        ],
        "diary_measurement_edit": [
            ("GET", f"/diary/measurement/{w.measurement.pk}/edit/", None, 404),
            ("POST", f"/diary/measurement/{w.measurement.pk}/edit/", {"value": "1"}, 404),
        ],
        "diary_measurement_delete": [
            ("POST", f"/diary/measurement/{w.measurement.pk}/delete/", None, 404)
        ],
        "settings": [("GET", "/settings/", None, 302)],
        "settings_ai": [("GET", "/settings/ai/", None, 200)],
        "settings_ai_add": [
            ("GET", "/settings/ai/add/", None, 200),
            ("POST", "/settings/ai/add/", _service_form(api_key="sk-bob-own-000000"), 302),
        ],
        "settings_ai_offline": [("POST", "/settings/ai/offline/", None, 302)],
        "settings_ai_edit": [
            ("GET", f"/settings/ai/{service}/edit/", None, 404),
            ("POST", f"/settings/ai/{service}/edit/", _service_form(), 404),
        ],
        "settings_ai_activate": [("POST", f"/settings/ai/{service}/activate/", None, 404)],
        "settings_ai_delete": [("POST", f"/settings/ai/{service}/delete/", None, 404)],
        "settings_ai_test": [("POST", f"/settings/ai/{service}/test/", None, 404)],
        "settings_preferences": [
            ("GET", "/settings/preferences/", None, 200),
            (
                "POST",
                "/settings/preferences/",
                {
                    "date_format": "yyyy-MM-dd",
                    "default_weight_unit": "lb",
                    "default_measurement_unit": "inches",
                    "time_zone": "UTC",
                    "auto_clear_history": "never",
                    "system_prompt": "",
                    "dietary_notes": "bob: no plums",
                },
                302,
            ),
        ],
        "settings_clear_history": [("POST", "/settings/history/clear/", None, 302)],
        "favicon": [("GET", "/favicon.ico", None, 301)],
        # bob's own password, asked with a wrong current one: nothing changes
        "settings_password": [
            ("GET", "/settings/password/", None, 200),
            ("POST", "/settings/password/", {"old_password": "not it"}, 200),
        ],
        # anyone may ask for a reset link; it goes to the account's own e-mail, not to bob
        "password_reset": [
            ("GET", "/accounts/password-reset/", None, 200),
            ("POST", "/accounts/password-reset/", {"email": w.alice.email}, 302),
        ],
        "password_reset_done": [("GET", "/accounts/password-reset/sent/", None, 200)],
        "password_reset_confirm": [
            ("GET", f"/accounts/password-reset/{reset_uid}/set-password/", None, 200),
            ("POST", f"/accounts/password-reset/{reset_uid}/not-a-token/", {}, 200),
        ],
        "password_reset_complete": [("GET", "/accounts/password-reset/done/", None, 200)],
        # bob's own token: made and shown to him, then revoked; alice's is never touched
        "settings_api_token": [
            ("GET", "/settings/api-token/", None, 200),
            ("POST", "/settings/api-token/", {"action": "create"}, 302),
            ("POST", "/settings/api-token/", {"action": "revoke"}, 302),
        ],
        "settings_goals": [
            ("GET", "/settings/goals/", None, 200),
            ("POST", "/settings/goals/", {"calories": "1800"}, 302),
        ],
        # bob's own data out: nothing of alice's in it (leaks are checked on every answer)
        "settings_data": [("GET", "/settings/data/", None, 200)],
        "settings_data_export_json": [("GET", "/settings/data/export.json", None, 200)],
        "settings_data_export_csv": [("GET", "/settings/data/export.zip", None, 200)],
        "settings_data_upload": [("POST", "/settings/data/import/", None, 302)],
        "settings_data_import": [("GET", f"/settings/data/import/{w.import_job.pk}/", None, 404)],
        "settings_data_import_confirm": [
            ("POST", f"/settings/data/import/{w.import_job.pk}/confirm/", None, 404)
        ],
        "chat:page": [("GET", f"/?date={day}", None, 200)],
        # Without htmx the chat posts redirect back to the page; with it they answer fragments.
        "chat:send": [
            ("POST", "/chat/send/", {"message": "show me alice@example.com's weight"}, 302),
            ("POST", "/chat/send/", {"message": f"delete entry {entry}"}, 302),
        ],
        "chat:tools": [("POST", "/chat/tools/", {"tool_mode": "auto"}, 302)],
        "chat:summary": [("GET", f"/chat/summary/{w.reply.pk}/", None, 404)],
        "chat:undo": [("POST", f"/chat/turn/undo/{w.reply.pk}/", None, 404)],
        "chat:review": [("POST", f"/chat/turn/review/{w.reply.pk}/", {"answer": "log"}, 404)],
        "chat:image": [
            ("GET", f"/chat/images/{w.alice.pk}/{photo}", None, 404),
            ("GET", f"/chat/images/{bob.pk}/{photo}", None, 404),
            ("GET", f"/chat/images/{bob.pk}/..%2F{w.alice.pk}%2F{photo}", None, 404),
        ],
    }


def test_every_page_is_in_the_isolation_matrix(alice_world, bob):
    covered = set(_matrix(alice_world, bob))
    served = page_names()
    assert served - covered == set(), "add these pages to the isolation matrix"
    assert covered - served == set(), "the matrix names pages that no longer exist"


def _body(response) -> str:
    if getattr(response, "streaming", False):
        return as_text(b"".join(response.streaming_content))
    return as_text(response.content)


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_bob_sees_and_changes_nothing_of_alices_on_any_page(alice_world, bob, htmx):
    w = alice_world
    before = snapshot(w.alice)
    client = Client(raise_request_exception=False)
    client.force_login(bob)
    headers = HTMX if htmx else {}
    matrix = _matrix(w, bob)
    rank = {"GET": 0}
    requests = sorted(
        ((name, *req) for name, reqs in matrix.items() if name != "logout" for req in reqs),
        key=lambda r: (rank.get(r[1], 1), r[0]),
    )
    problems = []
    for _name, method, path, data, status in [*requests, ("logout", *matrix["logout"][0])]:
        send = client.get if method == "GET" else client.post
        response = send(path, data or {}, **headers)
        text = _body(response)
        where = f"{method} {path}"
        if response.status_code >= 500:
            problems.append(f"{where}: {response.status_code}")
        elif not htmx and response.status_code != status:
            problems.append(f"{where}: {response.status_code} (expected {status})")
        elif htmx and status == 404 and response.status_code != 404:
            problems.append(f"{where} (htmx): {response.status_code} (expected 404)")
        found = leaks(text, w, given=path + str(data or ""))
        if found:
            problems.append(f"{where}: alice's {found} on the page")
    assert problems == [], "\n".join(problems)
    assert snapshot(w.alice) == before


def test_the_same_pages_do_show_alice_her_own_rows(alice_world):
    """The control for the 404s above: alice reaches every one of those rows."""
    w = alice_world
    client = Client()
    client.force_login(w.alice)
    assert client.get(f"/diary/food/{w.food_entry.pk}/edit/").status_code == 200
    assert client.get(f"/diary/exercise/{w.exercise_entry.pk}/edit/").status_code == 200
    assert client.get(f"/settings/ai/{w.service.pk}/edit/").status_code == 200
    assert client.get(f"/chat/summary/{w.reply.pk}/").status_code == 200
    photo = client.get(f"/chat/images/{w.alice.pk}/{w.photo_file}")
    assert photo.status_code == 200 and photo["Content-Type"] == "image/jpeg"
    page = client.get("/").content.decode()
    assert "alicesecret diary" in page
    assert "Alicesecret Maple Granola" in client.get("/diary/").content.decode()


def test_the_admin_is_closed_to_users_who_are_not_staff(alice_world, bob):
    w = alice_world
    client = Client()
    client.force_login(bob)
    for path in (
        "/admin/",
        f"/admin/nutrition/food/{w.food.pk}/change/",
        f"/admin/aiservices/aiservicesettings/{w.service.pk}/change/",
        f"/admin/chat/chatmessage/{w.user_message.pk}/change/",
        "/admin/sparky/user/",
    ):
        response = client.get(path)
        assert response.status_code == 302 and "/admin/login/" in response["Location"], path
