"""Intent-JSON mode: the schema a model answers in when it cannot call tools, and its parser.

Models without tool calling, and Sparky's built-in offline parser (chat.reading.parser), describe
what to log as JSON intents. Small local models write sloppy JSON, so reading a reply is two steps:

1. `_json_values` finds every JSON object or list in the text (prose, code fences and all), and
   json-repair mends the usual slips: trailing commas, single-quoted strings, bare keys, Python's
   None/True/False, a reply cut off before its last brace.
2. `validate_intent` maps synonyms and casing onto the schema, coerces numbers given as strings,
   fills defaults and checks bounds. It raises `IntentError` with a message that says what was wrong
   and shows a correct example, so the coach can pass it back to the model or show it to the user.

Nothing here touches the database: dates stay strings ("today", "yesterday", "2025-03-01") and the
services resolve them (and refuse the future) in the user's time zone.
"""

from chat.reading.intents.parse import (  # noqa: F401
    parse_intent_reply,
)
from chat.reading.intents.schema import (  # noqa: F401
    DISTANCE_UNITS,
    EXAMPLES,
    INTENT_JSON_INSTRUCTIONS,
    INTENT_NAMES,
    INTENT_RESPONSE_FORMAT,
    MAX_INTENTS,
    MAX_JSON_CANDIDATES,
    MAX_REPLY_CHARS,
    MEAL_TYPES,
    STANDARD_MEASUREMENTS,
    Intent,
    IntentError,
    ParseResult,
)
from chat.reading.intents.validate import (  # noqa: F401
    validate_intent,
)
