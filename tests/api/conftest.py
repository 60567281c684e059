"""API clients for alice and bob (token auth), a clean throttle history per test, and alice's
today."""

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from sparky.api import token_issue
from sparky.dates import today_for
from tests import fake_llm as fake_llm_module

fake_llm = fake_llm_module.fake_llm


def client_for(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_issue(user=user).key}")
    return client


@pytest.fixture(autouse=True)
def _fresh_throttles():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def _media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture
def alice_api(alice):
    return client_for(alice)


@pytest.fixture
def bob_api(bob):
    return client_for(bob)


@pytest.fixture
def anon_api(db):
    return APIClient()


def results(response) -> list:
    """The rows of a paginated list response."""
    assert response.status_code == 200, response.content
    return response.json()["results"]


@pytest.fixture
def day(alice):
    """Today, in alice's time zone."""
    return today_for(alice)
