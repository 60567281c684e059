import datetime as dt
from decimal import Decimal

import pytest
from django.urls import reverse

from exercise.models import Exercise, ExerciseEntry
from exercise.services import exercise_entry_create
from measurements.services import checkin_upsert, custom_measurement_log
from nutrition.models import FoodEntry
from nutrition.selectors import water_for
from nutrition.services import food_entry_create, goal_set, water_add
from sparky.dates import today_for
from tests.web.conftest import HTMX

pytestmark = pytest.mark.django_db


@pytest.fixture
def eggs(alice, catalog):
    return food_entry_create(
        user=alice, food=catalog["egg"], quantity=100, unit="g", meal_type="breakfast"
    )


@pytest.fixture
def walk(alice, catalog):
    return exercise_entry_create(
        user=alice, exercise=Exercise.objects.get(source_id="17200"), duration_minutes=30
    )


def test_the_diary_fragment_lists_meals_exercise_water_and_goals(alice, alice_client, eggs, walk):
    goal_set(user=alice, calories=2000, protein=120, carbs=200, fat=70, water_goal=8)
    water_add(user=alice, glasses=3)

    response = alice_client.get(reverse("diary"), **HTMX)

    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in html
    assert 'id="diary"' in html
    assert "Breakfast" in html and ">Egg</span>" in html
    assert 'title="Egg, whole, raw, fresh"' in html  # the full name one hover away
    assert 'title="Egg, whole, raw, fresh"' in html  # the full name on hover
    assert "143 kcal" in html
    assert "Walking, 3.5 mph, brisk" in html and "30 min" in html
    assert "<strong>3</strong> of 8 glasses" in html
    assert "of 2000 kcal" in html
    assert 'hx-trigger="diary-changed from:body"' in html


def test_the_diary_page_without_htmx_is_a_whole_page(alice_client):
    response = alice_client.get(reverse("diary"))

    assert response.status_code == 200
    assert b"<html" in response.content


def test_the_day_switcher_goes_back_but_never_into_the_future(alice, alice_client):
    today = today_for(alice)
    yesterday = today - dt.timedelta(days=1)

    html = alice_client.get(reverse("diary"), {"date": yesterday.isoformat()}, **HTMX)
    html = html.content.decode()

    assert f'datetime="{yesterday.isoformat()}"' in html
    assert f"?date={today.isoformat()}" in html  # a "next day" link back to today

    future = alice_client.get(
        reverse("diary"), {"date": (today + dt.timedelta(days=3)).isoformat()}, **HTMX
    )
    future_html = future.content.decode()
    assert f'datetime="{today.isoformat()}"' in future_html
    assert 'class="daynav daynav--off"' in future_html


def test_the_diary_only_shows_the_users_own_entries(alice, bob_client, eggs):
    html = bob_client.get(reverse("diary"), **HTMX).content.decode()

    assert "Egg, whole, raw, fresh" not in html


def test_editing_an_entry_changes_its_amount_and_meal(alice, alice_client, eggs):
    form = alice_client.get(reverse("diary_food_edit", args=[eggs.id]), **HTMX)
    assert 'name="quantity"' in form.content.decode()

    response = alice_client.post(
        reverse("diary_food_edit", args=[eggs.id]),
        {"quantity": "150", "meal_type": "lunch"},
        **HTMX,
    )

    assert response.status_code == 200
    eggs.refresh_from_db()
    assert eggs.quantity == Decimal("150")
    assert eggs.meal_type == "lunch"
    assert "Lunch" in response.content.decode()


def test_a_bad_amount_is_refused_next_to_the_field(alice, alice_client, eggs):
    response = alice_client.post(
        reverse("diary_food_edit", args=[eggs.id]), {"quantity": "-2", "meal_type": "lunch"}, **HTMX
    )

    assert response.status_code == 422
    assert response.headers["HX-Retarget"] == f"#food-{eggs.id}"
    assert 'id="id_quantity_errors"' in response.content.decode()
    eggs.refresh_from_db()
    assert eggs.quantity == Decimal("100")


def test_deleting_an_entry_removes_it_from_the_diary(alice, alice_client, eggs):
    response = alice_client.post(reverse("diary_food_delete", args=[eggs.id]), **HTMX)

    assert response.status_code == 200
    assert not FoodEntry.objects.for_user(alice).exists()
    assert "Egg, whole, raw, fresh" not in response.content.decode()


def test_bob_gets_404_for_alices_food_entries(alice, bob_client, eggs):
    edit = reverse("diary_food_edit", args=[eggs.id])
    assert bob_client.get(edit, **HTMX).status_code == 404
    assert bob_client.post(edit, {"quantity": "1", "meal_type": "lunch"}).status_code == 404
    assert bob_client.post(reverse("diary_food_delete", args=[eggs.id])).status_code == 404
    assert FoodEntry.objects.for_user(alice).get().quantity == Decimal("100")


def test_exercise_entries_can_be_edited_and_deleted(alice, alice_client, walk):
    alice_client.post(
        reverse("diary_exercise_edit", args=[walk.id]), {"duration_minutes": "45"}, **HTMX
    )

    walk.refresh_from_db()
    assert walk.duration_minutes == 45

    alice_client.post(reverse("diary_exercise_delete", args=[walk.id]), **HTMX)

    assert not ExerciseEntry.objects.for_user(alice).exists()


def test_bob_gets_404_for_alices_exercise_entries(alice, bob_client, walk):
    edit = reverse("diary_exercise_edit", args=[walk.id])
    assert bob_client.post(edit, {"duration_minutes": "5"}).status_code == 404
    assert bob_client.post(reverse("diary_exercise_delete", args=[walk.id])).status_code == 404
    assert ExerciseEntry.objects.for_user(alice).get().duration_minutes == 30


def test_the_water_buttons_add_and_remove_a_glass(alice, alice_client):
    url = reverse("diary_water")

    alice_client.post(url, {"change": "1"}, **HTMX)
    alice_client.post(url, {"change": "1"}, **HTMX)
    response = alice_client.post(url, {"change": "-1"}, **HTMX)

    assert water_for(user=alice, day=today_for(alice)) == 1
    assert "<strong>1</strong> of 8 glasses" in response.content.decode()


def test_water_for_an_earlier_day_goes_to_that_day(alice, alice_client):
    yesterday = today_for(alice) - dt.timedelta(days=1)

    alice_client.post(f"{reverse('diary_water')}?date={yesterday.isoformat()}", {"change": "1"})

    assert water_for(user=alice, day=yesterday) == 1
    assert water_for(user=alice, day=today_for(alice)) == 0


def test_measurements_and_trend_charts_are_drawn_as_svg(alice, alice_client):
    today = today_for(alice)
    for days_ago, kg in ((20, "82.0"), (10, "81.2"), (0, "80.4")):
        checkin_upsert(
            user=alice, entry_date=today - dt.timedelta(days=days_ago), weight=Decimal(kg)
        )
    custom_measurement_log(user=alice, name="Resting pulse", value=58, unit="bpm")

    html = alice_client.get(reverse("diary"), **HTMX).content.decode()

    assert "<dt>Weight</dt><dd>80.4 kg</dd>" in html
    assert "Resting pulse" in html
    assert html.count('class="chart__svg"') == 2
    assert '<polyline class="chart__line"' in html
    assert "82 → 80.4 kg (-1.6)" in html


def test_the_diary_shows_dates_in_the_users_format(alice, alice_client):
    from diary.services import preferences_update

    preferences_update(user=alice, date_format="dd/MM/yyyy")

    html = alice_client.get(reverse("diary"), **HTMX).content.decode()

    assert today_for(alice).strftime("%d/%m/%Y") in html


def test_the_day_befores_meal_is_offered_and_logged_again_with_one_click(alice, alice_client, eggs):
    yesterday = today_for(alice) - dt.timedelta(days=1)
    FoodEntry.objects.filter(pk=eggs.pk).update(entry_date=yesterday)

    page = alice_client.get(reverse("diary"), **HTMX).content.decode()
    response = alice_client.post(reverse("diary_meal_repeat"), {"meal": "breakfast"}, **HTMX)

    assert "Same breakfast as the day before" in page
    assert "Same lunch as the day before" not in page  # nothing to repeat for lunch
    assert response.status_code == 200
    today = FoodEntry.objects.for_user(alice).get(entry_date=today_for(alice))
    assert (today.food_id, today.quantity, today.unit) == (eggs.food_id, eggs.quantity, eggs.unit)
    assert today.meal_type == "breakfast"
    assert "Same breakfast as the day before" not in response.content.decode()


def test_a_blood_pressure_is_shown_and_charted(alice, alice_client):
    today = today_for(alice)
    for days_ago, systolic, diastolic in ((8, 131, 86), (0, 122, 80)):
        checkin_upsert(
            user=alice,
            entry_date=today - dt.timedelta(days=days_ago),
            systolic=systolic,
            diastolic=diastolic,
        )

    html = alice_client.get(reverse("diary"), **HTMX).content.decode()

    assert "<dt>Systolic</dt><dd>122 mmHg</dd>" in html
    assert "<dt>Diastolic</dt><dd>80 mmHg</dd>" in html
    assert html.count('class="chart__svg"') == 2
    assert "131 → 122 mmHg (-9.0)" in html
