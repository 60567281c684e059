from django.apps import AppConfig


class ChatConfig(AppConfig):
    name = "chat"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from django.contrib.auth.signals import user_logged_in

        from chat.services import start_session_on_login

        user_logged_in.connect(start_session_on_login, dispatch_uid="chat-session-on-login")
