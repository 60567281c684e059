"""The chat page and its htmx endpoints (filled in by the browser work)."""

app_name = "chat"
urlpatterns: list = []
