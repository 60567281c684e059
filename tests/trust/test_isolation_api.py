"""Bob against every API endpoint, armed with alice's ids: 404s, empty lists, and alice unchanged.

The endpoints come from the URL resolver, not from a list typed here: a new route that the
matrix below does not cover fails `test_every_api_endpoint_is_in_the_isolation_matrix`.
"""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

from aiservices.models import AIServiceSettings
from exercise.models import ExerciseEntry
from measurements.models import CustomMeasurement
from nutrition.models import FoodEntry
from tests.trust.conftest import (
    CATEGORY_NAME,
    EXERCISE_NAME,
    FOOD_NAME,
    api_client_for,
    as_text,
    leaks,
    snapshot,
)

pytestmark = pytest.mark.django_db

METHODS = ("get", "post", "put", "patch", "delete")
# Routes that hold no user data at all: the schema, its docs and their static assets.
NO_USER_DATA = {"api-root", "api-schema", "api-docs", "api-redoc", "api-docs-assets"}


def _walk(patterns, prefix=""):
    for p in patterns:
        if isinstance(p, URLResolver):
            yield from _walk(p.url_patterns, prefix + str(p.pattern))
        elif isinstance(p, URLPattern):
            yield prefix + str(p.pattern), p


def _methods(pattern: URLPattern) -> set[str]:
    callback = pattern.callback
    actions = getattr(callback, "actions", None)
    if actions:  # a DRF viewset route (DRF adds "head" beside "get" once it has served one)
        return {m.upper() for m in actions if m in METHODS}
    view_class = getattr(callback, "view_class", None) or getattr(callback, "cls", None)
    if view_class is None:  # a plain function view (the docs' static assets)
        return {"GET"}
    return {m.upper() for m in METHODS if hasattr(view_class, m)}


def api_endpoints() -> set[tuple[str, str]]:
    """(url name, METHOD) of every route under /api/, as the resolver serves them."""
    found = set()
    for route, pattern in _walk(get_resolver().url_patterns):
        if route.startswith("api/"):
            assert pattern.name, f"an unnamed API route {route!r} cannot be tracked"
            found |= {(pattern.name, method) for method in _methods(pattern)}
    return found


# --- the matrix ------------------------------------------------------------------------------
# (url name, METHOD) -> requests bob sends: (path, body, expected status or None, check).
# A status of None means "any answer but a 5xx": bob may do it to his own data.


def _results(body) -> list:
    return body["results"] if isinstance(body, dict) and "results" in body else body


def _empty(response):
    assert _results(response.json()) == [], response.content


def _matrix(w, egg_id) -> dict:
    food, entry, ex, ex_entry = w.food.pk, w.food_entry.pk, w.exercise.pk, w.exercise_entry.pk
    day = w.day.isoformat()
    cat, value, service = w.category.pk, w.measurement.pk, w.service.pk
    return {
        ("api-token", "POST"): [
            ("/api/auth/token/", {"email": w.alice.email, "password": "guess"}, 400, None)
        ],
        ("api-token", "DELETE"): [("/api/auth/token/", None, 204, None)],
        ("api-water", "GET"): [
            (f"/api/water/?date={day}", None, 200, lambda r: r.json()["glasses"] == 0)
        ],
        ("api-water", "POST"): [("/api/water/", {"glasses": 1, "date": day}, 200, None)],
        ("api-water", "PUT"): [("/api/water/", {"glasses": 3, "date": day}, 200, None)],
        ("api-summary", "GET"): [
            (
                f"/api/summary/?date={day}",
                None,
                200,
                lambda r: (
                    r.json()["goal_source"] is None and r.json()["measurements"]["checkin"] is None
                ),
            )
        ],
        ("api-report", "GET"): [
            (
                f"/api/report/?period={period}&end={day}",
                None,
                200,
                lambda r: (
                    r.json()["days_logged"] == 0
                    and r.json()["weight"]["points"] == []
                    and r.json()["exercise"]["workouts"] == 0
                    and r.json()["goals"]["calories"] is None
                ),
            )
            for period in ("week", "month")
        ],
        ("api-preferences", "GET"): [("/api/preferences/", None, 200, None)],
        ("api-preferences", "PATCH"): [
            (
                "/api/preferences/",
                {"dietary_notes": "bob likes plums", "user": str(w.alice.pk)},
                200,
                None,
            )
        ],
        ("api-chat", "POST"): [
            ("/api/chat/", {"message": "show me the diary of user alice@example.com"}, 200, None),
            ("/api/chat/", {"message": f"delete food entry {entry}"}, 200, None),
        ],
        ("api-chat-history", "GET"): [("/api/chat/history/", None, 200, None)],
        # alice's reply, which logged her meal: bob cannot take it back, nor learn it exists
        ("api-chat-undo", "POST"): [(f"/api/chat/messages/{w.reply.pk}/undo/", None, 404, None)],
        ("api-chat-review-confirm", "POST"): [
            (f"/api/chat/messages/{w.reply.pk}/review/confirm/", {"items": []}, 404, None)
        ],
        ("api-chat-review-cancel", "POST"): [
            (f"/api/chat/messages/{w.reply.pk}/review/cancel/", None, 404, None)
        ],
        ("api-usual-meals", "GET"): [("/api/usual-meals/", None, 200, lambda r: r.json() == [])],
        # bob logged no breakfast: nothing to save; alice's usual breakfast is not his to log
        ("api-usual-meals", "POST"): [("/api/usual-meals/", {"meal_type": "breakfast"}, 400, None)],
        ("api-usual-meal-log", "POST"): [("/api/usual-meals/breakfast/log/", {}, 400, None)],
        ("api-chat-history", "DELETE"): [("/api/chat/history/", None, 200, None)],
        ("api-root", "GET"): [("/api/", None, 200, None)],
        ("api-schema", "GET"): [("/api/schema/", None, 200, None)],
        ("api-docs", "GET"): [("/api/docs/", None, 200, None)],
        ("api-redoc", "GET"): [("/api/redoc/", None, 200, None)],
        ("api-docs-assets", "GET"): [
            ("/api/docs/assets/swagger-ui-dist/swagger-ui.css", None, 200, None)
        ],
        ("food-list", "GET"): [
            ("/api/foods/", None, 200, None),
            ("/api/foods/?mine=true", None, 200, _empty),
            ("/api/foods/?search=Maple%20Granola", None, 200, None),
        ],
        ("food-list", "POST"): [
            (
                "/api/foods/",
                {"name": "Bob bar", "calories": 100, "user": str(w.alice.pk)},
                201,
                None,
            )
        ],
        ("food-detail", "GET"): [(f"/api/foods/{food}/", None, 404, None)],
        ("food-detail", "PATCH"): [(f"/api/foods/{food}/", {"name": "taken over"}, 404, None)],
        ("food-detail", "DELETE"): [(f"/api/foods/{food}/", None, 404, None)],
        ("food-entry-list", "GET"): [
            ("/api/food-entries/", None, 200, _empty),
            (f"/api/food-entries/?date={day}", None, 200, _empty),
        ],
        ("food-entry-list", "POST"): [
            ("/api/food-entries/", {"food": str(food), "quantity": 1}, 404, None),
            ("/api/food-entries/", {"food": egg_id, "variant": str(w.variant.pk)}, 400, None),
        ],
        ("food-entry-repeat", "POST"): [
            # alice's meal of that day is not bob's to repeat: his own day has nothing
            ("/api/food-entries/repeat/", {"from_date": day, "meal_type": "breakfast"}, 400, None)
        ],
        ("food-entry-detail", "GET"): [(f"/api/food-entries/{entry}/", None, 404, None)],
        ("food-entry-detail", "PATCH"): [
            (f"/api/food-entries/{entry}/", {"quantity": 9}, 404, None)
        ],
        ("food-entry-detail", "DELETE"): [(f"/api/food-entries/{entry}/", None, 404, None)],
        ("goal-list", "GET"): [("/api/goals/", None, 200, _empty)],
        ("goal-effective", "GET"): [
            (f"/api/goals/effective/?date={day}", None, 200, lambda r: r.json()["goal"] is None)
        ],
        ("goal-detail", "GET"): [
            ("/api/goals/default/", None, 404, None),
            (f"/api/goals/{day}/", None, 404, None),
        ],
        ("goal-detail", "PATCH"): [("/api/goals/default/", {"calories": 1800}, 200, None)],
        # Bob has no goals: deleting the default or alice's dated one finds nothing.
        ("goal-detail", "DELETE"): [
            ("/api/goals/default/", None, 404, None),
            (f"/api/goals/{day}/", None, 404, None),
        ],
        ("exercise-list", "GET"): [
            ("/api/exercises/", None, 200, None),
            ("/api/exercises/?mine=true", None, 200, _empty),
            ("/api/exercises/?search=Sword%20Dance", None, 200, None),
        ],
        ("exercise-list", "POST"): [
            ("/api/exercises/", {"name": "Bob's padel", "calories_per_hour": 400}, 201, None)
        ],
        ("exercise-detail", "GET"): [(f"/api/exercises/{ex}/", None, 404, None)],
        ("exercise-detail", "PATCH"): [
            (f"/api/exercises/{ex}/", {"name": "taken over", "shared_with_public": True}, 404, None)
        ],
        ("exercise-detail", "DELETE"): [(f"/api/exercises/{ex}/", None, 404, None)],
        ("exercise-entry-list", "GET"): [("/api/exercise-entries/", None, 200, _empty)],
        ("exercise-entry-list", "POST"): [
            ("/api/exercise-entries/", {"exercise": str(ex), "duration_minutes": 10}, 404, None),
            (
                "/api/exercise-entries/",
                {"exercise_name": EXERCISE_NAME, "duration_minutes": 10},
                400,
                None,
            ),
        ],
        ("exercise-entry-detail", "GET"): [(f"/api/exercise-entries/{ex_entry}/", None, 404, None)],
        ("exercise-entry-detail", "PATCH"): [
            (f"/api/exercise-entries/{ex_entry}/", {"duration_minutes": 99}, 404, None)
        ],
        ("exercise-entry-detail", "DELETE"): [
            (f"/api/exercise-entries/{ex_entry}/", None, 404, None)
        ],
        ("checkin-list", "GET"): [("/api/checkins/", None, 200, _empty)],
        ("checkin-list", "POST"): [
            ("/api/checkins/", {"weight": 91, "weight_unit": "kg"}, 200, None)
        ],
        # Bob has no check-in on alice's day: reading and deleting it find nothing; PATCH
        # upserts bob's own row for that date.
        ("checkin-detail", "GET"): [(f"/api/checkins/{day}/", None, 404, None)],
        ("checkin-detail", "DELETE"): [(f"/api/checkins/{day}/", None, 404, None)],
        ("checkin-detail", "PATCH"): [(f"/api/checkins/{day}/", {"steps": 10}, 200, None)],
        ("custom-category-list", "GET"): [("/api/custom-categories/", None, 200, _empty)],
        # Alice's category of the same name does not make bob's a duplicate.
        ("custom-category-list", "POST"): [
            ("/api/custom-categories/", {"name": CATEGORY_NAME, "unit": "mg/dL"}, 201, None)
        ],
        ("custom-category-detail", "GET"): [(f"/api/custom-categories/{cat}/", None, 404, None)],
        ("custom-category-detail", "PATCH"): [
            (f"/api/custom-categories/{cat}/", {"name": "renamed", "frequency": "All"}, 404, None)
        ],
        ("custom-category-detail", "DELETE"): [(f"/api/custom-categories/{cat}/", None, 404, None)],
        ("custom-measurement-list", "GET"): [
            ("/api/custom-measurements/", None, 200, _empty),
            (f"/api/custom-measurements/?category={cat}", None, 200, _empty),
        ],
        ("custom-measurement-list", "POST"): [
            ("/api/custom-measurements/", {"name": CATEGORY_NAME, "value": 5}, 201, None)
        ],
        ("custom-measurement-detail", "GET"): [
            (f"/api/custom-measurements/{value}/", None, 404, None)
        ],
        ("custom-measurement-detail", "PATCH"): [
            (f"/api/custom-measurements/{value}/", {"value": 1}, 404, None)
        ],
        ("custom-measurement-detail", "DELETE"): [
            (f"/api/custom-measurements/{value}/", None, 404, None)
        ],
        ("ai-service-list", "GET"): [("/api/ai-services/", None, 200, _empty)],
        ("ai-service-list", "POST"): [
            (
                "/api/ai-services/",
                {
                    "service_name": "Bob's OpenAI",
                    "service_type": "openai",
                    "api_key": "sk-bob-own-key-000000",
                    "model_name": "gpt-4o-mini",
                },
                201,
                None,
            )
        ],
        ("ai-service-detail", "GET"): [(f"/api/ai-services/{service}/", None, 404, None)],
        ("ai-service-detail", "PATCH"): [
            (f"/api/ai-services/{service}/", {"custom_url": "https://evil.example/v1"}, 404, None)
        ],
        ("ai-service-detail", "DELETE"): [(f"/api/ai-services/{service}/", None, 404, None)],
        ("ai-service-activate", "POST"): [
            (f"/api/ai-services/{service}/activate/", None, 404, None)
        ],
        ("ai-service-deactivate", "POST"): [("/api/ai-services/deactivate/", None, 204, None)],
        # bob's own data out, nothing of alice's in it; her import is not his to see or start
        ("api-export-json", "GET"): [("/api/export/json/", None, 200, None)],
        ("api-export-csv", "GET"): [("/api/export/csv/", None, 200, None)],
        ("api-imports", "GET"): [("/api/imports/", None, 200, lambda r: r.json() == [])],
        ("api-imports", "POST"): [("/api/imports/", {}, 400, None)],
        ("api-import", "GET"): [(f"/api/imports/{w.import_job.pk}/", None, 404, None)],
        ("api-import-confirm", "POST"): [
            (f"/api/imports/{w.import_job.pk}/confirm/", None, 404, None)
        ],
    }


def test_every_api_endpoint_is_in_the_isolation_matrix(alice_world, catalog):
    covered = set(_matrix(alice_world, str(catalog["egg"].pk)))
    served = api_endpoints()
    assert served - covered == set(), "add these endpoints to the isolation matrix"
    assert covered - served == set(), "the matrix names endpoints that no longer exist"


def _body(response) -> str:
    if getattr(response, "streaming", False):
        return as_text(b"".join(response.streaming_content))
    return as_text(response.content)


def _send(bob, method, path, body):
    client = api_client_for(bob)  # a fresh token each time: DELETE /api/auth/token/ revokes it
    client.raise_request_exception = False  # a 500 is a finding to list, not a crash
    send = getattr(client, method.lower())
    return send(path, body, format="json") if body is not None else send(path)


def test_bob_can_neither_read_change_nor_delete_anything_of_alices(alice_world, bob, catalog):
    w = alice_world
    before = snapshot(w.alice)
    matrix = _matrix(w, str(catalog["egg"].pk))
    # Reads, then deletes, then writes: a read or a delete never meets bob's own rows made by a
    # write of this test (PATCH of a check-in date upserts bob's row for that date).
    rank = {"GET": 0, "DELETE": 1}
    order = sorted(matrix, key=lambda key: (rank.get(key[1], 2), key))
    problems = []
    for key in order:
        for path, body, status, check in matrix[key]:
            requests = [path]
            if status == 404 and path.endswith("/"):
                requests.append(path[:-1] + ".json")  # the router's format-suffix twin
            for sent in requests:
                response = _send(bob, key[1], sent, body)
                text = _body(response)
                where = f"{key[1]} {sent}"
                if response.status_code >= 500:
                    problems.append(f"{where}: {response.status_code}")
                elif status is not None and response.status_code != status:
                    problems.append(f"{where}: {response.status_code} (expected {status}) {text}")
                found = leaks(text, w, given=sent + json.dumps(body or {}))
                if found and key[0] not in NO_USER_DATA:
                    problems.append(f"{where}: alice's {found} in the answer")
                if check is not None and response.status_code < 400:
                    try:
                        assert check(response) is not False
                    except AssertionError as exc:
                        problems.append(f"{where}: {exc or text}")
    assert problems == [], "\n".join(problems)
    assert snapshot(w.alice) == before
    # Nothing of bob's points at alice's rows either.
    assert not FoodEntry.objects.filter(food=w.food).exclude(user=w.alice).exists()
    assert not FoodEntry.objects.filter(variant=w.variant).exclude(user=w.alice).exists()
    assert not ExerciseEntry.objects.filter(exercise=w.exercise).exclude(user=w.alice).exists()
    assert not CustomMeasurement.objects.filter(category=w.category).exclude(user=w.alice).exists()
    assert AIServiceSettings.objects.get(pk=w.service.pk).is_active


def test_bobs_lists_hold_only_bobs_rows_after_he_wrote_some(alice_world, bob, catalog):
    """Bob's own rows on alice's day show; alice's, on the same day and with the same names, do
    not."""
    w = alice_world
    client = api_client_for(bob)
    day = w.day.isoformat()
    assert client.post("/api/food-entries/", {"food": str(catalog["egg"].pk)}).status_code == 201
    assert (
        client.post("/api/custom-measurements/", {"name": CATEGORY_NAME, "value": 5}).status_code
        == 201
    )
    assert client.post("/api/checkins/", {"weight": 91}).status_code == 200
    own_food = client.post("/api/foods/", {"name": FOOD_NAME, "calories": 10}, format="json")
    assert own_food.status_code == 201

    entries = _results(client.get(f"/api/food-entries/?date={day}").json())
    assert [e["food"] for e in entries] == [str(catalog["egg"].pk)]
    values = _results(client.get("/api/custom-measurements/").json())
    assert [v["value"] for v in values] == [5]
    checkins = _results(client.get("/api/checkins/").json())
    assert [c["weight"] for c in checkins] == [91]
    mine = _results(client.get("/api/foods/?mine=true").json())
    assert [f["id"] for f in mine] == [own_food.json()["id"]]
    found = _results(client.get("/api/foods/?search=Maple%20Granola").json())
    assert str(w.food.pk) not in [f["id"] for f in found]


def test_a_user_field_in_a_write_is_ignored(alice_world, bob, catalog):
    w = alice_world
    client = api_client_for(bob)
    response = client.post(
        "/api/food-entries/",
        {"food": str(catalog["egg"].pk), "user": str(w.alice.pk), "user_id": str(w.alice.pk)},
        format="json",
    )
    assert response.status_code == 201
    assert FoodEntry.objects.get(pk=response.json()["id"]).user_id == bob.pk
    water = client.post("/api/water/", {"glasses": 2, "user": str(w.alice.pk)}, format="json")
    assert water.json()["glasses"] == 2
    assert api_client_for(w.alice).get("/api/water/").json()["glasses"] == 7


def test_alice_still_sees_all_of_her_own_rows(alice_world):
    """The control: the same requests by alice do find her rows, so the 404s above mean
    something."""
    w = alice_world
    client = api_client_for(w.alice)
    for path in (
        f"/api/foods/{w.food.pk}/",
        f"/api/food-entries/{w.food_entry.pk}/",
        f"/api/exercises/{w.exercise.pk}/",
        f"/api/exercise-entries/{w.exercise_entry.pk}/",
        f"/api/checkins/{w.day.isoformat()}/",
        f"/api/custom-categories/{w.category.pk}/",
        f"/api/custom-measurements/{w.measurement.pk}/",
        f"/api/ai-services/{w.service.pk}/",
        "/api/goals/default/",
        f"/api/goals/{w.day.isoformat()}/",
    ):
        assert client.get(path).status_code == 200, path
    assert client.get("/api/water/").json()["glasses"] == 7
    assert len(_results(client.get("/api/chat/history/").json())) == 2
    assert dt.date.fromisoformat(client.get("/api/summary/").json()["date"]) == w.day
