"""The OpenAPI schema and the docs pages, with their assets served locally."""

import pytest
from drf_spectacular.validation import validate_schema

pytestmark = pytest.mark.django_db


def test_the_schema_is_a_valid_openapi_3_document(alice_api):
    response = alice_api.get("/api/schema/", {"format": "json"})
    assert response.status_code == 200
    schema = response.json()
    assert schema["openapi"].startswith("3.")
    validate_schema(schema)  # against the OpenAPI 3 JSON schema
    paths = schema["paths"]
    for path in ("/api/foods/", "/api/food-entries/{id}/", "/api/chat/", "/api/chat/history/",
                 "/api/water/", "/api/summary/", "/api/goals/{key}/", "/api/checkins/{entry_date}/",
                 "/api/ai-services/{id}/activate/", "/api/auth/token/"):  # fmt: skip
        assert path in paths, path


def test_errors_are_documented_in_the_shared_shape(alice_api):
    schema = alice_api.get("/api/schema/", {"format": "json"}).json()
    detail = schema["paths"]["/api/food-entries/{id}/"]["get"]["responses"]
    assert detail["404"]["content"]["application/json"]["schema"]["$ref"].endswith("/Error")
    assert "401" in detail
    assert "429" in schema["paths"]["/api/chat/"]["post"]["responses"]
    assert set(schema["components"]["schemas"]["Error"]["required"]) == {"error", "detail"}


def test_the_api_key_is_write_only_in_the_schema(alice_api):
    components = alice_api.get("/api/schema/", {"format": "json"}).json()["components"]
    assert "api_key" in components["schemas"]["AIServiceRequest"]["properties"]
    assert "api_key" not in components["schemas"]["AIService"]["properties"]
    assert "has_api_key" in components["schemas"]["AIService"]["properties"]


def test_the_docs_load_their_assets_from_this_server(alice_api):
    for page in ("/api/docs/", "/api/redoc/"):
        html = alice_api.get(page).content.decode()
        assert "cdn." not in html and "unpkg" not in html and "jsdelivr" not in html, page
    html = alice_api.get("/api/docs/").content.decode()
    assert "/api/docs/assets/swagger-ui-dist/swagger-ui-bundle.js" in html
    asset = alice_api.get("/api/docs/assets/swagger-ui-dist/swagger-ui-bundle.js")
    assert asset.status_code == 200
    assert alice_api.get("/api/docs/assets/redoc/bundles/redoc.standalone.js").status_code == 200
    assert alice_api.get("/api/docs/assets/../settings.py").status_code == 404
