"""Every error of the API is JSON in its one shape, whatever was sent: a body nested a thousand
deep (with or without a login), a body past the size limit, an address no route serves (a goal
key that is not a date, an undo URL whose id is not an id)."""

import pytest

pytestmark = pytest.mark.django_db

DEEP = "[" * 1000 + "]" * 1000
DEEP_OBJECT = '{"a":' * 1000 + "1" + "}" * 1000


def assert_json_error(response, status: int, code: str):
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert body["error"] == code
    assert body["detail"] and "Traceback" not in body["detail"]
    return body


def test_json_nested_a_thousand_deep_is_a_400_on_the_token_endpoint_without_a_login(anon_api):
    for deep in (DEEP, DEEP_OBJECT):
        response = anon_api.post("/api/auth/token/", deep, content_type="application/json")

        body = assert_json_error(response, 400, "too_deep")
        assert "nested" in body["detail"]


def test_json_nested_a_thousand_deep_is_a_400_for_a_logged_in_client(alice_api):
    for path in ("/api/chat/", "/api/water/", "/api/food-entries/", "/api/preferences/"):
        method = alice_api.patch if path == "/api/preferences/" else alice_api.post
        response = method(path, DEEP_OBJECT, content_type="application/json")

        assert_json_error(response, 400, "too_deep")


def test_json_a_few_levels_deep_is_still_read(alice_api):
    response = alice_api.post(
        "/api/water/", '{"glasses": 1, "x": [[[{"y": [1]}]]]}', content_type="application/json"
    )

    assert response.status_code in (200, 201), response.content


def test_a_body_over_the_size_limit_is_a_413_saying_the_limit(alice_api, settings):
    body = '{"message": "' + "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1024) + '"}'
    for path in ("/api/chat/", "/api/water/"):
        response = alice_api.post(path, body, content_type="application/json")

        detail = assert_json_error(response, 413, "too_large")["detail"]
        assert "12 MB" in detail


def test_a_goal_address_that_is_not_a_goal_key_is_a_json_404(alice_api):
    response = alice_api.get("/api/goals/3fa85f64-5717-4562-b3fc-2c963f66afa6/")

    assert_json_error(response, 404, "not_found")


def test_a_bad_id_in_the_undo_address_is_a_json_404(alice_api):
    response = alice_api.post("/api/chat/messages/not-an-id/undo/")

    assert_json_error(response, 404, "not_found")


def test_an_address_no_route_serves_is_a_json_404_but_pages_keep_their_html(alice_api, client):
    assert_json_error(alice_api.get("/api/no-such-thing/"), 404, "not_found")

    page = client.get("/no-such-page/")
    assert page.status_code == 404
    assert page["Content-Type"].startswith("text/html")
