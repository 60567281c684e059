"""The move of AIServiceSettings from chat to aiservices (aiservices 0001, chat 0004) changes no
table: a database at the state before the move migrates forward with its services and keys, and
the model's content type (with any permissions given on it) goes along."""

import pytest
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from aiservices.models import AIServiceSettings
from aiservices.services import ai_service_api_key
from sparky.crypto import encrypt_secret

BEFORE_THE_MOVE = ("chat", "0003_sparky_reads_first")
KEY = "sk-test-BEFOREtheMOVE-0123456789"


def content_types() -> list[tuple[str, int]]:
    rows = ContentType.objects.filter(model="aiservicesettings").values_list("app_label", "id")
    return list(rows)


@pytest.mark.django_db(transaction=True)
def test_a_database_from_before_the_move_keeps_its_services_and_keys(alice):
    executor = MigrationExecutor(connection)
    executor.migrate([("aiservices", None)])  # back to chat owning the model
    old_apps = executor.loader.project_state(BEFORE_THE_MOVE).apps
    old_apps.get_model("chat", "AIServiceSettings").objects.create(
        user_id=alice.pk,
        service_name="Before the move",
        service_type="openai",
        api_key=encrypt_secret(KEY),
        model_name="gpt-4o-mini",
        tool_profile="core",
        sparky_reads_first=True,
        is_active=True,
    )
    before = content_types()
    assert [label for label, _ in before] == ["chat"]

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    service = AIServiceSettings.objects.for_user(alice).active().get()
    assert service.service_name == "Before the move"
    assert (service.tool_profile, service.sparky_reads_first) == ("core", True)
    assert ai_service_api_key(service) == KEY
    assert content_types() == [("aiservices", pk) for _, pk in before]
