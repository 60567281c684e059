"""sparky.words: the English helpers every app shares."""

import pytest

from sparky.words import counted, same_word, singular, with_article


@pytest.mark.parametrize(
    ("number", "noun", "said"),
    [
        (1, "food entry", "1 food entry"),
        (3, "food entry", "3 food entries"),
        (0, "workout", "0 workouts"),
        (2, "glass", "2 glasses"),
    ],
)
def test_a_count_says_its_noun_in_the_right_number(number, noun, said):
    assert counted(number, noun) == said


def test_singulars_and_slips_are_the_same_word():
    assert singular("berries") == "berry" and singular("hummus") == "hummus"
    assert same_word("bananas", "bananna") and not same_word("egg", "eel")


@pytest.mark.parametrize(
    ("phrase", "said"),
    [
        ("80-minute walk", "an 80-minute walk"),
        ("18-minute walk", "an 18-minute walk"),
        ("11-minute walk", "an 11-minute walk"),
        ("100-minute walk", "a 100-minute walk"),
        ("25-minute walk", "a 25-minute walk"),
        ("orange", "an orange"),
        ("kiwi", "a kiwi"),
    ],
)
def test_a_or_an_follows_how_the_phrase_is_said(phrase, said):
    assert with_article(phrase) == said
