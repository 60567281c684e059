from django.apps import AppConfig


class ChatConfig(AppConfig):
    name = "chat"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from django.contrib.auth.signals import user_logged_in

        from chat.services import history_export_rows, start_session_on_login
        from diary.exports import register_section

        user_logged_in.connect(start_session_on_login, dispatch_uid="chat-session-on-login")
        # The data export (Settings, Your data) carries the chat history too.
        register_section("chat_history", history_export_rows)
