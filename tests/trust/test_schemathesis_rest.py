"""The two operations tests/api/test_schemathesis.py leaves out, fuzzed here: the chat turn (JSON
and multipart, with generated photos, categories and idempotency keys, answered by the offline
coach) and revoking the token (a fresh token for every case, so the run is not logged out).
Together the two files fuzz every operation of the schema; the last test holds them to that."""

import pytest
import schemathesis
from django.core.cache import cache
from django.core.wsgi import get_wsgi_application
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error

from sparky.api import token_issue
from tests.api import test_schemathesis as api_fuzz

pytestmark = pytest.mark.django_db

SKIPPED_THERE = {("/api/chat/", "POST"), ("/api/auth/token/", "DELETE")}

schema = schemathesis.openapi.from_dict(api_fuzz._served_schema(), config=api_fuzz.CONFIG)
schema.app = get_wsgi_application()
rest = schema.include(name=[f"{method} {path}" for path, method in sorted(SKIPPED_THERE)])
_keep_the_test_connection = api_fuzz._keep_the_test_connection


@pytest.fixture(autouse=True)
def _media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


@rest.parametrize()
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
def test_the_chat_turn_and_token_revocation_never_fail_with_a_server_error(case, alice):
    cache.clear()  # the chat throttle would answer 429 to most of the run
    headers = {"Authorization": f"Token {token_issue(user=alice).key}"}
    case.call_and_validate(headers=headers, checks=[not_a_server_error])


def test_between_them_the_two_fuzz_runs_cover_every_operation():
    every = {
        (path, method.upper())
        for path, ops in api_fuzz._served_schema()["paths"].items()
        for method in ops
        if method in ("get", "post", "put", "patch", "delete")
    }
    there = {(op.path, op.method.upper()) for op in _operations(api_fuzz.schema)}
    here = {(op.path, op.method.upper()) for op in _operations(rest)}
    assert here == SKIPPED_THERE
    assert there | here == every


def _operations(fuzzed):
    return [result.ok() for result in fuzzed.get_all_operations()]
