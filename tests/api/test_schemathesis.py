"""Property-based requests from the OpenAPI schema: no input makes the API answer 5xx.

Schemathesis takes the schema that /api/schema/ serves (built here by the same drf-spectacular
generator, at import: the endpoint itself needs a login, and schemathesis' lazy fixture loader
does not work with pytest 9) and sends generated requests, valid and invalid, through the Django
WSGI app with alice's token to every operation but two: the chat turn (test_chat.py covers it;
here it would only exercise the offline parser) and revoking the token (which would log the rest
of the run out). A few examples per operation keep the run well under a minute.
"""

import json
import os
import re

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.renderers import OpenApiJsonRenderer
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.config import SchemathesisConfig

from exercise.models import Exercise
from nutrition import services as nutrition_services
from nutrition.models import Food
from sparky.api import token_issue

pytestmark = pytest.mark.django_db


def _served_schema() -> dict:
    generated = SchemaGenerator().get_schema(request=None, public=True)
    return json.loads(OpenApiJsonRenderer().render(generated))


# Fuzzing only, a few examples each: the coverage phase (every boundary of every field) alone
# takes over a minute on this schema. SPARKY_FUZZ_FULL=1 runs it too, for a deeper look.
FULL = os.environ.get("SPARKY_FUZZ_FULL") == "1"
CONFIG = SchemathesisConfig.from_dict(
    {"phases": {"coverage": {"enabled": FULL}, "stateful": {"enabled": False}}}
)
schema = schemathesis.openapi.from_dict(_served_schema(), config=CONFIG)
schema.app = get_wsgi_application()
schema = schema.exclude(path="/api/chat/", method="POST").exclude(
    path="/api/auth/token/", method="DELETE"
)


@pytest.fixture
def auth_headers(alice):
    # Something to find, read and change, so detail endpoints are reached with real ids too.
    Food.objects.create(name="Bananas, raw", calories=89, serving_size=100, serving_unit="g")
    Exercise.objects.create(name="Walking, 3.5 mph", met=4.3)
    food = nutrition_services.food_create_custom(user=alice, name="Toast", calories=80)
    nutrition_services.food_entry_create(user=alice, food=food, quantity=1)
    return {"Authorization": f"Token {token_issue(user=alice).key}"}


@pytest.fixture(autouse=True)
def _keep_the_test_connection():
    # A WSGI request closes the database connection when it ends, which would end the test's
    # transaction; Django's own test client switches that off the same way.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


def test_the_fuzzed_schema_is_the_one_the_endpoint_serves(auth_headers, client):
    served = client.get("/api/schema/?format=json", headers=auth_headers)
    assert served.json() == _served_schema()


@schema.parametrize()
@settings(
    max_examples=50 if FULL else 10,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
)
def test_no_request_makes_the_api_fail_with_a_server_error(case, auth_headers):
    case.call_and_validate(headers=auth_headers, checks=[not_a_server_error])


# --- hostile bodies, on every operation that reads one ----------------------------------------
# Beside the generated cases, two bodies no generator sends: JSON nested a thousand deep (Python's
# json recursion limit) and a body past DATA_UPLOAD_MAX_MEMORY_SIZE. Every operation that takes a
# body, the token endpoint and the chat turn included, answers them with a JSON 4xx.

PATH_VALUES = {"key": "default", "meal_type": "breakfast"}
DEEP_JSON = '{"a":' * 1000 + "1" + "}" * 1000


def _operations_with_a_body() -> list[tuple[str, str]]:
    found = []
    for path, item in _served_schema()["paths"].items():
        for method, operation in item.items():
            if method in ("post", "put", "patch") and "requestBody" in operation:
                found.append((method, path))
    return found


def _concrete(path: str) -> str:
    for name, value in PATH_VALUES.items():
        path = path.replace("{" + name + "}", value)
    return re.sub(r"\{[^}]+\}", "3fa85f64-5717-4562-b3fc-2c963f66afa6", path)


def test_every_operation_with_a_body_is_fuzzed_with_the_hostile_bodies():
    assert ("post", "/api/auth/token/") in _operations_with_a_body()
    assert ("post", "/api/chat/") in _operations_with_a_body()


@pytest.mark.parametrize("method,path", _operations_with_a_body())
def test_hostile_bodies_get_a_json_4xx_never_a_server_error(method, path, auth_headers, client):
    huge = '{"message": "' + "x" * (13 * 1024 * 1024) + '"}'
    for body, statuses in ((DEEP_JSON, {400}), (huge, {413})):
        response = getattr(client, method)(
            _concrete(path), body, content_type="application/json", headers=auth_headers
        )
        # A route whose object does not exist may answer 404 before reading the body.
        assert response.status_code in statuses | {404}, (path, response.content[:200])
        assert response["Content-Type"].startswith("application/json"), path
        assert response.json()["error"]
