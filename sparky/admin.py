"""Admin for users and preferences, and what the apps' admins share: the catalog admin (foods,
exercises: search, origin filter, share, merge) and the admin of a user's diary rows."""

from collections.abc import Callable

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Count, Q, QuerySet
from django.db.models.functions import Lower
from django.template.response import TemplateResponse
from django.utils.text import smart_split, unescape_string_literal

from sparky import curation
from sparky.models import User, UserPreferences

# The admin says whose it is (not "Django administration").
admin.site.site_header = "Sparky admin"
admin.site.site_title = "Sparky admin"
admin.site.index_title = "Catalog, diaries and accounts"


class SparkyUserCreationForm(AdminUserCreationForm):
    class Meta:
        model = User
        fields = ("email",)

    def clean_email(self) -> str:
        # The manager lower-cases addresses; the admin form must too, or "Alice@" and "alice@"
        # would become two accounts.
        email = self.cleaned_data["email"].strip().lower()
        if User.objects.filter(email__iexact=email).exists():
            raise forms.ValidationError("A user with this email address already exists.")
        return email


class SparkyUserChangeForm(UserChangeForm):
    class Meta:
        model = User
        fields = "__all__"


@admin.register(User)
class UserAdmin(DjangoUserAdmin):
    form = SparkyUserChangeForm
    add_form = SparkyUserCreationForm
    fieldsets = (
        (None, {"fields": ("email", "password")}),
        ("Profile", {"fields": ("display_name", "time_zone")}),
        (
            "Permissions",
            {"fields": ("is_active", "is_staff", "is_superuser", "groups", "user_permissions")},
        ),
        ("Important dates", {"fields": ("last_login", "date_joined")}),
    )
    add_fieldsets = (
        (
            None,
            {
                "classes": ("wide",),
                "fields": ("email", "usable_password", "password1", "password2"),
            },
        ),
    )
    list_display = ("email", "display_name", "time_zone", "is_staff", "is_active", "date_joined")
    list_filter = ("is_staff", "is_superuser", "is_active", "groups")
    search_fields = ("email", "display_name")
    ordering = ("email",)
    readonly_fields = ("last_login", "date_joined")


@admin.register(UserPreferences)
class UserPreferencesAdmin(admin.ModelAdmin):
    list_display = (
        "user",
        "default_weight_unit",
        "default_measurement_unit",
        "date_format",
        "auto_clear_history",
        "updated_at",
    )
    list_filter = ("default_weight_unit", "default_measurement_unit", "auto_clear_history")
    list_select_related = ("user",)
    search_fields = ("user__email",)
    autocomplete_fields = ("user",)
    readonly_fields = ("created_at", "updated_at")


# --- shared by the apps' admins ------------------------------------------------------------------


class DiaryRowAdmin(admin.ModelAdmin):
    """A user's diary rows, newest day first, found by the user's email."""

    list_filter = ("entry_date",)
    list_select_related = ("user",)
    search_fields = ("user__email",)
    autocomplete_fields = ("user",)
    ordering = ("-entry_date",)
    show_full_result_count = False
    readonly_fields = ("created_at", "updated_at")


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


class SharingFilter(admin.SimpleListFilter):
    """Users' requests to share a row wait for staff: "waiting" lists what to approve."""

    title = "sharing"
    parameter_name = "sharing"

    def lookups(self, request, model_admin):
        return (
            ("waiting", "Waiting for approval"),
            ("shared", "Shared with every user"),
            ("private", "Not shared"),
        )

    def queryset(self, request, queryset):
        if self.value() == "waiting":
            return queryset.filter(shared_with_public=True, share_approved=False)
        if self.value() == "shared":
            return queryset.filter(shared_with_public=True, share_approved=True)
        if self.value() == "private":
            return queryset.exclude(shared_with_public=True)
        return queryset


class CatalogAdmin(admin.ModelAdmin):
    """A catalog (foods, exercises) for staff to curate: search by name (lower_name_search, also
    through `search_also`, and whole values of `search_exact`), share or stop sharing the selected
    rows, and merge duplicates with the catalog's `merge` service (actor=, keep_id=, ids=)."""

    merge: Callable  # a staticmethod
    search_also: tuple[str, ...] = ()
    search_exact: tuple[str, ...] = ()
    list_select_related = ("user",)
    ordering = ("name",)
    show_full_result_count = False
    list_per_page = 50
    autocomplete_fields = ("user",)
    readonly_fields = ("created_at", "updated_at")
    actions = ("share_publicly", "stop_sharing", "merge_duplicates")

    def has_merge_permission(self, request) -> bool:
        # Merging edits the kept row and deletes the others: both permissions are needed.
        return self.has_change_permission(request) and self.has_delete_permission(request)

    def get_search_results(self, request, queryset, search_term):
        if not search_term.strip():
            return queryset, False
        found = lower_name_search(
            queryset, search_term, also=self.search_also, exact_fields=self.search_exact
        )
        return found, False

    def _share(self, request, queryset, *, shared: bool, done: str) -> None:
        changed = curation.set_shared(
            self.model, actor=request.user, ids=queryset.values_list("pk", flat=True), shared=shared
        )
        self.message_user(
            request, f"{changed} {self.opts.verbose_name}(s) {done}.", messages.SUCCESS
        )

    @admin.action(
        description="Approve: share selected %(verbose_name_plural)s with every user",
        permissions=["change"],
    )
    def share_publicly(self, request, queryset):
        self._share(request, queryset, shared=True, done="are now shared")

    @admin.action(
        description="Stop sharing selected %(verbose_name_plural)s", permissions=["change"]
    )
    def stop_sharing(self, request, queryset):
        self._share(request, queryset, shared=False, done="are no longer shared")

    @admin.action(
        description="Merge selected duplicate %(verbose_name_plural)s…", permissions=["merge"]
    )
    def merge_duplicates(self, request, queryset):
        return merge_duplicates_page(
            self, request, queryset, noun=self.opts.verbose_name, merge=self.merge
        )


def lower_name_search(queryset: QuerySet, search_term: str, *, exact_fields: tuple[str, ...] = (),
                      also: tuple[str, ...] = ()) -> QuerySet:  # fmt: skip
    """Admin search as lower(name) LIKE '%term%' (the form the trigram index on lower(name)
    serves), each word required; `also` are further text fields, `exact_fields` match whole."""
    fields = ("name", *also)
    queryset = queryset.alias(**{f"_search_{f}": Lower(f) for f in fields})
    for term in smart_split(search_term):
        if term[:1] in "\"'" and term[-1:] == term[:1] and len(term) > 1:
            term = unescape_string_literal(term)
        if not term:
            continue
        match = Q()
        for f in fields:
            match |= Q(**{f"_search_{f}__contains": term.lower()})
        for f in exact_fields:
            match |= Q(**{f: term})
        queryset = queryset.filter(match)
    return queryset


def merge_duplicates_page(
    modeladmin: admin.ModelAdmin,
    request,
    queryset: QuerySet,
    *,
    merge: Callable[..., object],
    noun: str,
):
    """The merge action: a confirmation page where staff pick the row to keep, then the merge.

    `merge(actor=..., keep_id=..., ids=[...])` is the catalog service that does the writing.
    """
    rows = list(
        queryset.select_related("user")
        .annotate(entry_count=Count("entries"))
        .order_by("-entry_count", "is_custom", "name")
    )
    if len(rows) < 2:
        modeladmin.message_user(
            request, f"Select at least two {noun}s to merge.", level=messages.WARNING
        )
        return None
    error = None
    if request.POST.get("post") == "yes":
        keep = next((r for r in rows if str(r.pk) == request.POST.get("keep")), None)
        if keep is None:
            error = f"Choose the {noun} to keep."
        else:
            try:
                result = merge(actor=request.user, keep_id=keep.pk, ids=[r.pk for r in rows])
            except (ValidationError, PermissionDenied) as exc:
                error = " ".join(getattr(exc, "messages", [str(exc)]))
            else:
                modeladmin.message_user(
                    request,
                    f"Merged {result.removed} {noun}(s) into “{keep.name}”; "
                    f"{result.entries_moved} diary entries now point at it.",
                    level=messages.SUCCESS,
                )
                return None
    opts = modeladmin.model._meta
    context = {
        **modeladmin.admin_site.each_context(request),
        "title": f"Merge duplicate {noun}s",
        "noun": noun,
        "rows": rows,
        "keep_id": str(rows[0].pk),
        "error": error,
        "opts": opts,
        "action": request.POST.get("action", "merge_duplicates"),
        "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
        "media": modeladmin.media,
    }
    return TemplateResponse(request, "admin/sparky/merge_duplicates.html", context)
