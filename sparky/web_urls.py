"""Accounts and settings pages (filled in by the browser work)."""

urlpatterns: list = []
