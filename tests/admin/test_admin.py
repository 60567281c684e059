"""Staff curate the catalog in the Django admin; secrets never show there."""

import datetime
from decimal import Decimal

import pytest
from django.contrib import admin
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.urls import reverse

from aiservices.services import ai_service_create
from chat.models import ChatMessage
from exercise.models import Exercise, ExerciseEntry
from nutrition.models import Food, FoodEntry, FoodVariant
from nutrition.services import food_create_custom
from tests.conftest import make_user

DAY = datetime.date(2026, 11, 30)


@pytest.fixture
def staff(db):
    return make_user("curator@example.com", is_staff=True, is_superuser=True)


@pytest.fixture
def staff_client(client, staff):
    client.force_login(staff)
    return client


def public_food(name: str, source_id: str = "", **extra) -> Food:
    values = {"calories": Decimal("143"), "serving_size": 100, "serving_unit": "g", **extra}
    return Food.objects.create(
        name=name, is_custom=False, source="usda_sr28" if source_id else "", source_id=source_id,
        **values,
    )  # fmt: skip


def custom_food(user, name: str, **extra) -> Food:
    return Food.objects.create(
        name=name, is_custom=True, user=user, calories=Decimal("200"), serving_size=1,
        serving_unit="piece", **extra,
    )  # fmt: skip


def serving(food: Food, unit: str, grams: str, sequence: int) -> FoodVariant:
    return FoodVariant.objects.create(
        food=food, serving_size=1, serving_unit=unit, gram_weight=Decimal(grams),
        sequence=sequence, calories=Decimal(grams) * food.calories / 100,
    )  # fmt: skip


def log(user, food: Food, variant: FoodVariant | None = None, quantity: str = "1") -> FoodEntry:
    return FoodEntry.objects.create(
        user=user, food=food, variant=variant, quantity=Decimal(quantity),
        unit=variant.serving_unit if variant else "g", meal_type="breakfast", entry_date=DAY,
    )  # fmt: skip


def changelist(model) -> str:
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")


def run_action(staff_client, model, action: str, objects, **extra):
    data = {"action": action, ACTION_CHECKBOX_NAME: [str(o.pk) for o in objects], **extra}
    return staff_client.post(changelist(model), data, follow=True)


def listed(response) -> list[str]:
    return [str(obj) for obj in response.context["cl"].result_list]


# --- every admin page opens -------------------------------------------------------------------


def test_every_registered_model_has_a_working_changelist(staff_client, alice):
    egg = public_food("Egg, whole, raw, fresh", "01123")
    log(alice, egg)
    ChatMessage.objects.create(user=alice, message_type="user", content="two eggs", metadata={})

    for model in admin.site._registry:
        response = staff_client.get(changelist(model))
        assert response.status_code == 200, model


def test_a_food_change_page_groups_nutrients_and_lists_servings(staff_client):
    egg = public_food("Egg, whole, raw, fresh", "01123", sodium=Decimal("142"))
    serving(egg, "large", "50", 1)

    page = staff_client.get(reverse("admin:nutrition_food_change", args=[egg.pk])).content.decode()

    for heading in ("Energy &amp; macros", "Fats", "Minerals", "Vitamins", "Source"):
        assert f">{heading}<" in page
    assert "Sodium (mg)" in page
    assert "Vitamin a (µg)" in page
    assert 'value="large"' in page


# --- search and filters -----------------------------------------------------------------------


def test_staff_find_foods_by_words_of_the_name_in_any_order(staff_client, alice):
    public_food("Egg, whole, raw, fresh", "01123")
    public_food("Egg, whole, cooked, hard-boiled", "01129")
    public_food("Banana, raw", "09040")

    response = staff_client.get(changelist(Food), {"q": "raw egg"})

    assert listed(response) == ["Egg, whole, raw, fresh"]


def test_staff_find_foods_by_original_name_and_by_barcode(staff_client, alice):
    public_food("Milk, whole", "01077", original_name="Milk, whole, 3.25% milkfat")
    custom_food(alice, "Oat bar", barcode="5000112637922")

    assert listed(staff_client.get(changelist(Food), {"q": "milkfat"})) == ["Milk, whole"]
    assert listed(staff_client.get(changelist(Food), {"q": "5000112637922"})) == ["Oat bar"]
    assert listed(staff_client.get(changelist(Food), {"q": "50001126"})) == []


def test_staff_filter_custom_foods_from_the_public_catalog(staff_client, alice):
    public_food("Banana, raw", "09040")
    custom_food(alice, "Grandma's banana bread")

    custom = staff_client.get(changelist(Food), {"origin": "custom"})
    public = staff_client.get(changelist(Food), {"origin": "public", "source": "usda_sr28"})

    assert listed(custom) == ["Grandma's banana bread"]
    assert listed(public) == ["Banana, raw"]


def test_staff_find_exercises_by_name_and_compendium_code(staff_client):
    Exercise.objects.create(name="Running, 6 mph (10 min/mile)", source="compendium_2011",
                            source_id="12050", met=Decimal("9.8"), category="cardio")  # fmt: skip
    Exercise.objects.create(name="Walking, 3.5 mph, brisk", source="compendium_2011",
                            source_id="17200", met=Decimal("4.3"), category="cardio")  # fmt: skip

    assert listed(staff_client.get(changelist(Exercise), {"q": "running"})) == [
        "Running, 6 mph (10 min/mile)"
    ]
    assert listed(staff_client.get(changelist(Exercise), {"q": "17200"})) == [
        "Walking, 3.5 mph, brisk"
    ]


# --- share and unshare ------------------------------------------------------------------------


def test_staff_share_a_custom_food_with_everyone_and_take_it_back(staff_client, alice):
    bread = custom_food(alice, "Grandma's banana bread")

    run_action(staff_client, Food, "share_publicly", [bread])
    bread.refresh_from_db()
    assert bread.shared_with_public is True

    response = run_action(staff_client, Food, "stop_sharing", [bread])
    bread.refresh_from_db()
    assert bread.shared_with_public is False
    assert "1 food(s) are no longer shared." in response.content.decode()


def test_a_users_share_waits_in_the_admin_until_staff_approve_it(staff_client, alice, bob):
    cake = food_create_custom(user=alice, name="Zebra cake", calories=1, shared_with_public=True)
    custom_food(alice, "Grandma's banana bread")

    waiting = staff_client.get(changelist(Food), {"sharing": "waiting"})
    assert listed(waiting) == ["Zebra cake"]
    assert not Food.objects.visible_to(bob).filter(pk=cake.pk).exists()

    run_action(staff_client, Food, "share_publicly", [cake])
    assert Food.objects.visible_to(bob).filter(pk=cake.pk).exists()
    assert listed(staff_client.get(changelist(Food), {"sharing": "waiting"})) == []
    assert listed(staff_client.get(changelist(Food), {"sharing": "shared"})) == ["Zebra cake"]


def test_staff_share_a_custom_exercise(staff_client, alice):
    climb = Exercise.objects.create(name="Bouldering laps", is_custom=True, user=alice)

    response = run_action(staff_client, Exercise, "share_publicly", [climb])

    climb.refresh_from_db()
    assert climb.shared_with_public is True
    assert "1 exercise(s) are now shared." in response.content.decode()


@pytest.mark.parametrize(("model", "rows"), [(Food, "foods"), (Exercise, "exercises")])
def test_each_catalogs_actions_are_named_for_its_rows(staff_client, model, rows):
    actions = dict(
        staff_client.get(changelist(model)).context["action_form"].fields["action"].choices
    )

    assert actions["share_publicly"] == f"Approve: share selected {rows} with every user"
    assert actions["stop_sharing"] == f"Stop sharing selected {rows}"
    assert actions["merge_duplicates"] == f"Merge selected duplicate {rows}…"


# --- merge duplicates -------------------------------------------------------------------------


def test_merging_asks_which_food_to_keep_before_changing_anything(staff_client, alice):
    egg = public_food("Egg, whole, raw, fresh", "01123")
    copy = custom_food(alice, "egg")
    log(alice, copy)

    response = run_action(staff_client, Food, "merge_duplicates", [egg, copy])

    page = response.content.decode()
    assert "Merge duplicate foods" in page
    assert f'value="{egg.pk}"' in page
    assert Food.objects.filter(pk=copy.pk).exists()


def test_merging_foods_moves_every_entry_to_the_kept_food_and_removes_the_others(
    staff_client, alice, bob
):
    egg = public_food("Egg, whole, raw, fresh", "01123")
    large = serving(egg, "large", "50", 1)
    alices_egg = custom_food(alice, "Egg")
    alices_large = serving(alices_egg, "Large", "50", 1)
    bobs_egg = custom_food(bob, "egg raw")
    bobs_dozen = serving(bobs_egg, "dozen", "600", 1)
    plain = log(alice, alices_egg, quantity="2")
    with_large = log(alice, alices_egg, alices_large, quantity="2")
    with_dozen = log(bob, bobs_egg, bobs_dozen)

    response = run_action(
        staff_client, Food, "merge_duplicates", [egg, alices_egg, bobs_egg], post="yes", keep=egg.pk
    )

    assert "Merged 2 food(s)" in response.content.decode()
    assert not Food.objects.filter(pk__in=[alices_egg.pk, bobs_egg.pk]).exists()
    for entry in (plain, with_large, with_dozen):
        entry.refresh_from_db()
        assert entry.food_id == egg.pk
    # Same serving on the kept food: the entry uses it. A serving it lacks moves over with the
    # entry, so "1 dozen" still means 600 g.
    assert with_large.variant_id == large.pk
    assert with_dozen.variant_id == bobs_dozen.pk
    assert FoodVariant.objects.get(pk=bobs_dozen.pk).food_id == egg.pk
    assert plain.quantity == 2


def test_merging_into_a_private_food_of_one_user_is_refused_when_others_logged_the_copies(
    staff_client, alice, bob
):
    alices = custom_food(alice, "Protein shake")
    bobs = custom_food(bob, "protein shake")
    entry = log(bob, bobs)

    response = run_action(
        staff_client, Food, "merge_duplicates", [alices, bobs], post="yes", keep=alices.pk
    )

    assert "private custom food" in response.content.decode()
    entry.refresh_from_db()
    assert entry.food_id == bobs.pk
    assert Food.objects.filter(pk=bobs.pk).exists()


def test_merging_exercises_moves_the_entries_and_removes_the_duplicates(staff_client, alice):
    running = Exercise.objects.create(name="Running", source="compendium_2011", source_id="12150",
                                      met=Decimal("8.0"))  # fmt: skip
    jog = Exercise.objects.create(name="running", is_custom=True, user=alice, met=Decimal("8"))
    entry = ExerciseEntry.objects.create(
        user=alice, exercise=jog, duration_minutes=30, calories_burned=300, entry_date=DAY
    )

    run_action(
        staff_client, Exercise, "merge_duplicates", [running, jog], post="yes", keep=running.pk
    )

    entry.refresh_from_db()
    assert (entry.exercise_id, entry.duration_minutes, entry.calories_burned) == (
        running.pk,
        30,
        300,
    )
    assert not Exercise.objects.filter(pk=jog.pk).exists()


def test_merging_needs_two_selected_rows(staff_client, alice):
    egg = public_food("Egg, whole, raw, fresh", "01123")

    response = run_action(staff_client, Food, "merge_duplicates", [egg], post="yes", keep=egg.pk)

    assert "Select at least two foods to merge." in response.content.decode()
    assert Food.objects.filter(pk=egg.pk).exists()


def test_staff_without_delete_permission_cannot_merge(client, alice):
    from django.contrib.auth.models import Permission

    editor = make_user("editor@example.com", is_staff=True)
    editor.user_permissions.add(
        *Permission.objects.filter(codename__in=["view_food", "change_food"])
    )
    client.force_login(editor)
    first, second = custom_food(alice, "Toast"), custom_food(alice, "toast")

    response = client.get(changelist(Food))
    run_action(client, Food, "merge_duplicates", [first, second], post="yes", keep=first.pk)

    assert "merge_duplicates" not in response.content.decode()
    assert Food.objects.filter(pk__in=[first.pk, second.pk]).count() == 2


# --- secrets and history ----------------------------------------------------------------------


def test_the_ai_settings_admin_never_shows_the_api_key(staff_client, alice):
    service = ai_service_create(
        user=alice,
        service_name="My OpenAI",
        service_type="openai",
        api_key="sk-test-SECRET-123",
        model_name="gpt-4o-mini",
        is_active=True,
    )
    service.refresh_from_db()
    pages = [
        staff_client.get(changelist(type(service))),
        staff_client.get(changelist(type(service)), {"q": "My OpenAI"}),
        staff_client.get(reverse("admin:aiservices_aiservicesettings_change", args=[service.pk])),
        staff_client.get(reverse("admin:aiservices_aiservicesettings_history", args=[service.pk])),
        staff_client.get(reverse("admin:aiservices_aiservicesettings_delete", args=[service.pk])),
    ]

    for response in pages:
        html = response.content.decode()
        assert response.status_code == 200
        assert "sk-test-SECRET-123" not in html
        assert service.api_key not in html
        assert 'name="api_key"' not in html
    assert "My OpenAI" in pages[0].content.decode()


def test_saving_ai_settings_in_the_admin_keeps_the_key(staff_client, alice):
    service = ai_service_create(
        user=alice,
        service_name="My OpenAI",
        service_type="openai",
        api_key="sk-test-SECRET-123",
        model_name="gpt-4o-mini",
        is_active=True,
    )
    service.refresh_from_db()
    ciphertext = service.api_key

    staff_client.post(
        reverse("admin:aiservices_aiservicesettings_change", args=[service.pk]),
        {
            "user": str(alice.pk),
            "service_name": "Renamed",
            "service_type": "openai",
            "model_name": "gpt-4o-mini",
            "tool_profile": "core",
            "supports_tools": "on",
            "is_active": "on",
        },
    )

    service.refresh_from_db()
    assert (service.service_name, service.tool_profile) == ("Renamed", "core")
    assert service.api_key == ciphertext


def test_chat_history_can_be_read_but_not_rewritten(staff_client, alice):
    message = ChatMessage.objects.create(
        user=alice, message_type="assistant", content="Logged 2 eggs.", metadata={"tools": ["x"]}
    )
    url = reverse("admin:chat_chatmessage_change", args=[message.pk])

    page = staff_client.get(url).content.decode()
    staff_client.post(url, {"content": "rewritten"})

    assert "Logged 2 eggs." in page
    assert 'name="content"' not in page
    message.refresh_from_db()
    assert message.content == "Logged 2 eggs."


def test_staff_create_a_user_by_email(staff_client):
    staff_client.post(
        reverse("admin:sparky_user_add"),
        {
            "email": "New.Person@Example.com",
            "usable_password": "true",
            "password1": "a long enough passphrase",
            "password2": "a long enough passphrase",
        },
    )

    user = type(make_user("someone@example.com")).objects.get(email="new.person@example.com")
    assert user.check_password("a long enough passphrase")


def test_staff_can_find_and_correct_a_foods_short_name(staff_client):
    egg = public_food("Egg, whole, raw, fresh", "01123")
    Food.objects.filter(pk=egg.pk).update(display_name="Egg, raw")

    found = staff_client.get(reverse("admin:nutrition_food_changelist"), {"q": "Egg, raw"})
    page = staff_client.get(reverse("admin:nutrition_food_change", args=[egg.pk]))

    assert listed(found) == ["Egg, whole, raw, fresh"]
    assert 'name="display_name" value="Egg, raw"' in page.content.decode()


def test_staff_can_rename_foods_from_the_list(staff_client):
    egg = public_food("Egg, whole, raw, fresh", "01123", display_name="Egg, raw")
    changelist = reverse("admin:nutrition_food_changelist")

    page = staff_client.get(changelist)
    assert 'name="form-0-display_name" value="Egg, raw"' in page.content.decode()

    staff_client.post(
        changelist,
        {
            "form-TOTAL_FORMS": "1", "form-INITIAL_FORMS": "1", "form-0-id": str(egg.pk),
            "form-0-display_name": "Egg", "_save": "Save",
        },
    )  # fmt: skip

    egg.refresh_from_db()
    assert egg.display_name == "Egg"


def test_the_admin_says_it_is_sparkys(staff_client):
    page = staff_client.get(reverse("admin:index")).content.decode()

    assert "Sparky admin" in page and "Django administration" not in page


def test_the_food_search_lists_the_best_match_first_not_the_first_in_the_alphabet(staff_client):
    for i, name in enumerate(
        [
            "Babyfood, fruit, bananas and strawberry, junior",
            "Bread, banana, prepared from recipe",
            "Beverages, banana smoothie, with yogurt",
            "Cereals, banana nut crunch",
            "Bananas, raw",
            "Bananas, dehydrated, or banana powder",
        ]
    ):
        public_food(name, f"09{i:03d}")

    found = staff_client.get(reverse("admin:nutrition_food_changelist"), {"q": "banana"})

    assert listed(found)[0] == "Bananas, raw"
    by_name = staff_client.get(
        reverse("admin:nutrition_food_changelist"), {"q": "banana", "o": "1"}
    )  # a column sort still sorts
    assert listed(by_name)[0] == "Babyfood, fruit, bananas and strawberry, junior"


def test_a_serving_reads_as_its_amount_and_food(staff_client):
    banana = public_food("Bananas, raw", "09040", display_name="Banana")
    serving = FoodVariant.objects.create(
        food=banana, sequence=1, serving_size=1, serving_unit="medium", gram_weight=118
    )

    assert str(serving) == "1 medium (118 g) of Banana"


def test_the_admin_shows_a_serving_by_its_amount_and_food_never_by_its_id(staff_client, alice):
    banana = public_food("Bananas, raw", "09040", display_name="Banana")
    medium = serving(banana, "medium", "118", 1)
    entry = log(alice, banana, medium)
    label = "1 medium (118 g) of Banana"

    entries = staff_client.get(changelist(FoodEntry)).content.decode()
    entry_page = staff_client.get(
        reverse("admin:nutrition_foodentry_change", args=[entry.pk])
    ).content.decode()
    food_page = staff_client.get(
        reverse("admin:nutrition_food_change", args=[banana.pk])
    ).content.decode()

    assert label in entries and f"FoodVariant object ({medium.pk})" not in entries
    assert label in entry_page  # beside the serving's id field
    assert label in food_page  # the servings inline names each row
    assert "FoodVariant object" not in entry_page + food_page
