import io

import pytest
from django.test import Client
from PIL import Image

from tests import fake_llm as fake_llm_module

fake_llm = fake_llm_module.fake_llm

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def alice_client(alice):
    client = Client()
    client.force_login(alice)
    return client


@pytest.fixture
def bob_client(bob):
    client = Client()
    client.force_login(bob)
    return client


@pytest.fixture
def private_ai(settings):
    settings.SPARKY_ALLOW_PRIVATE_AI_URLS = True  # the fake model lives on loopback
    settings.SPARKY_LLM_TIMEOUT = 5
    settings.SPARKY_LOCAL_LLM_TIMEOUT = 5
    return settings


@pytest.fixture
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


def png_bytes(size=(64, 48), color=(200, 120, 40)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, color).save(out, format="PNG")
    return out.getvalue()
