"""Which tool categories a turn needs.

Order: a manual pick (a strict ceiling, nothing else runs); an attached image (vision + food,
always); English keyword rules over the whole message (every match kept, recall first, with guards
against the classic false positives); the LLM classifier on the last two messages ("none" ->
coaching only); and, if that call fails, the profile's default set.
"""

from __future__ import annotations

import dataclasses
import logging
import re

from chat.categories import CATEGORIES, PROFILE_DEFAULTS
from exercise import vocabulary as activities
from measurements import vocabulary as body

_CHECKIN_WORDS = {*body.CHECKIN_WORDS, *body.CHECKIN_READINGS}

logger = logging.getLogger(__name__)


@dataclasses.dataclass
class Classification:
    categories: list[str]
    phase: str  # manual | vision | keywords | classifier | none | default
    mode: str  # auto | manual
    usage: dict = dataclasses.field(default_factory=dict)
    detail: str = ""


def _ci(pattern: str) -> re.Pattern:
    """A pattern that ignores case, as people type."""
    return re.compile(pattern, re.IGNORECASE)


def _rx(*words: str) -> re.Pattern:
    return _ci(r"\b(?:" + "|".join(words) + r")\b")


_FOODS = (
    r"eggs?|toast|bread|bagel|banana|apple|orange|berries|oat(meal|s)?|porridge|cereal|granola|"
    r"yogh?urt|milk|cheese|butter|chicken|beef|steak|pork|bacon|ham|turkey|fish|salmon|tuna|"
    r"shrimp|tofu|rice|pasta|noodles|pizza|burger|sandwich|wrap|burrito|taco|sushi|salad|soup|"
    r"potato(es)?|fries|chips|vegetables|veggies|broccoli|avocado|nuts|almonds|peanut butter|"
    r"chocolate|cookie|cake|ice cream|coffee|latte|tea|juice|smoothie|beer|wine|protein shake|"
    r"snack(s|ed)?|dessert"
)


RULES: dict[str, list[re.Pattern]] = {
    "food": [
        _rx(r"ate|eat(s|ing|en)?|had|drank|drink(ing)?"),
        _rx(r"breakfast|brunch|lunch|dinner|supper|meal(s)?|food(s)?|diary"),
        _rx(
            r"calorie(s)?|kcal|cals?|protein|carb(s|ohydrates?)?|fat|fib(er|re)|sugar|sodium|macros?"
        ),
        _rx(r"summar(y|ize|ise|ies)"),
        _rx(_FOODS),
        _ci(r"\b\d+(\.\d+)?\s*(g|grams?|oz|ounces?|cups?|tbsp|tsp|slices?|pieces?)\b"),
    ],
    "exercise": [
        # every word of every activity (exercise/words/activities.toml), longest first
        _rx(*(re.escape(w) for w in sorted(activities.WORDS, key=len, reverse=True))),
        _rx(
            r"sprint(ed|s)?|rode|gym|work(ed)? ?out|workouts?|exercis(e|ed|es|ing)|training|"
            r"trained|cardio|treadmill|sets? of|reps|golf|football|spin class"
        ),
        _rx(r"calories burned|burn(ed|t)? \d+"),
    ],
    "checkin": [
        # every word of every check-in field and reading (measurements/words/checkins.toml)
        _rx(*(re.escape(w) for w in sorted(_CHECKIN_WORDS, key=len, reverse=True))),
        _rx(r"scale|body fat|bmi"),
        _ci(r"\b\d+(\.\d+)?\s*(kg|kgs|kilos?|lbs?|pounds|cm|inch(es)?)\b"),
        _rx(r"measurements?|check-?in"),
        _rx(r"steps|step count|pedometer"),
        _ci(r"\b\d[\d,.]*\s*k?\s*steps\b"),
        _rx(r"water|glass(es)? of|hydrat\w*|bottles? of"),
        _rx(r"blood pressure|heart rate|bpm|sleep|slept|mood|resting hr"),
    ],
    "goals": [
        _rx(r"goals?|targets?|aim(ing)? for|budget|on track|deficit|surplus|maintenance|tdee"),
        # "I want to eat 1800 calories a day", "trying to stay under 2000 kcal"
        _ci(
            r"\b(want|wanna|trying|try|aim|aiming|plan|planning|need|going|like)\s+to\s+"
            r"(eat|have|stay|keep|hit|get|reach|be|consume|limit|drink)\b[^.?!]*"
            r"(\b(a|per|each|every)\s+day\b|\bdaily\b|\bunder\b|\bbelow\b|\bat least\b)"
        ),
        _ci(
            r"\b\d[\d,.]*\s*(k?cals?|kcal|calories|g|grams?|glasses)(\s+(of\s+)?[a-z]+)?"
            r"\s+(a|per|each|every)\s+day\b"
        ),
        _rx(r"how am i doing|how('m| am) i doing|remaining|left for today|how (much|many) more"),
    ],
    "coaching": [
        _rx(r"advice|advise|tips?|suggest(ion|ions)?|recommend(ation|ations)?|should i|coach"),
        _rx(r"motivat\w*|meal plan|ideas? for|improve|healthier|lose weight|losing weight"),
        _rx(r"gain (muscle|weight)|bulk(ing)?|cutting|plateau|cheat day"),
    ],
    "vision": [_rx(r"photo|picture|image|pic|snapshot|nutrition label|label|scan(ned)?|barcode")],
    "profile": [
        _rx(r"preferences?|settings?|my units|metric|imperial|time ?zone|my profile"),
        _rx(
            r"vegan|vegetarian|pescatarian|allerg(y|ic|ies)|intoleran(t|ce)|gluten-?free|halal|kosher"
        ),
        _rx(r"switch to (kg|lbs?|pounds|kilos|kilograms|cm|inches)"),
    ],
    "reports": [
        _rx(r"summar(y|ize|ise|ies)|report|trends?|history|streak|patterns?|averages?"),
        _rx(r"week(ly)?|month(ly)?|last \d+ days|past \d+ days|over time|so far|chart|graph"),
        _rx(r"compare(d)?|comparison|statistics|stats|progress"),
    ],
}

# Phrases that look like a category but are not; removed before that category's rules run.
GUARDS: dict[str, list[re.Pattern]] = {
    "exercise": [
        _ci(
            r"\b(ran|run|runs|running)\s+(out|late|low|behind|short|over|into|across|errands?|"
            r"a (business|company|shop|store|fever|temperature|test|tests|check|script|meeting))\b"
        ),
        _ci(r"\b(runny nose|run-down|in the long run|running costs?|up and running)\b"),
        _ci(r"\bwork(ed|ing|s)? out (how|what|why|whether|if|when|where|the|a deal)\b"),
        # "it all worked out fine", "swimming in debt", "lifting my mood", "ran the dishwasher"
        _ci(r"\bwork(ed|s)? out (well|fine|great|ok|okay|badly|nicely|for (me|us|the best))\b"),
        _ci(r"\bswim(ming)? in (debt|work|paperwork|emails?)\b"),
        _ci(r"\blift(ed|ing|s)? (my|your|the|our) (mood|spirits)\b"),
        _ci(r"\bstretch(ed|ing)? (the|my|our) (budget|truth|money)\b"),
        _ci(
            r"\b(ran|run|running|runs) (the|a) (dishwasher|washing machine|bath|report|"
            r"numbers|errand|errands|tap|program|query)\b"
        ),
        _ci(r"\b\d[\d,.]*\s*k?\s*steps\b|\bsteps\b"),
        _ci(r"\bwalk(ed|ing)? (me|you|him|her|them|us) through\b"),
        _ci(r"\btraining (data|course|session on)\b"),
    ],
    "checkin": [
        _ci(r"\bweigh(ing)? (up )?(my|the|our|your|all) (options|choices|decision|pros)\b"),
        _ci(r"\b(lift(ed|ing)?|with|free|heavy|light) weights\b|\bweights? (training|lifting)\b"),
        _ci(r"\b(water(ed|ing)? the (plants?|garden|lawn))\b"),
    ],
    "food": [
        _ci(
            r"\bhad (a|an|the) (great|good|bad|hard|long|tough|rough|busy) (day|week|run|"
            r"walk|workout|session|night)\b"
        ),
        _ci(r"\bhad to\b|\bhad been\b"),
        _ci(r"\b(fat (loss|burning))\b"),
    ],
    "vision": [_ci(r"\bpicture (myself|this scenario)\b")],
}


# A report or summary of what was "done" or of "activity" is about workouts too.
_REPORTED_ACTIVITY = _rx(r"did|done|activit(y|ies)|active|moved|movement")


def keyword_categories(text: str) -> list[str]:
    """Every category whose rules match the message (after removing that category's guards)."""
    found = []
    for category, rules in RULES.items():
        subject = text
        for guard in GUARDS.get(category, ()):
            subject = guard.sub(" ", subject)
        if any(rule.search(subject) for rule in rules):
            found.append(category)
    if "reports" in found and "exercise" not in found and _REPORTED_ACTIVITY.search(text):
        found.append("exercise")
    return [c for c in RULES if c in found]


def parse_classifier_reply(text: str) -> list[str] | None:
    """Slugs from "food, exercise"; [] for "none"; None when the reply is not a category list."""
    words = re.findall(r"[a-z]+", (text or "").lower())
    if not words:
        return None
    slugs = []
    for word in words:
        if word in CATEGORIES and word not in slugs:
            slugs.append(word)
    if slugs:
        return slugs
    if "none" in words:
        return []
    return None


def classify(
    *,
    text: str,
    has_image: bool,
    profile: str,
    manual: list[str] | None = None,
    previous_reply: str | None = None,
    llm_classify=None,
    keywords: list[str] | None = None,
) -> Classification:
    """Pick the categories for a turn.

    `llm_classify(previous_reply, text) -> (reply_text, usage)` runs the Phase 2 request; it raises
    on a provider failure. None means no classifier is available (then the profile default applies).
    `keywords`: the message's keyword categories when the turn has read them already.
    """
    if manual:
        allowed = [c for c in CATEGORIES if c in manual]
        return Classification(categories=allowed, phase="manual", mode="manual")
    found = ["vision", "food"] if has_image else []
    for category in keywords if keywords is not None else keyword_categories(text):
        if category not in found:
            found.append(category)
    if has_image:
        return Classification(categories=_ordered(found), phase="vision", mode="auto")
    if found:
        return Classification(categories=_ordered(found), phase="keywords", mode="auto")
    default = list(PROFILE_DEFAULTS[profile])
    if llm_classify is None:
        return Classification(categories=default, phase="default", mode="auto")
    try:
        reply, usage = llm_classify(previous_reply, text)
    except Exception as exc:  # a provider failure, not a confident answer
        logger.info(
            "classifier failed, using the %s profile default: %s", profile, type(exc).__name__
        )
        return Classification(
            categories=default, phase="default", mode="auto", detail=type(exc).__name__
        )
    slugs = parse_classifier_reply(reply)
    if slugs is None:
        return Classification(
            categories=default, phase="default", mode="auto", usage=usage, detail="unparsed"
        )
    if not slugs:
        return Classification(categories=["coaching"], phase="none", mode="auto", usage=usage)
    return Classification(categories=_ordered(slugs), phase="classifier", mode="auto", usage=usage)


def _ordered(categories) -> list[str]:
    return [c for c in CATEGORIES if c in set(categories)]
