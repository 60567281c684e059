"""Food search: the user's own foods first, then the public catalog, best match for logging first.

Postgres keeps for every food a search key: its name as sorted English stems without catalog
filler ("Bananas, raw" -> "banana"; migrations 0003-0004). A GIN index holds each stem twice,
plain and tagged with how many words of the key say what the food is ("banana#1"; numbers,
letters and "vitamin" do not count), so "names of n such words containing every query word" is
one small posting list. Candidates are read shortest first (n = query words, then one more, ...)
and reading stops after a few dozen, however many thousand names contain the word:
a short name that matches fully is what a person logging "banana" means. Typos are corrected
against the catalog's vocabulary (the table food_search_words, a few thousand stems) by trigram
similarity before any name is read.

The candidates are ranked here, in Python, where the rules are easy to read and to test. A person
logging a word means the plain, common, ready-to-eat food, so a name scores by:
- every query word matched, exactly or through a correction or synonym;
- few other words, read where they stand in the name: catalog names say what the food is first
  ("Rice crackers", "Rice, white, long-grain"), so another word in that first part makes it
  another food and costs more than a variety or preparation after the comma, and a word in
  brackets or a catalog label ("Fish, ...", "Beverages, ...") costs almost nothing;
- the form it is eaten in: foods people eat cooked (rice, pasta, meat, fish, potatoes, beans,
  oatmeal) prefer a cooked name to a raw or dry one; dry mixes, powders, doughs and unprepared
  products step back unless the words ask for them, and so do snack, baby, fast and restaurant
  foods and brands;
- a little for being the generic entry ("regular", "all commercial varieties") and for the
  household servings the catalog records for it (the common foods have many);
- for a few everyday words whose common food no rule can tell apart from its siblings ("steak" is
  top sirloin, "salmon" farmed Atlantic, "cheese" cheddar), a small table (EVERYDAY) names it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import product
from math import log2, prod

from django.db import connection
from django.db.models.functions import Lower

from nutrition.models import Food

BARCODE = re.compile(r"\d{8,14}")
MAX_QUERY_CHARS = 200
MAX_QUERY_WORDS = 8
# A query word that is not in the vocabulary is replaced by at most this many near words.
CORRECTIONS_PER_WORD = 2
MIN_CORRECTION_SIMILARITY = 0.35
MAX_WORD_COMBINATIONS = 4
# Names read per combination of query words, and how much longer than the query a name may be
# before the length buckets give way to one "any length" read.
CANDIDATES_PER_COMBINATION = 40
LONGER_BY = 8
OWN_CANDIDATES = 100
# The user's own foods that hold every query word are ranked as if they matched this much better:
# they come first among similar matches, but "Egg, whole, raw" still beats their own "Boiled egg
# and cauliflower bake" for "egg", so logging "2 eggs" logs eggs.
OWN_HEAD_START = 0.2
# food_find_best logs without asking only above this score, with every query word matched.
CONFIDENT_SCORE = 0.6
BRAND_SCORE = 0.45  # a product named exactly by the end of a long catalog name (see _brand)
BRAND_BONUS = 0.05
# A product named with its brand's every word ("whopper", "taco bell bean burrito") is logged from
# this score: the words already say which product it is.
MADE_BY_SCORE = 0.3

# --- what the words mean ------------------------------------------------------------------------

# Query stem -> stems that name the same food in the catalog (British and American names,
# oatmeal for oats). Applied to the query only, with a little less weight than the word itself.
# A synonym of several stems needs them all: SR28 names toast "Bread, ..., toasted".
SYNONYMS: dict[str, tuple[str, ...]] = {
    "oatmeal": ("oat",),
    "porridg": ("oat",),
    "yoghurt": ("yogurt",),
    "courgett": ("zucchini",),
    "aubergin": ("eggplant",),
    "prawn": ("shrimp",),
    "garbanzo": ("chickpea",),
    "chickpea": ("garbanzo",),
    "minc": ("ground",),
    "toast": ("bread toast",),
    "burger": ("hamburg",),
    "coke": ("cola",),
    "kiwi": ("kiwifruit",),
    "ketchup": ("catsup",),
    "lowfat": ("fat low",),  # SR28 writes both "lowfat" and "low fat"
    "nonfat": ("fat non",),
}
# Two words the catalog writes as one.
PHRASES = {
    r"soy milk": "soymilk",
    r"low[- ]fat": "lowfat",
    r"non[- ]fat": "nonfat",
    r"flax ?seeds?": "flaxseed",
    r"cornflakes?": "corn flakes",
    r"mac (and|n|&) cheese": "macaroni and cheese",
    r"oj": "orange juice",
    r"donuts?": "doughnut",
    r"mayo": "mayonnaise",
    r"(basmati|jasmine) rice": "white rice",
    r"americanos?": "black coffee",
    r"hot chocolate": "hot cocoa",
    r"oreos?(?! mcflurr)": "chocolate sandwich cookies creme filling",
    r"(7 ?up|seven up)": "lemon lime soda",
    r"nutella": "chocolate hazelnut spread",
    # the order of these two words is the food: candy, or milk
    r"milk chocolate": "candies milk chocolate",
    r"chocolate milk": "milk chocolate fluid",
    r"omelettes?": "omelet",
    # what these are made of or sold as in the catalog: a scoop of whey, a bottle of Powerade
    r"protein shakes?": "protein powder whey based",
    r"sports drinks?": "powerade",
    # British: a packet of crisps is potato chips, not a cereal; the flavour changes little
    r"(salt (and|&|n) vinegar |ready salted |cheese (and|&) onion )?crisps": "potato chips",
    r"semi[- ]skimmed milk": "milk reduced fat 2% vitamin a d",
    r"skimmed milk": "milk nonfat",
    r"doritos?": "tortilla chips nacho cheese",
    r"(over (easy|medium|hard)|sunny side up)": "fried",
}
SYNONYM_QUALITY = 0.95
# Drinks the catalog has no entry for, described by what they are made of: the search lists the
# nearest foods, but never logs one of them as if it were the drink.
DESCRIPTIONS: dict[str, tuple[str, ...]] = {
    "latt": ("coffe", "milk"),
    "cappuccino": ("coffe", "milk"),
    "margarita": ("tequila", "lime"),  # a cocktail, never margarine by a one-letter slip
}
DESCRIPTION_QUALITY = 0.9

# Everyday words -> the SR28 food a person logging them most likely means, where no ranking rule
# can pick it from its siblings: which steak, which salmon, which cheese is "the" one is knowledge,
# not wording. Keys are matched after stemming ("eggs" = "egg"); the first name the catalog
# has wins. The user's own foods still come first. tests/nutrition/test_search_catalog.py checks
# every name against the real catalog.
EVERYDAY: dict[str, tuple[str, ...]] = {
    "spaghetti": ("Pasta, cooked, enriched, without added salt",),
    "bread": ("Bread, white, commercially prepared (includes soft bread crumbs)",),
    "toast": ("Bread, white, commercially prepared, toasted",),
    "pretzels": ("Snacks, pretzels, hard, plain, salted",),
    "crackers": ("Crackers, standard snack-type, regular",),
    "tortilla": ("Tortillas, ready-to-bake or -fry, flour, refrigerated",),
    "espresso": ("Beverages, coffee, brewed, espresso, restaurant-prepared",),
    "sprite": ("Beverages, carbonated, SPRITE, lemon-lime, without caffeine",),
    "gatorade": ("Beverages, PEPSICO QUAKER, Gatorade, G performance O 2, ready-to-drink.",),
    **dict.fromkeys(
        ("tequila", "gin"),
        ("Alcoholic beverage, distilled, all (gin, rum, vodka, whiskey) 80 proof",),
    ),
    "orange soda": ("Beverages, carbonated, orange",),
    "hot cocoa": ("Milk, chocolate beverage, hot cocoa, homemade",),
    "snickers": ("Candies, MARS SNACKFOOD US, SNICKERS Bar",),
    "string cheese": ("Cheese, mozzarella, low moisture, part-skim",),
    "doughnut": ("Doughnuts, yeast-leavened, glazed, enriched (includes honey buns)",),
    "wheat toast": ("Bread, wheat, toasted",),  # not toasted wheat germ cereal
    # a slice of a 14" hand-tossed cheese pizza (105 g): what "2 slices of pizza" is
    "pizza": (
        'PIZZA HUT 14" Cheese Pizza, Hand-Tossed Crust',
        "Pizza, cheese topping, regular crust, frozen, cooked",
    ),
    "fries": ("Fast foods, potato, french fried in vegetable oil",),
    "clif bar": ("Snacks, CLIF BAR, mixed flavors",),
    "roast beef": ("Roast beef, deli style, prepackaged, sliced",),
    "french fries": ("Fast foods, potato, french fried in vegetable oil",),
    "steak": (
        'Beef, top sirloin, steak, separable lean and fat, trimmed to 1/8" fat, choice, '
        "cooked, broiled",
    ),
    "salmon": ("Fish, salmon, Atlantic, farmed, cooked, dry heat",),
    **dict.fromkeys(
        ("grilled salmon", "baked salmon", "roasted salmon"),
        ("Fish, salmon, Atlantic, farmed, cooked, dry heat",),  # dry heat is grilled or baked
    ),
    "tuna": ("Fish, tuna, light, canned in water, drained solids",),
    "beans": ("Beans, black, mature seeds, cooked, boiled, without salt",),
    "salad": ("McDONALD'S, Side Salad",),
    "cereal": ("Cereals ready-to-eat, GENERAL MILLS, CHEERIOS",),
    "cheese": ("Cheese, cheddar",),
    "coffee": ("Beverages, coffee, brewed, prepared with tap water",),
    "tea": ("Beverages, tea, black, brewed, prepared with tap water",),
    "wine": ("Alcoholic beverage, wine, table, red",),
    "soda": ("Beverages, carbonated, cola, regular",),
    "pepsi": ("Beverages, carbonated, cola, regular",),
    **dict.fromkeys(
        ("diet coke", "diet soda", "diet cola", "coke zero", "diet pepsi", "pepsi max"),
        (
            "Beverages, carbonated, low calorie, cola or pepper-type, with aspartame, contains "
            "caffeine",
        ),
    ),
    "black coffee": ("Beverages, coffee, brewed, prepared with tap water",),
    "tomato": ("Tomatoes, red, ripe, raw, year round average",),
    "bacon": ("Pork, cured, bacon, pre-sliced, cooked, pan-fried",),
    "chocolate": ("Candies, milk chocolate",),
    "ice cream": ("Ice creams, vanilla",),
    "cookie": ("Cookies, chocolate chip, commercially prepared, regular, higher fat, enriched",),
    "popcorn": ("Snacks, popcorn, air-popped",),
    "peanut butter": ("Peanut butter, smooth style, with salt",),
    "yogurt": ("Yogurt, plain, whole milk, 8 grams protein per 8 ounce",),
    "sugar": ("Sugars, granulated",),
    "hot dog": ("Fast foods, hotdog, plain",),
    "muffin": ("Muffins, blueberry, commercially prepared (Includes mini-muffins)",),
    "soymilk": ("Soymilk, original and vanilla, with added calcium, vitamins A and D",),
    "cottage cheese": ("Cheese, cottage, creamed, large or small curd",),
    "grapes": ("Grapes, red or green (European type, such as Thompson seedless), raw",),
    "parmesan": ("Cheese, parmesan, grated",),
    "sour cream": ("Cream, sour, cultured",),
    "chips": ("Snacks, potato chips, plain, salted",),
    "corn flakes": ("Cereals ready-to-eat, KELLOGG, KELLOGG'S Corn Flakes",),
    "macaroni and cheese": ("Macaroni and cheese, box mix with cheese sauce, prepared",),
    "vodka": ("Alcoholic beverage, distilled, vodka, 80 proof",),
    "gin": ("Alcoholic beverage, distilled, gin, 90 proof",),
    "rum": ("Alcoholic beverage, distilled, rum, 80 proof",),
    "whiskey": ("Alcoholic beverage, distilled, whiskey, 86 proof",),
    "whisky": ("Alcoholic beverage, distilled, whiskey, 86 proof",),
    "cider": ("Beverages, AMBER, hard cider",),
    "lemonade": ("Lemonade, frozen concentrate, white, prepared with water",),
    "liver": ("Beef, variety meats and by-products, liver, cooked, pan-fried",),
    "drumstick": ("Chicken, broilers or fryers, dark meat, drumstick, meat only, cooked, roasted",),
    "sunflower seeds": ("Seeds, sunflower seed kernels, dry roasted, with salt added",),
    "pumpkin seeds": ("Seeds, pumpkin and squash seed kernels, roasted, with salt added",),
    "pie": ("Pie, apple, commercially prepared, enriched flour",),
    "pita": ("Bread, pita, white, enriched",),
    "zucchini": ("Squash, summer, zucchini, includes skin, raw",),
    "prunes": ("Plums, dried (prunes), uncooked",),
    "bell pepper": ("Peppers, sweet, green, raw",),
    "green pepper": ("Peppers, sweet, green, raw",),
    "frozen yogurt": ("Frozen yogurts, vanilla, soft-serve",),
    # a piece of "cake" is a slice of a layer cake (1/12 of 8", 68 g, 245 kcal), not of sponge
    "cake": ("Cake, yellow, prepared from recipe without frosting",),
    # what comes in a juice box
    "juice": ("Apple juice, canned or bottled, unsweetened, without added ascorbic acid",),
    "smoothie": ("Fast foods, strawberry banana smoothie made with ice and low-fat yogurt",),
    "milkshake": ("Shake, fast food, vanilla",),
    "chocolate milkshake": ("Milk shakes, thick chocolate",),
    # a bowl of ramen: a packet of noodles, the catalog's only ramen
    "ramen": ("Soup, ramen noodle, any flavor, dry",),
    # a burrito as a taqueria makes it (185 g, 380 kcal), not a two-piece 217 g plate's half
    "burrito": ("Fast foods, burrito, with beans and cheese",),
    "powerade": ("Beverages, COCA-COLA, POWERADE, lemon-lime flavored, ready-to-drink",),
    "monster": ("Beverages, Energy Drink, Monster, fortified with vitamins C, B2, B3, B6, B12",),
}

# Words that name a kind of food, not one food: alone, they are never logged without asking
# ("fish" is not fish broth, "soup" not beef stock), though the search still lists matches.
# Some are dishes whose word the catalog uses for something else ("poke": pokeberry shoots).
KINDS = frozenset(
    {"fish", "sandwich", "sandwiches", "soup", "soups", "candy", "candies", "sweets", "curry"}
    | {"snack", "snacks", "dessert", "meal", "food", "drink", "poke", "stew", "casserole"}
    | {"berries", "nuts", "seeds", "cereal bar", "veggies", "vegetables", "fruit", "meat"}
    | {"bar", "bars"}
)

# --- how names are written ----------------------------------------------------------------------

# Words that name the dish when a query ends with them ("peanut butter sandwich", "caesar
# salad"): a food matching them only in its label or its details is another food.
DISH_WORDS = frozenset(
    {"sandwich", "sandwiches", "salad", "salads", "soup", "soups", "wrap", "wraps", "bowl"}
    | {"burger", "burgers", "stew", "curry", "taco", "tacos", "burrito", "burritos", "pie"}
    | {"cake", "roll", "rolls", "smoothie", "shake", "omelette", "omelet", "casserole"}
)

# Dishes the catalog has no entry for, named without a dish word ("pad thai", "a gyro"): they are
# food (never dropped as words Sparky does not know), and only a food named so is one of them.
NAMED_DISHES = frozenset(
    {"pad thai", "sushi", "sashimi", "shawarma", "gyro", "gyros", "biryani", "kebab", "kebabs"}
    | {"kabob", "kabobs", "pho", "tikka masala", "chicken tikka masala", "butter chicken"}
    | {"shepherd's pie", "shepherds pie", "cottage pie", "bolognese", "spaghetti bolognese"}
    | {"stir fry", "beef stir fry", "chicken stir fry", "california roll", "laksa"}
    | {"paella", "moussaka", "dhal", "korma", "vindaloo", "jambalaya", "blt", "bibimbap"}
)
# Dish words whose filling may vary while the dish stays the same kind: any sandwich is the
# closest real dish to "a breakfast sandwich", any wrap to "a falafel wrap". A salad, a soup, a
# taco or a pie is not: a taco salad is no Greek salad, a beef taco no fish taco.
VESSEL_WORDS = frozenset({"sandwich", "sandwiches", "sub", "subs", "wrap", "wraps", "bowl"})
NOT_VESSEL_DISHES = ("spread", "cookie", "cracker", "ice cream", "-type", "tortilla", "waffle")
DISH_SYNONYMS = {"sub": ("sandwich",), "sandwich": ("sub",), "kebab": ("kabob",)}

# SR28 files some foods under a label first ("Fish, salmon", "Beverages, coffee"): the food is
# the next part.
LABELS = frozenset(
    {
        *("fish", "nuts", "seeds", "spices", "beverages", "alcoholic beverage", "candies"),
        *("alcoholic beverages", "fast foods", "fast food", "snacks", "crustaceans", "mollusks"),
        *("babyfood", "cereals", "cereals ready to eat", "school lunch", "restaurant"),
        "salad dressing",
    }
)
# Extra stems in a name that describe how the food is prepared, cut or how fat it is: they cost
# about half of a word that changes what the food is.
LIGHT_STEMS = frozenset(
    {
        *("roast", "grill", "bake", "boil", "steam", "poach", "scrambl", "toast", "broil", "heat"),
        *("stew", "brais", "microwav", "saute", "sauté", "smoke", "frozen", "can", "drain"),
        *("solid", "water", "fat", "lean", "flesh", "style"),
        *("meat", "skin", "boneless", "skinless", "slice", "chop", "dice", "mash", "long"),
        *("medium", "short", "grain", "dri", "readi", "eat", "beverag", "unsweeten"),
    }
)
# How cooking methods cost in a food people eat cooked: nothing, except the ones that change it
# (a fried chicken breast is not what "chicken breast" means).
METHOD_STEMS = {
    **dict.fromkeys(("roast", "grill", "bake", "boil", "steam", "poach", "broil"), 0.0),
    **dict.fromkeys(("microwav", "heat", "moist", "simmer", "dri"), 0.0),
    **dict.fromkeys(("stew", "brais"), 0.3),
    "fri": 0.8,
}
# Fortification, salt and fat-content details ("fluid, 3.25% milkfat, with added vitamin D",
# "without salt") hardly change what a food is.
TRIVIAL_STEMS = frozenset({"vitamin", "milkfat", "fluid", "mineral"})
# Also trivial, but not in the length tag (that needs a migration): salt, and the protein
# content of yogurts ("8 grams protein per 8 ounce").
LIGHTLY_TRIVIAL = frozenset({"salt", "gram", "ounc", "per", "calcium", "propion", "ascorb", "acid"})
# Organs and by-products: "Turkey, heart" is not what "turkey" means.
OFFAL_STEMS = frozenset(
    {
        *("heart", "liver", "brain", "kidney", "tongu", "gizzard", "giblet", "feet", "tripe"),
        *("lung", "spleen", "pancrea", "thymus", "neck", "product"),
    }
)
TRIVIAL_WEIGHT = 0.1
HEAD_WEIGHT = 1.5  # "crackers" of "Rice crackers"
HEAD_LIGHT_WEIGHT = 0.7  # "grain" of "Corn grain, yellow"
TAIL_WEIGHT = 0.7  # "brown" of "Rice, brown, long-grain"
LIGHT_WEIGHT = 0.35
# Foods that are a dish or a product for a particular eater, not the food itself.
COMPOUND_STEMS = frozenset({"babyfood", "restaur"})
COMPOUND_GROUPS = frozenset(
    {
        *("Baby Foods", "Fast Foods", "Restaurant Foods", "Meals, Entrees, and Side Dishes"),
        "American Indian/Alaska Native Foods",
    }
)
COMPOUND_PENALTY = 2.0
SNACK_GROUPS = frozenset({"Snacks"})
SNACK_PENALTY = 1.0
BRAND_PENALTY = 1.0
# SR28 writes brands in capitals: "Yogurt, Greek, nonfat, vanilla, CHOBANI".
BRAND = re.compile(r"[A-Z]{3,}")
# Forms a food is sold or stored in, not eaten in: they step back unless the words ask for them.
PRODUCT_WORDS = frozenset(
    {
        *("unprepared", "uncooked", "powder", "concentrate", "dehydrated", "dough", "mix"),
        *("purchased", "dry", "dried", "flour", "frozen", "evaporated", "condensed"),
    }
)
# Something made to stand in for the food.
IMITATION_WORDS = frozenset({"substitute", "imitation", "meatless", "analog"})
PRODUCT_PENALTY = 1.0
FROZEN_PENALTY = 0.3  # frozen is only a little less than fresh ("Strawberries, frozen")
# Foods people eat cooked, by the query's words and by the catalog's food groups. Such a food
# prefers a cooked name; a raw, dry or unprepared one steps back, and (for the words, which are
# sure) so does a name that does not say it is cooked.
COOKED_FOODS = frozenset(
    {
        *("rice", "pasta", "spaghetti", "noodl", "macaroni", "oatmeal", "porridg", "quinoa"),
        *("potato", "yam", "lentil", "bean", "chickpea", "garbanzo", "chicken", "beef"),
        *("steak", "pork", "bacon", "turkey", "salmon", "shrimp", "sausag", "lamb", "cod"),
        *("tilapia", "couscous", "barley", "bulgur"),
    }
)
COOKED_GROUPS = frozenset(
    {
        *("Cereal Grains and Pasta", "Poultry Products", "Beef Products", "Pork Products"),
        *("Lamb, Veal, and Game Products", "Finfish and Shellfish Products"),
    }
)
COOKED_WORDS = frozenset(
    {
        *("cooked", "boiled", "baked", "roasted", "grilled", "broiled", "steamed", "stewed"),
        *("braised", "microwaved", "poached", "simmered", "fried", "heated", "mashed"),
        *("scrambled", "brewed", "toasted"),
    }
)
READY_WORDS = frozenset({"canned", "smoked", "cured", "rotisserie"})
UNCOOKED_WORDS = frozenset({"raw", "uncooked", "unprepared", "dry", "dried"})
# A query that says the form itself ("raw salmon", "dry pasta") gets what it says.
FORM_WORDS = frozenset({"raw", "uncooked", "dry", "dried", "frozen", "fresh", "canned", "smoked"})
UNCOOKED_PENALTY = 1.5
NOT_SAID_COOKED_PENALTY = 0.75
COOKED_CREDIT = 0.5
# Words that mark the generic entry among its varieties, and the cooking phrases SR28 uses for
# fish; their words cost nothing.
GENERIC = re.compile(
    r"\b(all commercial varieties|all types|all classes|all grades|all varieties|all styles|"
    r"all flavors|year round average|mixed species|not further specified|generic|unspecified|"
    r"regular|plain|all)\b"
)
GENERIC_CREDIT = 0.3
METHOD_PHRASES = re.compile(r"\b(dry heat|moist heat)\b")
# How a product is sold, not what it is: "ready-to-drink", "shelf stable".
SOLD_PHRASES = re.compile(r"\b(ready[- ]to[- ](drink|eat|serve)|shelf[- ]stable)\b")
# Household servings the catalog records for a food: the common foods have many.
SERVINGS_CREDIT = 0.25
# Query words the search key drops (they say little about the food) still favour names that
# have them: "raw egg" prefers "Egg, whole, raw, fresh" to a boiled egg.
NEUTRAL_WORDS = frozenset(
    {"raw", "fresh", "whole", "plain", "regular", "cooked", "prepared", "uncooked", "fortified"}
)
NEUTRAL_BONUS = 0.1
# "Crackers, milk" is crackers: SR28 names start with what the food is.
HEAD_MISS_FACTOR = 0.75
# "Beverages, almond milk" is more "almond milk" than "Candies, milk chocolate, with almonds".
HEAD_PARTIAL_FACTOR = 0.9
PENALTY_SCALE = 0.15
# Credits may take a name below no penalty at all, but only so far.
MAX_CREDIT = -1.0
# Words after "with" ("coffee with milk") lift names that have them but are not required.
SIDE_WEIGHT = 0.25


@dataclass
class Query:
    """A parsed query. Each option lists the stem sets that may stand for one query word."""

    options: list[list[tuple[tuple[str, ...], float]]]
    side: list[list[tuple[tuple[str, ...], float]]] = field(default_factory=list)
    stems: frozenset[str] = frozenset()  # the query's own stems, before corrections
    words: frozenset[str] = frozenset()  # its plain lowercase words
    described: bool = False  # a word was replaced by what it is made of ("latte")
    kind: bool = False  # the words name a kind of food ("fish"), not one food
    guesses: frozenset[str] = frozenset()  # corrections too far from what was typed to log
    preferred: frozenset[str] = frozenset()  # EVERYDAY names for these words
    dish: frozenset[str] = frozenset()  # the stem of a dish word the query ends with ("salad")

    @property
    def cooked(self) -> bool:
        return bool(self.stems & COOKED_FOODS) and not self.says_form

    @property
    def says_form(self) -> bool:
        return bool(self.words & FORM_WORDS)


@dataclass
class Candidate:
    id: object
    name: str
    key: frozenset[str]
    user_id: object
    food_group: str
    servings: int = 0
    score: float | None = None  # 0..1, as the caller sees it
    rank: float = 0.0  # the score before it is clipped to 0..1: credits still order the best
    complete: bool = False  # every query word matched
    preferred: bool = False


def search_foods(*, user, query: str, limit: int = 10) -> list[Food]:
    """Foods matching `query`, best first, each with `.score` (0..1) and `.complete` (bool)."""
    text = " ".join(str(query or "").split())[:MAX_QUERY_CHARS]
    limit = max(1, min(int(limit), 50))
    if not text:
        return []
    if BARCODE.fullmatch(text):
        return _by_barcode(user, text, limit)
    q = _parse(text)
    if q.options:
        candidates = _candidates(user, q, partial=False)
        ranked = _ranked(candidates, q)
        if len(q.options) > 1 and sum(c.complete for c in ranked) < limit:
            # Not enough names hold every word: let one word go ("chicken breast sandwich").
            candidates = {**_candidates(user, q, partial=True), **candidates}
    else:
        candidates = _name_contains(user, text)
    ranked = sorted(
        _ranked(candidates, q),
        key=lambda c: (
            -(c.rank + (OWN_HEAD_START if c.user_id == user.id and c.complete else 0)),
            not c.preferred,
            len(c.name),
            c.name,
        ),
    )[:limit]
    foods = _foods_by_id([c.id for c in ranked])
    out = []
    for c in ranked:
        food = foods[c.id]
        food.score = round(c.score, 4)
        food.complete = c.complete
        out.append(food)
    return out


def _foods_by_id(ids: list) -> dict:
    """Food rows by id, read with one plain statement (the ORM's query building would cost more
    than the search itself). The timestamps stay deferred: a search result never shows them."""
    if not ids:
        return {}
    fields = [f for f in Food._meta.concrete_fields if f.name not in ("created_at", "updated_at")]
    columns = ", ".join(connection.ops.quote_name(f.column) for f in fields)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {columns} FROM foods WHERE id = ANY(%s)", [ids])
        rows = cursor.fetchall()
    names = [f.attname for f in fields]
    foods = (Food.from_db(connection.alias, names, row) for row in rows)
    return {food.id: food for food in foods}


def dish_of(text: str) -> tuple[list[str], str | None] | None:
    """(the words, the dish word) of a dish query ("turkey sandwich" -> (["turkey",
    "sandwich"], "sandwich"); "pad thai" -> (["pad", "thai"], None)), else None."""
    words = [w for w in _DISH_TEXT.findall(text.lower()) if w not in ("a", "an", "the", "some")]
    if not words:
        return None
    if " ".join(words) in NAMED_DISHES or any(w in NAMED_DISHES for w in words):
        return words, None
    if len(words) >= 2 and words[-1] in DISH_WORDS:
        return words, words[-1]
    return None


_DISH_TEXT = re.compile(r"[a-z']+")


def dish_options(*, user, query: str, limit: int = 3) -> list[Food] | None:
    """The closest real dishes for a dish query, never one of its parts: names holding the whole
    dish ("Fast foods, submarine sandwich, turkey breast" for "turkey sandwich"), else, for a
    sandwich, wrap or bowl, others of that kind; [] when the catalog has none (the user gives
    their own numbers). None when the query is not a dish (search as usual)."""
    dish = dish_of(query)
    if dish is None:
        return None
    words, vessel = dish
    found = search_foods(user=user, query=" ".join(words), limit=40)
    if vessel is None:  # a named dish: the name as a phrase
        phrase = " ".join(words).replace("'", "")
        whole = [f for f in found if phrase in f.name.lower().replace("'", "")]
        return whole[:limit]

    def has(food, word) -> bool:
        name = food.name.lower()
        stems = [word.rstrip("s")[:5], *(s[:5] for s in DISH_SYNONYMS.get(word.rstrip("s"), ()))]
        return any(stem in name for stem in stems)

    whole = [f for f in found if all(has(f, w) for w in words)]
    if len(whole) >= limit or vessel not in VESSEL_WORDS:
        return whole[:limit]

    def a_dish(food) -> bool:  # a sandwich, not a sandwich spread or a sandwich cookie
        name = food.name.lower()
        return has(food, vessel) and not any(w in name for w in NOT_VESSEL_DISHES)

    kind = whole + [f for f in found if a_dish(f) and f not in whole]
    if len(kind) < limit:
        more = search_foods(user=user, query=vessel, limit=30)
        kind += [f for f in more if a_dish(f) and f.id not in {k.id for k in kind}]
    return kind[:limit]


def known_words(text: str) -> bool:
    """Whether every word of `text` is a word of some food name as typed, not a correction of
    one ("fruit", "nuts" yes; "lol", "watched football" no), or a dish ("pad thai")."""
    if dish_of(text) is not None:
        return True
    q = _parse(text[:MAX_QUERY_CHARS])
    return bool(q.options) and all(
        any(quality == 1.0 for _, quality in choice) for choice in q.options
    )


def best_food(*, user, name: str) -> Food | None:
    """The food to log for `name` without asking, or None when no match is confident. A dish is
    never logged as one of its parts: only a food named as the dish is."""
    found = search_foods(user=user, query=name, limit=1)
    dish = dish_of(name)
    if found and dish is not None and dish[1] is None:
        phrase = " ".join(dish[0]).replace("'", "")
        if phrase not in found[0].name.lower().replace("'", ""):
            return None
    if found and found[0].complete and found[0].score >= CONFIDENT_SCORE:
        return found[0]
    if found and found[0].complete and found[0].score >= BRAND_SCORE and _brand(found[0], name):
        return found[0]
    if dish is not None and dish[1] is None:
        return None  # a BLT is any BLT, not McDONALD'S Chicken Ranch BLT Sandwich
    # a dish ("chicken curry") is some maker's product only when the maker is said
    maker = dish is not None
    if found and found[0].score >= MADE_BY_SCORE and _made_by_named(found[0], name, maker):
        return found[0]
    nearby = search_foods(user=user, query=name, limit=3)[1:]  # "frosty": the dessert, second
    return next(
        (f for f in nearby if f.score >= MADE_BY_SCORE and _made_by_named(f, name, maker)), None
    )


def _made_by_named(food: Food, name: str, maker_said: bool = False) -> bool:
    asked = frozenset(_stem_plural(w) for w in _WORDS.findall(name.lower()))
    if maker_said:
        maker = {_stem_plural(w) for w in _WORDS.findall(food.name.split(",")[0].lower())}
        if not asked & maker:
            return False
    return bool(asked) and _made_by(food.name, asked)


def _brand(food: Food, name: str) -> bool:
    """Whether `name` is the product the food's name ends with: "cheerios" is "Cereals
    ready-to-eat, GENERAL MILLS, CHEERIOS", "big mac" is "McDONALD'S, BIG MAC"; the long
    category prefix is what keeps such names under the confident score. Also a product named
    after its maker: "whopper" is "BURGER KING, WHOPPER, no cheese", "egg mcmuffin"
    "McDONALD'S, Egg McMUFFIN", "twix" "Candies, ..., TWIX Caramel Cookie Bars"."""
    asked = frozenset(_WORDS.findall(name.lower()))
    if not asked:
        return False
    if _product(food.name) == asked:
        return True
    return _made_by(food.name, frozenset(_stem_plural(w) for w in asked))


def _stem_plural(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def _made_by(name: str, asked: frozenset[str]) -> bool:
    """Whether the words name a product of a brand the catalog name states in capitals: the
    maker first ("TACO BELL, Bean Burrito") or the product itself ("..., TWIX Caramel ...")."""
    parts = name.split(",")
    if len(parts) < 2:
        return False
    maker = parts[0]
    # a maker written in capitals ("BURGER KING", "McDONALD'S"), not a label ("Candies")
    by_maker = all(sum(c.islower() for c in w) <= 1 for w in re.findall(r"[A-Za-z']+", maker))
    for part in parts[1:]:
        words = {_stem_plural(w) for w in re.findall(r"[a-z]+", part.lower())}
        caps = {_stem_plural(w.lower()) for w in re.findall(r"\b[A-Z][A-Z'&]{2,}\b", part)}
        maker_words = {_stem_plural(w) for w in re.findall(r"[a-z]+", maker.lower())}
        if asked <= words | (maker_words if by_maker else set()) and (
            by_maker or (caps and caps <= asked)
        ):
            return True
    return False


_UPPER_WORDS = re.compile(r"[A-Z][A-Z0-9'&.-]*\b")


@lru_cache(maxsize=4096)
def _product(name: str) -> frozenset[str] | None:
    """The brand product a catalog name ends with, as words: SR28 writes products in capitals
    ("..., KELLOGG'S FROSTED FLAKES" -> frosted, flakes; the maker's name, said before, is
    dropped). None for a name that does not end with one."""
    parts = name.split(",")
    if len(parts) < 2 or not _UPPER_WORDS.search(parts[-1]):
        return None
    last = parts[-1]
    if any(w.isalpha() and not w.isupper() for w in re.findall(r"[A-Za-z]+", last)):
        return None
    earlier = set(_WORDS.findall(",".join(parts[:-1]).lower()))
    product = frozenset(_WORDS.findall(last.lower())) - earlier - {"s"}
    return product or None


# --- reading the query -------------------------------------------------------------------------

_WORDS = re.compile(r"[a-z]+")
_WITH = re.compile(r"\bwith\b")


def _parse(text: str) -> Query:
    """The query's stems and, for each, the vocabulary stems that may stand for it."""
    lowered = text.lower()
    for phrase, word in PHRASES.items():
        lowered = re.sub(rf"\b{phrase}\b", word, lowered)
    main, side = _split_with(lowered)
    parts = _stems_and_corrections([main, side] if side else [main])
    options, stems, described = _options(parts.get(1, {}))
    side_options, side_stems, _ = _options(parts.get(2, {}))
    words = frozenset(_WORDS.findall(lowered))
    q = Query(
        options=options,
        side=side_options,
        stems=frozenset(stems),
        words=words,
        described=described,
        kind=bool(words) and words <= KINDS,
        guesses=_guesses(parts.get(1, {})),
    )
    q.preferred = _preferred(stems, options)
    main_words = _WORDS.findall(main)
    if len(main_words) >= 2 and main_words[-1] in DISH_WORDS:  # "salad" alone is the dish
        last = main_words[-1]
        q.dish = frozenset(st for st in parts.get(1, {}) if last.startswith(st))
    return q


def _split_with(lowered: str) -> tuple[str, str]:
    """'coffee with milk' -> ('coffee', 'milk'); the first part is the food."""
    found = _WITH.search(lowered)
    if not found or not lowered[: found.start()].strip():
        return lowered, ""
    return lowered[: found.start()], lowered[found.end() :]


def _stems_and_corrections(texts: list[str]) -> dict[int, dict[str, list[tuple[str, float]]]]:
    """For each text, its stems in order, each with the near vocabulary stems (a typo's
    corrections, or the stem itself when the catalog uses it) and their trigram similarity."""
    with connection.cursor() as cursor:
        cursor.execute(
            """
            SELECT p.part, q.w, v.word, v.sim
            FROM unnest(%s::text[]) WITH ORDINALITY AS p(text, part)
            CROSS JOIN LATERAL unnest(string_to_array(food_search_key(p.text), ' '))
                 WITH ORDINALITY AS q(w, i)
            LEFT JOIN LATERAL (
                SELECT word, similarity(word, q.w) AS sim
                FROM food_search_words
                WHERE word %% q.w
                ORDER BY sim DESC, word
                LIMIT 3
            ) v ON true
            WHERE q.w <> ''
            ORDER BY p.part, q.i, v.sim DESC NULLS LAST
            """,
            [texts],
        )
        rows = cursor.fetchall()
    parts: dict[int, dict[str, list[tuple[str, float]]]] = {}
    for part, stem, word, sim in rows:
        near = parts.setdefault(part, {}).setdefault(stem, [])
        if word is not None:
            near.append((word, float(sim)))
    return parts


def _options(near: dict[str, list[tuple[str, float]]]):
    """(options, the query's stems, whether a word was described by its ingredients)."""
    options = []
    described = False
    for stem, words in list(near.items())[:MAX_QUERY_WORDS]:
        if stem in DESCRIPTIONS:
            described = True
            options += [[((s,), DESCRIPTION_QUALITY)] for s in DESCRIPTIONS[stem]]
            continue
        known = any(word == stem for word, _ in words)
        synonyms = [(tuple(s.split()), SYNONYM_QUALITY) for s in SYNONYMS.get(stem, ())]
        if known:
            choice = [((stem,), 1.0)]
        elif synonyms:  # "coke" is not a typo of "cake"
            choice = []
        else:
            choice = [
                ((word,), 0.5 + 0.5 * sim)
                for word, sim in words[:CORRECTIONS_PER_WORD]
                if sim >= MIN_CORRECTION_SIMILARITY
            ]
        options.append(choice + synonyms)
    return options, list(near)[:MAX_QUERY_WORDS], described


def _guesses(near: dict[str, list[tuple[str, float]]]) -> frozenset[str]:
    """The corrections offered for unknown words that are more than a slip of the keyboard away
    ("triscuit" -> "biscuit"): good enough to list, never to log without asking."""
    far = set()
    for stem, words in near.items():
        if any(word == stem for word, _ in words):
            continue
        far.update(word for word, _ in words if not _a_slip(stem, word))
    return frozenset(far - set(near))


def _a_slip(typed: str, word: str) -> bool:
    """One edit (a letter missed, doubled, swapped or wrong: "bananna", "samon", "tost"), or two
    in a longer word that still starts right ("spagheti" -> "spaghetti")."""
    distance = _edits(typed, word)
    return distance <= 1 or (distance == 2 and len(typed) >= 6 and typed[0] == word[0])


def _edits(a: str, b: str) -> int:
    """Damerau-Levenshtein distance (adjacent swaps count once), for short words."""
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                current[j] = min(current[j], previous2[j - 2] + 1)
        previous2, previous = previous, current
    return previous[-1]


_everyday_keys: dict[str, tuple[str, ...]] | None = None


def _everyday() -> dict[str, tuple[str, ...]]:
    """EVERYDAY keyed by the stems of its words (the database's stemmer, read once)."""
    global _everyday_keys
    if _everyday_keys is None:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT k, food_search_key(k) FROM unnest(%s::text[]) AS k", [list(EVERYDAY)]
            )
            _everyday_keys = {key: EVERYDAY[words] for words, key in cursor.fetchall()}
    return _everyday_keys


def _preferred(stems: list[str], options) -> frozenset[str]:
    """The EVERYDAY names for the query, as typed or as corrected ("ryce")."""
    table = _everyday()
    keys = {" ".join(sorted(stems))}
    if options and all(options):
        keys.add(" ".join(sorted({s for choice in options for s in choice[0][0]})))
    return frozenset(name for key in keys for name in table.get(key, ()))


# --- reading candidates ------------------------------------------------------------------------


def _by_barcode(user, code: str, limit: int) -> list[Food]:
    foods = list(Food.objects.visible_to(user).filter(barcode=code)[:limit])
    foods.sort(key=lambda f: f.user_id != user.id)
    for food in foods:
        food.score = 1.0
        food.complete = True
    return foods


def _combinations(q: Query, partial: bool) -> list[tuple[str, ...]]:
    """The word sets to look up, most likely first; `partial` drops one query word from each.
    Words after "with" are looked up together with the food first ("coffee milk"), then
    without."""
    usable = [o for o in q.options if o]
    if not usable:
        return []
    groups = [usable]
    if partial:
        groups = [usable[:i] + usable[i + 1 :] for i in range(len(usable))]
    elif q.side and all(q.side):
        groups = [usable + q.side, usable]
    combos: dict[tuple[str, ...], float] = {}
    for rank, group in enumerate(groups):
        for pick in product(*group):
            words = tuple(sorted({stem for stems, _ in pick for stem in stems}))
            quality = prod(quality for _, quality in pick) + (len(groups) - rank)
            combos[words] = max(quality, combos.get(words, 0.0))
    ordered = sorted(combos, key=lambda w: (-combos[w], w))
    return [w for w in ordered if w][:MAX_WORD_COMBINATIONS]


_COLUMNS = (
    "f.id, f.name, f.search_key, f.user_id, f.food_group, "
    "(SELECT count(*) FROM food_variants v WHERE v.food_id = f.id) AS servings"
)
_CANDIDATES_SQL = f"""
(SELECT {_COLUMNS} FROM foods f
 -- Not the token index: a user has few foods, a common word has thousands of rows.
 WHERE f.user_id = %(user)s AND string_to_array(f.search_key, ' ') && %(every_word)s::text[]
 LIMIT {OWN_CANDIDATES})
UNION ALL
-- The everyday table's foods for these words, through the (user_id, name) index.
SELECT {_COLUMNS} FROM foods f
WHERE f.user_id IS NULL AND f.is_custom = false AND f.name = ANY(%(preferred)s::text[])
UNION ALL
SELECT c.* FROM unnest(%(combinations)s::text[]) AS k(words)
CROSS JOIN LATERAL (
    SELECT {_COLUMNS}
    FROM (
        -- The length buckets of this word set: "banana#1", "banana#2", ..., then plain words.
        SELECT CASE WHEN n IS NULL THEN w ELSE array(SELECT x || '#' || n FROM unnest(w) x) END
               AS tokens
        FROM (SELECT string_to_array(k.words, ' ') AS w) AS q,
             LATERAL (SELECT generate_series(food_search_length(q.w),
                                              food_search_length(q.w) + {LONGER_BY})
                      UNION ALL SELECT NULL) AS bucket(n)
    ) AS b
    CROSS JOIN LATERAL (
        SELECT * FROM foods
        WHERE food_search_tokens(search_key) @> b.tokens
          AND (is_custom = false OR shared_with_public = true)
          AND user_id IS DISTINCT FROM %(user)s
    ) AS f
    -- Stops the nested loop as soon as the shortest buckets have filled it.
    LIMIT %(per_combination)s
) AS c
"""


def _candidates(user, q: Query, partial: bool) -> dict:
    """One statement: the user's own matching foods, the everyday table's foods for the words,
    then per word set the shortest names."""
    combinations = [" ".join(words) for words in _combinations(q, partial)]
    every_word = sorted({stem for choice in q.options for stems, _ in choice for stem in stems})
    if not combinations:
        return {}
    per_combination = CANDIDATES_PER_COMBINATION // (2 if partial else 1)
    with connection.cursor() as cursor:
        cursor.execute(
            _CANDIDATES_SQL,
            {
                "user": user.id,
                "every_word": every_word,
                "preferred": sorted(q.preferred),
                "combinations": combinations,
                "per_combination": per_combination,
            },
        )
        rows = cursor.fetchall()
    return {row[0]: _candidate(row) for row in rows}


def _name_contains(user, text: str) -> dict:
    """Last resort for a query of filler words only ("raw"): names containing the text."""
    rows = (
        Food.objects.visible_to(user)
        .annotate(lower_name=Lower("name"))  # the trigram index on lower(name) serves this
        .filter(lower_name__contains=text.lower())
        .values_list("id", "name", "search_key", "user_id", "food_group")[:40]
    )
    return {row[0]: _candidate((*row, 0)) for row in rows}


def _candidate(row) -> Candidate:
    food_id, name, key, user_id, group, servings = row
    return Candidate(
        id=food_id,
        name=name,
        key=frozenset((key or "").split()),
        user_id=user_id,
        food_group=group or "",
        servings=servings or 0,
    )


# --- ranking -----------------------------------------------------------------------------------


@dataclass
class Layout:
    """Where the words of a name stand: what the food is (head), how it is qualified (tail),
    the catalog's label before it, brackets, generic and cooking phrases (aside)."""

    head: list[str]
    tail: list[str]
    added: list[str]  # what comes "with" it: "with calcium propionate", "without salt"
    label: list[str]
    aside: list[str]
    generic: bool
    words: frozenset[str]  # head, tail and label words: what the name says outright


_ASIDE = re.compile(r"\([^)]*(\)|$)")


def _layout(name: str) -> Layout:
    lowered = name.lower()
    aside = [w for m in _ASIDE.finditer(lowered) for w in _WORDS.findall(m.group())]
    main = _ASIDE.sub(" ", lowered)
    generic = bool(GENERIC.search(main))
    aside += [w for m in GENERIC.finditer(main) for w in _WORDS.findall(m.group())]
    main = GENERIC.sub(" ", main)
    aside += [w for m in SOLD_PHRASES.finditer(main) for w in _WORDS.findall(m.group())]
    main = SOLD_PHRASES.sub(" ", main)
    aside += [w for m in METHOD_PHRASES.finditer(main) for w in _WORDS.findall(m.group())]
    main = METHOD_PHRASES.sub(" cooked ", main)
    parts, added = [], []
    for part in re.split(r"[,;]", main):
        words = _WORDS.findall(part)
        for at, word in enumerate(words):
            if word == "without" or words[at : at + 2] == ["with", "added"]:
                words, added = words[:at], added + words[at:]
                break
        if words:
            parts.append(words)
    parts = parts or [[]]
    label: list[str] = []
    while len(parts) > 1 and " ".join(parts[0]) in LABELS:
        label += parts.pop(0)
    head, tail = parts[0], [w for p in parts[1:] for w in p]
    return Layout(head, tail, added, label, aside, generic, frozenset(head + tail + added + label))


_SUFFIXES = frozenset(
    {
        *("", "s", "es", "e", "ed", "d", "ing", "er", "ers", "y", "ly", "al", "able", "ables"),
        *("ate", "ates", "ated", "ation", "ion", "ions", "ity", "ous", "ness", "ment", "ive"),
    }
)
_I_SUFFIXES = frozenset(
    {"i", "y", "ie", "ies", "ied", "ier", "ying"} | {"i" + s for s in _SUFFIXES}
)


def _fits(word: str, stem: str) -> bool:
    """Whether `word` of a name is `stem` ("bananas"/"banana", "berries"/"berri",
    "dry"/"dri"), without confusing longer words ("beerwurst" is not "beer")."""
    if word == stem:
        return True
    if stem.endswith("i") and len(stem) > 2:
        base = stem[:-1]
        return word.startswith(base) and word[len(base) :] in _I_SUFFIXES
    return word.startswith(stem) and word[len(stem) :] in _SUFFIXES


def _where(stem: str, layout: Layout) -> str:
    for zone in ("label", "head", "tail", "added", "aside"):
        if any(_fits(word, stem) for word in getattr(layout, zone)):
            return zone
    return "tail"


@lru_cache(maxsize=20_000)
def _read(name: str, key: frozenset[str]) -> tuple[Layout, dict[str, str]]:
    """A name's layout and where each stem of its key stands; the same names come back query
    after query, so they are read once."""
    layout = _layout(name)
    return layout, {stem: _where(stem, layout) for stem in key}


def _ranked(candidates: dict, q: Query) -> list[Candidate]:
    """Score every candidate not scored yet; returns them all."""
    for c in candidates.values():
        if c.score is None:
            _rank(c, q)
    return list(candidates.values())


def _coverage(c: Candidate, options) -> tuple[float, set[str], bool]:
    """(sum of the best quality each query word is matched with, the stems matched, all of
    them matched)."""
    matched: set[str] = set()
    total = 0.0
    complete = True
    for choice in options:
        present = [(quality, stems) for stems, quality in choice if set(stems) <= c.key]
        if present:
            best, stems = max(present)
            total += best
            matched.update(stems)
        else:
            complete = False
    return total, matched, complete


def _rank(c: Candidate, q: Query) -> None:
    if not q.options:  # a filler-words-only query: every name containing it is as good
        c.score, c.rank, c.complete = 0.3, 0.3, False
        return
    total, matched, complete = _coverage(c, q.options)
    side_total, side_matched, _ = _coverage(c, q.side)
    layout, zones = _read(c.name, c.key)
    lowered = c.name.lower()
    # The everyday table's food, unless the words ask for another form ("raw salmon").
    c.preferred = (
        c.name in q.preferred
        and c.user_id is None
        and q.words & (FORM_WORDS | NEUTRAL_WORDS) <= set(_WORDS.findall(lowered))
    )
    if c.preferred:  # the everyday table says this is what the words mean
        total, complete = sum(max(quality for _, quality in choice) for choice in q.options), True
    coverage = (total + SIDE_WEIGHT * side_total) / (len(q.options) + SIDE_WEIGHT * len(q.side))
    if c.preferred:  # as good as a name can be
        score = coverage / (1 + PENALTY_SCALE * MAX_CREDIT)
    else:
        head_hit = any(zones[stem] == "head" for stem in matched)
        # A person's own food is what they named it: the form rules are for the catalog.
        catalog = c.user_id is None
        cooked = catalog and (q.cooked or (c.food_group in COOKED_GROUPS and not q.says_form))
        penalty = sum(
            _weight(stem, zones[stem], head_hit, cooked) for stem in c.key - matched - side_matched
        )
        penalty += _penalty(c, layout, q, cooked)
        score = coverage / (1 + PENALTY_SCALE * max(MAX_CREDIT, penalty))
        if matched and not head_hit:
            score *= HEAD_MISS_FACTOR
        elif any(zones[stem] != "head" for stem in matched):
            score *= HEAD_PARTIAL_FACTOR
    query_neutral = q.words & NEUTRAL_WORDS
    if query_neutral:
        score += NEUTRAL_BONUS * len(query_neutral & set(_WORDS.findall(lowered)))
    if q.words and _product(c.name) == q.words:
        score += BRAND_BONUS  # "frosted flakes": the product itself, not a flavour of it
    c.rank = score
    c.score = max(0.0, min(1.0, score))
    # A guessed correction or a kind of food lists foods but logs none without asking.
    c.complete = complete and not (q.described or q.kind or (matched & q.guesses))
    if c.user_id is None and "dry mix" in lowered and not {"mix", "dry"} & q.words:
        c.complete = False  # "carrot cake" is no cake mix: offered, never logged as the cake
    if q.dish and c.user_id is None and not any(zones.get(stem) == "head" for stem in q.dish):
        # "peanut butter sandwich" is not "Cookies, peanut butter sandwich"; "caesar salad" is
        # not "Salad dressing, caesar": the dish the words end with must be what the food is
        c.complete = False


def _weight(stem: str, where: str, head_hit: bool, cooked: bool) -> float:
    """What an extra word of a name costs, by what it is and where it stands: numbers and
    letters ("2% milkfat", "vitamin D") qualify a food rather than change it."""
    if stem in TRIVIAL_STEMS or stem in LIGHTLY_TRIVIAL or stem.isdigit() or len(stem) == 1:
        return TRIVIAL_WEIGHT
    if where in ("aside", "label"):
        return TRIVIAL_WEIGHT
    if stem in OFFAL_STEMS:
        return HEAD_WEIGHT
    if cooked and stem in METHOD_STEMS:
        return METHOD_STEMS[stem]
    light = stem in LIGHT_STEMS or where == "added"
    if where == "head" and head_hit:
        return HEAD_LIGHT_WEIGHT if light else HEAD_WEIGHT
    return LIGHT_WEIGHT if light else TAIL_WEIGHT


def _penalty(c: Candidate, layout: Layout, q: Query, cooked: bool) -> float:
    """What the kind of entry and the form it is in cost, less the credits of the common one."""
    penalty = 0.0
    if c.key & COMPOUND_STEMS or c.food_group in COMPOUND_GROUPS:
        penalty += COMPOUND_PENALTY
    elif c.food_group in SNACK_GROUPS:
        penalty += SNACK_PENALTY
    if BRAND.search(c.name) and not c.name.isupper():
        penalty += BRAND_PENALTY
    said = layout.words - q.words
    if said & IMITATION_WORDS:
        penalty += PRODUCT_PENALTY
    if cooked:
        if said & UNCOOKED_WORDS:
            penalty += UNCOOKED_PENALTY
        elif said & COOKED_WORDS or "cooked" in layout.words:
            penalty -= COOKED_CREDIT
        elif q.cooked and not said & READY_WORDS:
            penalty += NOT_SAID_COOKED_PENALTY
    elif c.user_id is None and not q.says_form:
        products = said & PRODUCT_WORDS
        if products - {"frozen"}:
            penalty += PRODUCT_PENALTY
        elif products:
            penalty += FROZEN_PENALTY
    if layout.generic:
        penalty -= GENERIC_CREDIT
    if c.servings:
        penalty -= SERVINGS_CREDIT * log2(1 + c.servings)
    return penalty
