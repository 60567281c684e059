"""Nutrition writes: custom foods, the food diary, goals and water, and the food search.

These functions are the only writers of their tables. Every one takes the acting user, reads and
writes only what that user may see, validates before it writes (ValidationError with a code and a
message that says what was wrong and what is expected), and runs in one transaction, so a refused
call leaves nothing behind.
"""

from nutrition.services.entries import (
    KIN_SPREAD,
    bulk_problem,
    food_entry_create,
    food_entry_delete,
    food_entry_update,
    food_option_add,
)
from nutrition.services.foods import (
    FoodFacts,
    food_create_custom,
    food_delete_custom,
    food_dish_word,
    food_facts,
    food_find_best,
    food_get,
    food_lead_word,
    food_options,
    food_search,
    food_update_custom,
    food_words_known,
)
from nutrition.services.goals import (
    GOAL_RANGES,
    goal_delete,
    goal_for,
    goal_set,
)
from nutrition.services.meals import (
    meal_repeat,
    meal_to_repeat,
    usual_meal_items,
    usual_meal_log,
    usual_meal_save,
)
from nutrition.services.undo import (
    undo_write,
)
from nutrition.services.values import (
    CRUMB_COUNT,
    CRUMB_GRAMS,
    FOOD_FIELDS,
    GOAL_FIELDS,
    IMPLAUSIBLE_KCAL,
    MAX_GLASSES_PER_ADD,
    MAX_GLASSES_PER_DAY,
    MAX_WATER_GOAL,
    MEAL_SYNONYMS,
    NUTRIENT_MAX,
    SERVING_MAX,
    TURN_MAX_ENTRIES,
    TURN_MAX_KCAL,
    clean_meal_type,
    default_meal,
    entry_nutrients,
    meal_for_word,
    nutrients_for,
)
from nutrition.services.water import (
    ML_PER_GLASS,
    WATER_GLASSES_PER_UNIT,
    water_add,
    water_glasses,
    water_set,
)

__all__ = [
    "CRUMB_COUNT",
    "CRUMB_GRAMS",
    "FOOD_FIELDS",
    "FoodFacts",
    "GOAL_FIELDS",
    "GOAL_RANGES",
    "IMPLAUSIBLE_KCAL",
    "KIN_SPREAD",
    "MAX_GLASSES_PER_ADD",
    "MAX_GLASSES_PER_DAY",
    "MAX_WATER_GOAL",
    "MEAL_SYNONYMS",
    "ML_PER_GLASS",
    "NUTRIENT_MAX",
    "SERVING_MAX",
    "TURN_MAX_ENTRIES",
    "TURN_MAX_KCAL",
    "WATER_GLASSES_PER_UNIT",
    "bulk_problem",
    "clean_meal_type",
    "default_meal",
    "entry_nutrients",
    "food_create_custom",
    "food_delete_custom",
    "food_dish_word",
    "food_lead_word",
    "food_entry_create",
    "food_entry_delete",
    "food_entry_update",
    "food_facts",
    "food_find_best",
    "food_get",
    "food_option_add",
    "food_options",
    "food_search",
    "food_update_custom",
    "food_words_known",
    "goal_delete",
    "goal_for",
    "goal_set",
    "meal_for_word",
    "meal_repeat",
    "meal_to_repeat",
    "nutrients_for",
    "undo_write",
    "usual_meal_items",
    "usual_meal_log",
    "usual_meal_save",
    "water_add",
    "water_glasses",
    "water_set",
]
