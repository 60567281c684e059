"""The offline parser's word lists, read once from the TOML files in chat/reading/parser/words/.

The lists are data: a word the parser should know is added to a file, not to the code. Each file
says what its lists are for. Lists become frozensets (order does not matter), tables dicts; the
time phrases keep their order (longest first).
"""

from __future__ import annotations

# GOAL_WORDS is read below the parser, for the keyword classifier too
from chat.reading.vocabulary import GOAL_WORDS as GOAL_WORDS
from chat.reading.vocabulary import load
from exercise import vocabulary as activities
from measurements import vocabulary as body
from nutrition import vocabulary as food_words

_load = load


def _words(data: dict, key: str) -> frozenset[str]:
    return frozenset(data[key])


_tokens = _load("tokens")
# Words said as one token: the grammar's own, every activity's several-word names ("bicep
# curls", "shoulder press"), which exercise owns, and a trip's "each way".
PHRASES: tuple[str, ...] = tuple(
    dict.fromkeys(
        [
            *_tokens["phrases"],
            *(w for w in activities.SEARCH_TERMS if " " in w and "-" not in w),
            *_load("time")["each_way"],  # "20 mins each way"
        ]
    )
)
INTERJECTIONS = _words(_tokens, "interjections")
SHORTHAND: dict[str, str] = dict(_tokens["shorthand"])
COUNTED_WHOLE: tuple[str, ...] = tuple(_tokens["counted_whole"])
CIRCUMSTANCES: tuple[str, ...] = tuple(_tokens["circumstances"])

_talk = _load("talk")
SOCIAL: dict[str, frozenset[str]] = {kind: frozenset(p) for kind, p in _talk["social"].items()}
SOCIAL_REPLIES: dict[str, str] = _talk["replies"]
MOODS: dict[str, frozenset[str]] = {
    mood: frozenset(words) for mood, words in _talk["moods"].items() if mood != "praised"
}
PRAISED = frozenset(_talk["moods"]["praised"])
SOCIAL_FILLER = _words(_talk, "social_filler")
SOCIAL_OPENERS = _words(_talk, "social_openers")
QUESTION_WORDS = _words(_talk, "question_words")
QUESTION_AUXILIARIES = _words(_talk, "question_auxiliaries")
SUBJECTS = _words(_talk, "subjects")
REQUESTS = _words(_talk, "requests")
LOGGING_REQUESTS = _words(_talk, "logging_requests")
REQUEST_FILLERS = _words(_talk, "request_fillers")

_time = _load("time")
TIME_PHRASES: tuple[tuple[tuple[str, ...], str, str | None], ...] = tuple(
    (tuple(p["words"]), p["date"], p.get("meal")) for p in _time["time_phrases"]
)
AROUND = _words(_time, "around")
AROUND_FILLER = _words(_time, "around_filler")
SESSIONS = _words(_time, "sessions")
AROUND_WORDS = _words(_time, "around_words")
EACH_WAY = _words(_time, "each_way")
WEEKDAY_MEALS: dict[str, str] = _time["weekday_meals"]

_clauses = _load("clauses")
SPLITTERS = _words(_clauses, "splitters")
# Time units: an "and" between two durations ("1 hour and 15 minutes") does not split.
TIME_UNITS = body.HOURS | body.MINUTES | body.MINUTES_IN_A_DURATION
WITH_PARTS = _words(_clauses, "with_parts")
PREPARED_WITH = _words(_clauses, "prepared_with")
WITH_COMPANY = _words(_clauses, "with_company")
WITH_FOODS = frozenset(tuple(pair) for pair in _clauses["with_foods"])
PHRASE_ENDS = _words(_clauses, "phrase_ends")

_measurements = _load("measurements")
NOT_PLAIN_WATER = _words(_measurements, "not_plain_water")
MEASUREMENT_FILLER = _words(_measurements, "measurement_filler")
BARE_WEIGHT_OPENERS = _words(_measurements, "bare_weight_openers")
BARE_WEIGHT_CLOSERS = _words(_measurements, "bare_weight_closers")
STANDARD_WORDS = body.CHECKIN_WORDS  # the measurements domain's words for its fields
CUSTOM_WORDS = body.CUSTOM_WORDS  # the measurements domain's custom measurements
CUSTOM_UNITS = body.CUSTOM_UNITS

_exercise = _load("exercise")
EXERCISE_WORDS = activities.ACTIVITIES  # the exercise domain's list
EXERCISE_LOOKUP = {word: name for name, words in EXERCISE_WORDS.items() for word in words}
GENERIC_EXERCISE = _words(_exercise, "generic_exercise")
NOT_EXERCISE_AFTER = _words(_exercise, "not_exercise_after")
NOT_EXERCISE_BEFORE = _words(_exercise, "not_exercise_before")
COUNTED_EXERCISES = activities.COUNTED
ACTIVITY_FILLER = _words(_exercise, "activity_filler")
PLAYED = _words(_exercise, "played")
DURATION_FRAMING = _words(_exercise, "duration_framing")
RETURN_TRIP = _words(_exercise, "return_trip")
SAME_WORKOUT = _words(_exercise, "same_workout")
NOT_ACTIVITY = _words(_exercise, "not_activity")
HOURS = body.HOURS  # the measurements domain's words for a length of time
MINUTES = body.MINUTES
MINUTES_AFTER_HOURS = body.MINUTES_IN_A_DURATION  # "1h 15m"; "400m" is metres

_food = _load("food")
EATING = _words(_food, "eating")
FOOD_FILLER = _words(_food, "food_filler")
NAME_FILLER = _words(_food, "name_filler")
TRAILING_FILLER = _words(_food, "trailing_filler")
CONTAINERS = _words(_food, "containers")
TRAILING_UNITS = _words(_food, "trailing_units")
TRAILING_PARTS = _words(_food, "trailing_parts")
CALORIE_WORDS = food_words.CALORIE_WORDS  # nutrition's spellings of kcal
NOT_FOOD = _words(_food, "not_food")
NOT_FOOD_ALONE = _words(_food, "not_food_alone")
HEDGES = _words(_food, "hedges")
SAID_OF_A_GLASS: dict[str, str] = dict(_food["said_of_a_glass"])
DESCRIBING = _words(_food, "describing")
MEAL_BEFORE = _words(_food, "meal_before")
MEAL_AFTER = _words(_food, "meal_after")
SIZE_UNITS = _words(_food, "size_units")
MEAL_ONLY = _words(_food, "meal_only")
ROUGHLY = _words(_food, "roughly")
GRAM_WORDS = food_words.GRAM_WORDS  # and of g
CONTAINER_SIZES: dict[str, str] = _food["container_sizes"]

_goals = _load("goals")
# Word -> the goal it sets: nutrition's words for the nutrients a goal is said for, and for water.
GOAL_NUTRIENTS: dict[str, str] = {
    word: name
    for word, name in food_words.NUTRIENT_OF_WORD.items()
    if name in _goals["goal_nutrients"] and " " not in word
} | dict.fromkeys(
    food_words.WATER_WORDS | {w for w, unit in food_words.ALIASES.items() if unit == "glass"},
    "water_goal",
)

_changes = _load("changes")
LOG_VERBS = _words(_changes, "log_verbs")
DONE = _words(_changes, "done") | activities.DONE_WORDS
REMOVE_WORDS = _words(_changes, "remove_words")
CHANGE_WORDS = REMOVE_WORDS | _words(_changes, "edit_words")
NOT_DONE_KINDS: dict[str, frozenset[str]] = {
    kind: frozenset(words)
    for kind, words in _changes["not_done"].items()
    if kind not in ("negation_openers", "not_negation_after")
}
NOT_DONE = frozenset().union(*NOT_DONE_KINDS.values())
NEGATION_OPENERS = frozenset(_changes["not_done"]["negation_openers"])
REPEATS: dict[str, frozenset[str]] = {k: frozenset(w) for k, w in _changes["repeats"].items()}
CORRECTIONS: dict[str, frozenset[str]] = {
    k: frozenset(w) for k, w in _changes["corrections"].items()
}
NOT_NEGATION_AFTER = frozenset(_changes["not_done"]["not_negation_after"])

_people = _load("people")
PRONOUNS = _words(_people, "pronouns")
RELATION_DETERMINERS = _words(_people, "determiners")
RELATIONS = _words(_people, "relations")
PEOPLE_VERBS = _words(_people, "verbs")
IS_DOING = _words(_people, "is_doing")
OWN_SUBJECTS = _words(_people, "own_subjects")
NOT_NAMES = _words(_people, "not_names")

_categories = _load("categories")
INTENT_CATEGORIES: dict[str, str] = _categories["intent_categories"]
