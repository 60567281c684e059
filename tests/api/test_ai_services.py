"""AI services: create, change, activate, delete; the API key is write-only everywhere."""

import pytest

from aiservices import services
from aiservices.models import AIServiceSettings

from .conftest import results

pytestmark = pytest.mark.django_db

PLANTED = "sk-test-PLANTED-0123456789abcdef"


def _create(api, **extra):
    body = {"service_name": "My OpenAI", "service_type": "openai", "api_key": PLANTED,
            "model_name": "gpt-4o-mini", **extra}  # fmt: skip
    return api.post("/api/ai-services/", body, format="json")


def test_the_key_is_accepted_but_never_returned(alice_api, alice):
    created = _create(alice_api)
    assert created.status_code == 201, created.content
    service_id = created.json()["id"]
    bodies = [
        created,
        alice_api.get("/api/ai-services/"),
        alice_api.get(f"/api/ai-services/{service_id}/"),
        alice_api.patch(f"/api/ai-services/{service_id}/", {"model_name": "gpt-4o"}, format="json"),
        alice_api.post(f"/api/ai-services/{service_id}/activate/", {"insist": True}),
        alice_api.get("/api/schema/", {"format": "json"}),
    ]
    for response in bodies:
        assert response.status_code == 200 or response.status_code == 201
        assert PLANTED not in response.content.decode()
        assert "sk-test" not in response.content.decode()
    shown = alice_api.get(f"/api/ai-services/{service_id}/").json()
    assert shown["has_api_key"] is True and "api_key" not in shown
    stored = AIServiceSettings.objects.get(pk=service_id)
    assert services.ai_service_api_key(stored) == PLANTED


def test_a_refused_key_is_not_echoed_in_the_error(alice_api):
    response = _create(alice_api, api_key=PLANTED + " with spaces")
    assert response.status_code == 400 and response.json()["error"] == "invalid_api_key"
    assert PLANTED not in response.content.decode()


def test_a_blank_key_on_update_keeps_the_stored_one(alice_api, alice):
    service_id = _create(alice_api).json()["id"]
    alice_api.patch(f"/api/ai-services/{service_id}/", {"api_key": ""}, format="json")
    assert services.ai_service_api_key(AIServiceSettings.objects.get(pk=service_id)) == PLANTED


def test_activating_one_service_deactivates_the_other(alice_api):
    first = _create(alice_api).json()["id"]
    second = _create(alice_api, service_name="Second", is_active=True).json()["id"]
    assert alice_api.get(f"/api/ai-services/{first}/").json()["is_active"] is False
    alice_api.post(f"/api/ai-services/{first}/activate/", {"insist": True}, format="json")
    rows = {r["id"]: r["is_active"] for r in results(alice_api.get("/api/ai-services/"))}
    assert rows == {first: True, second: False}
    assert alice_api.post("/api/ai-services/deactivate/").status_code == 204
    assert not any(r["is_active"] for r in results(alice_api.get("/api/ai-services/")))


def test_a_cloud_service_without_a_key_is_refused(alice_api):
    response = alice_api.post(
        "/api/ai-services/",
        {"service_name": "x", "service_type": "anthropic", "model_name": "claude"},
        format="json",
    )
    assert response.status_code == 400 and response.json()["error"] == "api_key_required"


def test_delete_removes_the_service(alice_api):
    service_id = _create(alice_api).json()["id"]
    assert alice_api.delete(f"/api/ai-services/{service_id}/").status_code == 204
    assert not AIServiceSettings.objects.filter(pk=service_id).exists()


def test_bob_gets_404_for_alices_service(alice, bob_api):
    service = services.ai_service_create(
        user=alice,
        service_name="A",
        service_type="openai",
        api_key=PLANTED,
        model_name="m",
        is_active=True,
    )
    assert results(bob_api.get("/api/ai-services/")) == []
    for method, path in (
        ("get", f"/api/ai-services/{service.pk}/"),
        ("patch", f"/api/ai-services/{service.pk}/"),
        ("delete", f"/api/ai-services/{service.pk}/"),
        ("post", f"/api/ai-services/{service.pk}/activate/"),
    ):
        response = getattr(bob_api, method)(path, {}, format="json")
        assert response.status_code == 404, (method, path)
        assert PLANTED not in response.content.decode()
    assert AIServiceSettings.objects.filter(pk=service.pk, is_active=True).exists()


def test_a_new_service_is_saved_inactive(alice_api, alice):
    created = _create(alice_api)

    assert created.status_code == 201 and created.json()["is_active"] is False
    assert services.active_ai_service(alice) is None


def test_activating_tests_the_connection_and_refuses_with_the_cause(alice_api, alice):
    service_id = _create(
        alice_api, service_type="custom", custom_url="http://sparky-test.invalid/v1", api_key=""
    ).json()["id"]

    response = alice_api.post(f"/api/ai-services/{service_id}/activate/")

    assert response.status_code == 400
    assert response.json()["error"] == "test_failed"
    assert "sparky-test.invalid could not be found" in response.json()["detail"]
    assert services.active_ai_service(alice) is None


def test_activating_a_service_that_answers_makes_it_active(alice_api, alice, fake_llm, settings):
    settings.SPARKY_ALLOW_PRIVATE_AI_URLS = True
    fake_llm.reply_text("ok")
    service_id = _create(
        alice_api, service_type="custom", custom_url=fake_llm.openai_base, api_key=PLANTED
    ).json()["id"]

    response = alice_api.post(f"/api/ai-services/{service_id}/activate/")

    assert response.status_code == 200 and response.json()["is_active"] is True
