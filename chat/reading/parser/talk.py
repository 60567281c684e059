"""Sentences, small talk and questions: messages that are answered, never logged."""

from __future__ import annotations

from dataclasses import dataclass

from chat.reading.parser.tokens import token_at
from chat.reading.parser.vocabulary import (
    MOODS,
    NOT_DONE_KINDS,
    PRAISED,
    QUESTION_AUXILIARIES,
    QUESTION_WORDS,
    REQUESTS,
    SOCIAL,
    SOCIAL_FILLER,
    SOCIAL_OPENERS,
    SUBJECTS,
)


@dataclass
class Sentence:
    tokens: list[str]
    question: bool


def split_sentences(tokens: list[str]) -> list[Sentence]:
    sentences, current = [], []
    for token in tokens:
        if token in (".", "!", "?", ";"):
            if current:
                sentences.append(Sentence(current, token == "?"))
            current = []
        else:
            current.append(token)
    if current:
        sentences.append(Sentence(current, False))
    return sentences


def social_kind(tokens: list[str]) -> str | None:
    """'hi', 'thank you!', 'ok thanks': small talk, by its last phrase after any openers."""
    words = [token for token in tokens if token not in SOCIAL_FILLER]
    while words:
        phrase = " ".join(words)
        kind = next((kind for kind, phrases in SOCIAL.items() if phrase in phrases), None)
        if kind or words[0] not in SOCIAL_OPENERS:
            return kind
        words = words[1:]
    return None


# Small talk opening a longer remark ("bye for now, talk tomorrow", "feeling pretty good after my
# workout"): the kinds a phrase of which answers the whole remark.
_WITHIN = ("goodbye", "thanks", "feeling_low", "feeling_good")


def remark_kind(tokens: list[str]) -> str | None:
    """How to meet a remark that names nothing to log: by a small-talk phrase said within it, as
    praise of Sparky ("you're awesome, this app rocks"), or by the mood of its words ("had a rough
    day at work"). None when it carries none. A negation turns the mood round ("not great")."""
    words = [token for token in tokens if token not in SOCIAL_FILLER]
    negated = any(token in NOT_DONE_KINDS["negation"] for token in words)
    said = f"{' '.join(words)} "
    for kind in _WITHIN:
        if negated and kind.startswith("feeling"):
            continue
        if any(said.startswith(f"{phrase} ") for phrase in SOCIAL[kind]):
            return kind  # it opens the remark: "bye for now", never "last night I had..."
    good = any(token in MOODS["good"] for token in words)
    low = any(token in MOODS["low"] for token in words)
    if negated:
        good, low = low, good
    if good and not low:
        return "praise" if any(token in PRAISED for token in words) else "feeling_good"
    if low and not good:
        return "feeling_low"
    return None


def strip_openers(tokens: list[str]) -> list[str]:
    """'hi, I had eggs' -> 'I had eggs'; 'thanks, also walked 20 min' -> 'also walked 20 min'."""
    i = 0
    while i < len(tokens):
        if tokens[i] in SOCIAL_OPENERS or tokens[i] in ("thanks", "cheers"):
            i += 1
        elif tokens[i : i + 2] == ["thank", "you"]:
            i += 2
        else:
            break
    return tokens[i:]


def is_question(sentence: Sentence, tokens: list[str]) -> bool:
    first, second = token_at(tokens, 0), token_at(tokens, 1)
    return (
        sentence.question
        or first in QUESTION_WORDS
        or first in ("how many", "how much")
        or first in REQUESTS
        or (first in QUESTION_AUXILIARIES and second in SUBJECTS)
    )
