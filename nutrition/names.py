"""Short food names people read, from SR28's long descriptions.

SR28 describes a food as a head and a list of details, for searching and for nutritionists:
"Bread, white, commercially prepared, toasted". A diary line, a chat reply or an option button
wants what a person would say: "White bread, toasted". `short_food_name` gets there with a few
rules, each a table below:

- a label the catalog files foods under goes ("Beverages, coffee, brewed" -> "Coffee, brewed");
- details that every such food has, or that only a nutritionist tells apart, go ("commercially
  prepared", "fresh", "mature seeds", "separable lean only", "without salt", "with added
  vitamin D", "prepared with tap water", and "cooked" before the way it was cooked);
- for a head that names a kind of food, the first detail that says which one becomes its
  adjective ("Cheese, cheddar" -> "Cheddar cheese", "Pie, apple" -> "Apple pie");
- a cut or an organ joins its animal ("Chicken, breast" -> "Chicken breast");
- brands in capitals read as words ("SNICKERS Bar" -> "Snickers Bar"), and a maker named before
  its product goes ("GENERAL MILLS, CHEERIOS" -> "Cheerios").

- a fruit, a nut or an egg is eaten raw, so "raw" says nothing: "Bananas, raw" -> "Banana" (a
  whole fruit eaten one at a time reads singular), "Nuts, almonds, raw" -> "Almonds";
- a low-calorie soda is a diet one ("Beverages, carbonated, low calorie, cola" -> "Diet cola");
  milk is said by its fat ("Whole milk", "2% milk").

Above all the rules sits a curated table (nutrition/words/display_names.toml) of the foods people
log most, keyed by the catalog's original description: `catalog_display_name` reads it first.

The long name stays the food's `name`: search, the detail view and the admin show it whole.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from sparky.words import singular

_WORDS = tomllib.loads(
    (Path(__file__).resolve().parent / "words" / "display_names.toml").read_text("utf-8")
)
# The curated names: original description -> the name people use.
CURATED: dict[str, str] = dict(_WORDS["names"])
# Food groups (SR28's and FNDDS's) whose foods are eaten raw: "raw" goes from their names.
RAW_AS_EATEN_GROUPS = frozenset(_WORDS["raw_as_eaten"]["groups"])
RAW_AS_EATEN_HEADS = frozenset(_WORDS["raw_as_eaten"]["heads"])
# Whole foods eaten one at a time: raw, their plural head reads singular ("Bananas" -> "Banana").
ONE_AT_A_TIME = frozenset(_WORDS["one_at_a_time"]["foods"])
# Soda names SR28 spells for nutritionists ("cola or pepper-type" -> "cola").
SODA_NAMES: dict[str, str] = dict(_WORDS["soda_names"])

MAX_LENGTH = 60  # beyond this, details in the middle go (the last one, how it is cooked, stays)

# Labels SR28 files foods under: the food is what follows.
LABELS = frozenset(
    {
        *("beverages", "snacks", "candies", "fish", "nuts", "seeds", "spices", "crustaceans"),
        *("mollusks", "cereals", "cereals ready-to-eat", "alcoholic beverage"),
        *("alcoholic beverages", "fast foods", "fast food", "restaurant", "usda commodity"),
    }
)
# Second-level labels that mean nothing once the first is gone ("Beverages, carbonated, cola").
SUBLABELS = frozenset({"carbonated", "distilled", "variety meats and by-products"})

# Details that go wherever they are (matched on the whole detail, lower-cased).
FILLER = frozenset(
    {
        *("commercially prepared", "commercial", "fresh", "all varieties", "all types"),
        *(
            "all grades",
            "all classes",
            "regular pack",
            "enriched",
            "unenriched",
            "year round average",
        ),
        *("mature seeds", "immature seeds", "separable lean and fat", "separable lean only"),
        *("broilers or fryers", "meat only", "choice", "select", "prime", "restaurant-prepared"),
        *("ready-to-drink", "ready-to-serve", "ready-to-eat", "drained solids"),
        *(
            "solids and liquids",
            "without salt",
            "without added salt",
            "with salt added in processing",
        ),
        *("prepared with tap water", "fluid", "dry heat", "moist heat", "includes skin"),
        *("pre-sliced", "prepackaged", "sliced", "year-round average", "ripe", "not fortified"),
        *("cultured", "homemade", "nfs", "not further specified", "with added vitamin d"),
        *("variety meats and by-products", "enriched flour", "table", "ready-to-bake or -fry"),
        *("with aspartame", "unsweetened", "salad or cooking", "all commercial varieties"),
        *("with skin", "contains caffeine", "regular", "all", "with salt"),
    }
)
FILLER_PATTERNS = (
    re.compile(r"^(?:with )?added (?:vitamin|calcium|ascorbic|nonfat milk)"),
    re.compile(r"^with added (?:vitamin|calcium|ascorbic|nonfat milk|nutrients|fiber)"),
    re.compile(r"^vitamins? [a-z](?: and (?:vitamin )?[a-z])?$"),
    re.compile(r"^prepared from item \d+$"),
    re.compile(r"^trimmed to "),
    re.compile(r"^\d+ grams? protein per"),
    re.compile(r"^includes\b"),
    re.compile(r"^(?:usda|regular|higher|lower) (?:grade|fat|salt)$"),
)

# Ways of cooking: "cooked" before one of them says nothing more.
METHODS = frozenset(
    {
        *("boiled", "roasted", "broiled", "fried", "pan-fried", "grilled", "baked", "braised"),
        *("steamed", "scrambled", "hard-boiled", "poached", "stewed", "microwaved", "simmered"),
        *("toasted", "dry roasted", "deep-fried", "pan-browned", "sauteed", "stir-fried"),
    }
)

# Heads that name a kind of food: the first detail after them says which ("Cheese, cheddar").
# Value: the noun as it reads after its adjective ("Ice creams, vanilla" -> "Vanilla ice cream").
KINDS = {
    **dict.fromkeys(("bread", "cheese", "milk", "rice", "yogurt", "beans", "oil", "tea"), None),
    **dict.fromkeys(("wine", "sausage", "soup", "sauce", "vinegar", "lettuce", "cream"), None),
    **dict.fromkeys(("peppers", "salmon", "tuna", "beer", "pie", "cookies", "flour"), None),
    **dict.fromkeys(("pasta", "noodles", "cake", "juice", "syrup", "honey", "mustard"), None),
    "ice creams": "ice cream",
    "frozen yogurts": "frozen yogurt",
    "muffins": "muffin",
    "bagels": "bagel",
    "rolls": "roll",
    "cakes": "cake",
    "pies": "pie",
    "sweet rolls": "sweet roll",
    "tomatoes": "tomatoes",
    "onions": "onions",
    "potatoes": "potatoes",
    "lentils": "lentils",
    "tortillas": "tortillas",
}
# Heads that are how a food is, not what it is: the food is the next part ("Low calorie, cola").
ADJECTIVE_HEADS = frozenset({"low calorie", "reduced fat", "lowfat", "nonfat", "diet", "light"})
# Sodas SR28 names by flavour only, under "Beverages, carbonated".
SODA_FLAVOURS = frozenset({"orange", "grape", "lemon-lime", "cream", "pepper-type"})
# Descriptions no rule above reads well; the whole description is the key.
WHOLE_NAMES = {
    "Alcoholic beverage, distilled, all (gin, rum, vodka, whiskey) 80 proof": "Spirits, 80 proof",
    "Milk, chocolate beverage, hot cocoa, homemade": "Hot cocoa",
    "Fast foods, potato, french fried in vegetable oil": "French fries",
    "Squash, summer, zucchini, includes skin, raw": "Zucchini, raw",
    "Beverages, coffee, brewed, espresso, restaurant-prepared": "Espresso",
}
# Details that never become an adjective: states, textures, fat levels said after the food.
NOT_KINDS = frozenset(
    {
        *METHODS,
        *("raw", "cooked", "canned", "frozen", "dried", "dry", "brewed", "instant"),
        *("regular", "prepared", "unprepared", "uncooked", "grated", "shredded", "sliced"),
        *("chopped", "diced", "mashed", "whole", "low moisture", "part-skim", "beverage"),
        *("chocolate beverage", "low calorie", "reduced fat", "lowfat", "nonfat", "light"),
    }
)
# Fat levels that do read well before milk ("Whole milk", "Reduced fat milk").
MILK_KINDS = frozenset({"whole", "reduced fat", "lowfat", "nonfat", "chocolate", "buttermilk"})

# Animals and the parts that join them ("Chicken, breast" -> "Chicken breast").
ANIMALS = frozenset({"chicken", "turkey", "beef", "pork", "lamb", "veal", "duck", "goose"})
CUTS = frozenset(
    {
        *("breast", "thigh", "drumstick", "wing", "leg", "back", "ground", "liver", "heart"),
        *("kidneys", "tongue", "tenderloin", "loin", "ribs", "brisket", "sirloin", "top sirloin"),
        *("chuck", "shoulder", "giblets", "gizzard", "feet", "neck", "rib", "round", "flank"),
        *("short loin", "tenderloin steak", "chop", "spareribs", "bottom sirloin", "skirt steak"),
    }
)
# Meat details that go once a cut is named.
MEAT_SIDES = frozenset({"dark meat", "light meat", "meat and skin and giblets and neck", "cured"})
# Cured products that are the food themselves ("Pork, cured, bacon" -> "Bacon").
PRODUCTS = frozenset({"bacon", "ham", "salami", "pepperoni", "prosciutto"})
# Heads that are one food, whatever follows ("Egg, whole" is an egg, "Egg, white" egg white).
PARTS = {("egg", "whole"): "Egg", ("egg", "white"): "Egg white", ("egg", "yolk"): "Egg yolk"}

# Capitals that stay capitals: acronyms, not brands shouted.
ACRONYMS = frozenset({"USDA", "BBQ", "KFC", "DHA", "ARA", "TCBY", "UHT", "TLC", "PB&J", "US"})
_CAPS_WORD = re.compile(r"\b(?:Mc)?[A-Z][A-Z'&.]*[A-Z]\b'?S?")
_SHOUTED = re.compile(r"^[^a-z]*[A-Z]{2}[^a-z]*$")


def catalog_display_name(description: str, *, name: str = "", food_group: str = "") -> str:
    """The display name of a catalog food: the curated table's for its original description,
    else the rules' reading of `name` (the readable name, when the loader made one) or of the
    description.

    >>> catalog_display_name("Beverages, carbonated, cola, regular")
    'Cola'
    """
    if description in CURATED:
        return CURATED[description]
    return short_food_name(name or description, food_group=food_group)


def short_food_name(description: str, *, food_group: str = "") -> str:
    """The name people read for an SR28 description; the description itself when no rule applies.
    `food_group` (the catalog's) tells a fruit or a nut, whose "raw" goes.

    >>> short_food_name("Bread, white, commercially prepared, toasted")
    'White bread, toasted'
    >>> short_food_name("Egg, whole, raw, fresh")
    'Egg'
    """
    if description in WHOLE_NAMES:
        return WHOLE_NAMES[description]
    parts = _split(description)
    if not parts:
        return description.strip()
    parts = _without_labels(parts)
    if len(parts) > 1 and parts[0].lower() in ADJECTIVE_HEADS:
        parts = [parts[1], parts[0], *parts[2:]]
    parts = _without_makers(parts)
    head, details = parts[0], parts[1:]
    head, details = _join_parts(head, details)
    details = [d for d in details if not _is_filler(d)]
    details = _without_plain_cooked(details)
    head, details = _eaten_raw(head, details, food_group)
    head, details = _with_kind(head, details)
    head, details = _milk_by_fat(head, details)
    details = _shortened(head, details)
    name = ", ".join([_readable(head), *(_readable(d) for d in details)])
    name = name[:1].upper() + name[1:]
    return name[:255] if name.strip() else description.strip()[:255]


def _split(description: str) -> list[str]:
    """The comma-separated parts, commas inside parentheses kept, short asides kept too."""
    parts, depth, current = [], 0, []
    for ch in description:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        if ch == "," and depth == 0:
            parts.append("".join(current))
            current = []
        else:
            current.append(ch)
    parts.append("".join(current))
    return [p for p in (_without_aside(p).strip(" .") for p in parts) if p]


def _without_aside(part: str) -> str:
    """'dried (prunes)' keeps its word; '(includes soft bread crumbs)' and long lists go."""

    def keep(match: re.Match) -> str:
        inner = match.group(1).strip()
        long = (
            "," in inner or len(inner.split()) > 2 or inner.lower().startswith(("includ", "such"))
        )
        return "" if long else f" ({inner})"

    return re.sub(r"\s*\(([^()]*)\)", keep, part).strip()


def _without_labels(parts: list[str]) -> list[str]:
    rest = list(parts)
    if len(rest) > 1 and rest[0].lower() in LABELS:
        rest = rest[1:]
        if len(rest) > 1 and rest[0].lower() in SUBLABELS:
            carbonated = rest[0].lower() == "carbonated"
            rest = rest[1:]
            if carbonated:
                rest = _soda(rest)
    if rest[0].lower() == "babyfood":
        rest[0] = "Baby food"
    return rest


def _soda(parts: list[str]) -> list[str]:
    """A carbonated drink as people order it: "low calorie, cola or pepper-type" -> "Diet cola",
    "orange" -> "Orange soda"."""
    diet = len(parts) > 1 and parts[0].lower() in ("low calorie", "diet")
    rest = parts[1:] if diet else list(parts)
    soda = SODA_NAMES.get(rest[0].lower(), rest[0])
    if soda.lower() in SODA_FLAVOURS:
        soda = f"{soda} soda"
    return [f"diet {soda.lower()}" if diet else soda, *rest[1:]]


def _eaten_raw(head: str, details: list[str], food_group: str) -> tuple[str, list[str]]:
    """A fruit, a nut or an egg without its "raw"; a whole fruit eaten one at a time, singular."""
    if "raw" not in (d.lower() for d in details):
        return head, details
    if food_group not in RAW_AS_EATEN_GROUPS and head.lower() not in RAW_AS_EATEN_HEADS:
        return head, details
    details = [d for d in details if d.lower() != "raw"]
    one = singular(head)
    if not details and one in ONE_AT_A_TIME and one != head.lower():
        head = head[:1] + one[1:]
    return head, details


def _milk_by_fat(head: str, details: list[str]) -> tuple[str, list[str]]:
    """Milk by its fat as people say it: "Whole milk, 3.25% milkfat" -> "Whole milk",
    "Reduced fat milk, 2% milkfat" -> "2% milk"."""
    if not head.lower().endswith(" milk") or not details:
        return head, details
    fat = re.fullmatch(r"(\d+(?:\.\d+)?)% milkfat", details[0].lower())
    if fat is None:
        return head, details
    if head.lower() == "whole milk":
        return head, details[1:]
    if head.lower() in ("reduced fat milk", "lowfat milk"):
        return f"{fat.group(1)}% milk", details[1:]
    return head, details


def _without_makers(parts: list[str]) -> list[str]:
    """'GENERAL MILLS, CHEERIOS' -> 'CHEERIOS': a maker in capitals before a named product."""
    if len(parts) > 1 and _SHOUTED.match(parts[0]) and re.search(r"[A-Z]{2}|[A-Z][a-z]", parts[1]):
        return parts[1:]
    return parts


def _join_parts(head: str, details: list[str]) -> tuple[str, list[str]]:
    low = head.lower()
    if details and (low, details[0].lower()) in PARTS:
        return PARTS[(low, details[0].lower())], details[1:]
    if low in ANIMALS:
        product = next((d for d in details if d.lower() in PRODUCTS), None)
        if product is not None:
            return product, [d for d in details if d is not product and d.lower() != "cured"]
        cut = next((d for d in details[:3] if d.lower() in CUTS), None)
        if cut is not None:
            rest = [d for d in details if d is not cut and d.lower() not in MEAT_SIDES]
            if cut.lower() == "ground":
                return f"ground {low}", rest
            return f"{head} {cut.lower()}", rest
    return head, details


def _is_filler(detail: str) -> bool:
    low = detail.lower()
    return low in FILLER or any(p.search(low) for p in FILLER_PATTERNS)


def _without_plain_cooked(details: list[str]) -> list[str]:
    methods = {d.lower() for d in details} & METHODS
    return [d for d in details if not (d.lower() == "cooked" and methods)]


def _with_kind(head: str, details: list[str]) -> tuple[str, list[str]]:
    low = head.lower()
    if low not in KINDS or not details:
        return head, details
    first = details[0]
    word = first.lower()
    allowed = word in MILK_KINDS if low == "milk" else word not in NOT_KINDS
    if not allowed or len(word.split()) > 2 or " or " in word or " and " in word:
        return head, details
    if re.search(r"\d", word):
        return head, details
    noun = KINDS[low] or low
    return f"{first} {noun}", details[1:]


def _shortened(head: str, details: list[str]) -> list[str]:
    """Drop details from the middle until the name fits; the first (which one) and the last (how
    it is cooked) stay."""
    details = list(details)
    while len(details) > 2 and len(", ".join([head, *details])) > MAX_LENGTH:
        del details[-2]
    return details


def _readable(text: str) -> str:
    """Brands written in capitals as words: 'SNICKERS Bar' -> 'Snickers Bar'."""

    def soften(match: re.Match) -> str:
        word = match.group(0)
        if word in ACRONYMS:
            return word
        if word.startswith("Mc") and len(word) > 3:
            return "Mc" + word[2].upper() + word[3:].lower()
        return word[:1] + word[1:].lower()

    return _CAPS_WORD.sub(soften, text)
