"""One reading of the user's message per turn: what every part of a turn needs to know about it.

`read(text)` tokenises the message once, runs Sparky's parser once (chat.reading.parser), finds the
tool categories once (chat.reading.classify's keyword rules) and says what the message is:

- report: something the user did, ate, drank or measured ("2 eggs for breakfast", "ran 5 km"),
  or a request to log it ("log my mood as 8");
- negation: nothing was had or done ("I didn't have lunch", "no coffee today");
- plan: what will be ("gonna have pasta tonight", "tomorrow I'll run 10k");
- wish: what ought to be ("I should eat more fruit", "I wish I'd skipped the donut");
- habit: what usually is ("I always have oatmeal");
- others: what someone else had or did ("my wife had a salad");
- food_question: a fact about a food ("how many carbs are in 2 slices of bread?");
- data_question: the user's own numbers ("how much protein today?", "what did I have for lunch");
- advice: a request for coaching ("what should I eat before a run?");
- search: a look into the catalog ("search for greek yogurt", "do you have oat milk");
- question: any other question;
- change: a change to an entry logged before ("delete the pizza", "it was 3 eggs actually");
- chat: greetings, thanks, small talk;
- follow_up: a short answer to the reply before ("yes", "ok do it"), read with the conversation;
- empty: no words (a photo alone).

A message of several parts is a report when any part reports something: "didn't have lunch, just a
coffee" is a report (the coffee), "didn't have lunch" alone is a negation. The Reading is built once
(chat.turn.coach) and kept on the turn; classification, grounding, the item list, the sure-reading,
the answers and the claim check all read it. No engine may write an entry for a message whose
Reading reports nothing (`reports_nothing`).
"""

from __future__ import annotations

import dataclasses
import re

from chat.reading.classify import keyword_categories
from chat.reading.correction import (
    Correction,
    read_correction,
    says_a_slip,
    values_denied,
    values_said,
)
from chat.reading.intents import ParseResult
from chat.reading.parser import CHANGE_HINT, parse_message, tokenise
from chat.reading.parser.changes import read_repeat, read_usual
from chat.reading.parser.people import about_the_user, someone_else
from chat.reading.parser.talk import social_kind
from chat.reading.parser.tokens import spelled_out
from chat.reading.parser.vocabulary import (
    CHANGE_WORDS,
    DONE,
    EATING,
    LOG_VERBS,
    NEGATION_OPENERS,
    NOT_DONE_KINDS,
    NOT_NEGATION_AFTER,
    PEOPLE_VERBS,
    QUESTION_AUXILIARIES,
    QUESTION_WORDS,
    REQUESTS,
    SOCIAL,
    SUBJECTS,
)
from chat.reading.question import (
    Question,
    asked_as,
    checkins_asked,
    read_question,
)
from chat.reading.replies import manual_reply, numeric_reply, yes_or_no
from chat.reading.vocabulary import ASKING, FOLLOW_UP, REFERRING, YES
from measurements.fields import KINDS as CHECKIN_UNIT_KINDS
from measurements.fields import asked as checkin_fields_named
from measurements.units import unit_of
from nutrition import vocabulary as food_words
from sparky.words import alternation, words_pattern

# Kinds of message that report nothing done: no engine writes an entry for them.
REPORTS_NOTHING = frozenset(
    {
        "negation",
        "plan",
        "wish",
        "habit",
        "others",
        "food_question",
        "data_question",
        "advice",
        "search",
        "question",
        "chat",
    }
)
QUESTIONS = frozenset({"food_question", "data_question", "advice", "search", "question"})

_NUMBER = re.compile(r"(?<![\w.])-?\d+(?:[.,]\d+)?")
# Words that start a new part of a sentence with its own standing: "didn't have lunch, just a
# coffee", "I ran but my wife walked".
_CONTRAST = frozenset({"but", "though", "although", "however", "instead", "except", "just", "only"})
_JOINERS = frozenset({"and", "then", "plus", ",", ":"})
# Past-tense words that say something was done; with one, a weak plan word ("later") is not a plan.
_DONE = DONE
_STRONG_PLAN = frozenset(
    {"gonna", "i'll", "will", "tomorrow", "next week", "next month", "next year"}
)
_ASKED = ASKING["search"]
_OPENERS = alternation(_ASKED["openers"])
_CATALOG = rf"(?:the|your)\s+{alternation(_ASKED['catalogs'])}"
# "in there", "in the catalog", "in your list"
_IN_THERE = r"\s+in\s+(?:there|(?:the|your)\s+\w+)"
# "what kinds of bagels do you have", "search for greek yogurt", "find me oat milk"
_SEARCH = re.compile(
    rf"^\W*(?:{_OPENERS}\W+)*(?:{alternation(_ASKED['verbs'])}|show\s+me\s+(?!my\b)|"
    rf"list\s+(?!my\b|what\b)|{alternation(_ASKED['asking'])}|is\s+there\s+(?:an?\s+|any\s+)?"
    rf"(?=\w+\s+in\s+{_CATALOG})|(?:what|which)\s+{alternation(_ASKED['kinds'])}\s+of|"
    rf"any\s+(?=\w[\w\s]*\s+in\s+{_CATALOG}))\b",
    re.I,
)
# Searches said another way, each with the words it looks for: "serch for spinach", "do u have
# almond milk", "what cereals do you have", "which cheeses can i pick from", "is granola in there".
_STOCKING = alternation(_ASKED["stocking"])
_SEARCH_FORMS = tuple(
    re.compile(form)
    for form in (
        rf"^{alternation(_ASKED['spellings'])}\s+(?:for\s+)?(?P<q>.+)$",
        rf"^do\s+{alternation(_ASKED['you'])}\s+{_STOCKING}\s+(?:any\s+)?(?P<q>.+?)"
        rf"(?:{_IN_THERE})?$",
        rf"^what\s+(?P<q>[a-z][\w\s-]*?)\s+(?:do|have)\s+(?:you|u)\s+{_STOCKING}$",
        rf"^which\s+(?P<q>[a-z][\w\s-]*?)\s+{alternation(_ASKED['may'])}\s+i\s+"
        rf"{alternation(_ASKED['picking'])}(?:\s+from)?$",
        rf"^is\s+(?:there\s+)?(?:any\s+)?(?P<q>[a-z][\w\s-]*?){_IN_THERE}"
        r"(?:\s+search\s+(?:it|for\s+it))?$",
    )
)
_SEARCH_OPENERS = re.compile(rf"^(?:{_OPENERS}\s+)+")


# What may follow a search's subject: "oat milk do you have", "bagels in your catalog please".
_SEARCH_TAIL = re.compile(rf"(?:\s+(?:{alternation(_ASKED['tail'])}|in\s+{_CATALOG}))+\s*$", re.I)
_DETERMINER = re.compile(rf"^{alternation(ASKING['determiners'])}\s+", re.I)


def search_subject(text: str) -> str | None:
    """What a search looks for ("find me oat milk" -> "oat milk"), else None: the one place a
    search's wording is read, for the reading's kind and for the answer alike."""
    plain = " ".join(re.sub(r"[?!.,;:]+", " ", (text or "").lower()).split())
    plain = _SEARCH_OPENERS.sub("", plain)
    for form in _SEARCH_FORMS:
        if (m := form.match(plain)) and m.group("q").strip():
            return m.group("q").strip()
    lead = _SEARCH.search(text or "")
    if lead is None:
        return None
    rest = re.sub(r"[?!.]+\s*$", "", " ".join((text or "")[lead.end() :].split()))
    rest = _SEARCH_TAIL.sub("", rest).strip(" ,:;-")
    rest = _DETERMINER.sub("", rest)
    return rest or None


# The user's own numbers: "my", "I", "today", "so far", "left".
_PERSONAL = words_pattern(ASKING["personal"])
# A fact about a food: its calories, macros, vitamins...
_NUTRIENT = words_pattern(
    {*food_words.NUTRIENT_OF_WORD, *food_words.NUTRITION_WORDS, *food_words.OTHER_NUTRIENT_WORDS}
)
# What a food named alone is asked for: "hard boiled egg calories", "big mac macros" (never
# "whey protein" or "chicken fat", which are foods).
_ASKED_OF_A_FOOD = food_words.CALORIE_WORDS | food_words.NUTRITION_WORDS
# Requests for coaching: what to do, not what happened.
_ADVICE = words_pattern(ASKING["advice"])
# Words that open a question whatever follows: "is greek yogurt high in protein".
_ASKING = frozenset({"is", "are", "does", "was", "were", "isn't", "aren't"})
# The words a short follow-up is made of: "yes", "ok do it", "one more", "that's the second".
_AFFIRMATIVE = frozenset(
    word for phrase in YES | REFERRING | FOLLOW_UP for word in phrase.replace(",", "").split()
)


@dataclasses.dataclass(frozen=True)
class Reading:
    """What a message is, read once."""

    text: str
    tokens: tuple[str, ...]
    numbers: tuple[float, ...]
    parse: ParseResult
    categories: tuple[str, ...]
    kind: str
    # As the answer to Sparky's own last question (chat.reading.replies): "yes" or "no" to a
    # confirmation, the number of an option picked, the user's own `manual:` numbers.
    answer: str | None = None
    pick: int | None = None
    manual: str | None = None
    # A command on the diary's own record ("my usual breakfast", "same dinner as yesterday").
    diary_command: bool = False
    # What a question asks of which domain (chat.reading.question), when it places it.
    question: Question | None = None
    # The correction of something logged it asks for (chat.reading.correction).
    correction: Correction | None = None
    # A number given before said to be wrong ("typo", "fat fingers", "its 59 not 95"); with it or
    # a correction, the values the message gives (not those it says were not) and the check-in
    # fields it names, by name.
    slip: bool = False
    values: tuple[float, ...] = ()
    # The numbers it says were not ("bench was 80 not 70": 70), which what it puts right holds.
    denied: tuple[float, ...] = ()
    fields: tuple[str, ...] = ()
    # The unit a correction says, as each kind of check-in unit spells it ({"weight": "lb"}).
    units: dict[str, str] = dataclasses.field(default_factory=dict)

    @property
    def reports_nothing(self) -> bool:
        """Nothing done is reported: a wish, a plan, a negation, someone else's, a question,
        small talk. No engine may log an entry for it."""
        return self.kind in REPORTS_NOTHING

    @property
    def asks(self) -> bool:
        return self.kind in QUESTIONS

    @property
    def logs(self) -> list:
        """The parser's intents that write something."""
        return [i for i in self.parse.intents if i.name not in ("ask_question", "chat")]


def read(text: str) -> Reading:
    text = text or ""
    tokens = tuple(tokenise(text)) if text.strip() else ()
    parse = parse_message(text)
    correction = read_correction(text) if tokens else None
    sure = correction is not None and correction.sure
    kind = "change" if sure else _kind(spelled_out(text), list(tokens), parse)
    if kind not in QUESTIONS and kind != "change":
        kind = asked_as(spelled_out(text), tokens, kind) or kind  # "water since monday"
    if kind == "report" and not parse.intents and checkins_asked(spelled_out(text)):
        kind = "data_question"  # "my measurement history": asked, though said without a verb
    slip = says_a_slip(text)
    fixes = slip or correction is not None
    return Reading(
        text=text,
        tokens=tokens,
        numbers=numbers_in(text),
        parse=parse,
        categories=tuple(keyword_categories(text)),
        kind=kind,
        answer=yes_or_no(text),
        pick=numeric_reply(text),
        manual=manual_reply(text),
        diary_command=read_usual(text) is not None or read_repeat(text) is not None,
        question=read_question(spelled_out(text), tokens, kind, search_subject(text)),
        correction=correction,
        slip=slip,
        values=tuple(values_said(text)) if fixes else (),
        denied=tuple(values_denied(text)) if fixes else (),
        fields=_fields_named(text) if fixes else (),
        units=_units_said(correction),
    )


def _units_said(correction: Correction | None) -> dict[str, str]:
    """The unit a correction gives its number in, as each kind of check-in spells it: "oops 33
    inches" (read as 33 of a food named "inches") is 33 in."""
    unit = correction and (correction.unit or correction.food)
    if not unit:
        return {}
    said = {kind.name: unit_of(kind, unit) for kind in CHECKIN_UNIT_KINDS}
    return {kind: unit for kind, unit in said.items() if unit}


def _fields_named(text: str) -> tuple[str, ...]:
    named = checkin_fields_named(text.lower().split())
    return tuple(field.name for _, fields in named for field in fields)


def numbers_in(text: str) -> tuple[float, ...]:
    """The numbers a text says ("80,5" is 80.5), in order."""
    numbers = []
    for found in _NUMBER.findall(text or ""):
        try:
            numbers.append(float(found.replace(",", ".")))
        except ValueError:
            continue
    return tuple(numbers)


def question_kind(text: str) -> str:
    """What a question asks for: a catalog search, advice, the user's own numbers, a food fact,
    or something else."""
    text = spelled_out(text)
    if search_subject(text):
        return "search"
    if _ADVICE.search(text):
        return "advice"
    if _PERSONAL.search(text):
        return "data_question"
    if _NUTRIENT.search(text):
        return "food_question"
    return "question"


def wants_advice(text: str) -> bool:
    """Whether a message asks for advice, which needs a model, rather than the user's numbers."""
    return bool(_ADVICE.search(text or ""))


def _kind(text: str, tokens: list[str], parse: ParseResult) -> str:
    if not tokens:
        return "empty"  # a photo alone says what it shows
    if CHANGE_HINT in parse.errors or tokens[0] in CHANGE_WORDS:
        return "change"
    if search_subject(text) and not _logs_explicitly(tokens):
        return "search"
    if len(tokens) <= 4 and all(t in _AFFIRMATIVE or not t.isalpha() for t in tokens):
        return "follow_up"
    if parse.intents and all(i.name == "ask_question" for i in parse.intents):
        return question_kind(text)  # the parser read every sentence as a question
    if parse.social and not parse.errors:
        return "chat"  # "bye for now, talk tomorrow": small talk, whatever its words
    parts = _parts(tokens)
    if not parts:
        return "chat"
    kinds = [kind for kind, _ in parts]
    if "report" in kinds:
        return "report"
    if "question" in kinds:
        return question_kind(text)
    for kind in ("others", "negation", "plan", "wish", "habit", "chat"):
        if kind in kinds:
            return kind
    return "report"


def _logs_explicitly(tokens) -> bool:
    return any(t in LOG_VERBS for t in tokens)


def _parts(tokens: list[str]) -> list[tuple[str, list[str]]]:
    """The message in parts, each with its kind; a part with no word of its own ("lunch or
    dinner" after "didn't have breakfast,") is of the kind of the part before it."""
    parts: list[tuple[str, list[str]]] = []
    for sentence, asked in _sentences(tokens):
        if social_kind(sentence):
            parts.append(("chat", sentence))
            continue
        previous = None
        split = _split(sentence)
        # "tomorrow i'll try to only eat 1500 cals": what the future sentence says is planned
        unsaid = "plan" if any(t in _STRONG_PLAN for t in sentence) else "report"
        for n, (part, contrast) in enumerate(split):
            words = [t for t in part if t not in _JOINERS]
            if not words:
                continue
            if _is_social(words):
                parts.append(("chat", words))
                continue
            last = n == len(split) - 1
            kind = _part_kind(words, asked and last)
            if previous == "others" and kind in (None, "report") and words[0] in PEOPLE_VERBS:
                kind = "others"  # "my sister's on keto and only eats bacon"
            elif kind is None:
                kind = previous if previous is not None and not contrast else unsaid
            elif kind == "report" and unsaid == "plan" and not any(t in _DONE for t in words):
                kind = "plan"  # "tomorrow i'll try to only eat 1500 cals"
            parts.append((kind, words))
            previous = kind
    return parts


def _sentences(tokens: list[str]):
    current: list[str] = []
    for token in tokens:
        if token in (".", "!", "?", ";"):
            if current:
                yield current, token == "?"
            current = []
        else:
            current.append(token)
    if current:
        yield current, False


def _split(sentence: list[str]) -> list[tuple[list[str], bool]]:
    """Parts of a sentence: at a contrast word, and at 'and'/',' before a new subject."""
    parts: list[tuple[list[str], bool]] = []
    current: list[str] = []
    contrast = False
    for i, token in enumerate(sentence):
        following = sentence[i + 1] if i + 1 < len(sentence) else ""
        if token in _CONTRAST:
            if current:
                parts.append((current, contrast))
            current, contrast = [], True
            continue
        if token in _JOINERS and current and following:
            parts.append((current, contrast))
            current, contrast = [], False
            continue
        current.append(token)
    if current:
        parts.append((current, contrast))
    return parts


def _is_social(words: list[str]) -> bool:
    phrase = " ".join(words)
    return any(phrase in phrases for phrases in SOCIAL.values())


def _part_kind(words: list[str], asked: bool) -> str | None:
    """The kind a part says of itself, or None when it has no word of its own (a bare item)."""
    first, second = words[0], words[1] if len(words) > 1 else ""
    if first in QUESTION_WORDS or first in ("how many", "how much"):
        return "question"  # "how do I log water?" too
    if any(t in LOG_VERBS for t in words):
        return "report"  # "log my mood as 8", "can you log 2 eggs?", "I need to log lunch"
    if (
        asked
        or first in REQUESTS
        or first in _ASKING
        or (first in QUESTION_AUXILIARIES and second in SUBJECTS)
        or (_NUTRIENT.fullmatch(first) and ("in" in words or second in ("for", "of")))
        # "calories in a banana", "kcal for 2 tbsp peanut butter"
    ):
        return "question"
    if someone_else(words) is not None:
        return "others"
    if any(t in NOT_DONE_KINDS["wish"] for t in words):
        return "wish"
    opens_negation = first in NEGATION_OPENERS and second not in NOT_NEGATION_AFTER
    if opens_negation or any(t in NOT_DONE_KINDS["negation"] for t in words):
        return "negation"
    done = any(t in _DONE for t in words)
    plan = NOT_DONE_KINDS["plan"]
    if any(t in _STRONG_PLAN for t in words) or (not done and any(t in plan for t in words)):
        return "plan"
    if any(t in NOT_DONE_KINDS["habit"] for t in words):
        return "habit"
    if about_the_user(words) or first in EATING or done:
        return "report"
    if (
        len(words) > 1
        and words[-1] in _ASKED_OF_A_FOOD
        and not any(_NUMBER.search(t) for t in words)
    ):
        return "question"  # "hard boiled egg calories": a food, then what is asked of it
    return None
