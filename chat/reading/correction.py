"""A message read as a correction of what was just logged: undo it, delete an entry, change its
amount, its minutes or its meal, or swap its food for the one really had. What the correction
names ("the toast", "the run") is kept as words; which entry that is, the conversation decides
(chat.turn.memory), never the reader.

"actually the toast was 2 slices", "make that 3 eggs", "2 bananas not 1", "it was lunch",
"move the eggs to breakfast", "remove the cookie", "I didn't have the banana", "undo that",
"not rice, quinoa", "the run was 40 min".
"""

from __future__ import annotations

import dataclasses
import re

from chat.reading.parser.food import FoodItem, food_item
from chat.reading.parser.tokens import take_quantity, token_at, tokenise
from chat.reading.parser.vocabulary import CORRECTIONS, EATING, REMOVE_WORDS
from chat.reading.replies import numeric_reply
from chat.reading.vocabulary import NO, load
from exercise.services import distance_unit_of
from measurements import vocabulary as durations
from measurements.fields import KINDS as CHECKIN_UNIT_KINDS
from measurements.units import unit_of
from nutrition.units import parse_unit
from nutrition.vocabulary import HOUSEHOLD_WORDS, MEAL_NAMES
from sparky.words import alternation, singular

_WORDS = load("changes")["correcting"]
_FILLER = re.compile(rf"^(?:{alternation(_WORDS['fillers'])})\b[\s,.!:;-]*")
# Fillers that open other messages as well ("no coffee today", "please log 2 eggs").
_WEAK = frozenset(_WORDS["weak"])
_AFTER = re.compile(rf"(?:[\s,]+(?:{alternation(_WORDS['after'])}))+$")
_PARTS = _WORDS["parts"]
# What names the last workout rather than a food ("delete that workout").
WORKOUT_WORDS = frozenset(_WORDS["workout_words"])


def _any(name: str) -> str:
    """The words of one of the correction's lists, as an alternation."""
    return f"(?:{alternation(_PARTS[name])})"


def _then(name: str) -> str:
    """One of a list's words and the space after it, or nothing: "the ", "a "."""
    return rf"(?:{_any(name)}\s+)?"


_LAST = alternation(_WORDS["last"])
_REMOVE = alternation(REMOVE_WORDS | set(_PARTS["remove"]))
_WAS = alternation(_WORDS["was"])
_REALLY = rf"(?:(?:{alternation(_WORDS['really'])})\s+)?"
_MEAL = alternation(MEAL_NAMES)
_TIME = alternation(durations.MINUTES | durations.HOURS)
_NOT_HAD = alternation(CORRECTIONS["not_had"])
_NUMBER = r"\d+(?:\.\d+)?"
# The entry named: "the toast", "my run", "the 2 eggs", "that coffee", or the last one.
_NAMED = rf"(?:{_any('determiners')}\s+)(?P<target>[a-z][a-z' -]*?)"
_ENTRY = rf"(?:(?:{_LAST})|{_NAMED})"
# An entry named without "the" before "was": "yoga was 40 min", "tennis was 60".
_BARE_ENTRY = rf"(?:(?:{_LAST})|{_NAMED}|(?P<bare>[a-z][a-z'-]*(?:\s+[a-z][a-z'-]*)?))"
_IT_WAS = alternation(_WORDS["it_was"])
# "..., not 2", "not just one": the amount it wasn't
_NOT_SO_MANY = rf",?\s+not\s+{_REALLY}(?:{_NUMBER}[a-z]*|{_any('numbers')})\b.*"
_UNDO = re.compile(
    rf"\b(?:{alternation(_WORDS['undo'])})\b(?:\s+{_then('articles')}(?P<target>[a-z][a-z' ]*))?"
)
_REMOVE_LAST = re.compile(rf"^(?:{_REMOVE})\s+(?:{_LAST})$")
_DAYS = (
    rf"(?:\s+{_any('from_when')}\s+(?:my\s+)?(?:(?P<of_meal>{_MEAL})|"
    rf"{alternation(_PARTS['days'])}))?"
)
_REMOVE_NAMED = (
    re.compile(rf"^(?:{_REMOVE})\s+{_NAMED}{_DAYS}$"),
    re.compile(
        rf"^(?:i\s+)?{_any('never')}\s+{_REALLY}(?:{_NOT_HAD})\s+(?:{_NAMED}|(?:{_LAST}))"
        rf"(?:\s+after all)?$"
    ),
    re.compile(
        rf"^(?:{alternation(_WORDS['take_off'])})\s+{_NAMED}\s+(?:{alternation(_WORDS['off'])})"
        rf"(?:\s+of\s+.*)?$"
    ),
)
_MOVE = (
    re.compile(
        rf"^{_ENTRY}\s+(?:{_WAS})\s+{_then('to_meal')}(?P<meal>{_MEAL})"
        rf"(?:,?\s+not\s+(?:for\s+)?(?:{_MEAL}))?$"
    ),
    re.compile(
        rf"^(?:{alternation(_WORDS['move'])})\s+{_ENTRY}\s+{_any('into')}\s+"
        rf"(?:my\s+)?(?P<meal>{_MEAL})$"
    ),
    re.compile(rf"^(?P<meal>{_MEAL}),?\s+not\s+(?:{_MEAL})$"),
)
_MINUTES = (
    re.compile(
        rf"^{_BARE_ENTRY}\s+(?:{_WAS})\s+{_REALLY}(?P<n>{_NUMBER})\s*(?P<unit>{_TIME})"
        rf"(?:\s+not\s+\d+.*)?$"
    ),
    # "more like 2.5 hrs": the last workout's time
    re.compile(rf"^{_REALLY}(?P<n>{_NUMBER})\s*(?P<unit>{_TIME})(?:\s+not\s+\d+.*)?$"),
)
_AN_AMOUNT = rf"(?:\d|{_any('numbers')}\b)"
# "make that 3 eggs", "change the toast to 2 slices", "the toast was 2 slices", "it was 3"
_AMOUNT = (
    re.compile(
        rf"^(?:{alternation(_WORDS['change'])})\s+{_ENTRY}\s+(?:to\s+|into\s+)?(?P<amount>.+)$"
    ),
    re.compile(rf"^{_BARE_ENTRY}\s+(?:{_WAS})\s+{_REALLY}(?P<amount>{_AN_AMOUNT}.*)$"),
    re.compile(r"^i\s+meant\s+(?P<amount>.+)$"),
    re.compile(rf"^{_then('had')}(?P<amount>{_NUMBER}\s+[a-z].*?){_NOT_SO_MANY}$"),
)
# Said after a correction's signal (an "oops", "it was", "only"): the amount alone, "2 cups of
# rice", "only one cookie", "81.4 not 84.1".
_SIGNALLED_AMOUNT = re.compile(
    rf"^(?:(?:{_IT_WAS})\s+)?{_REALLY}(?P<amount>{_AN_AMOUNT}[^,]*?)(?:{_NOT_SO_MANY})?$"
)
# "not rice, it was quinoa", "it was quinoa not rice", "quinoa instead of rice"
_FOOD = r"[a-z][a-z' -]*?"
_A_FOOD = rf"{_then('some')}[a-z][a-z' -]*"
_NAMED_WAS = rf"(?:{_any('determiners')}\s+)(?P<was>{_FOOD})"
_SWAP = (
    re.compile(
        rf"^not\s+{_then('articles')}(?P<was>{_FOOD}),?\s+{_then('but')}(?P<really>{_A_FOOD})$"
    ),
    re.compile(
        rf"^{_any('had')}\s+(?P<really>{_then('some')}{_FOOD}),?\s+not\s+{_then('articles')}"
        rf"(?P<was>[a-z][a-z' -]*)$"
    ),
    re.compile(
        rf"^{_then('had')}(?P<really>{_then('some')}{_FOOD})\s+{_any('instead_of')}\s+"
        rf"{_then('articles')}(?P<was>[a-z][a-z' -]*)$"
    ),
    re.compile(
        rf"^{_any('them')}\s+(?:{alternation(_WORDS['was_not'])})\s+{_then('articles')}"
        rf"(?P<was>{_FOOD}),?\s+(?:{_IT_WAS})\s+(?P<really>{_A_FOOD})$"
    ),
    re.compile(rf"^{_any('swap')}\s+{_NAMED_WAS}\s+{_any('swap_into')}\s+(?P<really>{_A_FOOD})$"),
)
# "the rice was white not brown", "the milk was almond milk btw": a named entry was another food
# (or another kind of it), said with no amount.
_WAS_ANOTHER = re.compile(
    rf"^{_NAMED}\s+(?:{alternation(_WORDS['was_another'])})\s+{_then('articles')}"
    rf"(?P<really>[a-z][a-z' -]*?)(?:,?\s+not\s+{_then('articles')}[a-z][a-z' -]*)?$"
)
# After a signal, a food alone: "it was a diet coke", "no sorry, sweet potato", "turkey not
# chicken".
_SIGNALLED_SWAP = (
    re.compile(
        rf"^(?P<really>{_then('some')}{_FOOD})\s+not\s+{_then('articles')}(?P<was>[a-z][a-z' -]*)$"
    ),
    re.compile(rf"^(?:{_any('it_really_was')}\s+)?(?P<really>{_A_FOOD})$"),
)


def _first(patterns, text: str):
    return next((found for p in patterns if (found := p.match(text))), None)


@dataclasses.dataclass(frozen=True)
class Correction:
    """action: "undo" (the last reply's saves), "delete", "change" or "swap"; `target` the words
    naming the entry (None: the last thing logged)."""

    action: str  # "again": as much again of the entry ("another one", "same again")
    target: str | None = None
    quantity: float | None = None
    unit: str | None = None
    meal: str | None = None
    minutes: int | None = None
    # swap: what was really had, as said ("a diet coke"); a change of amount read from a food
    # ("it was a tangerine") names it too, and is a swap when no entry is that food
    food: str | None = None
    # A change of the workout's distance ("it was more like 4 miles"), `quantity` in `unit`.
    distance: bool = False
    # Whether the message is a correction whatever the diary holds ("oops", "make that", "not");
    # "the run was 45 min" is one only if a run was just logged.
    sure: bool = True
    # Which of what was saved, counted from the first, when the target says so ("the first one").
    ordinal: int | None = None
    # The amount as a multiple of what was logged ("double the rice": 2, "half of that": 0.5).
    factor: float | None = None
    # The meal the entry was logged for, when the words say so ("the eggs from breakfast", "the
    # one from lunch"); `meal` is where a move puts it.
    of_meal: str | None = None


def _plain(text: str) -> tuple[str, bool]:
    """The message's words without what opens and closes a correction, and whether a signal of
    one ("oops", "sorry", "actually"; not a bare "no" or "please") was said."""
    text = re.sub(r"[^\w\s,.'+&-]", " ", (text or "").lower())  # "🙈", "⭐"
    text = " ".join(re.sub(r"[?!;:]+|\.(?!\d)", " ", text).split())
    text = text.replace("\u2019", "'")
    signalled = False
    while (found := _FILLER.match(text)) and found.end():
        said = found.group(0).strip(" ,.!:;-")
        signalled = signalled or said not in _WEAK
        text = text[found.end() :]
    closing = _AFTER.search(text)
    if closing is not None:  # "they were whole wheat actually", "... my bad"
        said = " ".join(re.split(r"[\s,]+", closing.group(0)))
        signalled = signalled or any(
            re.search(rf"\b{re.escape(word)}\b", said) for word in _WORDS["after_signals"]
        )
    return _AFTER.sub("", text).strip(" ,"), signalled


# Words said beside what a correction names, never part of it: "undo pls".
_ASIDE = frozenset(w for phrase in (*_WORDS["after"], *_WEAK) for w in phrase.split())


def _target(words: str | None) -> str | None:
    words = " ".join(w for w in (words or "").split() if w not in _ASIDE)
    return None if not words or re.fullmatch(_LAST, words) else words


_BARE_AMOUNT = re.compile(r"(?P<n>\d+(?:\.\d+)?)\s*(?P<unit>[a-z]+)?")


def _amount(said: str, target: str | None) -> Correction | None:
    """A change of amount: "3 eggs", "2 slices", "3"; the food it names is the entry's."""
    said = re.sub(rf"{_NOT_SO_MANY}$", "", said)  # "3 eggs, not just one"
    said = _AFTER.sub("", said.split(",")[0]).strip()  # "half a cup, didnt finish it"
    said = re.sub(rf"^(?:{alternation(_WORDS['more_like'])})\s+", "", said)
    tokens = tokenise(said)
    item = food_item(tokens)
    if not isinstance(item, FoodItem) or not (item.data.get("food_name") or "").strip():
        bare = _BARE_AMOUNT.fullmatch(said.strip())
        if bare is not None:
            return Correction(
                "change", target, quantity=float(bare.group("n")), unit=bare.group("unit")
            )
        quantity, after = take_quantity(tokens, 0, articles=False)  # "three slices"
        if quantity is None or len(tokens) - after > 1:
            return None
        return Correction(
            "change", target, quantity=float(quantity), unit=token_at(tokens, after) or None
        )
    data = item.data
    name = (data.get("food_name") or "").strip()
    if data.get("quantity") is None:
        return None
    head = name.split()[0] if name else ""
    if head == "k" and not data.get("unit"):  # "it was 10k": a run's kilometres
        quantity = float(data["quantity"])
        return Correction("change", None, quantity=quantity, unit="km", distance=True)
    if (unit := distance_unit_of(name)) or (unit := distance_unit_of(data.get("unit"))):
        # "it was more like 4 miles": the workout's distance
        return Correction(
            "change", None, quantity=float(data["quantity"]), unit=unit, distance=True
        )
    if singular(head) in durations.HOURS | durations.MINUTES:  # "it was only an hour"
        hours = singular(head) in durations.HOURS
        return Correction(
            "change", None, minutes=round(float(data["quantity"]) * (60 if hours else 1))
        )
    # "it was a tangerine", "the coffee was a tea": the food named, which is the entry's own or
    # what it really was (chat.turn.corrections decides, against what was saved)
    if target is None and name:
        target = name
    return Correction(
        "change",
        target,
        quantity=float(data["quantity"]),
        unit=data.get("unit") or None,
        food=name or None,
    )


def read_correction(text: str) -> Correction | None:
    """The correction a message asks for, or None when it asks none. A message of several
    clauses is read clause by clause ("scratch the coffee, didn't have it")."""
    plain, signalled = _plain(text)
    if not plain:
        return None
    found = _read(plain, signalled)
    if "," in plain:
        clauses = []
        for clause in plain.split(","):
            clause, said = _plain(clause)
            signalled = signalled or said
            if clause and (read := _read(clause, signalled)) is not None:
                clauses.append(read)
        # "actually no bacon, delete that", "nvm the milk, remove it": a removal said in one
        # clause is the correction; what it removes, if its own words don't say, the
        # conversation finds by the words of the others
        removal = next((c for c in clauses if c.action in ("undo", "delete")), None)
        if removal is not None:
            found = removal
        elif found is None and clauses:
            found = clauses[0]
    if found is None:
        return None
    sure = (
        signalled
        or found.action in ("undo", "delete")
        or (found.meal is not None and found.sure)
        or bool(_EXPLICIT.search(plain))
    )
    found = _of_meal(found)
    ordinal = numeric_reply(found.target) if found.target else None
    return dataclasses.replace(found, sure=sure, ordinal=ordinal)


# "the eggs from breakfast", "the one from lunch", "my coffee at breakfast": the meal it was for
_OF_MEAL = re.compile(
    rf"^(?P<words>.*?)\s*\b(?:{_any('from_when')})\s+(?:my\s+|this\s+)?(?P<meal>{_MEAL})$"
)
# What names no food of its own: "the one", "that thing".
_NO_NAME = frozenset(_PARTS["no_name"])


def _of_meal(found: Correction) -> Correction:
    if found.target and set(found.target.split()) <= _NO_NAME:  # "the one from lunch"
        found = dataclasses.replace(found, target=None)
    said = _OF_MEAL.match(found.target or "")
    if said is None:
        return found
    words = _target(said.group("words"))
    target = None if words is None or set(words.split()) <= _NO_NAME else words
    return dataclasses.replace(found, target=target, of_meal=MEAL_NAMES[said.group("meal")])


# Words that make a message a correction whatever the diary holds.
_EXPLICIT = re.compile(
    rf"\b(?:{alternation({*_WORDS['change'], *_WORDS['move'], *_WORDS['explicit']})})\b"
)
# What a food said alone after a signal can't be: "no coffee today" is no swap.
_NOT_A_SWAP = re.compile(
    rf"\b(?:{_MEAL}|{alternation(_PARTS['not_in_a_swap'])})\b|^{_any('not_a_swap_start')}\b"
)


def _entry_words(found: re.Match) -> str | None:
    groups = found.groupdict()
    return _target(groups.get("target") or groups.get("bare"))


# "and", "oh", "i went back for", and an eating word: "grabbed another slice", "i ate 2 more"
_AGAIN_OPENERS = {*_WORDS["again_openers"], *EATING, *(f"i {word}" for word in EATING)}
_AGAIN_OPEN = rf"(?:(?:{alternation(_AGAIN_OPENERS)})\s+)*"
# "another one", "one more slice", "2 more slices", "another glass", "a second slice"
_AGAIN = re.compile(
    rf"^{_AGAIN_OPEN}(?:(?P<one>{alternation(_WORDS['again'])})|(?P<n>{_NUMBER}|"
    rf"{_any('numbers')})\s+(?:{alternation(_WORDS['more'])}))"
    rf"(?:\s+(?P<target>[a-z0-9][a-z0-9.' -]*?))?$"
)
_TIMES = {word: float(times) for word, times in _WORDS["times"].items()}
# "not one apple but two", "not 2 slices, 3": the amount it wasn't, then the one it was
_NOT_SO_MANY_BUT = re.compile(
    rf"^not\s+{_AN_AMOUNT}\S*\s+(?P<target>[a-z][a-z' -]*?),?\s+{_then('but')}"
    rf"(?P<amount>{_AN_AMOUNT}[a-z0-9 ]*)$"
)
# "make it double the rice", "only ate half of that pizza", "twice as much pasta"
_MULTIPLE = re.compile(
    rf"^(?:{_any('times_openers')}\s+)?(?P<times>{alternation(_TIMES)})"
    rf"(?:\s+{_any('as_much')})?(?:\s+of)?"
    rf"(?:\s+{_then('determiners')}(?P<target>[a-z][a-z' -]*?))?$"
)


def _multiple(plain: str) -> Correction | None:
    found = _MULTIPLE.match(plain)
    if found is None:
        return None
    target = _target(found.group("target"))
    return Correction("change", target, factor=_TIMES[found.group("times")])


_SAME_AGAIN = re.compile(rf"^{_AGAIN_OPEN}(?:{alternation(_WORDS['same_again'])})$")


def _again(plain: str) -> Correction | None:
    """More of what was just logged: "another one", "2 more slices", "same again"."""
    plain = re.sub(r"[^\w\s'.-]+", " ", plain)  # "had another 🍪"
    plain = " ".join(plain.split())
    if _SAME_AGAIN.match(plain):
        return Correction("again")
    found = _AGAIN.match(plain)
    if found is None:
        return None
    count = found.group("n")
    if count is None:
        quantity = 1.0
    elif re.fullmatch(_NUMBER, count):
        quantity = float(count)
    else:
        quantity, _ = take_quantity([count], 0)
    target = _target(found.group("target"))
    if target in ("one", "ones"):
        target = None
    elif target and (counted := re.fullmatch(rf"({_NUMBER})(?:\s+(.+))?", target)):
        # "another 2": two more of the same; "another 2 eggs": two more eggs
        quantity, target = float(counted.group(1)), counted.group(2)
    return Correction("again", target, quantity=quantity)


_MOVE_CUES = frozenset(_WORDS["move_cues"])
_STRONG_MOVE = frozenset(_WORDS["strong_move_cues"])
_MEAL_FILLER = frozenset(_WORDS["meal_filler"])
_JOINING = frozenset({"and", "+", "&", ","})


def _meal_move(plain: str, signalled: bool = False) -> Correction | None:
    """A meal put right, however it is said: one meal named (not after "not"), a word that says
    it moves ("was", "should be", "move", "instead"), and what is left names the entries ("the
    diet coke", "pasta + garlic bread") or nothing (the last thing logged)."""
    words = re.findall(r"[a-z']+|[+&,]", plain)
    meals = [
        i for i, w in enumerate(words) if w in MEAL_NAMES and "not" not in words[max(0, i - 2) : i]
    ]
    if re.search(r"\d", plain) or len(meals) != 1:
        return None
    if not signalled and not any(w in _MOVE_CUES or w in _STRONG_MOVE for w in words):
        return None
    if any(
        w in MEAL_NAMES and i not in meals and "not" not in words[max(0, i - 2) : i]
        for i, w in enumerate(words)
    ):
        return None
    parts, current = [], []
    for i, word in enumerate(words):
        if word in _JOINING:
            parts.append(current)
            current = []
        elif i == meals[0] or word in MEAL_NAMES or word in _MEAL_FILLER:
            continue
        elif word not in _MOVE_CUES and word not in _STRONG_MOVE:
            current.append(word)
    parts.append(current)
    named = [" ".join(part) for part in parts if part]
    if any(len(part.split()) > 4 or set(part.split()) & EATING for part in named):
        return None  # a sentence of its own ("i had it later on the sofa"), not an entry's name
    strong = signalled or any(w in _STRONG_MOVE for w in words)
    return Correction(
        "change",
        " and ".join(named) or None,
        meal=MEAL_NAMES[words[meals[0]]],
        sure=strong,
    )


def _read(plain: str, signalled: bool) -> Correction | None:
    if (again := _again(plain)) is not None:
        return again
    if (multiple := _multiple(plain)) is not None:
        return multiple
    if signalled and re.fullmatch(_LAST, plain):  # "scratch that last one", "oops, that one"
        return Correction("undo")
    if _REMOVE_LAST.match(plain):
        return Correction("undo")
    if found := _UNDO.search(plain):
        return Correction("undo", _target(found.group("target")))
    if found := _first(_REMOVE_NAMED, plain):
        meal = found.groupdict().get("of_meal")
        return Correction("delete", _target(found.group("target")), of_meal=MEAL_NAMES.get(meal))
    if found := _first(_MOVE, plain):
        target = found.groupdict().get("target")
        return Correction("change", _target(target), meal=MEAL_NAMES[found.group("meal")])
    if (moved := _meal_move(plain, signalled)) is not None:
        return moved
    if found := _first(_MINUTES, plain):
        minutes = float(found.group("n")) * (60 if found.group("unit") in durations.HOURS else 1)
        return Correction("change", _entry_words(found), minutes=round(minutes))
    if found := _NOT_SO_MANY_BUT.match(plain):  # "not one apple but two"
        return _amount(found.group("amount"), _target(found.group("target")))
    swap = None if re.search(r"\d", plain) else _first(_SWAP, plain)
    if swap is None and (found := _first(_AMOUNT, plain)):
        return _amount(found.group("amount"), _entry_words(found))
    if swap is None and not re.search(r"\d", plain) and (found := _WAS_ANOTHER.match(plain)):
        really = found.group("really").strip()
        if not _NOT_A_SWAP.search(really) and len(really.split()) <= 4:
            return Correction("swap", _target(found.group("target")), food=really)
    only = re.match(rf"^(?:{alternation(_WORDS['really'])})\s", plain)  # "only one beer"
    if swap is None and (signalled or only) and (found := _SIGNALLED_AMOUNT.match(plain)):
        return _amount(re.sub(r"^the\s+", "", found.group("amount")), None)
    if swap is None and signalled and not re.search(r"\d", plain):
        swap = _first(_SIGNALLED_SWAP, plain)
        if swap is not None and "was" not in swap.groupdict():
            really = swap.group("really").strip()
            if _NOT_A_SWAP.search(really) or len(really.split()) > 4:
                return None
            return Correction("swap", None, food=really)
    if found := swap:
        was, really = (found.group("was") or "").strip(), found.group("really").strip()
        if re.search(rf"\b(?:{_MEAL})\b", f"{was} {really}"):
            return None
        count, after = take_quantity(really.split(), 0, articles=False)
        if count is not None and after == len(really.split()):  # "not one apple but two"
            words = was.split()
            named, _ = take_quantity(words, 0, articles=False)
            target = " ".join(words[1:]) if named is not None else was
            return Correction("change", _target(target), quantity=float(count))
        if really.split()[-1] == "one":  # "not a regular coke, a diet one"
            really = f"{really.rsplit(' ', 1)[0]} {was.split()[-1]}"
        # "it was butter on the bagel": what it was on is another entry, not part of it
        really = re.sub(r"\s+(?:on|in)\s+(?:the|my)\s+.*$", "", really)
        return Correction("swap", was, food=really)
    return None


_SLIP = re.compile(rf"\b(?:{alternation(_WORDS['slip'])})\b")
# A number as people type it: "10,500" (thousands), "80,5" (a decimal comma), "81.4".
_VALUE = re.compile(r"(?<![\w.,])(\d{1,3}(?:,\d{3})+(?![\d.,])|\d+(?:[.,]\d+)?)")


# "no, 1200", "nope 72": a bare no before a number puts that number right.
_NO_THEN_A_NUMBER = re.compile(rf"^\W*(?:{alternation(NO)})\b[\s,.:!-]*\d")


def says_a_slip(text: str) -> bool:
    """Whether a message says a number given before was wrong, wherever it says so."""
    text = (text or "").lower().replace("\u2019", "'")
    return bool(_SLIP.search(text) or _NO_THEN_A_NUMBER.match(text))


# The word a number is said in: "35 min", "8 pieces", "5k", "2%".
_UNIT_AFTER = re.compile(r"\s*(%|[a-z]+)")


def _not_a_checkin(word: str | None) -> bool:
    """Whether a number said in this unit is of another type than any check-in: a duration
    ("35 min"), a distance ("5 km", "5k") or an amount of food ("2 slices", "100 g"). Types decide
    what a number can change: a duration never becomes a weight, a count of slices never steps."""
    if not word:
        return False
    if any(unit_of(kind, word) for kind in CHECKIN_UNIT_KINDS):
        return False
    if word in durations.MINUTES or distance_unit_of(word):  # hours may be sleep
        return True
    return parse_unit(word).canonical is not None or singular(word) in HOUSEHOLD_WORDS


def _number(said: str) -> float:
    if re.fullmatch(r"\d{1,3}(?:,\d{3})+", said):
        return float(said.replace(",", ""))
    return float(said.replace(",", "."))


def values_denied(text: str) -> list[float]:
    """The numbers a message says were not ("80 not 70" -> [70], "its 59 not 95" -> [95]): the
    value the entry or check-in being put right must hold now."""
    text = (text or "").lower()
    return [
        _number(found.group(1))
        for found in _VALUE.finditer(text)
        if re.search(r"\bnot\s+(?:just\s+|only\s+)?$", text[: found.start()])
    ]


def values_said(text: str) -> list[float]:
    """The numbers a message gives as check-in values, in order, without those it says were not
    ("59 not 95" -> [59]) and those said in a unit no check-in is kept in ("nope, it was 35 min"
    gives none: a workout's minutes, never a weight)."""
    text = (text or "").lower()
    values = []
    for found in _VALUE.finditer(text):
        if re.search(r"\bnot\s+(?:just\s+|only\s+)?$", text[: found.start()]):
            continue
        after = _UNIT_AFTER.match(text, found.end())
        if _not_a_checkin(after.group(1) if after else None):
            continue
        values.append(_number(found.group(1)))
    return values
