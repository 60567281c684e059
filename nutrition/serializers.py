"""Shapes of the nutrition API: what a request may carry and what a response shows.

Input serializers check types only; amounts, units, meals, dates and plausibility are the
services' rules (nutrition.services), whose ValidationErrors come back as 400s.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.exceptions import NotFound

from nutrition import services
from nutrition.models import (
    MICRONUTRIENTS,
    NUTRIENTS,
    PUBLIC_NAMES,
    Food,
    FoodEntry,
    FoodVariant,
    MealType,
    UserGoal,
    public_nutrient,
)
from sparky.serializers import CatalogRowSerializer, number


def _nutrient_out(**kw) -> serializers.DecimalField:
    return serializers.DecimalField(
        max_digits=12, decimal_places=3, allow_null=True, read_only=True, **kw
    )


# Every nutrient under its public name (nutrition.models.PUBLIC_NAMES); the one renamed is
# declared on each serializer with its column as the source.
PUBLIC_NUTRIENTS = [public_nutrient(name) for name in NUTRIENTS]


def _column(name: str) -> dict:
    """The source of a nutrient's field under its public name (none when the names agree)."""
    return {"source": name} if public_nutrient(name) != name else {}


NutrientsSerializer = type(
    "NutrientsSerializer",
    (serializers.Serializer,),
    {
        "__doc__": "Every nutrient (kcal; g; mg for minerals, cholesterol and vitamin C; µg RAE "
        "for vitamin A); null where the food has no value.",
        **{public_nutrient(name): _nutrient_out(**_column(name)) for name in NUTRIENTS},
    },
)


MicronutrientsSerializer = type(
    "MicronutrientsSerializer",
    (serializers.Serializer,),
    {
        "__doc__": "The vitamins and minerals the catalog records beside the columns (µg for "
        "vitamins D, K, B12, folate in DFE and selenium; mg for the rest); null where the food "
        "does not record one: unknown, not zero.",
        **{name: _nutrient_out() for name in MICRONUTRIENTS},
    },
)


def _micronutrients(stored: dict | None) -> dict:
    return MicronutrientsSerializer({n: (stored or {}).get(n) for n in MICRONUTRIENTS}).data


class MicronutrientsMixin(serializers.Serializer):
    # No docstring (the schema would show it for each row): `micronutrients` of a food or a
    # serving, every name present, null where unknown.

    micronutrients = serializers.SerializerMethodField()

    @extend_schema_field(MicronutrientsSerializer)
    def get_micronutrients(self, row) -> dict:
        return _micronutrients(row.micronutrients)


# --- foods -----------------------------------------------------------------------------------


class FoodVariantSerializer(MicronutrientsMixin, serializers.ModelSerializer):
    monounsaturated_fat = _nutrient_out(source="monounsaturated_unsaturated")

    class Meta:
        model = FoodVariant
        fields = [
            "id",
            "serving_size",
            "serving_unit",
            "gram_weight",
            *PUBLIC_NUTRIENTS,
            "micronutrients",
        ]
        read_only_fields = fields


class FoodSerializer(MicronutrientsMixin, CatalogRowSerializer):
    """A food; nutrients are per `serving_size` `serving_unit` (catalog foods: per 100 g)."""

    is_own = serializers.SerializerMethodField(help_text="One of your custom foods.")
    variants = FoodVariantSerializer(many=True, read_only=True)
    monounsaturated_fat = _nutrient_out(source="monounsaturated_unsaturated")
    display_name = serializers.CharField(
        source="readable_name",
        read_only=True,
        help_text="The short name people read (e.g. 'Egg, raw'); `name` is the full one.",
    )

    class Meta:
        model = Food
        fields = [
            "id",
            "name",
            "display_name",
            "serving_size",
            "serving_unit",
            *PUBLIC_NUTRIENTS,
            "micronutrients",
            "is_custom",
            "is_own",
            "shared_with_public",
            "barcode",
            "source",
            "source_id",
            "food_group",
            "original_name",
            "variants",
            "score",
            "created_at",
            "updated_at",
        ]
        read_only_fields = fields


FoodWriteSerializer = type(
    "FoodWriteSerializer",
    (serializers.Serializer,),
    {
        "__doc__": "A custom food: nutrient values per serving_size serving_unit.",
        "name": serializers.CharField(max_length=255),
        "serving_size": number(required=False),
        "serving_unit": serializers.CharField(max_length=50, required=False),
        "barcode": serializers.CharField(
            max_length=14, required=False, allow_null=True, allow_blank=True
        ),
        "shared_with_public": serializers.BooleanField(required=False),
        **{
            public_nutrient(name): number(required=False, allow_null=True, **_column(name))
            for name in NUTRIENTS
        },
        # The name this nutrient had in the API before: still accepted from older clients.
        **{
            old: number(
                required=False,
                allow_null=True,
                write_only=True,
                help_text=f"Deprecated: the old name of {new}.",
            )
            for old, new in PUBLIC_NAMES.items()
        },
    },
)


# --- food entries ----------------------------------------------------------------------------


class FoodEntrySerializer(serializers.ModelSerializer):
    """A diary entry with the nutrients of the amount logged."""

    food_name = serializers.CharField(source="food.name", read_only=True)
    food_display_name = serializers.CharField(source="food.readable_name", read_only=True)
    is_estimate = serializers.BooleanField(
        source="food.is_estimate",
        read_only=True,
        help_text="The food's numbers are a model's estimate (an option you picked).",
    )
    serving = serializers.CharField(
        source="variant.serving_unit", read_only=True, allow_null=True, default=None
    )
    nutrients = serializers.SerializerMethodField()
    micronutrients = serializers.SerializerMethodField()

    class Meta:
        model = FoodEntry
        fields = [
            "id",
            "food",
            "food_name",
            "food_display_name",
            "is_estimate",
            "meal_type",
            "quantity",
            "unit",
            "variant",
            "serving",
            "entry_date",
            "nutrients",
            "micronutrients",
            "created_at",
        ]
        read_only_fields = fields

    @extend_schema_field(NutrientsSerializer)
    def get_nutrients(self, entry) -> dict:
        return NutrientsSerializer(services.entry_nutrients(entry)).data

    @extend_schema_field(MicronutrientsSerializer)
    def get_micronutrients(self, entry) -> dict:
        return MicronutrientsSerializer(services.entry_micronutrients(entry)).data


class FoodEntryCreateSerializer(serializers.Serializer):
    food = serializers.UUIDField(help_text="A food from /api/foods/.")
    quantity = number(required=False, help_text="Default 1.")
    unit = serializers.CharField(
        max_length=50,
        required=False,
        allow_null=True,
        help_text="g, oz, cup, piece, serving... Default: the food's natural unit.",
    )
    meal_type = serializers.ChoiceField(
        choices=MealType.choices,
        required=False,
        help_text="Default: the meal of your local time (breakfast until 10:30, lunch until 15:00, "
        "a snack until 17:30, dinner until 22:00).",
    )
    entry_date = serializers.DateField(required=False, help_text="Default: your today.")
    variant = serializers.UUIDField(
        required=False, allow_null=True, help_text="One of the food's household servings."
    )
    confirmed = serializers.BooleanField(
        required=False,
        default=False,
        help_text=(
            "An amount outside what the food's portions make plausible (a crumb of a food eaten "
            "by the piece, over 5,000 kcal) is refused with error 'implausible' and the numbers; "
            "send it again with true once the user confirmed it."
        ),
    )

    def validate_food(self, value):
        try:
            return services.food_get(user=self.context["request"].user, food_id=value)
        except Food.DoesNotExist:
            # A 404, as for the entry's own id: an id names one row and is never read as a name.
            raise NotFound(
                "No food with this id is yours or in the catalog; search /api/foods/?search= "
                "for one."
            ) from None


class MealRepeatSerializer(serializers.Serializer):
    from_date = serializers.DateField(help_text="The day whose meal is logged again.")
    meal_type = serializers.ChoiceField(
        choices=MealType.choices,
        required=False,
        help_text="The meal to repeat. Default: the meal of your local time now.",
    )
    to_meal_type = serializers.ChoiceField(
        choices=MealType.choices, required=False, help_text="Default: the same meal."
    )
    entry_date = serializers.DateField(required=False, help_text="Default: your today.")


class FoodEntryUpdateSerializer(serializers.Serializer):
    food = serializers.UUIDField(
        required=False, help_text="Another food from /api/foods/; the amount and unit stay."
    )
    quantity = number(required=False)
    unit = serializers.CharField(max_length=50, required=False)
    meal_type = serializers.ChoiceField(choices=MealType.choices, required=False)
    entry_date = serializers.DateField(required=False)


# --- goals -----------------------------------------------------------------------------------

GOAL_FIELDS = (*services.GOAL_FIELDS, "water_goal")


class GoalSerializer(serializers.ModelSerializer):
    applies_to = serializers.SerializerMethodField(help_text='"default" or the date.')

    class Meta:
        model = UserGoal
        fields = ["id", "applies_to", "goal_date", *GOAL_FIELDS, "updated_at"]
        read_only_fields = fields

    def get_applies_to(self, goal) -> str:
        return goal.goal_date.isoformat() if goal.goal_date else "default"


GoalWriteSerializer = type(
    "GoalWriteSerializer",
    (serializers.Serializer,),
    {
        "__doc__": "Goal values to set; the ones left out stay, null clears one.",
        **{name: number(required=False, allow_null=True) for name in services.GOAL_FIELDS},
        "water_goal": serializers.IntegerField(
            required=False, allow_null=True, help_text="Glasses per day."
        ),
    },
)


class EffectiveGoalSerializer(serializers.Serializer):
    date = serializers.DateField()
    source = serializers.ChoiceField(
        choices=["day", "default"],
        allow_null=True,
        help_text="day: that date's own goal; default: the default goal; null: none set.",
    )
    goal = GoalSerializer(allow_null=True)


# --- water -----------------------------------------------------------------------------------


class WaterSerializer(serializers.Serializer):
    date = serializers.DateField()
    glasses = serializers.IntegerField(help_text="Glasses of water that day.")


class WaterAddSerializer(serializers.Serializer):
    glasses = serializers.IntegerField(required=False, default=1, help_text="Glasses to add.")
    date = serializers.DateField(required=False, allow_null=True, help_text="Default: today.")


class WaterSetSerializer(serializers.Serializer):
    glasses = serializers.IntegerField(help_text="The day's total (0 clears it).")
    date = serializers.DateField(required=False, allow_null=True, help_text="Default: today.")


class UsualMealItemSerializer(serializers.Serializer):
    food_id = serializers.UUIDField()
    variant_id = serializers.UUIDField(allow_null=True)
    quantity = serializers.DecimalField(max_digits=10, decimal_places=3)
    unit = serializers.CharField(allow_null=True)


class UsualMealSerializer(serializers.Serializer):
    meal_type = serializers.CharField()
    items = UsualMealItemSerializer(many=True)
    updated_at = serializers.DateTimeField()


class UsualMealSaveSerializer(serializers.Serializer):
    meal_type = serializers.ChoiceField(
        choices=MealType.choices,
        required=False,
        help_text="The meal to save as usual. Default: the meal of your local time now.",
    )
    from_date = serializers.DateField(
        required=False, help_text="The day whose meal is saved. Default: your today."
    )


class UsualMealLogSerializer(serializers.Serializer):
    to_meal_type = serializers.ChoiceField(
        choices=MealType.choices, required=False, help_text="Default: the same meal."
    )
    entry_date = serializers.DateField(required=False, help_text="Default: your today.")
