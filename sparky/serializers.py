"""What the apps' API serializers share: a number as the services check it, and a catalog row
(a food, an exercise) as a user sees it."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers


def number(**kwargs) -> serializers.DecimalField:
    """A finite number of at most 20 digits; its range and precision are the service's to check."""
    return serializers.DecimalField(max_digits=20, decimal_places=None, **kwargs)


class CatalogRowSerializer(serializers.ModelSerializer):
    # No docstring: the schema would show it for each catalog's rows.
    # A catalog row as a user sees it: whether it is one of their own (`is_own`, which the
    # subclass declares with its help text) and its similarity when it was searched for.
    score = serializers.SerializerMethodField(help_text="Search similarity 0..1 (searches only).")

    def get_is_own(self, row) -> bool:
        request = self.context.get("request")
        return bool(request and row.user_id == request.user.pk)

    @extend_schema_field(OpenApiTypes.FLOAT)
    def get_score(self, row) -> float | None:
        return getattr(row, "score", None)
