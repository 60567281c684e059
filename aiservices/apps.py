from django.apps import AppConfig


class AIServicesConfig(AppConfig):
    name = "aiservices"
    verbose_name = "AI services"
    default_auto_field = "django.db.models.BigAutoField"
