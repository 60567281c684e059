"""The food diary: log, read with nutrients, filter by dates, change, delete; alice's only."""

import datetime as dt

import pytest

from nutrition import services
from nutrition.models import FoodEntry
from sparky.dates import today_for
from tests.factories import CustomFoodFactory

from .conftest import results

pytestmark = pytest.mark.django_db


@pytest.fixture
def oats(alice):
    return services.food_create_custom(
        user=alice, name="Oats", serving_size=100, serving_unit="g", calories=380, protein=13
    )


@pytest.fixture
def entry(alice, oats):
    return services.food_entry_create(
        user=alice, food=oats, quantity=50, unit="g", meal_type="breakfast"
    )


def test_logging_a_food_returns_the_nutrients_of_the_amount(alice_api, alice, oats):
    response = alice_api.post(
        "/api/food-entries/",
        {"food": str(oats.pk), "quantity": 80, "unit": "g", "meal_type": "breakfast"},
        format="json",
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["food_name"] == "Oats" and body["entry_date"] == today_for(alice).isoformat()
    assert body["nutrients"]["calories"] == 304 and body["nutrients"]["protein"] == 10.4
    assert FoodEntry.objects.for_user(alice).count() == 1


def test_an_implausible_amount_is_refused_and_nothing_is_written(alice_api, alice, oats):
    response = alice_api.post(
        "/api/food-entries/", {"food": str(oats.pk), "quantity": 2, "unit": "kg"}, format="json"
    )
    assert response.status_code == 400 and response.json()["error"] == "implausible"
    assert not FoodEntry.objects.for_user(alice).exists()


def test_a_future_date_is_refused(alice_api, alice, oats):
    tomorrow = today_for(alice) + dt.timedelta(days=1)
    response = alice_api.post(
        "/api/food-entries/",
        {"food": str(oats.pk), "entry_date": tomorrow.isoformat()},
        format="json",
    )
    assert response.status_code == 400 and response.json()["error"] == "future_date"


def test_another_users_food_is_a_404(alice_api, bob, alice):
    bobs = services.food_create_custom(user=bob, name="Bob's stew", calories=100)
    response = alice_api.post("/api/food-entries/", {"food": str(bobs.pk)}, format="json")
    assert response.status_code == 404
    assert "No food with this id" in str(response.json())
    assert not FoodEntry.objects.for_user(alice).exists()


def test_entries_filter_by_day_and_by_range(alice_api, alice, oats):
    today = today_for(alice)
    for days_ago in (0, 1, 5):
        services.food_entry_create(
            user=alice, food=oats, quantity=10, unit="g", entry_date=today - dt.timedelta(days_ago)
        )
    day = (today - dt.timedelta(days=1)).isoformat()
    assert [
        r["entry_date"] for r in results(alice_api.get("/api/food-entries/", {"date": day}))
    ] == [day]
    ranged = results(
        alice_api.get(
            "/api/food-entries/",
            {"start": (today - dt.timedelta(days=2)).isoformat(), "end": today.isoformat()},
        )
    )
    assert len(ranged) == 2
    assert ranged[0]["entry_date"] < ranged[1]["entry_date"]  # oldest first


def test_a_bad_date_filter_is_a_400_naming_the_parameter(alice_api):
    response = alice_api.get("/api/food-entries/", {"start": "next tuesday"})
    assert response.status_code == 400 and "start" in response.json()["fields"]
    swapped = alice_api.get("/api/food-entries/", {"start": "2024-02-01", "end": "2024-01-01"})
    assert swapped.status_code == 400 and swapped.json()["error"] == "invalid_range"


def test_an_entry_is_changed_and_deleted_through_the_services(alice_api, entry):
    response = alice_api.patch(
        f"/api/food-entries/{entry.pk}/", {"quantity": 100, "meal_type": "lunch"}, format="json"
    )
    assert response.status_code == 200
    assert (
        response.json()["meal_type"] == "lunch" and response.json()["nutrients"]["calories"] == 380
    )
    assert alice_api.delete(f"/api/food-entries/{entry.pk}/").status_code == 204
    assert not FoodEntry.objects.filter(pk=entry.pk).exists()


def test_an_entry_can_change_its_food_keeping_the_amount(alice_api, alice, entry, bob):
    rye = services.food_create_custom(user=alice, name="Rye flakes", calories=340)
    bobs = services.food_create_custom(user=bob, name="Bob's flakes", calories=1)

    response = alice_api.patch(f"/api/food-entries/{entry.pk}/", {"food": str(rye.pk)})
    refused = alice_api.patch(f"/api/food-entries/{entry.pk}/", {"food": str(bobs.pk)})

    assert response.status_code == 200
    assert response.json()["nutrients"]["calories"] == 170  # 50 g of rye flakes
    assert refused.status_code == 400
    entry.refresh_from_db()
    assert entry.food == rye


def test_bob_gets_404_for_alices_entry_and_an_empty_list(bob_api, entry):
    assert bob_api.get(f"/api/food-entries/{entry.pk}/").status_code == 404
    assert bob_api.patch(f"/api/food-entries/{entry.pk}/", {"quantity": 1}).status_code == 404
    assert bob_api.delete(f"/api/food-entries/{entry.pk}/").status_code == 404
    assert results(bob_api.get("/api/food-entries/")) == []
    entry.refresh_from_db()
    assert entry.quantity == 50


def test_put_is_not_offered(alice_api, entry):
    assert alice_api.put(f"/api/food-entries/{entry.pk}/", {"quantity": 1}).status_code == 405


def test_a_meal_of_another_day_is_logged_again_as_it_was(alice_api, alice, oats, entry, bob_api):
    yesterday = today_for(alice) - dt.timedelta(days=1)
    FoodEntry.objects.filter(pk=entry.pk).update(entry_date=yesterday)

    response = alice_api.post(
        "/api/food-entries/repeat/",
        {"from_date": yesterday.isoformat(), "meal_type": "breakfast"},
        format="json",
    )
    again = alice_api.post(
        "/api/food-entries/repeat/",
        {"from_date": today_for(alice).isoformat(), "meal_type": "breakfast"},
        format="json",
    )
    empty = alice_api.post(
        "/api/food-entries/repeat/",
        {"from_date": yesterday.isoformat(), "meal_type": "dinner"},
        format="json",
    )
    foreign = bob_api.post(
        "/api/food-entries/repeat/",
        {"from_date": yesterday.isoformat(), "meal_type": "breakfast"},
        format="json",
    )

    assert response.status_code == 201, response.content
    [logged] = response.json()
    assert logged["food_name"] == "Oats" and logged["quantity"] == 50 and logged["unit"] == "g"
    assert logged["meal_type"] == "breakfast"
    assert logged["entry_date"] == today_for(alice).isoformat()
    assert again.status_code == 400 and "today's breakfast" in again.content.decode()
    assert empty.status_code == 400 and "Nothing was logged for dinner" in empty.content.decode()
    assert foreign.status_code == 400  # bob's diary has no such meal; alice's is not his
    assert FoodEntry.objects.for_user(alice).count() == 2


def test_an_unknown_or_anothers_food_id_is_a_404_and_nothing_is_logged(alice_api, bob):
    bobs = CustomFoodFactory(user=bob, name="Bob's egg bake", calories=200)
    for food_id in ["00000000-0000-4000-8000-000000000000", str(bobs.id)]:
        response = alice_api.post(
            "/api/food-entries/", {"food": food_id, "quantity": 1}, format="json"
        )
        assert response.status_code == 404, response.content
        assert "No food with this id" in str(response.json())
    assert not FoodEntry.objects.exists()
