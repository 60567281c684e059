"""Foods: search, the catalog readable by all, custom foods changed only by their owner."""

import pytest

from nutrition import services
from nutrition.models import Food
from tests.factories import approve_share

from .conftest import results

pytestmark = pytest.mark.django_db


@pytest.fixture
def banana(db):
    return Food.objects.create(
        name="Bananas, raw", calories=89, protein=1.09, serving_size=100, serving_unit="g",
        source="usda_sr28", source_id="09040",
    )  # fmt: skip


@pytest.fixture
def alices_bar(alice):
    return services.food_create_custom(
        user=alice, name="Alice's protein bar", serving_size=1, serving_unit="bar", calories=210
    )


def test_search_finds_the_catalog_banana_with_a_score(alice_api, banana):
    rows = results(alice_api.get("/api/foods/", {"search": "banana"}))
    assert rows[0]["id"] == str(banana.pk)
    assert rows[0]["calories"] == 89 and 0 < rows[0]["score"] <= 1
    assert rows[0]["is_own"] is False


def test_a_custom_food_is_created_through_the_service(alice_api, alice):
    response = alice_api.post(
        "/api/foods/",
        {"name": "Overnight oats", "serving_size": 250, "serving_unit": "grams", "calories": 320,
         "protein": 12.5},
        format="json",
    )  # fmt: skip
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["is_own"] is True and body["is_custom"] is True
    assert body["serving_unit"] == "g"  # the service's canonical spelling
    assert Food.objects.owned_by(alice).get().protein == 12.5


def test_a_bad_nutrient_value_is_a_400_from_the_service(alice_api):
    response = alice_api.post("/api/foods/", {"name": "Odd", "calories": -5}, format="json")
    assert response.status_code == 400
    assert response.json()["error"] == "invalid_value"
    assert "calories" in response.json()["detail"].lower()


def test_the_owner_changes_and_deletes_a_custom_food(alice_api, alices_bar):
    response = alice_api.patch(f"/api/foods/{alices_bar.pk}/", {"calories": 190}, format="json")
    assert response.status_code == 200 and response.json()["calories"] == 190
    assert alice_api.delete(f"/api/foods/{alices_bar.pk}/").status_code == 204
    assert not Food.objects.filter(pk=alices_bar.pk).exists()


def test_a_food_in_use_is_not_deleted(alice_api, alice, alices_bar):
    services.food_entry_create(user=alice, food=alices_bar)
    response = alice_api.delete(f"/api/foods/{alices_bar.pk}/")
    assert response.status_code == 400 and response.json()["error"] == "in_use"
    assert Food.objects.filter(pk=alices_bar.pk).exists()


def test_catalog_foods_are_readable_but_not_writable(alice_api, banana):
    assert alice_api.get(f"/api/foods/{banana.pk}/").status_code == 200
    response = alice_api.patch(f"/api/foods/{banana.pk}/", {"calories": 1}, format="json")
    assert response.status_code == 403 and response.json()["error"] == "permission_denied"
    assert alice_api.delete(f"/api/foods/{banana.pk}/").status_code == 403
    banana.refresh_from_db()
    assert banana.calories == 89


def test_a_shared_food_is_readable_by_bob_but_stays_alices(bob_api, alice, alices_bar):
    services.food_update_custom(user=alice, food_id=alices_bar.pk, shared_with_public=True)
    assert bob_api.get(f"/api/foods/{alices_bar.pk}/").status_code == 404  # until staff approve
    approve_share(alices_bar)
    assert bob_api.get(f"/api/foods/{alices_bar.pk}/").json()["is_own"] is False
    response = bob_api.patch(f"/api/foods/{alices_bar.pk}/", {"name": "Bob's"}, format="json")
    assert response.status_code == 403


def test_bob_never_sees_alices_private_food(bob_api, alices_bar):
    assert bob_api.get(f"/api/foods/{alices_bar.pk}/").status_code == 404
    assert bob_api.patch(f"/api/foods/{alices_bar.pk}/", {"calories": 1}).status_code == 404
    assert bob_api.delete(f"/api/foods/{alices_bar.pk}/").status_code == 404
    assert results(bob_api.get("/api/foods/", {"mine": "true"})) == []
    assert all(r["id"] != str(alices_bar.pk) for r in results(bob_api.get("/api/foods/")))
    searched = results(bob_api.get("/api/foods/", {"search": "protein bar"}))
    assert all(r["id"] != str(alices_bar.pk) for r in searched)


def test_mine_lists_only_your_own_foods(alice_api, alices_bar, banana):
    rows = results(alice_api.get("/api/foods/", {"mine": "true"}))
    assert [r["id"] for r in rows] == [str(alices_bar.pk)]


def test_a_malformed_id_is_a_404(alice_api):
    assert alice_api.get("/api/foods/not-a-uuid/").status_code == 404


def test_a_food_has_its_short_display_name_beside_the_full_name(alice_api, alice, alices_bar):
    egg = Food.objects.create(
        name="Egg, whole, raw, fresh", display_name="Egg, raw", calories=143, serving_size=100,
        serving_unit="g", source="usda_sr28", source_id="01123",
    )  # fmt: skip

    body = alice_api.get(f"/api/foods/{egg.pk}/").json()
    assert body["name"] == "Egg, whole, raw, fresh" and body["display_name"] == "Egg, raw"
    # a custom food shows its own name
    assert alice_api.get(f"/api/foods/{alices_bar.pk}/").json()["display_name"] == (
        "Alice's protein bar"
    )
    entry = services.food_entry_create(user=alice, food=egg, quantity=100, unit="g")
    logged = alice_api.get(f"/api/food-entries/{entry.pk}/").json()
    assert logged["food_display_name"] == "Egg, raw"
    assert logged["food_name"] == "Egg, whole, raw, fresh"


def test_monounsaturated_fat_has_one_name_in_foods_entries_goals_and_the_summary(alice_api, alice):
    made = alice_api.post(
        "/api/foods/",
        {"name": "Olive spread", "serving_size": 10, "serving_unit": "g", "calories": 70,
         "monounsaturated_fat": 5},
        format="json",
    )  # fmt: skip
    assert made.status_code == 201, made.json()
    food = made.json()
    assert food["monounsaturated_fat"] == 5 and "monounsaturated_unsaturated" not in food
    goal = alice_api.patch(
        "/api/goals/default/", {"calories": 2000, "monounsaturated_fat": 20}, format="json"
    )
    assert goal.status_code == 200 and goal.json()["monounsaturated_fat"] == 20
    entry = alice_api.post(
        "/api/food-entries/", {"food": food["id"], "quantity": 2}, format="json"
    ).json()
    summary = alice_api.get("/api/summary/").json()

    assert entry["nutrients"]["monounsaturated_fat"] == 10
    assert "monounsaturated_unsaturated" not in entry["nutrients"]
    assert summary["nutrients"]["monounsaturated_fat"]["consumed"] == 10
    assert summary["nutrients"]["monounsaturated_fat"]["goal"] == 20


def test_the_old_name_of_monounsaturated_fat_is_still_accepted(alice_api):
    made = alice_api.post(
        "/api/foods/",
        {"name": "Old client spread", "calories": 70, "monounsaturated_unsaturated": 4},
        format="json",
    )

    assert made.status_code == 201, made.json()
    assert made.json()["monounsaturated_fat"] == 4
