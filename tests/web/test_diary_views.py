import datetime as dt
import re
from decimal import Decimal

import pytest
from django.urls import reverse

from exercise.models import Exercise, ExerciseEntry
from exercise.services import exercise_entry_create
from measurements.models import CheckInMeasurement, CustomMeasurement
from measurements.services import checkin_upsert, custom_measurement_log
from nutrition.models import FoodEntry
from nutrition.selectors import water_for
from nutrition.services import food_entry_create, goal_set, water_add
from sparky.dates import today_for
from tests.web.conftest import HTMX

pytestmark = pytest.mark.django_db


def row_text(html: str, row_id: str) -> str:
    """The words of one diary row (<li id=row_id>), as a reader sees them."""
    found = re.search(rf'<li class="entry[^"]*" id="{row_id}">(.*?)</li>', html, re.S)
    assert found, f"no row {row_id}"
    return " ".join(re.sub(r"<[^>]+>", " ", found.group(1)).split())


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

    assert row_text(html, "checkin-weight").startswith("Weight 80.4 kg")
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

    assert row_text(html, "checkin-systolic").startswith("Systolic 122 mmHg")
    assert row_text(html, "checkin-diastolic").startswith("Diastolic 80 mmHg")
    assert html.count('class="chart__svg"') == 2
    assert "131 → 122 mmHg (-9.0)" in html


# --- every kind of row edited and deleted from the diary -----------------------------------------


def test_a_food_entry_can_change_its_food_unit_and_day(alice, alice_client, eggs):
    yesterday = today_for(alice) - dt.timedelta(days=1)
    form = alice_client.get(reverse("diary_food_edit", args=[eggs.id]), **HTMX).content.decode()
    assert 'name="food"' in form and 'name="unit"' in form and 'name="entry_date"' in form
    assert '<option value="large">' in form  # the egg's own units offered as the user types

    response = alice_client.post(
        reverse("diary_food_edit", args=[eggs.id]),
        {
            "food": "bananas",
            "quantity": "2",
            "unit": "g",
            "meal_type": "snack",
            "entry_date": yesterday.isoformat(),
        },
        **HTMX,
    )

    assert response.status_code == 200
    eggs.refresh_from_db()
    assert eggs.food.name == "Bananas, raw"
    assert (eggs.quantity, eggs.unit, eggs.meal_type) == (Decimal("2"), "g", "snack")
    assert eggs.entry_date == yesterday
    # the diary comes back on the day the entry moved to
    assert f'datetime="{yesterday.isoformat()}"' in response.content.decode()


def test_a_food_entry_changes_to_a_household_unit(alice, alice_client, eggs):
    alice_client.post(
        reverse("diary_food_edit", args=[eggs.id]),
        {"food": "Egg", "quantity": "2", "unit": "large", "meal_type": "breakfast"},
        **HTMX,
    )

    eggs.refresh_from_db()
    html = alice_client.get(reverse("diary"), **HTMX).content.decode()
    assert eggs.unit == "large"
    assert row_text(html, f"food-{eggs.id}").startswith("Egg 2 large · 100 g 143 kcal")


def test_a_unit_the_food_does_not_take_is_refused_next_to_the_unit(alice, alice_client, eggs):
    response = alice_client.post(
        reverse("diary_food_edit", args=[eggs.id]),
        {"food": "Egg", "quantity": "1", "unit": "furlong", "meal_type": "breakfast"},
        **HTMX,
    )

    assert response.status_code == 422
    assert 'id="id_unit_errors"' in response.content.decode()
    eggs.refresh_from_db()
    assert eggs.unit == "g"


def test_a_food_that_cannot_be_found_is_refused_next_to_the_food(alice, alice_client, eggs):
    response = alice_client.post(
        reverse("diary_food_edit", args=[eggs.id]),
        {"food": "zzqx unobtainium", "quantity": "1", "unit": "g", "meal_type": "breakfast"},
        **HTMX,
    )

    assert response.status_code == 422
    assert 'id="id_food_errors"' in response.content.decode()
    eggs.refresh_from_db()
    assert eggs.food.name.startswith("Egg")


def test_a_future_day_is_refused_next_to_the_date(alice, alice_client, eggs):
    tomorrow = today_for(alice) + dt.timedelta(days=1)
    response = alice_client.post(
        reverse("diary_food_edit", args=[eggs.id]),
        {"quantity": "100", "meal_type": "breakfast", "entry_date": tomorrow.isoformat()},
        **HTMX,
    )

    assert response.status_code == 422
    assert 'id="id_entry_date_errors"' in response.content.decode()


def test_a_workout_can_change_its_activity_minutes_kcal_and_day(alice, alice_client, walk):
    yesterday = today_for(alice) - dt.timedelta(days=1)
    form = alice_client.get(reverse("diary_exercise_edit", args=[walk.id]), **HTMX)
    assert 'name="calories_burned"' in form.content.decode()

    alice_client.post(
        reverse("diary_exercise_edit", args=[walk.id]),
        {
            "exercise": "swimming laps",
            "duration_minutes": "40",
            "calories_burned": "333",
            "entry_date": yesterday.isoformat(),
        },
        **HTMX,
    )

    walk.refresh_from_db()
    assert walk.exercise.name == "Swimming laps, freestyle, slow"
    assert (walk.duration_minutes, walk.calories_burned) == (40, 333)
    assert walk.entry_date == yesterday


def test_a_workouts_calories_follow_its_minutes_when_left_alone(alice, alice_client, walk):
    kcal = walk.calories_burned
    alice_client.post(
        reverse("diary_exercise_edit", args=[walk.id]),
        {
            "exercise": walk.exercise.name,
            "duration_minutes": "60",
            "calories_burned": str(kcal),
        },
        **HTMX,
    )

    walk.refresh_from_db()
    assert walk.calories_burned == round(kcal * 2)


def test_each_check_in_value_can_be_edited_and_deleted(alice, alice_client):
    checkin_upsert(user=alice, weight=Decimal("80.4"), waist=Decimal("88"), steps=9000)
    html = alice_client.get(reverse("diary"), **HTMX).content.decode()
    assert "Edit Weight" in row_text(html, "checkin-weight")
    assert "Delete Steps" in row_text(html, "checkin-steps")
    day = f"?date={today_for(alice).isoformat()}"

    form = alice_client.get(reverse("diary_checkin_edit", args=["weight"]) + day, **HTMX)
    assert 'value="80.4"' in form.content.decode() and "kg" in form.content.decode()
    response = alice_client.post(
        reverse("diary_checkin_edit", args=["weight"]) + day, {"value": "79.9"}, **HTMX
    )
    assert row_text(response.content.decode(), "checkin-weight").startswith("Weight 79.9 kg")

    response = alice_client.post(reverse("diary_checkin_delete", args=["steps"]) + day, **HTMX)

    html = response.content.decode()
    assert 'id="checkin-steps"' not in html
    assert row_text(html, "checkin-waist").startswith("Waist 88 cm")  # the others stay


def test_deleting_the_last_check_in_value_removes_the_day(alice, alice_client):
    checkin_upsert(user=alice, weight=Decimal("80"))
    day = f"?date={today_for(alice).isoformat()}"

    alice_client.post(reverse("diary_checkin_delete", args=["weight"]) + day, **HTMX)

    assert not CheckInMeasurement.objects.for_user(alice).exists()


def test_an_implausible_check_in_value_is_refused_next_to_the_value(alice, alice_client):
    checkin_upsert(user=alice, weight=Decimal("80"))
    day = f"?date={today_for(alice).isoformat()}"

    response = alice_client.post(
        reverse("diary_checkin_edit", args=["weight"]) + day, {"value": "8000"}, **HTMX
    )

    assert response.status_code == 422
    assert 'id="id_value_errors"' in response.content.decode()
    assert CheckInMeasurement.objects.for_user(alice).get().weight == Decimal("80")


def test_the_days_water_can_be_set_to_a_number(alice, alice_client):
    water_add(user=alice, glasses=3)
    day = f"?date={today_for(alice).isoformat()}"

    response = alice_client.post(reverse("diary_water_edit") + day, {"glasses": "6"}, **HTMX)

    assert "<strong>6</strong> of" in response.content.decode()
    alice_client.post(reverse("diary_water_edit") + day, {"glasses": "0"}, **HTMX)
    assert water_for(user=alice, day=today_for(alice)) == 0


def test_a_custom_measurement_can_be_edited_moved_and_deleted(alice, alice_client):
    mood = custom_measurement_log(user=alice, name="Mood", value=6, unit="/10")
    sleep = custom_measurement_log(user=alice, name="Sleep", value=7, unit="hours")
    yesterday = today_for(alice) - dt.timedelta(days=1)

    alice_client.post(
        reverse("diary_measurement_edit", args=[mood.id]),
        {"value": "8", "entry_date": yesterday.isoformat()},
        **HTMX,
    )
    response = alice_client.post(reverse("diary_measurement_delete", args=[sleep.id]), **HTMX)

    mood.refresh_from_db()
    assert (mood.value, mood.entry_date) == (Decimal("8"), yesterday)
    assert not CustomMeasurement.objects.for_user(alice).filter(pk=sleep.id).exists()
    assert f'id="measurement-{sleep.id}"' not in response.content.decode()


def test_bob_gets_404_for_alices_check_ins_and_measurements(alice, bob_client):
    checkin_upsert(user=alice, weight=Decimal("80"))
    mood = custom_measurement_log(user=alice, name="Mood", value=6)
    day = f"?date={today_for(alice).isoformat()}"

    assert bob_client.get(reverse("diary_checkin_edit", args=["weight"]) + day).status_code == 404
    edit = reverse("diary_checkin_edit", args=["weight"]) + day
    assert bob_client.post(edit, {"value": "1"}).status_code == 404
    delete = reverse("diary_checkin_delete", args=["weight"]) + day
    assert bob_client.post(delete).status_code == 404
    assert bob_client.post(reverse("diary_measurement_delete", args=[mood.id])).status_code == 404
    edit = reverse("diary_measurement_edit", args=[mood.id])
    assert bob_client.post(edit, {"value": "1"}).status_code == 404
    assert CheckInMeasurement.objects.for_user(alice).get().weight == Decimal("80")
    assert CustomMeasurement.objects.for_user(alice).get().value == Decimal("6")
