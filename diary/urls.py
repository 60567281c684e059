"""The diary panel and the diary's settings pages (preferences, goals)."""

from django.urls import path

from diary import views

urlpatterns = [
    path("diary/", views.diary, name="diary"),
    path("diary/water/", views.water_change, name="diary_water"),
    path("diary/repeat/", views.meal_repeat, name="diary_meal_repeat"),
    path("diary/usual/", views.usual_meal, name="diary_usual_meal"),
    path("diary/quick-add/", views.quick_add, name="diary_quick_add"),
    path("diary/food/<uuid:entry_id>/edit/", views.food_entry_edit, name="diary_food_edit"),
    path("diary/food/<uuid:entry_id>/delete/", views.food_entry_delete, name="diary_food_delete"),
    path(
        "diary/exercise/<uuid:entry_id>/edit/",
        views.exercise_entry_edit,
        name="diary_exercise_edit",
    ),
    path(
        "diary/exercise/<uuid:entry_id>/delete/",
        views.exercise_entry_delete,
        name="diary_exercise_delete",
    ),
    path("settings/preferences/", views.preferences, name="settings_preferences"),
    path("settings/goals/", views.goals, name="settings_goals"),
]
