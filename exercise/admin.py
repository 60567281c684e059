"""Admin: curate the exercise catalog (search, filter, share, merge) and see exercise diaries."""

from django.contrib import admin, messages

from exercise import catalog
from exercise.models import Exercise, ExerciseEntry
from sparky.admin import lower_name_search, merge_duplicates_page


class OriginFilter(admin.SimpleListFilter):
    title = "origin"
    parameter_name = "origin"

    def lookups(self, request, model_admin):
        return (("public", "Public catalog"), ("custom", "Custom (made by a user)"))

    def queryset(self, request, queryset):
        if self.value() == "public":
            return queryset.exclude(is_custom=True)
        if self.value() == "custom":
            return queryset.filter(is_custom=True)
        return queryset


@admin.register(Exercise)
class ExerciseAdmin(admin.ModelAdmin):
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
        "user",
    )
    list_filter = (OriginFilter, "shared_with_public", "source", "category")
    list_select_related = ("user",)
    search_fields = ("name", "=source_id")
    search_help_text = "Words of the name, or a whole source id (Compendium code, wger uuid)."
    ordering = ("name",)
    show_full_result_count = False
    list_per_page = 50
    autocomplete_fields = ("user",)
    readonly_fields = ("created_at", "updated_at")
    actions = ("share_publicly", "stop_sharing", "merge_duplicates")
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
                    ("is_custom", "user", "shared_with_public"),
                    ("created_at", "updated_at"),
                )
            },
        ),
    )

    def has_merge_permission(self, request) -> bool:
        # Merging edits the kept row and deletes the others: both permissions are needed.
        return self.has_change_permission(request) and self.has_delete_permission(request)

    def get_search_results(self, request, queryset, search_term):
        if not search_term.strip():
            return queryset, False
        return lower_name_search(queryset, search_term, exact_fields=("source_id",)), False

    @admin.action(description="Share selected exercises with every user", permissions=["change"])
    def share_publicly(self, request, queryset):
        changed = catalog.exercises_set_shared(
            actor=request.user, exercise_ids=queryset.values_list("pk", flat=True), shared=True
        )
        self.message_user(request, f"{changed} exercise(s) are now shared.", messages.SUCCESS)

    @admin.action(description="Stop sharing selected exercises", permissions=["change"])
    def stop_sharing(self, request, queryset):
        changed = catalog.exercises_set_shared(
            actor=request.user, exercise_ids=queryset.values_list("pk", flat=True), shared=False
        )
        self.message_user(request, f"{changed} exercise(s) are no longer shared.", messages.SUCCESS)

    @admin.action(description="Merge selected duplicate exercises…", permissions=["merge"])
    def merge_duplicates(self, request, queryset):
        return merge_duplicates_page(
            self,
            request,
            queryset,
            noun="exercise",
            merge=lambda *, actor, keep_id, ids: catalog.exercises_merge(
                actor=actor, keep_id=keep_id, exercise_ids=ids
            ),
        )


@admin.register(ExerciseEntry)
class ExerciseEntryAdmin(admin.ModelAdmin):
    list_display = (
        "entry_date",
        "user",
        "exercise",
        "duration_minutes",
        "calories_burned",
        "distance",
        "distance_unit",
    )
    list_filter = ("entry_date",)
    list_select_related = ("user", "exercise")
    search_fields = ("user__email", "exercise__name")
    autocomplete_fields = ("user", "exercise")
    ordering = ("-entry_date", "-created_at")
    show_full_result_count = False
    readonly_fields = ("created_at",)
