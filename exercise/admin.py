"""Admin: curate the exercise catalog (search, filter, share, merge) and see exercise diaries."""

from django.contrib import admin

from exercise import catalog
from exercise.models import Exercise, ExerciseEntry
from sparky.admin import CatalogAdmin, DiaryRowAdmin, OriginFilter, SharingFilter


@admin.register(Exercise)
class ExerciseAdmin(CatalogAdmin):
    merge = staticmethod(catalog.exercises_merge)
    search_exact = ("source_id",)
    list_display = (
        "name",
        "category",
        "met",
        "calories_per_hour",
        "default_duration_minutes",
        "source",
        "source_id",
        "license",
        "is_custom",
        "shared_with_public",
        "share_approved",
        "user",
    )
    list_filter = (OriginFilter, SharingFilter, "source", "category")
    search_fields = ("name", "=source_id")
    search_help_text = "Words of the name, or a whole source id (Compendium code, wger uuid)."
    fieldsets = (
        (None, {"fields": ("name", "category", "description")}),
        (
            "Energy",
            {
                "fields": ("met", "calories_per_hour", "default_duration_minutes"),
                "description": "Calories per hour of catalog rows are MET x 70 kg; diary "
                "entries use MET x the user's latest weight when it is known.",
            },
        ),
        (
            "Source",
            {
                "fields": (
                    ("source", "source_id"),
                    "license",
                    ("is_custom", "user", "shared_with_public", "share_approved"),
                    ("created_at", "updated_at"),
                )
            },
        ),
    )


@admin.register(ExerciseEntry)
class ExerciseEntryAdmin(DiaryRowAdmin):
    list_display = (
        "entry_date",
        "user",
        "exercise",
        "duration_minutes",
        "calories_burned",
        "distance",
        "distance_unit",
    )
    list_select_related = ("user", "exercise")
    search_fields = ("user__email", "exercise__name")
    autocomplete_fields = ("user", "exercise")
    ordering = ("-entry_date", "-created_at")
    readonly_fields = ("created_at",)
