"""Catalog knowledge for food search: what words mean in the USDA SR28 catalog and how its names
are written. Synonyms and phrases people use ("oj", "crisps"), the everyday food a bare word
means ("steak" is top sirloin), dishes and the words that make a name a dish, catalog labels,
stems that say little, cooking forms, and the words of products and brands. The ranking
(nutrition.search.scoring) weighs these; a new everyday word or synonym is added here."""

from __future__ import annotations

import re

from nutrition.vocabulary import FOOD_ALIASES

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
    "frankfurt": ("hot dog",),  # the survey foods' "Hot dog sandwich", SR28's "Frankfurter"
    "wiener": ("hot dog",),
    "lowfat": ("fat low",),  # SR28 writes both "lowfat" and "low fat"
    "nonfat": ("fat non",),
}


# Two words the catalog writes as one.
PHRASES = {
    r"soy milk": "soymilk",
    r"baby ?foods?": "babyfood",
    r"low[- ]fat": "lowfat",
    r"non[- ]fat": "nonfat",
    r"(zero|no)[- ]sugar": "sugar free",  # "zero sugar red bull" is the sugar-free can
    r"flax ?seeds?": "flaxseed",
    r"cornflakes?": "corn flakes",
    r"mac (and|n|&) cheese": "macaroni and cheese",
    r"oj": "orange juice",
    # the survey foods spell the dish out ("Bacon, lettuce, tomato sandwich on white")
    r"blts?": "bacon lettuce tomato sandwich",
    r"(philly )?cheese ?steaks?": "cheese steak sandwich",
    r"pb ?(and|n|&) ?js?|pbjs?": "peanut butter and jelly sandwich",
    r"pb": "peanut butter",
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
    r"whole ?meal": "whole wheat",  # British for whole wheat bread, flour, pasta
    r"doritos?": "tortilla chips nacho cheese",
    r"(over (easy|medium|hard)|sunny side up)": "fried",
    # a lager, an ale, a pilsner: the catalog's beer (regular, light by its own word)
    r"(lagers?|pilsners?|pale ales?|ales)": "beer",
}
# The words for foods by region and brand, from their data file (nutrition/words/aliases.toml),
# longest first so that "chocolate digestive" is read before "digestive".
PHRASES.update(
    {
        rf"{re.escape(said)}s?": means
        for said, means in sorted(FOOD_ALIASES.items(), key=lambda item: -len(item[0]))
    }
)


# Drinks the catalog has no entry for, described by what they are made of: the search lists the
# nearest foods, but never logs one of them as if it were the drink.
DESCRIPTIONS: dict[str, tuple[str, ...]] = {
    "latt": ("coffe", "milk"),
    "cappuccino": ("coffe", "milk"),
    "margarita": ("tequila", "lime"),  # a cocktail, never margarine by a one-letter slip
}


# Everyday words -> the SR28 food a person logging them most likely means, where no ranking rule
# can pick it from its siblings: which steak, which salmon, which cheese is "the" one is knowledge,
# not wording. Keys are matched after stemming ("eggs" = "egg"); the first name the catalog
# has wins. The user's own foods still come first. tests/nutrition/test_search_catalog.py checks
# every name against the real catalog.
EVERYDAY: dict[str, tuple[str, ...]] = {
    "spaghetti": ("Pasta, cooked, enriched, without added salt",),
    # beside the survey foods' many short rice dishes, the plain cooked rice people mean
    "rice": ("Rice, white, long-grain, regular, enriched, cooked",),
    **dict.fromkeys(("potato", "potatoes"), ("Potatoes, baked, flesh, without salt",)),
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
    "pepperoni pizza": (
        'PIZZA HUT 14" Pepperoni Pizza, Hand-Tossed Crust',
        'PIZZA HUT 12" Pepperoni Pizza, Pan Crust',
    ),
    # steamed is cooked in water's heat, as boiled is: SR28 has no steamed broccoli
    "steamed broccoli": ("Broccoli, cooked, boiled, drained, without salt",),
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
        (
            *("diet coke", "diet soda", "diet cola", "coke zero", "diet pepsi", "pepsi max"),
            *("coke sugar free", "sugar free coke", "pepsi sugar free", "sugar free pepsi"),
        ),
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
    # kinds of food (KINDS) with one everyday choice: a cup of canned vegetable soup, of
    # blueberries, a protein bar as sold in a wrapper
    "soup": ("Soup, vegetable with beef broth, canned, prepared with equal volume water",),
    "berries": ("Blueberries, raw",),
    "protein bar": ("Formulated bar, ZONE PERFECT CLASSIC CRUNCH BAR, mixed flavors",),
    "monster": ("Beverages, Energy Drink, Monster, fortified with vitamins C, B2, B3, B6, B12",),
}


# Words that name a kind of food, not one food: alone, they are never logged without asking
# ("fish" is not fish broth, "soup" not beef stock), though the search still lists matches,
# unless the everyday table (EVERYDAY) names the one food they mean ("soup": vegetable soup).
# Some are dishes whose word the catalog uses for something else ("poke": pokeberry shoots).
KINDS = frozenset(
    {"fish", "sandwich", "sandwiches", "soup", "soups", "candy", "candies", "sweets", "curry"}
    | {"snack", "snacks", "dessert", "meal", "food", "drink", "poke", "stew", "casserole"}
    | {"berries", "nuts", "seeds", "cereal bar", "veggies", "vegetables", "fruit", "meat"}
    | {"bar", "bars"}
)


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
    | {"paella", "moussaka", "dhal", "korma", "vindaloo", "jambalaya", "bibimbap"}
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
        *("salad dressing", "soft drink", "carbonated"),
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


# Foods that are a dish or a product for a particular eater, not the food itself.
COMPOUND_STEMS = frozenset({"babyfood", "restaur"})


COMPOUND_GROUPS = frozenset(
    {
        *("Baby Foods", "Fast Foods", "Restaurant Foods", "Meals, Entrees, and Side Dishes"),
        "American Indian/Alaska Native Foods",
    }
)


SNACK_GROUPS = frozenset({"Snacks"})


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


# Words that mark the generic entry among its varieties, and the cooking phrases SR28 uses for
# fish; their words cost nothing.
GENERIC = re.compile(
    r"\b(all commercial varieties|all types|all classes|all grades|all varieties|all styles|"
    r"all flavors|year round average|mixed species|not further specified|generic|unspecified|"
    r"regular|plain|all)\b"
)


METHOD_PHRASES = re.compile(r"\b(dry heat|moist heat)\b")


# How a product is sold, not what it is: "ready-to-drink", "shelf stable".
SOLD_PHRASES = re.compile(r"\b(ready[- ]to[- ](drink|eat|serve)|shelf[- ]stable)\b")


# Query words the search key drops (they say little about the food) still favour names that
# have them: "raw egg" prefers "Egg, whole, raw, fresh" to a boiled egg.
NEUTRAL_WORDS = frozenset(
    {"raw", "fresh", "whole", "plain", "regular", "cooked", "prepared", "uncooked", "fortified"}
)


def says_how_made(word: str) -> bool:
    """A word saying how a food was made ("made", "fried", "topped", "loaded", "served"), which
    names no food of its own."""
    return word == "made" or (len(word) > 4 and word.endswith("ed"))
