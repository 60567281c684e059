import pytest

from chat.images import StoredImage
from chat.tools import ToolContext, run_tool
from nutrition.models import Food, FoodEntry

PHOTO = StoredImage(name="chat/test/photo.jpg", width=800, height=600, size=52_000)


def call(user, name, args, image=PHOTO):
    return run_tool(ToolContext.for_user(user, image=image), name, args)


@pytest.fixture
def meal_foods(db):
    def food(name, kcal, protein, carbs, fat):
        return Food.objects.create(
            name=name,
            serving_size=100,
            serving_unit="g",
            calories=kcal,
            protein=protein,
            carbs=carbs,
            fat=fat,
            source="test",
            source_id=name,
        )

    return {
        "rice": food("White rice, cooked", 130, 2.7, 28.2, 0.3),
        "egg": food("Egg, boiled", 155, 12.6, 1.1, 10.6),
    }


LABEL = {
    "product_name": "Oat Crunch granola",
    "serving_size": 40,
    "serving_unit": "g",
    "calories": 180,
    "protein": 4,
    "carbs": 28,
    "fat": 6,
    "dietary_fiber": 3,
    "sodium": 95,
}


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("analyze_meal_photo", {"items": [{"name": "white rice", "estimated_grams": 150}]}),
        ("scan_nutrition_label", LABEL),
    ],
)
def test_without_a_photo_both_tools_refuse_and_save_nothing(alice, name, args):
    result = call(alice, name, args, image=None)

    assert not result.ok
    assert "no photo" in result.message.lower()
    assert not Food.objects.filter(user=alice).exists()
    assert not FoodEntry.objects.for_user(alice).exists()


def test_a_meal_photo_gives_catalog_nutrition_for_the_estimated_amounts(alice, meal_foods):
    result = call(
        alice,
        "analyze_meal_photo",
        {
            "items": [
                {"name": "white rice", "estimated_grams": 200},
                {"name": "boiled egg", "quantity": 100, "unit": "g"},
            ]
        },
    )

    assert result.ok, result.message
    rice, egg = result.data["items"]
    assert rice["match"] == "White rice, cooked"
    assert rice["food_id"] == str(meal_foods["rice"].id)
    assert rice["calories"] == 260
    assert rice["carbs_g"] == 56.4
    assert egg["match"] == "Egg, boiled"
    assert egg["calories"] == 155
    assert result.data["total"] == {
        "calories": 415,
        "protein_g": 18.0,
        "carbs_g": 57.5,
        "fat_g": 11.2,
    }
    assert "415 kcal" in result.message
    assert not FoodEntry.objects.for_user(alice).exists()


def test_an_item_the_catalog_lacks_is_flagged_not_guessed(alice, meal_foods):
    result = call(
        alice,
        "analyze_meal_photo",
        {"items": [{"name": "white rice", "estimated_grams": 100}, {"name": "zzqx pudding"}]},
    )

    assert result.ok
    missing = result.data["items"][1]
    assert missing["match"] is None
    assert "zzqx pudding" in result.message
    assert result.data["total"]["calories"] == 130


def test_a_label_is_saved_as_the_users_own_food(alice, bob):
    result = call(alice, "scan_nutrition_label", LABEL)

    assert result.ok, result.message
    assert result.message.startswith("Saved Oat Crunch granola")
    food = Food.objects.get(user=alice, name="Oat Crunch granola")
    assert food.is_custom
    assert (food.serving_size, food.serving_unit, food.calories) == (40, "g", 180)
    assert food.dietary_fiber == 3 and food.sodium == 95
    assert not FoodEntry.objects.for_user(alice).exists()
    assert not Food.objects.filter(user=bob).exists()


def test_a_label_with_log_true_is_also_logged_for_the_servings_eaten(alice):
    result = call(
        alice,
        "scan_nutrition_label",
        {**LABEL, "log": True, "quantity": 2, "meal_type": "breakfast", "date": "yesterday"},
    )

    assert result.ok, result.message
    entry = FoodEntry.objects.for_user(alice).get()
    assert entry.food.name == "Oat Crunch granola"
    assert entry.meal_type == "breakfast"
    from nutrition.services import entry_nutrients

    assert round(entry_nutrients(entry)["calories"]) == 360
    assert [w.kind for w in result.written] == ["food", "food_entry"]


def test_a_label_whose_macros_do_not_add_up_is_questioned_and_not_saved(alice):
    misread = {**LABEL, "serving_size": 100, "protein": 30, "carbs": 40, "fat": 20}

    result = call(alice, "scan_nutrition_label", misread)

    assert not result.ok
    assert "180 kcal" in result.message and "check" in result.message
    assert not Food.objects.filter(user=alice).exists()


def test_the_user_can_confirm_an_unusual_label_as_printed(alice):
    beer = {
        "product_name": "Pale ale",
        "serving_size": 330,
        "serving_unit": "ml",
        "calories": 145,
        "protein": 1.5,
        "carbs": 11,
        "fat": 0,
    }

    first = call(alice, "scan_nutrition_label", beer)
    second = call(alice, "scan_nutrition_label", {**beer, "confirmed": True})

    assert not first.ok
    assert second.ok, second.message
    assert Food.objects.filter(user=alice, name="Pale ale").count() == 1


def test_a_label_with_more_macros_than_the_serving_weighs_is_refused(alice):
    result = call(
        alice,
        "scan_nutrition_label",
        {**LABEL, "serving_size": 10, "calories": 180, "protein": 4, "carbs": 28, "fat": 6},
    )

    assert not result.ok
    assert "serving" in result.message
    assert not Food.objects.filter(user=alice).exists()


def test_scanning_the_same_label_twice_keeps_one_food(alice):
    call(alice, "scan_nutrition_label", LABEL)
    again = call(alice, "scan_nutrition_label", {**LABEL, "log": True})

    assert again.ok, again.message
    assert Food.objects.filter(user=alice, name="Oat Crunch granola").count() == 1
    assert FoodEntry.objects.for_user(alice).count() == 1
