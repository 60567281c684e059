"""Admin: check-ins and custom measurements, for support and data fixes."""

from django.contrib import admin

from measurements.fields import CHECKIN
from measurements.models import CheckInMeasurement, CustomCategory, CustomMeasurement
from sparky.admin import DiaryRowAdmin


@admin.register(CheckInMeasurement)
class CheckInMeasurementAdmin(DiaryRowAdmin):
    list_display = ("entry_date", "user", *CHECKIN)


@admin.register(CustomCategory)
class CustomCategoryAdmin(admin.ModelAdmin):
    list_display = ("name", "user", "measurement_type", "frequency", "unit")
    list_filter = ("measurement_type", "frequency")
    list_select_related = ("user",)
    search_fields = ("name", "user__email")
    autocomplete_fields = ("user",)
    ordering = ("user__email", "name")
    readonly_fields = ("created_at", "updated_at")


@admin.register(CustomMeasurement)
class CustomMeasurementAdmin(DiaryRowAdmin):
    list_display = ("entry_date", "entry_hour", "user", "category", "value")
    list_select_related = ("user", "category")
    search_fields = ("user__email", "category__name")
    autocomplete_fields = ("user", "category")
    ordering = ("-entry_date", "-entry_timestamp")
    readonly_fields = ("entry_timestamp", "created_at")
