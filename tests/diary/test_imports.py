"""Imports from MyFitnessPal, Cronometer, Lose It! and Sparky's own export: a preview that writes
nothing, one run that writes everything or nothing, and a second import of a file that adds
nothing."""

import datetime as dt
import io
import json
import zipfile
from decimal import Decimal
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError

from diary.exports import export_json
from diary.imports import import_confirm, import_get, import_preview, import_run
from diary.models import ImportJob
from diary.selectors import daily_summary
from diary.services import preferences_update
from exercise import services as exercise_services
from exercise.models import ExerciseEntry
from exercise.selectors import exercise_diary
from measurements import services as measurement_services
from measurements.selectors import measurements_for
from nutrition import services as food_services
from nutrition.models import Food, FoodEntry, UserGoal
from nutrition.selectors import food_diary

pytestmark = pytest.mark.django_db

FILES = Path(__file__).parent / "files"
NOV_2 = dt.date(2026, 11, 2)
NOV_3 = dt.date(2026, 11, 3)


def upload(user, name: str, content: bytes | None = None) -> ImportJob:
    data = content if content is not None else (FILES / name).read_bytes()
    return import_preview(user=user, filename=name, content=data)


def run(user, job: ImportJob) -> ImportJob:
    """Confirm, then run as the worker would (the test's transaction hides commits)."""
    import_confirm(user=user, job_id=job.pk)
    return import_run(job_id=job.pk, user_id=user.pk)


def calories_on(user, day) -> Decimal:
    return daily_summary(user=user, day=day)["calories"]["consumed"]


# What differs between two accounts by nature: row ids, and when a value was typed in.
NOT_THE_DIARY = {"id", "food_id", "exercise_id", "category_id", "entry_timestamp"}


def without_ids(value):
    if isinstance(value, dict):
        return {k: without_ids(v) for k, v in value.items() if k not in NOT_THE_DIARY}
    if isinstance(value, list):
        return [without_ids(v) for v in value]
    return value


def diary_of(user, day) -> dict:
    """The diary of a day as the user sees it: totals against goals, each meal's entries, the
    exercise, water and measurements."""
    return without_ids(
        {
            "summary": daily_summary(user=user, day=day),
            "food": food_diary(user=user, day=day),
            "exercise": exercise_diary(user=user, day=day),
            "measurements": measurements_for(user=user, day=day),
        }
    )


# --- MyFitnessPal ------------------------------------------------------------------------------


def test_a_myfitnesspal_summary_is_previewed_without_writing_anything(alice):
    job = upload(alice, "myfitnesspal-nutrition-summary.csv")

    assert job.source == "myfitnesspal"
    assert job.preview["labels"] == ["6 diary food entries"]
    assert job.preview["errors"] == []
    assert job.preview["rows"][0] == {
        "line": 2,
        "kind": "food_entry",
        "summary": "2026-11-02 · Breakfast · Breakfast (MyFitnessPal) · 1 meal · 412 kcal",
    }
    assert not FoodEntry.objects.for_user(alice).exists()
    assert not Food.objects.owned_by(alice).exists()


def test_a_myfitnesspal_import_logs_each_meal_with_its_totals(alice):
    job = run(alice, upload(alice, "myfitnesspal-nutrition-summary.csv"))

    assert job.status == "done"
    assert job.created == {"food_entry": 6}
    assert calories_on(alice, NOV_2) == Decimal(412 + 655 + 780 + 190)
    assert calories_on(alice, NOV_3) == Decimal(350 + 590)
    day = food_diary(user=alice, day=NOV_2)
    assert [e["food_name"] for e in day["snack"]] == ["Snacks (MyFitnessPal)"]
    lunch = day["lunch"][0]
    assert (lunch["protein"], lunch["carbs"], lunch["fat"]) == (
        Decimal("41.2"),
        Decimal("71.3"),
        Decimal("22.8"),
    )
    # the meal's food is the user's own, with the file's numbers
    food = Food.objects.owned_by(alice).get(name="Lunch (MyFitnessPal)", calories=655)
    assert food.is_custom and food.sodium == Decimal(1210)


def test_myfitnesspals_exercise_summary_logs_each_exercise_of_the_users_own(alice):
    job = upload(alice, "myfitnesspal-exercise-summary.csv")
    assert (job.source, job.preview["labels"]) == ("myfitnesspal", ["3 exercise entries"])

    run(alice, job)

    day = exercise_diary(user=alice, day=NOV_2)
    assert [(e["name"], e["duration_minutes"], e["notes"]) for e in day] == [
        ("Running (jogging), 5 mph (12 min mile)", 40, None),
        ("Bench Press, Barbell", 30, "felt strong"),  # no minutes in the file: its usual length
    ]
    assert day[0]["calories_burned"] == 410
    assert daily_summary(user=alice, day=NOV_3)["exercise"]["calories_burned"] == 150


def test_myfitnesspals_measurement_summary_gives_check_ins_and_custom_values(alice):
    job = upload(alice, "myfitnesspal-measurement-summary.csv")
    assert job.preview["labels"] == ["2 check-ins", "1 custom measurement"]

    run(alice, job)

    first = measurements_for(user=alice, day=NOV_2)
    assert (first["checkin"]["weight"], first["checkin"]["waist"]) == (
        Decimal("81.2"),
        Decimal(90),
    )
    assert [(c["category"], c["value"]) for c in first["custom"]] == [
        ("Body Fat %", Decimal("21.5"))
    ]
    assert measurements_for(user=alice, day=NOV_3)["checkin"]["weight"] == Decimal("80.9")


def myfitnesspal_zip(exercise_text: str | None = None) -> bytes:
    """MyFitnessPal's export as it arrives: a zip of its three summaries."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for name, sample in (
            ("Nutrition-Summary-2026-11-02-to-2026-11-03.csv", "nutrition"),
            ("Exercise-Summary-2026-11-02-to-2026-11-03.csv", "exercise"),
            ("Measurement-Summary-2026-11-02-to-2026-11-03.csv", "measurement"),
        ):
            text = (FILES / f"myfitnesspal-{sample}-summary.csv").read_text()
            if sample == "exercise" and exercise_text is not None:
                text = exercise_text
            archive.writestr(f"File-Export/{name}", text)
        archive.writestr("File-Export/readme.txt", "not a summary")
    return out.getvalue()


def test_myfitnesspals_export_zip_imports_its_three_summaries_at_once(alice):
    job = upload(alice, "File-Export.zip", myfitnesspal_zip())
    assert job.source == "myfitnesspal"
    assert job.preview["labels"] == [
        "6 diary food entries",
        "3 exercise entries",
        "2 check-ins",
        "1 custom measurement",
    ]

    run(alice, job)

    summary = daily_summary(user=alice, day=NOV_2)
    assert summary["calories"]["consumed"] == Decimal(412 + 655 + 780 + 190)
    assert summary["exercise"]["count"] == 2
    assert summary["measurements"]["checkin"]["weight"] == Decimal("81.2")
    # one of its files uploaded alone later adds nothing
    assert (
        upload(alice, "n.csv", (FILES / "myfitnesspal-nutrition-summary.csv").read_bytes()).total
        == 0
    )


def test_a_bad_row_in_a_zip_names_its_file(alice):
    exercise = (FILES / "myfitnesspal-exercise-summary.csv").read_text().replace(",40,", ",forty,")

    job = upload(alice, "File-Export.zip", myfitnesspal_zip(exercise))

    assert [e["text"] for e in job.preview["errors"]] == [
        "Row 2 of Exercise-Summary-2026-11-02-to-2026-11-03.csv, Exercise Minutes: 'forty' is "
        "not a number."
    ]


def test_a_zip_of_nothing_sparky_reads_is_refused_naming_its_files(alice):
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("notes.csv", "Day,Mood\n2026-11-02,good\n")

    with pytest.raises(ValidationError, match="The zip holds notes.csv: none of them"):
        upload(alice, "notes.zip", out.getvalue())


# --- Cronometer --------------------------------------------------------------------------------


def test_a_cronometer_import_makes_each_food_the_users_own_with_the_files_serving(alice):
    job = upload(alice, "cronometer-servings.csv")
    assert job.source == "cronometer"
    assert job.preview["labels"] == ["6 diary food entries"]
    assert job.preview["rows"][2]["summary"] == (
        "2026-11-02 · Lunch · Grilled Chicken Breast · 150 g · 248 kcal"
    )

    job = run(alice, job)

    assert job.status == "done"
    chicken = Food.objects.owned_by(alice).get(name="Grilled Chicken Breast")
    assert (chicken.serving_size, chicken.serving_unit) == (Decimal(150), "g")
    assert (chicken.calories, chicken.protein) == (Decimal(248), Decimal("46.5"))
    day = food_diary(user=alice, day=NOV_2)
    assert [e["food_name"] for e in day["breakfast"]] == [
        "Oatmeal, Cooked with Water",
        "Blueberries, Raw",
    ]
    assert [e["food_name"] for e in day["snack"]] == ["Almonds"]  # "Uncategorized"
    eggs = food_diary(user=alice, day=NOV_3)["breakfast"][0]
    assert (eggs["quantity"], eggs["unit"], eggs["calories"]) == (
        Decimal(2),
        "large",
        Decimal(155),
    )
    assert calories_on(alice, NOV_2) == Decimal(166 + 42 + 248 + 205 + 164)


def test_a_food_named_and_counted_as_in_the_catalog_is_the_catalog_food(alice, catalog):
    text = (
        "Day,Group,Food Name,Amount,Energy (kcal)\n"
        '2026-11-02,Snacks,"Bananas, raw",118.00 g,105\n'  # the catalog's numbers
        '2026-11-02,Snacks,"Bananas, raw",1.00 bunch,300\n'  # another banana than the catalog's
    )

    run(alice, upload(alice, "bananas.csv", text.encode()))

    first, second = FoodEntry.objects.for_user(alice).order_by("created_at")
    assert first.food == catalog["bananas"] and (first.quantity, first.unit) == (118, "g")
    assert second.food.is_custom and second.food.calories == 300
    assert calories_on(alice, NOV_2) == Decimal(105 + 300)


# --- Lose It! ----------------------------------------------------------------------------------


def test_a_lose_it_log_imports_foods_and_exercise_and_leaves_deleted_rows_out(alice):
    job = upload(alice, "loseit-food-log.csv")
    assert job.source == "loseit"
    assert job.preview["labels"] == ["4 diary food entries", "1 exercise entry"]
    assert job.preview["ignored"] == 1

    run(alice, job)

    names = [e["food_name"] for meal in food_diary(user=alice, day=NOV_2).values() for e in meal]
    assert sorted(names) == ["Banana", "Greek Yogurt", "Turkey Sandwich"]  # not the deleted pizza
    [run_entry] = exercise_diary(user=alice, day=NOV_2)
    assert (run_entry["name"], run_entry["duration_minutes"], run_entry["calories_burned"]) == (
        "Running",
        30,
        320,
    )
    assert calories_on(alice, NOV_3) == Decimal(95)


# --- idempotent --------------------------------------------------------------------------------


def test_importing_the_same_file_twice_adds_nothing(alice):
    run(alice, upload(alice, "cronometer-servings.csv"))
    entries, foods = FoodEntry.objects.for_user(alice).count(), Food.objects.owned_by(alice).count()

    again = upload(alice, "cronometer-servings.csv")

    assert again.total == 0
    assert again.preview["already_labels"] == ["6 diary food entries"]
    with pytest.raises(ValidationError, match="nothing to import"):
        import_confirm(user=alice, job_id=again.pk)
    assert FoodEntry.objects.for_user(alice).count() == entries == 6
    assert Food.objects.owned_by(alice).count() == foods


def test_a_longer_export_of_the_same_tracker_adds_only_the_new_days(alice):
    text = (FILES / "myfitnesspal-nutrition-summary.csv").read_text()
    first_day = "\n".join(line for line in text.splitlines() if "2026-11-03" not in line) + "\n"
    run(alice, upload(alice, "week1.csv", first_day.encode()))
    assert FoodEntry.objects.for_user(alice).count() == 4

    job = upload(alice, "week2.csv", text.encode())

    assert job.preview["labels"] == ["2 diary food entries"]
    assert job.preview["already_labels"] == ["4 diary food entries"]
    run(alice, job)
    assert FoodEntry.objects.for_user(alice).count() == 6


def test_two_identical_rows_of_a_file_are_two_entries(alice):
    row = "2026-11-02,12:00,Lunch,Apple,1.00 medium,Fruits,95," + ",".join(["0"] * 20)
    header = (FILES / "cronometer-servings.csv").read_text().splitlines()[0]
    run(alice, upload(alice, "apples.csv", f"{header}\n{row}\n{row}\n".encode()))

    assert len(food_diary(user=alice, day=NOV_2)["lunch"]) == 2
    assert Food.objects.owned_by(alice).filter(name="Apple").count() == 1


# --- bad rows and failures ---------------------------------------------------------------------


def test_a_bad_row_is_named_with_its_field_and_nothing_is_saved(alice):
    text = (FILES / "cronometer-servings.csv").read_text().replace(",248,", ",lots,", 1)
    job = upload(alice, "bad.csv", text.encode())

    assert job.preview["error_count"] == 1
    assert job.preview["errors"][0]["text"] == "Row 4, Energy (kcal): 'lots' is not a number."
    with pytest.raises(ValidationError, match="fix them in the file"):
        import_confirm(user=alice, job_id=job.pk)
    assert import_get(user=alice, job_id=job.pk).status == "preview"
    assert not FoodEntry.objects.for_user(alice).exists()
    assert not Food.objects.owned_by(alice).exists()


def test_a_row_of_a_day_to_come_is_refused_by_its_date(alice):
    text = (FILES / "loseit-food-log.csv").read_text().replace("11/03/2026", "01/15/2099")

    job = upload(alice, "future.csv", text.encode())

    assert [e["text"] for e in job.preview["errors"]] == [
        "Row 7, Date: 2099-01-15 is in the future; a diary holds days up to today."
    ]


def test_a_row_the_diary_refuses_while_importing_rolls_everything_back(alice):
    # 30 hours of running in one day: the exercise service refuses it, after the foods before
    # it were written in the same transaction.
    text = (FILES / "loseit-food-log.csv").read_text().replace(",30,Minutes,", ",1800,Minutes,")
    job = upload(alice, "marathon.csv", text.encode())
    assert job.preview["error_count"] == 0

    job = run(alice, job)

    assert job.status == "failed"
    assert job.error.startswith(
        "Nothing was imported: row 6 (2026-11-02 · Running · 1800 min · 320 kcal burned) was "
        "refused: "
    )
    assert not FoodEntry.objects.for_user(alice).exists()
    assert not ExerciseEntry.objects.for_user(alice).exists()
    assert not Food.objects.owned_by(alice).exists()


def test_a_file_sparky_does_not_know_is_refused_saying_what_it_reads(alice):
    with pytest.raises(ValidationError, match="MyFitnessPal Nutrition Summary"):
        upload(alice, "notes.csv", b"Day,What I ate\n2026-11-02,toast\n")


def test_a_file_of_only_its_first_line_is_refused_as_empty(alice):
    with pytest.raises(ValidationError, match="no rows to import"):
        upload(alice, "empty.csv", b"Date,Name,Type,Quantity,Units,Calories\n")


def test_one_users_import_is_not_anothers(alice, bob):
    job = upload(alice, "cronometer-servings.csv")

    with pytest.raises(ImportJob.DoesNotExist):
        import_get(user=bob, job_id=job.pk)
    with pytest.raises(ImportJob.DoesNotExist):
        import_confirm(user=bob, job_id=job.pk)
    with pytest.raises(ImportJob.DoesNotExist):
        import_run(job_id=job.pk, user_id=bob.pk)


# --- Sparky's own export, round trip ------------------------------------------------------------


@pytest.fixture
def alices_diary(alice, catalog):
    """A few days of everything: catalog foods (by the piece), a food of her own, exercise from
    the catalog and her own, check-ins in pounds, a custom measurement, goals and water."""
    preferences_update(user=alice, default_weight_unit="lb")
    lasagna = food_services.food_create_custom(
        user=alice, name="Grandma's lasagna", serving_size=1, serving_unit="piece", calories=350
    )
    for food, quantity, meal, day in (
        (catalog["egg"], 2, "breakfast", NOV_2),
        (catalog["bananas"], 1, "snack", NOV_2),
        (lasagna, Decimal("1.5"), "dinner", NOV_2),
        (catalog["bread"], 2, "lunch", NOV_3),
    ):
        food_services.food_entry_create(
            user=alice, food=food, quantity=quantity, meal_type=meal, entry_date=day
        )
    swings = exercise_services.exercise_create_custom(
        user=alice, name="Kettlebell swings", calories_per_hour=600
    )
    exercise_services.exercise_entry_create(
        user=alice, exercise=catalog["running"], duration_minutes=30, entry_date=NOV_2
    )
    exercise_services.exercise_entry_create(
        user=alice, exercise=swings, duration_minutes=20, entry_date=NOV_3, notes="heavy bell"
    )
    measurement_services.checkin_upsert(user=alice, entry_date=NOV_2, weight=177.5, waist=90)
    measurement_services.custom_measurement_log(
        user=alice, name="Sleep", value="7.5", unit="hours", entry_date=NOV_2
    )
    food_services.goal_set(user=alice, calories=2100, protein=140, water_goal=10)
    food_services.goal_set(user=alice, goal_date=NOV_3, calories=1800)
    food_services.water_set(user=alice, glasses=6, entry_date=NOV_2)
    return alice


def test_an_export_imported_into_a_fresh_account_gives_the_same_diary(alices_diary, bob):
    preferences_update(user=bob, default_weight_unit="lb")  # the same units shown
    job = upload(bob, "sparky-export.json", export_json(user=alices_diary))
    assert job.source == "sparky"
    assert job.preview["errors"] == []

    job = run(bob, job)

    assert job.status == "done", job.error
    for day in (NOV_2, NOV_3):
        assert diary_of(bob, day) == diary_of(alices_diary, day)
    assert calories_on(bob, NOV_2) > 0
    assert UserGoal.objects.for_user(bob).count() == 2
    # her own food is his own now, the catalog's foods the same catalog rows
    assert Food.objects.owned_by(bob).get().name == "Grandma's lasagna"


def test_a_micronutrient_goal_goes_out_and_comes_back(alice, bob):
    food_services.goal_set(user=alice, calories=2000, zinc="9.5")

    job = run(bob, upload(bob, "sparky-export.json", export_json(user=alice)))

    assert job.status == "done", job.error
    assert UserGoal.objects.for_user(bob).get().micronutrients == {"zinc": "9.5"}


def test_a_sparky_export_imported_twice_or_into_its_own_account_adds_nothing(alices_diary, bob):
    data = export_json(user=alices_diary)
    run(bob, upload(bob, "export.json", data))
    rows = FoodEntry.objects.for_user(bob).count()

    assert upload(bob, "export.json", data).total == 0
    assert upload(alices_diary, "export.json", data).total == 0
    assert FoodEntry.objects.for_user(bob).count() == rows


def test_a_sparky_export_with_a_bad_row_names_its_list_row_and_field(alices_diary, bob):
    data = json.loads(export_json(user=alices_diary))
    data["food_entries"][1]["quantity"] = "two"

    job = upload(bob, "export.json", json.dumps(data).encode())

    assert [e["text"] for e in job.preview["errors"]] == [
        "Row 2 of food_entries, quantity: 'two' is not a number."
    ]
    assert not FoodEntry.objects.for_user(bob).exists()


def test_a_name_a_spreadsheet_would_run_comes_back_from_the_export_exactly(alice, bob):
    food = food_services.food_create_custom(user=alice, name="=1+2 shake", calories=200)
    food_services.food_entry_create(
        user=alice, food=food, quantity=1, meal_type="snack", entry_date=NOV_2
    )

    job = run(bob, upload(bob, "sparky-export.json", export_json(user=alice)))

    assert job.status == "done", job.error
    assert Food.objects.owned_by(bob).get().name == "=1+2 shake"
