"""The DRF API under /api/ (filled in by the API work)."""

urlpatterns: list = []
