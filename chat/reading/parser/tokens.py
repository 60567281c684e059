"""Tokens and numbers: a message as lower-case words, numbers and meaningful punctuation,
with known multi-word names joined; quantities read from digits, fractions and number words."""

from __future__ import annotations

import re
import sys

from django.conf import settings
from text_to_num import text2num

from chat.reading.parser.vocabulary import (
    CIRCUMSTANCES,
    COUNTED_WHOLE,
    GOAL_NUTRIENTS,
    INTERJECTIONS,
    PHRASES,
    SHORTHAND,
)
from sparky.words import alternation

_TOKEN = re.compile(
    r"""
      [0-9]{4}-[0-9]{2}-[0-9]{2}              # an ISO date
    | [0-9]+(?:\.[0-9]+)?/[0-9]+(?:\.[0-9]+)?  # a fraction, or a blood pressure such as 120/80
    | [0-9]*\.?[0-9]+e[+-]?[0-9]+\b          # "1e9": kept whole, never read as 1 and 9
    | (?<![\w.])-(?=\.?[0-9])                # the sign of a number: "-3 eggs" is refused, not 3
    | [0-9]*\.[0-9]+ | [0-9]+                  # a number
    | [^\W\d_]+(?:['&-][^\W\d_]+)*            # a word, keeping apostrophes, hyphens, m&ms
    | [,;:.!?&+%"]                             # punctuation that means something here
    """,
    re.VERBOSE,
)


_EMOTICON = re.compile(r"(?<![\w:])[:;=]-?[()\[\]dp/|\\]+(?=\s|$)")
_CIRCUMSTANCE = re.compile(
    r"\b(?:" + "|".join(re.escape(c) for c in sorted(CIRCUMSTANCES, key=len, reverse=True)) + r")\b"
)

# A decimal comma, as much of the world writes it: "82,6 kg", "1,5 l" (one or two digits after
# it; three are thousands, read just before).
_DECIMAL_COMMA = re.compile(r"(?<![0-9.,])([0-9]{1,3}),([0-9]{1,2})(?![0-9,])")
# Thousands set apart by a dot or a space, said of what is only counted whole: "8.500 steps",
# "steps: 6 032" (vocabulary COUNTED_WHOLE).
_COUNTED = alternation(COUNTED_WHOLE)
_GROUPED = r"(?<![\w.,])[0-9]{1,3}(?:[. ][0-9]{3})+(?![\w.,])"
_THOUSANDS = re.compile(
    rf"(?P<before>{_GROUPED})(?=\s*(?:{_COUNTED})\b)|\b(?P<lead>(?:{_COUNTED})\s*:?\s*)"
    rf"(?P<after>{_GROUPED})"
)


def _thousands(match: re.Match) -> str:
    number = match.group("before") or match.group("after")
    return (match.group("lead") or "") + re.sub(r"[. ]", "", number)


# A time on a clock said as a duration: "h:mm:ss" always; "mm:ss" or "h:mm" after "in", "for",
# "took", "time", a distance ("5k 27:30") or before "min" or "pace". "at 7:30", "7:30pm" and a
# bare "12:30" are times of day, left as they are.
_CLOCK = re.compile(
    r"(?P<lead>\b(?:in|for|took|time|time of|[0-9]+ ?km?|miles?|mi)\s+)"
    r"(?P<a>[0-9]{1,2}):(?P<b>[0-5][0-9])(?![:\w])"
    r"|(?<![\w:])(?P<h>[0-9]{1,2}):(?P<m>[0-5][0-9]):(?P<s>[0-5][0-9])(?![:\w])"
    r"|(?<![\w:])(?P<mm>[0-9]{1,2}):(?P<ss>[0-5][0-9])(?:\s*(?:mins?|minutes)\b|(?=\s*pace\b))"
)
# Up to this many, the first number of "h:mm" is hours ("a 10k in 1:02"); above, minutes
# ("27:30" is 27 minutes 30 seconds).
_CLOCK_HOURS = 3
# A minute mark: "45'" (never "5'10", a height, nor a quote).
_MINUTE_MARK = re.compile(r"(?<=[0-9])'(?![0-9'\w])")


def _clock_minutes(match: re.Match) -> str:
    """A clock duration as minutes: "in 27:30" -> "in 27.5 min", "1:02:15" -> "62.2 min"."""
    found = {k: int(v) for k, v in match.groupdict().items() if v is not None and k != "lead"}
    if "h" in found:
        minutes = found["h"] * 60 + found["m"] + found["s"] / 60
    elif "mm" in found:
        minutes = found["mm"] + found["ss"] / 60
    elif found["a"] <= _CLOCK_HOURS:
        minutes = found["a"] * 60 + found["b"]
    else:
        minutes = found["a"] + found["b"] / 60
    return f"{match.group('lead') or ' '}{round(minutes, 1):g} min "


PHRASE_TOKENS = sorted((tuple(p.split()) for p in PHRASES), key=len, reverse=True)


def tokenise(text: str) -> list[str]:
    """Lower-case tokens of a message, with known multi-word names joined into one token."""
    text = (
        text[: settings.SPARKY_MAX_MESSAGE_CHARS]
        .lower()
        .replace("\u2019", "'")
        .replace("\u2018", "'")
    )
    for char, fraction in (("½", " 1/2"), ("¼", " 1/4"), ("¾", " 3/4"), ("⅓", " 1/3")):
        text = text.replace(char, fraction)
    text = re.sub(r"(?<=[0-9]),(?=[0-9]{3}\b)", "", text)  # 9,500 -> 9500
    text = _THOUSANDS.sub(_thousands, text)  # "8.500 steps" -> 8500
    text = _DECIMAL_COMMA.sub(r"\1.\2", text)  # 82,6 kg -> 82.6
    text = _CLOCK.sub(_clock_minutes, text)  # "5k in 27:30" -> 27.5 min
    text = _MINUTE_MARK.sub(" min", text)  # "45' easy" -> 45 min
    text = re.sub(r"[\r\n]+", " . ", text)
    text = re.sub(r"(?<![a-z])w/(?=\s|[a-z])", " with ", text)  # "oatmeal w/ banana"
    text = re.sub(r"\s[-\u2013\u2014]+\s", " : ", text)  # "dinner - salmon": a dash sets off
    text = re.sub(r"\ba lot of\b", "lots of", text)
    text = _CIRCUMSTANCE.sub(" ", _EMOTICON.sub(" ", text))
    words = [
        SHORTHAND.get(token, token) for token in _TOKEN.findall(text) if token not in INTERJECTIONS
    ]
    return _join_phrases(words)


def spelled_out(text: str) -> str:
    """The text with chat shorthand and common slips read as the words they stand for ("hw
    many calroies in an orange" -> "how many calories in an orange"), all else as written."""
    return _WORDS.sub(lambda m: SHORTHAND.get(m.group().lower(), m.group()), text or "")


_WORDS = re.compile(r"[A-Za-z][A-Za-z']*")


def _join_phrases(tokens: list[str]) -> list[str]:
    joined = []
    i = 0
    while i < len(tokens):
        for phrase in PHRASE_TOKENS:
            if tuple(tokens[i : i + len(phrase)]) == phrase:
                joined.append(" ".join(phrase))
                i += len(phrase)
                break
        else:
            joined.append(tokens[i])
            i += 1
    return joined


def number_value(token: str) -> float | None:
    """The value of one number token: '2', '1.5', '1/2', 'seven', 'twenty-five'; else None.
    Number words are read by text2num."""
    if re.fullmatch(r"[0-9]*\.?[0-9]+", token):
        return float(token)
    if re.fullmatch(r"[0-9]*\.?[0-9]+e[+-]?[0-9]+", token):
        # Its whole value, so the diary's own limits refuse "slept 1e9 hours" as they would
        # a billion hours written out (beyond what a float holds: the largest it holds).
        return min(float(token), sys.float_info.max)
    if re.fullmatch(r"[0-9.]+/[0-9.]+", token):
        top, bottom = token.split("/")
        try:
            return float(top) / float(bottom) if float(bottom) else None
        except ValueError:
            return None
    if re.fullmatch(r"[a-z]+(?:-[a-z]+)?", token):
        return _words_value([token])
    return None


def _words_value(words: list[str]) -> float | None:
    try:
        return float(text2num(" ".join(words), "en"))
    except ValueError:
        return None


def token_at(tokens: list[str], i: int) -> str:
    return tokens[i] if 0 <= i < len(tokens) else ""


def take_quantity(tokens: list[str], i: int, articles: bool = True) -> tuple[float | None, int]:
    """A quantity starting at tokens[i] and the index after it, or (None, i).

    Reads digits and fractions ("2", "1.5", "1/2", "1 1/2", "-3"), number words ("seven",
    "one hundred and fifty"), "a" and "an" (1, unless articles is False), "half a", "a couple
    of", "a dozen", "2 and a half".
    """
    word = token_at(tokens, i)
    if word == "half":
        j = i + 2 if token_at(tokens, i + 1) in ("a", "an") else i + 1
        if token_at(tokens, j) == "dozen":
            return 6, j + 1
        return 0.5, j
    if word in ("a", "an") and articles:
        following = token_at(tokens, i + 1)
        if following == "half":
            return 0.5, i + 2
        if following == "quarter":
            return 0.25, i + 3 if token_at(tokens, i + 2) == "of" else i + 2
        if following == "couple":
            return 2, i + 3 if token_at(tokens, i + 2) == "of" else i + 2
        if following == "dozen":
            return 12, i + 2
        if following in ("few", "little", "bit", "lot"):
            return None, i + 2  # too vague to count: one serving
        if following in ("hundred", "thousand"):  # "a hundred push-ups"
            value, j = take_quantity(["one", *tokens[i + 1 :]], 0)
            return value, i + j
        return 1, i + 1
    if word == "couple":
        return 2, i + 2 if token_at(tokens, i + 1) == "of" else i + 1
    if word == "zero" and GOAL_NUTRIENTS.get(token_at(tokens, i + 1)) not in (
        None,
        "calories",
        "water_goal",
    ):
        return None, i  # "zero sugar red bull", "zero carb bread": a label, not an amount
    sign = 1
    if word == "-" and number_value(token_at(tokens, i + 1)) is not None:
        sign, i, word = -1, i + 1, token_at(tokens, i + 1)
    value = number_value(word)
    if value is None:
        return None, i
    j = i + 1
    if word.isalpha() or "-" in word:  # "one hundred and fifty", "twenty five"
        for end in range(min(len(tokens), i + 6), j, -1):
            longer = _words_value(tokens[i:end])
            if longer is not None and tokens[end - 1] != "and":
                value, j = longer, end
                break
    value *= sign
    if "/" not in word and re.fullmatch(r"[0-9]+/[0-9]+", token_at(tokens, j)):
        value += number_value(token_at(tokens, j)) or 0  # 1 1/2
        j += 1
    if tokens[j : j + 3] == ["and", "a", "half"]:
        value += 0.5
        j += 3
    if token_at(tokens, j) == "dozen":
        value *= 12
        j += 1
    return value, j
