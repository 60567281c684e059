import datetime as dt
import threading

import pytest
from django.core.exceptions import ValidationError
from django.db import connections

from nutrition.models import WaterIntake
from nutrition.selectors import water_for
from nutrition.services import water_add, water_set
from sparky.dates import today_for


def test_a_glass_is_added_by_default_and_the_new_total_returned(alice):
    assert water_add(user=alice) == 1
    assert water_add(user=alice, glasses=3) == 4
    assert water_for(user=alice, day=today_for(alice)) == 4
    assert WaterIntake.objects.filter(user=alice).count() == 1


def test_each_day_has_its_own_total(alice):
    water_add(user=alice, glasses=2, entry_date="yesterday")
    water_add(user=alice, glasses=5)

    assert water_for(user=alice, day="yesterday") == 2
    assert water_for(user=alice, day="today") == 5


def test_alices_water_is_not_bobs(alice, bob):
    water_add(user=alice, glasses=3)

    assert water_add(user=bob) == 1
    assert water_for(user=alice, day="today") == 3


def test_water_cannot_be_logged_for_a_future_day(alice):
    tomorrow = today_for(alice) + dt.timedelta(days=1)

    with pytest.raises(ValidationError) as refused:
        water_add(user=alice, entry_date=tomorrow)

    assert refused.value.code == "future_date"
    assert not WaterIntake.objects.exists()


@pytest.mark.parametrize("glasses", [0, -1, 1.5, "two", None, True, 51, float("inf")])
def test_glasses_to_add_must_be_a_sensible_whole_number(alice, glasses):
    with pytest.raises(ValidationError) as refused:
        water_add(user=alice, glasses=glasses)

    assert refused.value.code == "invalid_quantity"
    assert not WaterIntake.objects.exists()


def test_a_day_cannot_pass_a_hundred_glasses(alice):
    water_set(user=alice, glasses=90)

    with pytest.raises(ValidationError) as refused:
        water_add(user=alice, glasses=20)

    assert refused.value.code == "invalid_quantity"
    assert water_for(user=alice, day="today") == 90


def test_setting_water_replaces_the_days_total(alice):
    water_add(user=alice, glasses=6)

    assert water_set(user=alice, glasses=2) == 2
    assert water_set(user=alice, glasses=0) == 0
    assert water_for(user=alice, day="today") == 0


def test_setting_a_negative_total_is_refused(alice):
    water_add(user=alice, glasses=2)

    with pytest.raises(ValidationError):
        water_set(user=alice, glasses=-3)

    assert water_for(user=alice, day="today") == 2


def test_no_water_logged_reads_as_zero(alice):
    assert water_for(user=alice, day="today") == 0


@pytest.mark.django_db(transaction=True)
def test_twenty_people_adding_a_glass_at_once_add_twenty_glasses(alice):
    start = threading.Barrier(20)
    totals, errors = [], []

    def add_one():
        try:
            start.wait()
            totals.append(water_add(user=alice, glasses=1))
        except Exception as exc:  # reported below; a thread cannot fail the test itself
            errors.append(exc)
        finally:
            connections.close_all()  # each thread had its own connection

    threads = [threading.Thread(target=add_one) for _ in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    assert sorted(totals) == list(range(1, 21))
    assert water_for(user=alice, day="today") == 20
