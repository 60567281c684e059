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

from nutrition.search.knowledge import (
    DISH_WORDS,
    EVERYDAY,
    LABELS,
    SYNONYMS,
    TRIVIAL_STEMS,
    says_how_made,
)
from nutrition.search.query import spelled_out
from nutrition.search.ranking import (
    CONFIDENT_SCORE,
    PUBLIC,
    best_food,
    describes_only,
    dish_of,
    dish_options,
    known_words,
    opening_words,
    search_foods,
)

__all__ = [
    "DISH_WORDS",
    "CONFIDENT_SCORE",
    "PUBLIC",
    "EVERYDAY",
    "LABELS",
    "SYNONYMS",
    "TRIVIAL_STEMS",
    "best_food",
    "says_how_made",
    "describes_only",
    "dish_of",
    "dish_options",
    "known_words",
    "opening_words",
    "search_foods",
    "spelled_out",
]
