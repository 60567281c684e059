"""A message read as the answer to Sparky's own last question: a yes or a no (to a confirmation),
the number of an option ("2", "#2", "the first one"), or `manual: ...` numbers for something the
catalog lacked. Read once, with the rest of the message (chat.reading.message.Reading)."""

from __future__ import annotations

import re

from chat.reading.vocabulary import NO, PICKING, YES
from sparky.words import alternation

_YES = re.compile(rf"^\s*{alternation(YES)}\s*[.!]*\s*$", re.I)
_NO = re.compile(rf"^\s*(?:{alternation(NO)}|no,?\s+(?:don'?t|cancel).*)\s*[.!]*\s*$", re.I)
_NUMBER_REPLY = re.compile(rf"^\s*{alternation(PICKING)}?\s*(\d{{1,3}})\s*[.)!]?\s*$", re.I)
_MANUAL = re.compile(r"^\s*manual\s*[:\-]\s*(.+)$", re.I | re.S)
_ORDINALS = {
    **dict.fromkeys(["first", "1st", "one"], 1),
    **dict.fromkeys(["second", "2nd", "two"], 2),
    **dict.fromkeys(["third", "3rd", "three"], 3),
    **dict.fromkeys(["fourth", "4th", "four"], 4),
    **dict.fromkeys(["fifth", "5th", "five"], 5),
}
# Words around a pick said in words: "the first one please", "option two", "yes, the 2nd".
_PICK_FILLER = YES | PICKING | {"the", "one", "please", "that", "thing", "item", "entry"}


def yes_or_no(text: str) -> str | None:
    """ "yes" or "no" when the whole message is one ("yep", "no, cancel that"), else None."""
    if _YES.match(text or ""):
        return "yes"
    if _NO.match(text or ""):
        return "no"
    return None


def numeric_reply(text: str) -> int | None:
    """The option a reply picks: "2", "#2", "option 2", "the first one", "number two"."""
    m = _NUMBER_REPLY.match(text or "")
    if m:
        return int(m.group(1))
    words = re.findall(r"[a-z0-9]+", (text or "").lower())
    if not words or len(words) > 5:
        return None
    picked = {_ORDINALS[w] for w in words if w in _ORDINALS and w != "one"}
    rest = [w for w in words if w not in _PICK_FILLER and w not in _ORDINALS]
    if len(picked) == 1 and not rest:
        return picked.pop()
    return None


def manual_reply(text: str) -> str | None:
    """The numbers after "manual:", when the message gives its own values."""
    m = _MANUAL.match(text or "")
    return m.group(1).strip() if m else None
