"""The loopback fake LLM (tests/fake_llm.py), for the gateway's tests."""

from tests import fake_llm as fake_llm_module

fake_llm = fake_llm_module.fake_llm
