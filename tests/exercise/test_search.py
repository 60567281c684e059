import pytest

from exercise.services import exercise_create_custom, exercise_find_best, exercise_search
from tests.exercise.conftest import public_exercise
from tests.factories import approve_share


@pytest.mark.parametrize(
    ("said", "expected_start"),
    [
        ("ran", "running"),
        ("running", "running"),
        ("run", "run"),
        ("Running", "running"),
        ("runing", "running"),
        ("morning run", "running"),
        ("walked", "walking"),
        ("walks", "walking"),
        ("swim", "swimming"),
        ("swiming", "swimming"),
        ("yoga", "yoga"),
        ("YOGA", "yoga"),
        ("bike", "bicycling"),
        ("cycling", ("bicycling", "cycling")),
        ("biked", "bicycling"),
        ("jogging", "jogging"),
        ("hiked", "hiking"),
        ("rowing", "rowing"),
        ("Elliptical trainer", "elliptical trainer"),
        ("spin class", "bicycling, stationary"),
        ("HIIT", "circuit training"),
        ("yoga class", "yoga"),
        ("gym", "health club exercise"),
        ("strength training", "weight training"),
        ("Bench press", "bench press"),
        ("Push-ups", "push ups"),
        ("tennis", "tennis"),
    ],
)
def test_everyday_words_find_the_activity_in_the_catalog(alice, catalog, said, expected_start):
    best = exercise_find_best(user=alice, name=said)

    assert best is not None, f"nothing confident for {said!r}"
    assert best.name.lower().startswith(expected_start)


@pytest.mark.parametrize(
    ("said", "low", "high"),
    [
        ("ran", 7, 10),
        ("bike", 6, 8),
        ("walked", 3, 5),
        ("swim", 5, 7),
        ("yoga", 2, 3),
        ("dancing", 4, 8),
        ("boxing", 5, 8),
        ("strength training", 3, 5),
    ],
)
def test_the_everyday_variant_wins_over_extreme_ones(alice, catalog, said, low, high):
    # "ran" is an ordinary run, not a marathon or running up stairs: it sets the calories.
    best = exercise_find_best(user=alice, name=said)

    assert low <= best.met <= high, best.name


def test_results_carry_a_score_between_zero_and_one_best_first(alice, catalog):
    results = exercise_search(user=alice, query="swimming", limit=10)

    assert len(results) == 10
    scores = [r.score for r in results]
    assert all(0 <= s <= 1 for s in scores)
    assert scores == sorted(scores, reverse=True)


def test_nonsense_finds_nothing_confident(alice, catalog):
    assert exercise_find_best(user=alice, name="quidditch tournament") is None
    assert exercise_find_best(user=alice, name="") is None


def test_the_users_own_exercises_come_first(alice, catalog):
    mine = exercise_create_custom(user=alice, name="Running intervals", calories_per_hour=700)

    results = exercise_search(user=alice, query="running")

    assert results[0] == mine
    assert exercise_find_best(user=alice, name="running") == mine


def test_private_custom_exercises_are_invisible_to_others_and_shared_ones_visible(alice, bob):
    exercise_create_custom(user=alice, name="Padel doubles", calories_per_hour=450)
    shared = exercise_create_custom(
        user=alice, name="Kettlebell flow", calories_per_hour=500, shared_with_public=True
    )

    assert exercise_search(user=bob, query="padel") == []
    assert exercise_find_best(user=bob, name="kettlebell flow") is None  # until staff approve
    approve_share(shared)
    assert exercise_find_best(user=bob, name="kettlebell flow") == shared


def test_a_small_catalog_is_searched_by_similarity(alice):
    press = public_exercise("Bench Press", source="wger", source_id="192")
    public_exercise("Leg Press", source="wger", source_id="371")

    assert exercise_find_best(user=alice, name="bench presses") == press
    assert exercise_search(user=alice, query="press")[0].name in {"Bench Press", "Leg Press"}
