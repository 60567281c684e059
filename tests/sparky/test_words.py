"""sparky.words: the English helpers every app shares."""

import pytest

from sparky.words import counted, same_word, singular


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
