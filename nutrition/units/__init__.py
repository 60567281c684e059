"""Units: what "2 large", "150 g", "1 cup" or "3 slices" of a food is, as a multiple of the
nutrient values the food stores (per `serving_size` `serving_unit`, per 100 g for SR28 foods).

    portion(food=egg, quantity=2, unit="large").multiplier   # 2 x 50 g / 100 g = 1.0

Routes, first that applies: a serving; the food's own serving unit; a mass (g, kg, oz, lb) when
the food's weight is known (its serving is a mass, or a household serving gives grams); a
household serving named by the unit ("cup" -> "cup, sliced", "large" -> "large (8" long)",
"slices" -> "slice"); a volume through the food's volume serving or a household volume with its
grams; pieces ("piece", "each", "whole") through the typical piece-like serving, or one serving
when the food itself is counted in pieces. Anything else is refused naming the units that work.
"""

from nutrition.units.kin import (  # noqa: F401
    a_drink,
    a_spoonable_dish,
    dish_density,
    kept_by_weight,
    kin_grams,
    survey_grams,
)
from nutrition.units.parsing import (  # noqa: F401
    Portion,
    Unit,
    a_weight,
    amount_in_name,
    clean_quantity,
    head_of,
    normalize_unit,
    parse_unit,
    singular_food_word,
    sizes_in,
    unit_text,
    unit_word,
    weighable,
)
from nutrition.units.portions import (  # noqa: F401
    available_units,
    portion,
)
from nutrition.units.sizes import (  # noqa: F401
    CONTAINER_SIZES,
    SIZED_STANDARD_SIZES,
    STANDARD_PIECES,
    STANDARD_SIZES,
    STANDARD_SIZES_FOR,
    StandardSize,
    standard_size,
)

# The words the rest of Sparky reads through the package (the portion algorithm takes its own
# from nutrition.units.words).
from nutrition.units.words import (  # noqa: F401
    ALIASES,
    CONTAINERS,
    FOOD_PLURALS,
    KCAL,
    MASS_G,
    PIECE,
    SERVING,
    SIZES,
    VOLUME_ML,
)
