"""English word helpers the apps share, on well-kept libraries: singular nouns (inflect) and
forgiving word comparison (rapidfuzz); and the patterns built from a domain's word lists."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from decimal import Decimal

import inflect
from rapidfuzz import fuzz

_ENGINE = inflect.engine()
# Where inflect slips: -ie nouns it reads as -y ones.
_IE_NOUNS = {"smoothies": "smoothie", "sweeties": "sweetie", "hoagies": "hoagie"}


@functools.lru_cache(maxsize=20_000)
def singular(word: str, keep: frozenset[str] = frozenset()) -> str:
    """The singular of a noun ('eggs' -> 'egg', 'berries' -> 'berry', 'loaves' -> 'loaf');
    words already singular stay as they are ('hummus', 'glass', 'swiss'), and so do the words
    in `keep` (plurals a domain uses as such: 'fries', 'oats')."""
    word = word.lower()
    if word in _IE_NOUNS:
        return _IE_NOUNS[word]
    if word in keep or len(word) <= 3 or word.endswith(("ss", "us", "is", "'s")):
        return word
    return _ENGINE.singular_noun(word) or word


def same_word(a: str, b: str, *, typo_ratio: float = 85) -> bool:
    """Whether two words are one word as people type it: equal once singular ('bananas',
    'banana'), or one a slip of the other ('bananna')."""
    a, b = singular(a.lower()), singular(b.lower())
    if a == b:
        return True
    if min(len(a), len(b)) < 5:
        return False
    return fuzz.ratio(a, b) >= typo_ratio


def counted(number: int, noun: str) -> str:
    """A count with its noun as people say it: '1 food entry', '3 food entries', '0 workouts'."""
    *first, last = noun.split(" ")
    word = last if number == 1 else (_ENGINE.plural_noun(last) or last)
    return " ".join([str(number), *first, word])


def with_article(phrase: str) -> str:
    """The phrase after "a" or "an" as it is said: 'an 80-minute walk', 'a 100-minute walk',
    'an 18-minute walk', 'an orange', 'a kiwi' (a number is read out to choose)."""
    first = phrase.split(" ", 1)[0]
    number = re.match(r"\d[\d,]*(?:\.\d+)?", first)
    said = _ENGINE.number_to_words(number.group().replace(",", "")) if number else phrase
    return f"{_ENGINE.a(said).split(' ', 1)[0]} {phrase}"


def as_written(value) -> str:
    """A value as a person writes it in a sentence: numbers plain with thousands separators
    ('-1', '2.5', '1,000', never "Decimal('-1')" or '1E+3'), anything else as text in quotes."""
    if isinstance(value, bool) or value is None:
        return repr(str(value))
    if isinstance(value, str):
        try:
            number = Decimal(value.strip().replace(",", ""))
        except ArithmeticError:  # decimal.InvalidOperation: not a number, said as the text
            return repr(value)
        return as_written(number) if number.is_finite() else repr(value)
    if isinstance(value, int | float | Decimal):
        number = Decimal(str(value)) if isinstance(value, float) else Decimal(value)
        if not number.is_finite():
            return repr(str(value))
        if abs(number) >= 10**15:  # beyond what anyone writes out: its 15 leading digits
            number = Decimal(f"{number:.15g}")
        number = number.normalize()
        if number == number.to_integral_value():
            return f"{int(number):,}"
        return f"{number:,f}"
    return repr(str(value))


def alternation(words: Iterable[str], *, plural: bool = False) -> str:
    """A regular expression for any one of the words, built from a word list so that the list
    stays data: longest first ("ice cream" before "ice"), each escaped, a space matching any run
    of spaces, a closing "*" standing for any ending ("hydrat*": hydrate, hydrated, hydration),
    and with `plural` an optional "s" after each word.

        alternation(["lunch", "dinner"], plural=True) == "(?:dinner|lunch)s?"
    """
    ends = "s?" if plural else ""
    parts = []
    for word in sorted(set(words), key=lambda w: (-len(w), w)):
        stem, rest = (word[:-1], r"\w*") if word.endswith("*") else (word, "")
        parts.append(re.escape(stem).replace(r"\ ", r"\s+") + rest)
    return "(?:" + "|".join(parts) + ")" + ends


def words_pattern(words: Iterable[str], *, plural: bool = False) -> re.Pattern:
    """The words as whole words, in any case: r"\b(?:...)\b" from `alternation`."""
    return re.compile(r"\b" + alternation(words, plural=plural) + r"\b", re.IGNORECASE)
