"""Blood pressure, a check-in of two fields (systolic and diastolic, mmHg) declared in
measurements/words/checkins.toml: recorded, checked and refused like every other field."""

import pytest
from django.core.exceptions import ValidationError

from measurements.services import checkin_upsert, custom_measurement_log

pytestmark = pytest.mark.django_db


def test_a_blood_pressure_is_recorded_with_the_days_other_check_ins(alice):
    checkin_upsert(user=alice, weight=80)
    row = checkin_upsert(user=alice, systolic=120, diastolic=80)

    assert (row.weight, row.systolic, row.diastolic) == (80, 120, 80)


@pytest.mark.parametrize(
    ("values", "code", "said"),
    [
        ({"systolic": 400, "diastolic": 20}, "implausible_pressure", "60-260 mmHg"),
        ({"systolic": 120, "diastolic": 10}, "implausible_pressure", "30-160 mmHg"),
        ({"systolic": 76, "diastolic": 118}, "implausible_order", "must be higher"),
        ({"systolic": 120.5, "diastolic": 80}, "invalid_systolic", "whole number"),
    ],
)
def test_an_implausible_blood_pressure_is_refused_with_the_reason(alice, values, code, said):
    with pytest.raises(ValidationError) as caught:
        checkin_upsert(user=alice, **values)

    assert caught.value.code == code
    assert said in caught.value.messages[0]


def test_a_systolic_below_the_days_stored_diastolic_is_refused(alice):
    checkin_upsert(user=alice, systolic=130, diastolic=90)

    with pytest.raises(ValidationError) as caught:
        checkin_upsert(user=alice, systolic=85)

    assert caught.value.code == "implausible_order"


def test_blood_pressure_is_no_longer_a_custom_measurement(alice):
    with pytest.raises(ValidationError) as caught:
        custom_measurement_log(user=alice, name="Blood pressure", value=120)

    assert caught.value.code == "standard_measurement"
