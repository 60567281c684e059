"""The chat page and its htmx endpoints."""

from django.urls import path

from chat.web import views

app_name = "chat"
urlpatterns = [
    path("", views.page, name="page"),
    path("chat/send/", views.send, name="send"),
    path("chat/tools/", views.tool_selector, name="tools"),
    path("chat/summary/<uuid:reply_id>/", views.summary, name="summary"),
    path("chat/turn/undo/<uuid:reply_id>/", views.undo, name="undo"),
    path("chat/turn/review/<uuid:reply_id>/", views.review, name="review"),
    path("chat/images/<uuid:user_id>/<str:filename>", views.image, name="image"),
]
