"""Writes of the exercise app (and the catalog search that logging depends on).

Calories burned follow the Compendium of Physical Activities (Ainsworth et al. 2011):
kcal = MET x body weight in kg x hours, with the user's latest weight on or before the entry date.
"""

from exercise.services.custom import (  # noqa: F401
    CUSTOM_FIELDS,
    exercise_create_custom,
    exercise_delete_custom,
    exercise_update_custom,
)
from exercise.services.entries import (  # noqa: F401
    exercise_entry_create,
    exercise_entry_delete,
    exercise_entry_prepare,
    exercise_entry_save,
    exercise_entry_update,
    exercise_option_add,
    undo_write,
)
from exercise.services.search import (  # noqa: F401
    CONFIDENT_SCORE,
    exercise_find_best,
    exercise_get,
    exercise_search,
)
from exercise.services.values import (  # noqa: F401
    DEFAULT_MET,
    DISTANCE_UNITS,
    GENERAL_NAME,
    MAX_CALORIES,
    MAX_DISTANCE_KM,
    MAX_MINUTES,
    MAX_NOTES_CHARS,
    PACE_LIMITS,
    REFERENCE_WEIGHT_KG,
    distance_unit_of,
    exercise_calories,
    general_exercise,
)
