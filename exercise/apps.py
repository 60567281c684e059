from django.apps import AppConfig


class ExerciseConfig(AppConfig):
    name = "exercise"
    default_auto_field = "django.db.models.BigAutoField"
