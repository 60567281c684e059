from django.apps import AppConfig


class SparkyConfig(AppConfig):
    name = "sparky"
    verbose_name = "Sparky"
    default_auto_field = "django.db.models.BigAutoField"
