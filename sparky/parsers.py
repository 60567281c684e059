"""The API's JSON parser: JSON nested deeper than any request of ours needs is a 400, never a 500.

Python's json module recurses once per level, so a body of a thousand `[` ends in RecursionError
(a 500 with DRF's own parser), even on the token endpoint where nobody is logged in yet. Sparky's
requests nest a few levels (a review's items are a list of objects); MAX_DEPTH leaves room to spare.
"""

from __future__ import annotations

from rest_framework import parsers
from rest_framework.exceptions import ParseError

MAX_DEPTH = 32
TOO_DEEP = (
    "The JSON in the request is nested more than {limit} levels deep; Sparky's requests need only "
    "a few. Send a flatter body."
)


def depth(value) -> int:
    """How many levels of lists and objects `value` nests (0 for a number or a string)."""
    deepest, level = 0, [(value, 1)]
    while level:
        item, at = level.pop()
        if isinstance(item, dict):
            item = list(item.values())
        if isinstance(item, list):
            deepest = max(deepest, at)
            level.extend((child, at + 1) for child in item)
    return deepest


class JSONParser(parsers.JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError(TOO_DEEP.format(limit=MAX_DEPTH), code="too_deep") from None
        if depth(data) > MAX_DEPTH:
            raise ParseError(TOO_DEEP.format(limit=MAX_DEPTH), code="too_deep")
        return data
