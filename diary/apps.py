from django.apps import AppConfig


class DiaryConfig(AppConfig):
    name = "diary"
    verbose_name = "Diary"
