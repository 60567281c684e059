"""The nutrition API: foods, the food diary, goals and water.

Reads are scoped in get_queryset (your entries; foods you can see); every write goes through
nutrition.services.
"""

from __future__ import annotations

import calendar
import datetime as dt

from django.db.models import F
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)
from rest_framework import status
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.response import Response
from rest_framework.views import APIView

from nutrition import selectors, services
from nutrition import serializers as s
from nutrition.models import Food, FoodEntry, UserGoal, UsualMeal
from sparky.api import (
    DATE_PARAMETERS,
    ERRORS,
    CatalogViewSet,
    DomainViewSet,
    UserRowsViewSet,
    Writes,
    filter_dates,
    query_date,
)
from sparky.dates import parse_day

SEARCH_LIMIT = 50


@extend_schema_view(
    list=extend_schema(
        summary="Search or list foods",
        description="With ?search= the best matches (your own foods first, then the catalog "
        f"and shared foods; at most {SEARCH_LIMIT}), each with a score. Without it every food "
        "you can see, by name; ?mine=true for only your own.",
        parameters=[
            OpenApiParameter("search", OpenApiTypes.STR, description="Words or a barcode."),
            OpenApiParameter("mine", OpenApiTypes.BOOL, description="Only your custom foods."),
        ],
    ),
    retrieve=extend_schema(summary="Read a food"),
    create=extend_schema(summary="Create a custom food"),
    partial_update=extend_schema(
        summary="Change one of your custom foods",
        responses={200: s.FoodSerializer, 403: ERRORS["403"]},
    ),
    destroy=extend_schema(
        summary="Delete one of your custom foods (refused while diary entries use it)",
        responses={204: None, 400: ERRORS["400"], 403: ERRORS["403"]},
    ),
)
@extend_schema(tags=["foods"])
class FoodViewSet(CatalogViewSet):
    model = Food
    serializer_class = s.FoodSerializer
    create_serializer_class = update_serializer_class = s.FoodWriteSerializer
    writes = Writes(
        create=services.food_create_custom,
        update=services.food_update_custom,
        delete=services.food_delete_custom,
        id_name="food_id",
    )
    search = staticmethod(services.food_search)
    search_limit = SEARCH_LIMIT

    def rows(self, queryset):
        return super().rows(queryset.prefetch_related("variants"))


@extend_schema_view(
    list=extend_schema(
        summary="List your food entries",
        description="Oldest first; filter with ?date= or ?start=&end=.",
        parameters=DATE_PARAMETERS,
    ),
    retrieve=extend_schema(summary="Read a food entry"),
    create=extend_schema(
        summary="Log a food",
        description="Units are converted (g, oz, cup, piece, the food's servings); an entry "
        "over 5,000 kcal is refused with error 'implausible'.",
    ),
    partial_update=extend_schema(summary="Change a food entry"),
    destroy=extend_schema(summary="Delete a food entry"),
)
@extend_schema(tags=["food entries"])
class FoodEntryViewSet(DomainViewSet):
    model = FoodEntry
    serializer_class = s.FoodEntrySerializer
    create_serializer_class = s.FoodEntryCreateSerializer
    update_serializer_class = s.FoodEntryUpdateSerializer
    writes = Writes(
        create=services.food_entry_create,
        update=services.food_entry_update,
        delete=services.food_entry_delete,
        id_name="entry_id",
    )
    documents_filters = True

    def rows(self, queryset):
        entries = filter_dates(self.request, queryset.select_related("food", "variant"))
        return entries.order_by("entry_date", "created_at", "id")

    @extend_schema(
        summary="Log a meal of another day again",
        description="Each food of that day's meal with its amount, unit and serving, into "
        "today's (or entry_date's) meal. 400 'nothing_to_repeat' when that meal is empty, "
        "'same_meal' for today's own meal.",
        request=s.MealRepeatSerializer,
        responses={201: s.FoodEntrySerializer(many=True), 400: ERRORS["400"]},
    )
    @action(detail=False, methods=["post"])
    def repeat(self, request):
        given = s.MealRepeatSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        data = given.validated_data
        entries = services.meal_repeat(
            user=request.user,
            from_date=data["from_date"],
            meal=data.get("meal_type"),
            to_meal=data.get("to_meal_type"),
            entry_date=data.get("entry_date"),
        )
        return Response(
            self.get_serializer(entries, many=True).data, status=status.HTTP_201_CREATED
        )


_GOAL_KEY = r"default|\d{4}-\d{2}-\d{2}"
_GOAL_KEY_PARAMETER = OpenApiParameter(
    "key",
    OpenApiTypes.STR,
    OpenApiParameter.PATH,
    pattern=f"^({_GOAL_KEY})$",
    description='"default" or a date (YYYY-MM-DD).',
)


def _not_a_date(key: str) -> str:
    """Why a YYYY-MM-DD that the route accepted is no date ("2024-02-30")."""
    year, month, _ = (int(part) for part in key.split("-"))
    if year < dt.MINYEAR:
        problem = f"there is no year {year}"
    elif not 1 <= month <= 12:
        problem = f"there is no month {month}"
    else:
        days = calendar.monthrange(year, month)[1]
        problem = f"{calendar.month_name[month]} {year} has {days} days"
    return f"{key} is not a date: {problem}. Use a real date as YYYY-MM-DD, or 'default'."


@extend_schema_view(
    list=extend_schema(summary="List your goals (the default goal and per-date goals)"),
    retrieve=extend_schema(
        summary="Read the default goal or one date's goal",
        parameters=[_GOAL_KEY_PARAMETER],
        responses={200: s.GoalSerializer, 400: ERRORS["400"]},
    ),
    partial_update=extend_schema(
        summary="Set goal values (creates the goal if missing)",
        description="Only the values given change; null clears one. A date's goal overrides "
        "the default goal on that day and may be in the future.",
        parameters=[_GOAL_KEY_PARAMETER],
    ),
    destroy=extend_schema(
        summary="Delete the default goal or one date's goal",
        description="Without its own goal a date follows the default goal again.",
        parameters=[_GOAL_KEY_PARAMETER],
        responses={204: None, 400: ERRORS["400"]},
    ),
)
@extend_schema(tags=["goals"])
class GoalViewSet(UserRowsViewSet):
    # Goals by key ("default" or a date), set and deleted by date; no create.

    model = UserGoal
    serializer_class = s.GoalSerializer
    update_serializer_class = s.GoalWriteSerializer
    lookup_field = "key"
    lookup_value_regex = _GOAL_KEY
    http_method_names = ["get", "patch", "delete", "head", "options"]

    def rows(self, queryset):
        # The default goal (no date) first, then the dated ones.
        return queryset.order_by(F("goal_date").asc(nulls_first=True))

    def _goal_date(self):
        key = self.kwargs["key"]
        if key == "default":
            return None
        try:
            return dt.date.fromisoformat(key)
        except ValueError:
            # The shape is right but the day does not exist: a bad request, not a missing goal.
            raise ValidationError([_not_a_date(key)], code="invalid_date") from None

    def get_object(self):
        goal = self.get_queryset().filter(goal_date=self._goal_date()).first()
        if goal is None:
            raise NotFound("No goal is set for this date.")
        return goal

    def partial_update(self, request, key=None):
        values = self.given()
        goal = services.goal_set(user=request.user, goal_date=self._goal_date(), **values)
        return Response(self.get_serializer(goal).data)

    def destroy(self, request, key=None):
        try:
            services.goal_delete(user=request.user, goal_date=self._goal_date())
        except UserGoal.DoesNotExist as missing:
            raise NotFound(str(missing)) from None
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(
        summary="The goal that applies on a day",
        description="That day's own goal, else the default goal, else none.",
        parameters=[OpenApiParameter("date", OpenApiTypes.DATE, description="Default today.")],
        responses=s.EffectiveGoalSerializer,
    )
    @action(detail=False, methods=["get"], pagination_class=None)
    def effective(self, request):
        day = query_date(request, "date") or parse_day(request.user, None)
        goal = services.goal_for(user=request.user, day=day)
        source = None if goal is None else ("day" if goal.goal_date else "default")
        return Response(
            {
                "date": day,
                "source": source,
                "goal": None if goal is None else s.GoalSerializer(goal).data,
            }
        )


class WaterView(APIView):
    """A day's glasses of water: read, add to, or set."""

    documents_filters = True

    def _answer(self, request, day, glasses):
        return Response(s.WaterSerializer({"date": day, "glasses": glasses}).data)

    def _change(self, request, serializer_class, change):
        """Add or set (`change`, a water service) the glasses of the body's day (default today)."""
        given = serializer_class(data=request.data)
        given.is_valid(raise_exception=True)
        day = parse_day(request.user, given.validated_data.get("date"))
        total = change(user=request.user, glasses=given.validated_data["glasses"], entry_date=day)
        return self._answer(request, day, total)

    @extend_schema(
        summary="Glasses of water on a day",
        parameters=[OpenApiParameter("date", OpenApiTypes.DATE, description="Default today.")],
        responses=s.WaterSerializer,
        tags=["water"],
    )
    def get(self, request):
        day = query_date(request, "date") or parse_day(request.user, None)
        return self._answer(request, day, selectors.water_for(user=request.user, day=day))

    @extend_schema(
        summary="Add glasses of water",
        request=s.WaterAddSerializer,
        responses={200: OpenApiResponse(s.WaterSerializer, description="The day's new total.")},
        tags=["water"],
    )
    def post(self, request):
        return self._change(request, s.WaterAddSerializer, services.water_add)

    @extend_schema(
        summary="Set the day's glasses of water",
        request=s.WaterSetSerializer,
        responses=s.WaterSerializer,
        tags=["water"],
    )
    def put(self, request):
        return self._change(request, s.WaterSetSerializer, services.water_set)


@extend_schema(tags=["food"])
class UsualMealView(APIView):
    @extend_schema(summary="Your usual meals", responses={200: s.UsualMealSerializer(many=True)})
    def get(self, request):
        meals = UsualMeal.objects.for_user(request.user).order_by("meal_type")
        return Response(s.UsualMealSerializer(meals, many=True).data)

    @extend_schema(
        summary="Save a day's meal as your usual one",
        description="Replaces the usual meal saved before. 400 'nothing_to_save' when that "
        "meal has nothing logged.",
        request=s.UsualMealSaveSerializer,
        responses={201: s.UsualMealSerializer, 400: ERRORS["400"]},
    )
    def post(self, request):
        given = s.UsualMealSaveSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        usual = services.usual_meal_save(
            user=request.user,
            meal=given.validated_data.get("meal_type"),
            from_date=given.validated_data.get("from_date"),
        )
        return Response(s.UsualMealSerializer(usual).data, status=status.HTTP_201_CREATED)


@extend_schema(tags=["food"])
class UsualMealLogView(APIView):
    @extend_schema(
        summary="Log your usual meal",
        description="Every item of the usual meal, into today's (or entry_date's) meal, in one "
        "go: all or none. 400 'no_usual_meal' when none is saved for that meal.",
        request=s.UsualMealLogSerializer,
        responses={201: s.FoodEntrySerializer(many=True), 400: ERRORS["400"]},
    )
    def post(self, request, meal_type: str):
        given = s.UsualMealLogSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        entries = services.usual_meal_log(
            user=request.user,
            meal=meal_type,
            to_meal=given.validated_data.get("to_meal_type"),
            entry_date=given.validated_data.get("entry_date"),
        )
        return Response(
            s.FoodEntrySerializer(entries, many=True).data, status=status.HTTP_201_CREATED
        )
