"""Admin: curate the food catalog (search, filter, share, merge) and look at diaries and goals."""

from decimal import Decimal

from django import forms
from django.contrib import admin
from django.contrib.admin.views.main import ORDER_VAR
from django.db.models import Case, IntegerField, Value, When

from nutrition import catalog
from nutrition.models import (
    NUTRIENTS,
    Food,
    FoodEntry,
    FoodVariant,
    UserGoal,
    WaterIntake,
    nutrient_unit,
)
from nutrition.services import food_search
from sparky.admin import CatalogAdmin, DiaryRowAdmin, OriginFilter, SharingFilter


def _amount(value: Decimal | None) -> str:
    """143.000 -> "143", 12.560 -> "12.56"; blank for no data."""
    if value is None:
        return "–"
    return f"{value.normalize():f}"


def _amount_column(field: str, description: str):
    """A changelist column of one nutrient of the food, sortable by it."""

    @admin.display(description=description, ordering=field)
    def column(self, food: Food) -> str:
        return _amount(getattr(food, field))

    return column


class NutrientLabelsForm(forms.ModelForm):
    """Labels every nutrient field with its unit ("Sodium (mg)", "Vitamin A (µg)")."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in NUTRIENTS:
            if name in self.fields:
                self.fields[name].label = f"{self.fields[name].label} ({nutrient_unit(name)})"


class FoodForm(NutrientLabelsForm):
    class Meta:
        model = Food
        fields = (
            "name",
            "display_name",
            "original_name",
            "serving_size",
            "serving_unit",
            "barcode",
            "openfoodfacts_id",
            *NUTRIENTS,
            "source",
            "source_id",
            "food_group",
            "is_custom",
            "user",
            "shared_with_public",
            "share_approved",
        )
        help_texts = {
            "display_name": (
                "The short name shown in the diary, replies and options (e.g. 'Egg'); blank shows "
                "the name. Reloading the catalog derives it again for catalog foods, from "
                "nutrition/words/display_names.toml or the naming rules."
            )
        }


class FoodVariantForm(NutrientLabelsForm):
    class Meta:
        model = FoodVariant
        fields = ("sequence", "serving_size", "serving_unit", "gram_weight", *NUTRIENTS)


class FoodVariantInline(admin.TabularInline):
    model = FoodVariant
    form = FoodVariantForm
    extra = 0
    fields = (
        "sequence",
        "serving_size",
        "serving_unit",
        "gram_weight",
        "calories",
        "protein",
        "carbs",
        "fat",
    )
    ordering = ("sequence",)


@admin.register(Food)
class FoodAdmin(CatalogAdmin):
    merge = staticmethod(catalog.foods_merge)
    search_also = ("original_name",)
    search_exact = ("barcode",)
    form = FoodForm
    inlines = (FoodVariantInline,)
    list_display = (
        "name",
        "display_name",
        "serving",
        "kcal",
        "protein_g",
        "carbs_g",
        "fat_g",
        "food_group",
        "source",
        "is_custom",
        "shared_with_public",
        "share_approved",
        "user",
    )
    list_editable = ("display_name",)  # curating the names people read, a page at a time
    list_filter = (OriginFilter, SharingFilter, "source", "food_group")
    search_fields = ("name", "display_name", "original_name", "=barcode")
    search_help_text = (
        "Words of the name, the short display name or the original (source) name, or a whole "
        "barcode."
    )
    fieldsets = (
        (
            None,
            {
                "fields": (
                    "name",
                    "display_name",
                    "original_name",
                    ("serving_size", "serving_unit"),
                    "barcode",
                    "openfoodfacts_id",
                )
            },
        ),
        (
            "Energy & macros",
            {"fields": ("calories", "protein", "carbs", "fat", "dietary_fiber", "sugars")},
        ),
        (
            "Fats",
            {
                "fields": (
                    "saturated_fat",
                    "monounsaturated_unsaturated",
                    "polyunsaturated_fat",
                    "trans_fat",
                    "cholesterol",
                )
            },
        ),
        ("Minerals", {"fields": ("sodium", "potassium", "calcium", "iron")}),
        ("Vitamins", {"fields": ("vitamin_a", "vitamin_c")}),
        (
            "Source",
            {
                "fields": (
                    ("source", "source_id"),
                    "food_group",
                    ("is_custom", "user", "shared_with_public", "share_approved"),
                    ("created_at", "updated_at"),
                )
            },
        ),
    )

    def get_search_results(self, request, queryset, search_term):
        """Every food the words match, in the order the app's own search ranks them ("banana":
        bananas first, not 37th alphabetically), then the rest by name; a column staff sort by
        (the changelist's "o") still sorts."""
        found, duplicates = super().get_search_results(request, queryset, search_term)
        if not search_term.strip() or ORDER_VAR in request.GET:
            return found, duplicates
        ranked = [f.pk for f in food_search(user=request.user, query=search_term, limit=100)]
        relevance = Case(
            *(When(pk=pk, then=Value(rank)) for rank, pk in enumerate(ranked)),
            default=Value(len(ranked)),
            output_field=IntegerField(),
        )
        ranked_first = found.annotate(search_rank=relevance).order_by("search_rank", "name", "pk")
        return ranked_first, duplicates

    @admin.display(description="serving")
    def serving(self, food: Food) -> str:
        if food.serving_size is None:
            return food.serving_unit or "–"
        return f"{_amount(food.serving_size)} {food.serving_unit or ''}".strip()

    kcal = _amount_column("calories", "kcal")
    protein_g = _amount_column("protein", "protein (g)")
    carbs_g = _amount_column("carbs", "carbs (g)")
    fat_g = _amount_column("fat", "fat (g)")


@admin.register(FoodEntry)
class FoodEntryAdmin(DiaryRowAdmin):
    list_display = ("entry_date", "user", "meal_type", "food", "quantity", "unit", "variant")
    list_filter = ("meal_type", "entry_date")
    list_select_related = ("user", "food", "variant")
    search_fields = ("user__email", "food__name")
    autocomplete_fields = ("user", "food")
    raw_id_fields = ("variant",)
    ordering = ("-entry_date", "-created_at")
    readonly_fields = ("created_at",)


@admin.register(UserGoal)
class UserGoalAdmin(admin.ModelAdmin):
    list_display = ("user", "goal_date", "calories", "protein", "carbs", "fat", "water_goal")
    list_select_related = ("user",)
    search_fields = ("user__email",)
    autocomplete_fields = ("user",)
    ordering = ("user__email", "goal_date")
    readonly_fields = ("created_at", "updated_at")


@admin.register(WaterIntake)
class WaterIntakeAdmin(admin.ModelAdmin):
    list_display = ("entry_date", "user", "glasses_consumed")
    list_filter = ("entry_date",)
    list_select_related = ("user",)
    search_fields = ("user__email",)
    autocomplete_fields = ("user",)
    ordering = ("-entry_date",)
    readonly_fields = ("created_at", "updated_at")
