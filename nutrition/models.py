"""Foods, their household servings, the food diary, goals and water (spec tables)."""

from decimal import Decimal

from django.conf import settings
from django.contrib.postgres.indexes import GinIndex
from django.db import models
from django.db.models import F, Func

from sparky.models import (
    CatalogQuerySet,
    DayRow,
    UserRow,
    catalog_name_indexes,
    catalog_source_unique,
    created_at_field,
    updated_at_field,
    uuid_key,
)

# Every nutrient column a food, a serving and a goal share. Units: calories kcal; protein, carbs,
# fat, the fats, fiber and sugars g; cholesterol, sodium, potassium, vitamin C, calcium, iron mg;
# vitamin A µg RAE.
NUTRIENTS = (
    "calories",
    "protein",
    "carbs",
    "fat",
    "saturated_fat",
    "polyunsaturated_fat",
    "monounsaturated_unsaturated",
    "trans_fat",
    "cholesterol",
    "sodium",
    "potassium",
    "dietary_fiber",
    "sugars",
    "vitamin_a",
    "vitamin_c",
    "calcium",
    "iron",
)
# Outside the database a nutrient has one name: the spec's food column monounsaturated_unsaturated
# is monounsaturated_fat in the API, as the goals (the spec's user_goals column) call it.
PUBLIC_NAMES = {"monounsaturated_unsaturated": "monounsaturated_fat"}


def public_nutrient(name: str) -> str:
    """The nutrient's name in the API and in goals ("monounsaturated_fat")."""
    return PUBLIC_NAMES.get(name, name)


NUTRIENT_UNITS = {
    "calories": "kcal",
    "cholesterol": "mg",
    "sodium": "mg",
    "potassium": "mg",
    "vitamin_a": "µg",
    "vitamin_c": "mg",
    "calcium": "mg",
    "iron": "mg",
}


# The vitamins and minerals a catalog food carries beyond the columns, with their units: stored
# per food and per serving in `micronutrients` (see NutrientColumns), summed by the diary and read
# against reference intakes (nutrition.intakes). Folate is in µg DFE, niacin in mg of preformed
# niacin (SR28's measure, a little under the niacin equivalents of the RDA), vitamin E in mg of
# alpha-tocopherol, vitamin K in µg of phylloquinone.
MICRONUTRIENTS: dict[str, str] = {
    "vitamin_d": "µg",
    "vitamin_e": "mg",
    "vitamin_k": "µg",
    "thiamin": "mg",
    "riboflavin": "mg",
    "niacin": "mg",
    "pantothenic_acid": "mg",
    "vitamin_b6": "mg",
    "folate": "µg",
    "vitamin_b12": "µg",
    "choline": "mg",
    "magnesium": "mg",
    "phosphorus": "mg",
    "zinc": "mg",
    "copper": "mg",
    "manganese": "mg",
    "selenium": "µg",
}


def nutrient_unit(name: str) -> str:
    return NUTRIENT_UNITS.get(name) or MICRONUTRIENTS.get(name, "g")


def _nutrient():
    return models.DecimalField(max_digits=12, decimal_places=3, null=True, blank=True)


class NutrientColumns(models.Model):
    calories = _nutrient()
    protein = _nutrient()
    carbs = _nutrient()
    fat = _nutrient()
    saturated_fat = _nutrient()
    polyunsaturated_fat = _nutrient()
    monounsaturated_unsaturated = _nutrient()
    trans_fat = _nutrient()
    cholesterol = _nutrient()
    sodium = _nutrient()
    potassium = _nutrient()
    dietary_fiber = _nutrient()
    sugars = _nutrient()
    vitamin_a = _nutrient()
    vitamin_c = _nutrient()
    calcium = _nutrient()
    iron = _nutrient()
    # Added: the MICRONUTRIENTS the catalog knows for this food or serving ({"zinc": "1.29"},
    # amounts as decimal strings in the unit MICRONUTRIENTS gives); a name left out is unknown,
    # never zero. One JSON object rather than seventeen more columns: the columns are the spec's
    # and shared with goals, the API, exports and imports, which keep their shape; these values
    # are only ever read whole, with the row, and summed in Python like the columns are.
    micronutrients = models.JSONField(default=dict, blank=True, db_default={})

    class Meta:
        abstract = True

    def nutrients(self) -> dict:
        return {name: getattr(self, name) for name in NUTRIENTS}


class Food(NutrientColumns):
    id = uuid_key()
    name = models.CharField(max_length=255)
    serving_size = models.DecimalField(max_digits=10, decimal_places=3, null=True, blank=True)
    serving_unit = models.CharField(max_length=50, null=True, blank=True)
    is_custom = models.BooleanField(null=True, default=False, db_default=False)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    created_at = created_at_field(null=True)
    updated_at = updated_at_field(null=True)
    barcode = models.CharField(max_length=255, null=True, blank=True)
    openfoodfacts_id = models.CharField(max_length=255, null=True, blank=True)
    shared_with_public = models.BooleanField(null=True, default=False, db_default=False)
    # Added: a user's share reaches other users only once staff approve it in the admin's curation
    # (sparky.curation.set_shared); until then it is the owner's alone, in lists and search.
    share_approved = models.BooleanField(default=False, db_default=False)
    # Added: where a catalog row came from, so the loader is idempotent and can cite it.
    source = models.CharField(max_length=32, blank=True, default="")
    source_id = models.CharField(max_length=64, blank=True, default="")
    food_group = models.CharField(max_length=100, blank=True, default="")
    # Added: the catalog's original description ("Egg, whole, raw, fresh") for search and citing.
    original_name = models.CharField(max_length=255, blank=True, default="")
    # Added: the short name people read ("Egg, raw"), derived from the description when the
    # catalog loads (nutrition.names); empty for custom foods, whose own name is short already.
    display_name = models.CharField(max_length=255, blank=True, default="")
    # Added for search: the name as sorted English word stems without catalog filler ("Bananas,
    # raw" -> "banana"), computed by Postgres (function food_search_key, migration 0003).
    search_key = models.GeneratedField(
        expression=Func(F("name"), function="food_search_key"),
        output_field=models.TextField(),
        db_persist=True,
    )

    objects = CatalogQuerySet.as_manager()

    class Meta:
        db_table = "foods"
        constraints = [catalog_source_unique("foods")]
        indexes = [
            *catalog_name_indexes("foods"),
            models.Index(fields=["barcode"], name="foods_barcode_idx"),
            # Search tokens: each stem, and each stem tagged with the key's length ("banana#1"),
            # so the shortest names containing the query's words are found first. No pending
            # list (fastupdate): a search must not scan megabytes of unmerged entries after a load.
            GinIndex(
                Func(F("search_key"), function="food_search_tokens"),
                name="foods_search_tokens",
                fastupdate=False,
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_estimate(self) -> bool:
        """A food whose numbers a model estimated (an option the user picked), not a label's
        or the catalog's: the diary marks its entries."""
        return self.source == ESTIMATE_SOURCE

    @property
    def readable_name(self) -> str:
        """What the diary, replies, options and the API show; `name` stays for search and the
        detail view."""
        return self.display_name or self.name


# Food.source of a custom food made from a model's estimate (chat.turn.offers).
ESTIMATE_SOURCE = "model_estimate"
# Food.source of the USDA survey foods (FNDDS, nutrition.survey): the dishes people report.
FNDDS_SOURCE = "usda_fndds"


class FoodVariant(NutrientColumns):
    """A household serving of a food ("1 large", "1 cup") with the nutrients of that serving."""

    id = uuid_key()
    food = models.ForeignKey(Food, on_delete=models.CASCADE, related_name="variants")
    serving_size = models.DecimalField(max_digits=10, decimal_places=3)
    serving_unit = models.CharField(max_length=100)
    gram_weight = models.DecimalField(max_digits=10, decimal_places=3, null=True, blank=True)
    sequence = models.PositiveSmallIntegerField(default=0)
    created_at = created_at_field()
    updated_at = updated_at_field()

    class Meta:
        db_table = "food_variants"
        ordering = ["sequence"]
        constraints = [
            models.UniqueConstraint(fields=["food", "sequence"], name="food_variants_food_seq")
        ]

    def __str__(self) -> str:
        """'1 medium (118 g) of Banana': the admin lists and picks servings by it."""
        grams = f" ({_plain(self.gram_weight)} g)" if self.gram_weight is not None else ""
        size = _plain(self.serving_size)
        return f"{size} {self.serving_unit}{grams} of {self.food.readable_name}"


def _plain(number) -> str:
    """118.000 -> '118', 0.5 -> '0.5'."""
    return f"{Decimal(str(number)).normalize():f}"


class MealType(models.TextChoices):
    BREAKFAST = "breakfast", "Breakfast"
    LUNCH = "lunch", "Lunch"
    DINNER = "dinner", "Dinner"
    SNACK = "snack", "Snack"


class FoodEntry(DayRow):
    food = models.ForeignKey(Food, on_delete=models.PROTECT, related_name="entries")
    meal_type = models.CharField(max_length=50, choices=MealType.choices)
    quantity = models.DecimalField(max_digits=10, decimal_places=3)
    unit = models.CharField(max_length=50, null=True, blank=True)
    entry_date = models.DateField()
    created_at = created_at_field()
    variant = models.ForeignKey(
        FoodVariant, null=True, blank=True, on_delete=models.SET_NULL, related_name="entries"
    )

    class Meta:
        db_table = "food_entries"
        indexes = [models.Index(fields=["user", "entry_date"], name="food_entries_user_date")]
        verbose_name_plural = "food entries"

    def __str__(self) -> str:
        return f"{self.quantity} {self.unit or ''} {self.food_id} on {self.entry_date}"


class UserGoal(UserRow):
    goal_date = models.DateField(null=True, blank=True)  # null: the default goal
    calories = _nutrient()
    protein = _nutrient()
    carbs = _nutrient()
    fat = _nutrient()
    water_goal = models.IntegerField(null=True, blank=True)
    created_at = created_at_field(null=True)
    updated_at = updated_at_field(null=True)
    saturated_fat = _nutrient()
    polyunsaturated_fat = _nutrient()
    monounsaturated_fat = _nutrient()
    trans_fat = _nutrient()
    cholesterol = _nutrient()
    sodium = _nutrient()
    potassium = _nutrient()
    dietary_fiber = _nutrient()
    sugars = _nutrient()
    vitamin_a = _nutrient()
    vitamin_c = _nutrient()
    calcium = _nutrient()
    iron = _nutrient()
    # Added (issue 36): goals for MICRONUTRIENTS ({"vitamin_d": "20"}, in their units), which
    # override the reference intakes as the columns' goals do; kept as the foods keep them.
    micronutrients = models.JSONField(default=dict, blank=True, db_default={})

    class Meta:
        db_table = "user_goals"
        constraints = [
            # nulls not distinct: exactly one default goal (goal_date null) per user.
            models.UniqueConstraint(
                fields=["user", "goal_date"],
                name="user_goals_unique_user_date",
                nulls_distinct=False,
            )
        ]

    def __str__(self) -> str:
        return f"goal of {self.user_id} for {self.goal_date or 'default'}"


class WaterIntake(DayRow):
    entry_date = models.DateField()
    glasses_consumed = models.IntegerField()
    created_at = created_at_field()
    updated_at = updated_at_field()

    class Meta:
        db_table = "water_intake"
        verbose_name_plural = "water intake"
        constraints = [
            models.UniqueConstraint(
                fields=["user", "entry_date"], name="water_intake_user_date_unique"
            ),
            models.CheckConstraint(
                condition=models.Q(glasses_consumed__gte=0), name="water_intake_non_negative"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.glasses_consumed} glasses on {self.entry_date}"


class UsualMeal(UserRow):
    """A meal a user has most days, saved once ("save today's breakfast as my usual") and logged
    again in one go ("my usual breakfast"). Not one of the spec's tables: Sparky's own."""

    meal_type = models.CharField(max_length=50, choices=MealType.choices)
    # [{"food_id", "variant_id", "quantity", "unit"}], in the order they were logged
    items = models.JSONField(default=list)
    updated_at = updated_at_field()

    class Meta:
        db_table = "usual_meals"
        constraints = [
            models.UniqueConstraint(fields=["user", "meal_type"], name="usual_meals_user_meal")
        ]

    def __str__(self) -> str:
        return f"usual {self.meal_type} of {self.user_id}"
