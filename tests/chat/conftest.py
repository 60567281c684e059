"""AI services pointing at the loopback fake, for coach tests (the catalog: tests/conftest.py)."""

import pytest

from aiservices.services import ai_service_create
from tests import fake_llm as fake_llm_module

fake_llm = fake_llm_module.fake_llm


@pytest.fixture
def ai_settings(settings):
    settings.SPARKY_ALLOW_PRIVATE_AI_URLS = True  # the fake lives on loopback
    settings.SPARKY_LLM_TIMEOUT = 5
    settings.SPARKY_LOCAL_LLM_TIMEOUT = 5
    return settings


@pytest.fixture
def openai_service(alice, fake_llm, ai_settings):
    return ai_service_create(
        user=alice,
        service_name="Loopback",
        service_type="custom",
        api_key="sk-test-alice-0001",
        model_name="fake-model",
        custom_url=fake_llm.openai_base,
        is_active=True,
    )


@pytest.fixture
def anthropic_service(alice, fake_llm, ai_settings):
    return ai_service_create(
        user=alice,
        service_name="Claude",
        service_type="anthropic",
        api_key="sk-ant-test-0002",
        model_name="claude-haiku-4-5",
        custom_url=fake_llm.anthropic_base,
        is_active=True,
    )


@pytest.fixture
def core_service(alice, fake_llm, ai_settings):
    return ai_service_create(
        user=alice,
        service_name="Gemma",
        service_type="custom",
        api_key="x",
        model_name="gemma2:2b",
        custom_url=fake_llm.openai_base,
        tool_profile="core",
        sparky_reads_first=False,  # these tests are about what the model does with a message
        is_active=True,
    )


@pytest.fixture
def reads_first_service(alice, fake_llm, ai_settings):
    """A core service as created by default: Sparky's parser reads each message first."""
    return ai_service_create(
        user=alice,
        service_name="Gemma",
        service_type="custom",
        api_key="x",
        model_name="gemma2:2b",
        custom_url=fake_llm.openai_base,
        tool_profile="core",
        is_active=True,
    )
