"""The check-in spec (measurements.fields): each field declared once, and what is built from it."""

import pytest
from django.core.exceptions import ValidationError

from chat.tools.base import registry
from measurements.fields import CHECKIN
from measurements.models import CheckInMeasurement
from measurements.serializers import CheckInSerializer, CheckInWriteSerializer
from measurements.services import checkin_upsert

pytestmark = pytest.mark.django_db


def test_every_declared_field_is_a_column_of_the_check_in():
    columns = {f.name for f in CheckInMeasurement._meta.get_fields()}
    assert set(CHECKIN) <= columns


def test_every_field_has_a_label_help_words_and_a_range():
    for field in CHECKIN.values():
        assert field.label and field.help and field.words, field.name
        assert field.low < field.high, field.name


def test_the_api_and_the_model_tool_offer_every_field():
    tool = registry()["log_checkin"].parameters["properties"]
    for name in CHECKIN:
        assert name in CheckInSerializer().fields
        assert name in CheckInWriteSerializer().fields
        assert name in tool


@pytest.mark.parametrize("name", list(CHECKIN))
def test_a_value_above_a_fields_range_is_refused_with_the_range(alice, name):
    field = CHECKIN[name]
    too_high = field.high * 10 + 1
    unit = {field.kind.argument: field.kind.base} if field.kind.argument else {}
    with pytest.raises(ValidationError) as caught:
        checkin_upsert(user=alice, **{name: too_high}, **unit)

    assert caught.value.code == f"implausible_{field.kind.name}"
    assert "plausible range" in caught.value.messages[0]
