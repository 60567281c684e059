"""The API's one pagination class (REST_FRAMEWORK's DEFAULT_PAGINATION_CLASS).

It lives alone and imports nothing of the project: DRF imports it while its own settings load
(GenericAPIView reads the default class), and a module that pulled in sparky.api or the models
would import DRF's views back half-initialised.
"""

from rest_framework.pagination import LimitOffsetPagination

MAX_LIMIT = 200


class SparkyPagination(LimitOffsetPagination):
    """?limit=&offset= with the PAGE_SIZE default; a larger ?limit= than MAX_LIMIT is cut to it,
    so one request cannot ask Postgres and the serializers for every row at once."""

    max_limit = MAX_LIMIT

    def get_schema_operation_parameters(self, view):
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] == self.limit_query_param:
                parameter["schema"] = {**parameter["schema"], "maximum": MAX_LIMIT}
                parameter["description"] = (
                    f"Number of results to return per page (at most {MAX_LIMIT}; more is "
                    f"cut to {MAX_LIMIT})."
                )
        return parameters
