"""Reading a whole message: sentences, their time, their clauses by domain, into intents."""

from __future__ import annotations

import dataclasses
import logging
import re

from chat.reading.intents import Intent, IntentError, ParseResult, validate_intent
from chat.reading.parser.changes import (
    CHANGE_HINT,
    CORRECTION,
    LONE_NUMBER,
    read_repeat,
    read_usual,
    strip_late_logging,
)
from chat.reading.parser.clauses import split_clauses
from chat.reading.parser.exercise import (
    BARE_MINUTES,
    distance_of,
    duration_minutes,
    exercise_at,
    exercise_item,
    pace_of,
)
from chat.reading.parser.food import (
    FoodItem,
    external_item,
    food_item,
    has_food_cue,
    take_meal,
    with_nutrition,
)
from chat.reading.parser.goals import read_goals
from chat.reading.parser.meal import meal_items, prepared
from chat.reading.parser.measurements import (
    bed_or_wake,
    half_a_reading,
    is_water,
    measurement_items,
    measures,
    sleep_between,
    water_amount,
)
from chat.reading.parser.people import about_the_user, someone_else
from chat.reading.parser.state import Reading, When
from chat.reading.parser.talk import (
    is_question,
    remark_kind,
    social_kind,
    split_sentences,
    strip_openers,
)
from chat.reading.parser.tokens import take_quantity, token_at, tokenise
from chat.reading.parser.vocabulary import (
    CHANGE_WORDS,
    DESCRIBING,
    DURATION_FRAMING,
    EACH_WAY,
    EATING,
    FOOD_FILLER,
    GOAL_NUTRIENTS,
    GOAL_WORDS,
    HOURS,
    LOG_VERBS,
    LOGGING_REQUESTS,
    MEAL_ONLY,
    MOODS,
    NOT_DONE,
    REMOVE_WORDS,
    REQUEST_FILLERS,
    RETURN_TRIP,
    SAME_WORKOUT,
    SOCIAL_FILLER,
    SOCIAL_OPENERS,
    SOCIAL_REPLIES,
    TIME_UNITS,
)
from chat.reading.parser.when import take_time
from exercise.services import distance_unit_of
from nutrition.services import (
    food_find_best,
    food_name_word,
    food_named_by_description,
    food_words_known,
)
from sparky.words import alternation, singular

logger = logging.getLogger(__name__)


EXAMPLES_TEXT = (
    "Without an AI service I can log simple messages such as '2 eggs and toast for breakfast', "
    "'walked 30 minutes', 'weight 80 kg' or '2 glasses of water'."
)


def parse_message(text: str) -> ParseResult:
    """Intents for an everyday English message; errors say what could not be understood."""
    if not isinstance(text, str) or not text.strip():
        return ParseResult(errors=["The message was empty. " + EXAMPLES_TEXT])
    try:
        asked = _asked_to_log(text)
        if asked is not None:
            return asked
        return _parse(text)
    except Exception:  # a parser bug must not take the user's turn down with it
        logger.exception("offline parser failed on %r", text[:200])
        return ParseResult(errors=[not_understood(text)])


GOAL_VERBS = frozenset({"change", "set", "update"})  # "can you set my calorie goal to 1900?"
# "hey, can you please log 2 eggs": the opener ("hey", "ok"), the request, then what it asks.
_OPENERS = alternation(w for w in SOCIAL_OPENERS if w.isalpha())
_LOGGING_REQUEST = re.compile(
    rf"^\W*(?:{_OPENERS}\W+)*{alternation(LOGGING_REQUESTS)}\s+"
    rf"(?:{alternation(REQUEST_FILLERS)}\s+)?(?P<rest>{alternation(LOG_VERBS | GOAL_VERBS)}"
    r"\b(?!\s+up\b).*?)[\s?.!]*$",
    re.IGNORECASE | re.DOTALL,
)


def _asked_to_log(text: str) -> ParseResult | None:
    """'can you log 2 eggs?' is read as 'log 2 eggs' when that logs something; else None."""
    found = _LOGGING_REQUEST.match(text.replace("\u2019", "'"))
    if found is None:
        return None
    result = _parse(found.group("rest"))
    logs = [i for i in result.intents if i.name.startswith(("log_", "set_"))]
    return result if logs and not result.errors else None


def _parse(text: str) -> ParseResult:
    if re.fullmatch(r"\s*#?\d{1,3}[.)]?\s*", text):
        return ParseResult(errors=[LONE_NUMBER])
    if usual := read_usual(text):  # before corrections: "make that my usual dinner"
        return ParseResult(intents=[usual])
    if CORRECTION.search(" ".join(text.lower().replace("\u2019", "'").split())):
        return ParseResult(errors=[CHANGE_HINT])
    if repeat := read_repeat(text):
        return ParseResult(intents=[repeat])
    if text.strip() and not tokenise(text):  # "lol", "👍": a laugh or a nod, nothing to log
        return ParseResult(intents=[Intent("chat", {}, SOCIAL_REPLIES["laugh"])], social="laugh")
    reading = Reading(entries=[], measurements=[], errors=[], left_out=[])
    when = When()
    for sentence in split_sentences(tokenise(text)):
        kind = social_kind(sentence.tokens)
        tokens = strip_openers(sentence.tokens)
        if kind or not tokens:
            reading.social = reading.social or kind or "greeting"
            continue
        if is_question(sentence, tokens):
            reading.asked = True
            continue
        said, tokens = take_time(tokens)
        if said.date is not None:
            when = said
        tokens = strip_late_logging(tokens)
        if not tokens:
            continue
        if any(token in GOAL_WORDS for token in tokens) or _sets_a_goal(tokens):
            read_goals(tokens, when, reading)  # "change my protein target to 140g"
            continue
        if tokens[0] in CHANGE_WORDS:
            _read_change(tokens, when, reading)
            continue
        _read_statement(tokens, when, reading, told="\n" not in text.strip())
    bare = _read_bare_food(reading, when)
    if not bare and (reading.entries or "\n" in text.strip()):
        _read_listed_food(reading)
    _meet_a_remark(text, reading)
    result = _result(text, reading)
    result.bare_food = bare
    return result


def _sets_a_goal(tokens: list[str]) -> bool:
    """A goal set without the word goal ("set calories to 2000 a day", "change my protein to
    140g"): a verb that sets, a nutrient a goal is kept for and its number."""
    words = [t for t in tokens if t not in REQUEST_FILLERS]  # "please set..."
    if not words or words[0] not in GOAL_VERBS:
        return False
    rest = [t for t in words[1:] if t not in _GOAL_OWNER]
    # the nutrient itself is set, to a number: never "change the protein shake to 2 scoops"
    return (
        len(rest) >= 2
        and rest[0] in GOAL_NUTRIENTS
        and (rest[1] in ("to", "at") or rest[1][:1].isdigit())
        and any(token[:1].isdigit() for token in rest)
    )


_GOAL_OWNER = frozenset({"my", "the", "daily", "day's", "days"})


_BARE_FOOD_WORDS = 7
# Said when nothing of a message was understood; the message is not said back: the user knows
# what they wrote (the coach adds what the offline model can do).
NOT_UNDERSTOOD = "Sorry, I couldn't tell what to log from that."


def _meet_a_remark(text: str, reading: Reading) -> None:
    """A remark is small talk, not a meal: when no catalog food is confidently found for what
    was read as food ("had a rough day at work", "you're awesome, this app rocks") and the
    message carries a mood or a small-talk phrase, no food is looked up for it and the reply
    meets the remark. A number, a check-in, a workout or one word a food is named with keeps
    the message a report ("had a rough day, 2 beers")."""
    if reading.asked or reading.social or reading.measurements or reading.errors:
        return
    if reading.notes or any(ch.isdigit() for ch in text):
        return
    if any(name != "log_food" or data.get("food_id") for name, data in reading.entries):
        return
    said = [str(data.get("food_name") or "") for _, data in reading.entries]
    said += [" ".join(clause) for clause in reading.left_out]
    moods = MOODS["good"] | MOODS["low"] | SOCIAL_FILLER
    named = [" ".join(w for w in words.split() if w not in moods) for words in said]
    if not said or any(food_name_word(w) for words in named for w in words.split()):
        return  # "hard boiled egg calories": an egg is a food
    if any(food_find_best(user=None, name=words) for words in named if words):
        return  # "had a rough day, 2 beers": the beers are a food
    kind = remark_kind(tokenise(text))
    if kind is None:
        return
    reading.social = kind
    reading.entries.clear()
    reading.tentative.clear()
    reading.left_out.clear()


_BARE_FOOD_ITEMS = 3  # "yogurt with berries and honey"


def _read_listed_food(reading: Reading) -> None:
    """Short names beside things understood ("4 glasses of water and a coffee") or on lines of
    a list ("2 eggs / toast / an apple") are food on a hunch: logged when the catalog knows
    their words, else left out as before."""
    kept = []
    for clause in reading.left_out:
        item = _bare_item(clause)
        if item is None:
            kept.append(clause)
            continue
        when = reading.left_when.get(id(clause)) or When()
        item.data["date"] = when.date
        _fill_meals([item], when.meal)
        reading.tentative.append(item.data)
        reading.entries.append(("log_food", item.data))
    reading.left_out[:] = kept


def _bare_item(clause: list[str]) -> FoodItem | None:
    """A clause that is only a short name of something eaten ("toast", "a coffee"), as food."""
    if not 1 <= len(clause) <= _BARE_FOOD_WORDS or _has_new_subject(clause):
        return None
    if any(token in NOT_DONE or token in CHANGE_WORDS for token in clause):
        return None
    item = food_item(clause)
    return item if isinstance(item, FoodItem) else None


def _read_bare_food(reading: Reading, when: When) -> bool:
    """A message that is only a short name ("a banana", "rice", "coffee with milk") is taken
    as something eaten, since saying what you had is what the chat is for."""
    if reading.entries or reading.errors or reading.asked or reading.social:
        return False
    if not 1 <= len(reading.left_out) <= _BARE_FOOD_ITEMS:
        return False
    items = []
    for clause in reading.left_out:
        item = _bare_item(clause)
        if item is None:
            return False
        item.data["date"] = when.date
        items.append(item)
    _fill_meals(items, when.meal)
    reading.entries.extend(("log_food", item.data) for item in items)
    reading.left_out.clear()
    return True


def _read_change(tokens: list[str], when: When, reading: Reading) -> None:
    """'delete the pizza', 'undo the water': never read as something to log (that would add
    what the user wants gone). A day's check-in value is replaced when logged again, so
    'change my weight to 80 kg' is the one change that is simply a new weigh-in."""
    changed = Reading(entries=[], measurements=[], errors=[], left_out=[])
    if tokens[0] not in REMOVE_WORDS:
        _read_statement(tokens[1:], when, changed)
    if changed.measurements and all(name == "log_measurement" for name, _ in changed.entries):
        reading.measurements.extend(changed.measurements)
        if ("log_measurement", None) not in reading.entries:
            reading.entries.append(("log_measurement", None))
        return
    reading.errors.append(CHANGE_HINT)


def _read_statement(tokens: list[str], when: When, reading: Reading, told: bool = False) -> None:
    """A sentence by its clauses; when the clauses leave out what the catalog finds in it as a
    told meal ("I treated myself to a can of ginger ale for a quick snack"), the meal reader's
    items instead of the clauses' food. A list on lines ("Monday: oatmeal, a banana") is the
    clauses' alone (`told` False)."""
    by_clauses = Reading(entries=[], measurements=[], errors=[], left_out=[])
    _read_clauses(tokens, when, by_clauses)
    told = _told_instead(tokens, by_clauses) if told else None
    if told is not None:
        told, unread = told
        _fill_meals(told, when.meal)
        kept = [
            (name, data)
            for name, data in by_clauses.entries
            if name != "log_food" or any(data is other for other in unread)
        ]
        water = any(name == "log_water" for name, _ in kept)
        for item in told:
            if water and "water" in item.data["food_name"].split():
                continue  # counted as water already
            item.data["date"] = when.date
            kept.append(("log_food", item.data))
        by_clauses.entries[:] = kept
        by_clauses.errors.clear()
        by_clauses.left_out.clear()
    reading.entries.extend(by_clauses.entries)
    reading.measurements.extend(by_clauses.measurements)
    reading.errors.extend(by_clauses.errors)
    reading.left_out.extend(by_clauses.left_out)
    reading.notes.extend(by_clauses.notes)
    reading.left_when.update(by_clauses.left_when)
    reading.tentative.extend(by_clauses.tentative)


def _told_instead(tokens: list[str], by_clauses: Reading) -> tuple[list, list] | None:
    """(the told meal's items, the clauses' foods it did not read) when the meal reader finds
    a food in a sentence long enough to be told ("I treated myself to a can of ginger ale for a
    quick snack"); else None. Where the meal reader read, its catalog foods stand ("one navel
    orange, nice and sweet" is no sweet chocolate); a food the clauses found elsewhere ("spaghetti"
    before any amount) is kept."""
    if len(tokens) <= _BARE_FOOD_WORDS:
        return None  # a short log ("chicken breast and a baked potato") is the clauses' to read
    if any(token in NOT_DONE for token in tokens):
        return None  # "2 eggs, not 3", "didn't have the cake": never logged by a hunch
    if any(not error.startswith(_MEAL_QUESTION) for error in by_clauses.errors):
        return None  # something said was refused ("minus 2 apples"): the refusal stands
    if by_clauses.notes:
        return None  # "... and my son had 3 pancakes": what others ate is left out
    if any(name not in ("log_food", "log_water") for name, _ in by_clauses.entries):
        return None  # "ran 5 km in 25 minutes": minutes are no food
    told = meal_items(tokens)
    foods = [data for name, data in by_clauses.entries if name == "log_food"]
    if not told.items:
        if not any(_describes_only(data["food_name"]) for data in foods):
            return None
        # "a sweet and crunchy treat": "sweet" says how it tasted, not what it was
        return [], [data for data in foods if not _describes_only(data["food_name"])]
    unread = []
    for data in foods:
        words = data["food_name"].lower().split()
        if told.named & {singular(w) for w in words} or not _a_food(data):
            continue  # the meal reader's food, or no food at all
        if _within(words, tokens, told.spans) and _clause_found(data):
            continue  # "a tasty spread": the meal reader found no food there; never a guess
        unread.append(data)  # "spaghetti" before any amount; "grandma's stew", to ask about
    return told.items, unread


def _clause_found(data: dict) -> bool:
    """Whether the catalog knows a clause's food as named; a lone word saying how a food was
    made ("topped", "coated") or only describing the food it matched ("savored" of "Spices,
    savory") names none."""
    name = data["food_name"]
    if " " not in name and prepared(name) and not food_name_word(name):
        return False
    food = food_find_best(user=None, name=name, unit=data.get("unit"))
    return food is not None and not food_named_by_description(name, food)


def _describes_only(name: str) -> bool:
    return all(word in DESCRIBING for word in name.lower().split())


def _within(words: list[str], tokens: list[str], spans: set[int]) -> bool:
    """Whether every word stands in an item the meal reader read."""
    said = {singular(tokens[i]) for i in spans if i < len(tokens)}
    return all(singular(word) in said for word in words)


def _a_food(data: dict) -> bool:
    """Whether a clause's food the meal reader did not name is one still: the catalog knows it
    ("spaghetti"), or it names something without saying who did what
    ("grandma's famous stew", to offer or ask about); never words of how it was eaten, made or
    tasted ("savored", "mid-afternoon I peeled", "sweet")."""
    name = data["food_name"]
    if _describes_only(name):
        return False
    if _clause_found(data):
        return True
    words = name.lower().split()
    return not any(w in _SUBJECTS or w in EATING or prepared(w) for w in words)


_MEAL_QUESTION = "What did you have for "


def _read_clauses(tokens: list[str], when: When, reading: Reading) -> None:
    clauses = split_clauses(tokens)
    if (hours := sleep_between(tokens)) is not None:  # "in bed by 11, up at 7"
        sleep = {"type": "custom", "name": "Sleep", "value": hours, "unit": "hours", "date": None}
        reading.measurements.append(sleep)
        reading.entries.append(("log_measurement", None))
    # "got up at 7 and had 2 eggs": a time of getting up is no food, with or without a bedtime
    clauses = [clause for clause in clauses if not bed_or_wake(clause)]
    clauses = _the_users_own(with_nutrition(_rejoined(clauses)), reading)
    domains = [_domain(clause) for clause in clauses]
    if "food" in domains:
        # "eggs, toast and coffee for breakfast": bare items belong to the sentence's food.
        domains = [
            "food" if domain is None and not _has_new_subject(clause) else domain
            for clause, domain in zip(clauses, domains, strict=True)
        ]
    foods = []
    sentence_meal = None
    for clause, domain in zip(clauses, domains, strict=True):
        if domain == "water":
            reading.entries.append(("log_water", {**water_amount(clause), "date": when.date}))
        elif domain == "measurement":
            items = measurement_items(clause, when)
            if not items and (hint := half_a_reading(clause)):
                reading.errors.append(hint)  # "bp 120": which number is it?
                continue
            reading.measurements.extend(items)
            if ("log_measurement", None) not in reading.entries:
                reading.entries.append(("log_measurement", None))
        elif domain == "exercise":
            reading.entries.append(("log_exercise", {**exercise_item(clause), "date": when.date}))
        elif (external := external_item(clause)) is not None:
            external.data["date"] = when.date
            foods.append(external)
            reading.entries.append(("log_external", external.data))
        elif domain == "food":
            item = food_item(clause)
            if isinstance(item, str):
                reading.errors.append(item)
            elif item is None:
                meal, rest = take_meal(clause)
                if meal and all(token in MEAL_ONLY for token in rest):
                    sentence_meal = meal  # "went out for lunch (with my wife) and had a burger"
                else:
                    _leave_out(reading, clause, when)
            else:
                item.data["date"] = when.date
                foods.append(item)
                reading.entries.append(("log_food", item.data))
        else:
            _leave_out(reading, clause, when)
    if sentence_meal and not foods and not reading.entries:
        # "I had breakfast", "log lunch": the meal, but not what was in it
        reading.errors.append(
            f"{_MEAL_QUESTION}{sentence_meal}? Tell me the foods, e.g. '2 eggs and toast "
            f"for {sentence_meal}'."
        )
    if sentence_meal is None and any(token in SNACKING for token in tokens):
        sentence_meal = "snack"  # "snacked on an orange"
    _fill_meals(foods, sentence_meal or when.meal)


SNACKING = frozenset({"snacked", "snacking"})


def _the_users_own(clauses: list[list[str]], reading: Reading) -> list[list[str]]:
    """The clauses about the user: what someone else ate or did ("my son had 3 pancakes", and
    what follows, until "I ...") is left out, and the reply says so."""
    own, others, person = [], [], None
    for clause in clauses:
        who = someone_else(clause)
        if who is not None:
            person = who
        elif about_the_user(clause):
            person = None
        if person is None:
            own.append(clause)
        elif person not in others and len(clause) > len(person.split()):
            others.append(person)  # "my wife and I walked": "my wife" alone says nothing
    for person in others:
        reading.notes.append(
            f"I left out what {person} had or did: I log only your own food and activity."
        )
    return own


def _leave_out(reading: Reading, clause: list[str], when: When) -> None:
    reading.left_out.append(clause)
    reading.left_when[id(clause)] = when


def _rejoined(clauses: list[list[str]]) -> list[list[str]]:
    """'slept badly, 5 hours', 'ran, 5 km': a measurement or a workout whose number a comma cut
    off gets it back."""
    out: list[list[str]] = []
    time_unit = None
    for clause in clauses:
        if time_unit and len(clause) >= 2 and clause[-2] == "for" and clause[-1].isdigit():
            clause = [*clause, time_unit]  # "ran for 25 minutes then stretched for 15"
        time_unit = next((t for t in clause if t in TIME_UNITS), time_unit)
        previous = out[-1] if out else None
        counted = _counted_back(clause)
        if counted is not None and previous is not None and _domain(previous) in ("food", None):
            # "pancakes for breakfast, 3 of them": the count is the earlier item's
            lead = 0  # past "I had", "ate some": the count goes before the food
            while lead < len(previous) and (
                previous[lead] in EATING or previous[lead] in FOOD_FILLER
            ):
                lead += 1
            had, start = take_quantity(previous, lead)
            rest = previous[start:] if had is not None else previous[lead:]
            out[-1] = [*previous[:lead], counted, *rest]
            continue
        said = _of_the_workout(clause, previous) if previous is not None else None
        if said is not None:  # "golf, walked it, about 4 hours": all of it the golf
            out[-1] = previous + said
            continue
        unmeasured = previous is not None and (
            any(measures(t) for t in previous) and not measurement_items(previous, When())
        )
        if unmeasured and clause[0] in _HEDGES:
            clause = clause[1:]  # "low mood today, maybe 3/10": the score is the mood's
        bare_number = take_quantity(clause, 0, articles=False)[0] is not None and (
            len(clause) <= 3 or all(_measure_word(t) for t in clause)  # "5 km in 28 min"
        )
        untimed = previous is not None and (
            (found := exercise_item(previous)) is not None
            and found["duration_minutes"] is None
            and found["distance"] is None
            and (duration_minutes(clause) is not None or distance_of(clause)[0] is not None)
        )
        if bare_number and (unmeasured or untimed):
            out[-1] = previous + clause
        else:
            out.append(clause)
    return out


def _of_the_workout(clause: list[str], previous: list[str]) -> list[str] | None:
    """What a clause said after a workout adds to it, when it is about that workout and no
    other thing: its duration, alone or framed ("took about 35 mins", "hour and a bit", ", 45"),
    its pace ("6 min/km pace"), the way back of a trip ("walked to work and back") or the same
    workout again ("walked it"); [] when it adds nothing; None when the clause is its own."""
    found = exercise_item(previous)
    if found is None or _domain(previous) != "exercise":
        return None
    if all(token in RETURN_TRIP for token in clause):
        return []
    if exercise_at(clause, 0) is not None and " ".join(clause[1:]) in SAME_WORKOUT:
        return []
    rest = list(clause)
    while rest and rest[0] in DURATION_FRAMING:
        rest = rest[1:]
    while rest and rest[-1] in DURATION_FRAMING:
        rest = rest[:-1]
    if not rest:
        return []  # "an hour and a bit": the bit adds nothing
    if not all(_measure_word(t) for t in rest):
        return None
    if rest[0] in HOURS:  # "hour and a bit": an hour
        rest = ["1", *rest]
    if found["duration_minutes"] is not None:
        return None
    if duration_minutes(rest) is not None:
        return rest
    if found["distance"] is not None and pace_of(rest) is not None:
        return rest
    low, high = BARE_MINUTES
    amount, after = take_quantity(rest, 0, articles=False)
    if after == len(rest) and amount is not None and low <= amount <= high:
        return [*rest, "min"]  # "did a spin class, 45": its minutes
    return None


# Words that hedge a number said after a measurement: "mood's low, maybe 3/10".
_HEDGES = frozenset({"maybe", "about", "around", "like", "probably", "roughly", "prob", "approx"})


def _counted_back(clause: list[str]) -> str | None:
    """'3 of them', 'two of those': a count of the item before, else None."""
    if len(clause) == 3 and clause[1:] in (["of", "them"], ["of", "those"], ["of", "these"]):
        amount, _ = take_quantity(clause, 0, articles=False)
        return clause[0] if amount is not None and amount > 0 else None
    return None


def _measure_word(token: str) -> bool:
    """A number, a time or distance unit or the words between them ('5 km in 28 min')."""
    return (
        take_quantity([token], 0, articles=False)[0] is not None
        or token in TIME_UNITS
        or token in EACH_WAY
        or distance_unit_of(token) is not None
        or token in ("in", "for", "of", "at", "per", "pace")
    )


def _domain(clause: list[str]) -> str | None:
    if any(token in NOT_DONE for token in clause):
        return None
    if is_water(clause):
        return "water"
    if measurement_items(clause, When()) or half_a_reading(clause):
        return "measurement"
    if exercise_item(clause) is not None and not _when_eaten(clause):
        return "exercise"
    if has_food_cue(clause):
        return "food"
    return None


def _when_eaten(clause: list[str]) -> bool:
    """ "a glass of chocolate milk after soccer practice", "a Clif Bar before my climbing
    session": the activity says when the food was eaten; with no time or distance of its own
    it is no workout to log."""
    return (
        has_food_cue(clause)
        and any(word in _WHEN_WORDS for word in clause)
        and duration_minutes(clause) is None
        and distance_of(clause)[0] is None
    )


_WHEN_WORDS = frozenset({"after", "before", "during", "way"})  # "on the way to the gym"
_SUBJECTS = frozenset({"i", "i'm", "im", "we", "it", "he", "she", "they", "you", "my"})


def _has_new_subject(clause: list[str]) -> bool:
    """'... and I ran out of milk': a clause with its own subject is not a bare food item."""
    return token_at(clause, 0) in _SUBJECTS


def _fill_meals(foods: list[FoodItem], time_meal: str | None) -> None:
    """A meal named once covers the foods around it: '2 eggs and a banana for breakfast'."""
    meal = None
    for item in reversed(foods):  # the meal after an item ("... for breakfast") comes first
        meal = item.meal or meal
        item.data["meal_type"] = meal
    meal = None
    for item in foods:  # then "for dinner I ate salmon and broccoli"
        meal = item.meal or meal
        item.data["meal_type"] = item.data["meal_type"] or meal or time_meal


def _result(text: str, reading: Reading) -> ParseResult:
    result = ParseResult(errors=list(reading.errors))
    for name, data in reading.entries:
        if name == "log_measurement":
            data = {"measurements": _valid_measurements(reading.measurements, result.errors)}
            if not data["measurements"]:
                continue
        if name in ("set_goals", "log_external"):  # the offline model's own intents
            result.intents.append(Intent(name, data, None))
            continue
        try:
            intent = validate_intent({"intent": name, "data": data})
        except IntentError as error:
            result.errors.append(str(error))
            continue
        if name == "log_food" and data.get("food_id"):  # the told meal's catalog food (never
            intent.data["food_id"] = data["food_id"]  # a model's: validate_intent drops those)
        if any(data is hunch for hunch in reading.tentative):
            intent = dataclasses.replace(intent, tentative=True)
        result.intents.append(intent)
    if reading.asked:
        result.intents.append(Intent("ask_question", {}, None))
    if not result.intents and reading.social:
        result.intents.append(Intent("chat", {}, SOCIAL_REPLIES[reading.social]))
        result.social = reading.social
    if reading.notes:
        if result.intents or result.errors:
            result.errors.extend(reading.notes)
        else:  # only someone else's: say so, with nothing to log
            result.intents.append(Intent("chat", {}, " ".join(reading.notes)))
    if result.intents:
        result.errors.extend(_left_out(clause) for clause in reading.left_out)
    elif not result.errors:
        result.errors.append(not_understood(text))
    return result


def _valid_measurements(items: list[dict], errors: list[str]) -> list[dict]:
    """Each measurement validated alone, so one bad value does not lose the others."""
    valid = []
    for item in items:
        try:
            intent = validate_intent(
                {"intent": "log_measurement", "data": {"measurements": [item]}}
            )
        except IntentError as error:
            errors.append(str(error))
        else:
            valid.extend(intent.data["measurements"])
    items.clear()  # a later log_measurement entry must not repeat them
    return valid


def _left_out(clause: list[str]) -> str:
    return f"I couldn't tell what {' '.join(clause)!r} was, so I left it out."


def not_understood(text: str) -> str:
    """What was not understood. The message is not said back (the user knows what they wrote);
    the foods it names are, so the user sees what was not logged ("minus 2 apples")."""
    words = [t for t in tokenise(text) if t.isalpha() and len(t) > 2]
    foods = list(dict.fromkeys(word for word in words if food_words_known(word)))[:3]
    if not foods:
        return NOT_UNDERSTOOD
    named = " and ".join(foods)
    return f"Sorry, I couldn't tell what to log from that, so nothing was saved for the {named}."
