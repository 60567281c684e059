"""The diary's API: the daily summary (every domain's totals against the goals), the week and month
report, and the user's preferences."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from diary import selectors
from diary.reports import REPORT_NUTRIENTS, REPORT_PERIODS, period_report
from diary.services import preferences_update
from measurements.fields import CHECKIN, KINDS
from nutrition import intakes
from nutrition.models import NUTRIENTS, public_nutrient
from nutrition.selectors import nutrient_intakes
from sparky import services
from sparky.dates import parse_day
from sparky.models import UserPreferences


def _amount():
    return serializers.DecimalField(max_digits=14, decimal_places=1, allow_null=True)


class NutrientProgressSerializer(serializers.Serializer):
    consumed = _amount()
    goal = _amount()
    remaining = _amount()
    percent = serializers.IntegerField(allow_null=True)
    unit = serializers.CharField()


NutrientsProgressSerializer = type(
    "NutrientsProgressSerializer",
    (serializers.Serializer,),
    {
        public_nutrient(name): NutrientProgressSerializer(
            **({"source": name} if public_nutrient(name) != name else {})
        )
        for name in NUTRIENTS
    },
)


class CalorieSummarySerializer(serializers.Serializer):
    consumed = _amount()
    goal = _amount()
    burned = serializers.IntegerField()
    net = _amount()
    remaining = _amount()
    remaining_formula = serializers.CharField()


class ExerciseSummarySerializer(serializers.Serializer):
    minutes = serializers.IntegerField()
    calories_burned = serializers.IntegerField()
    count = serializers.IntegerField()


class WaterSummarySerializer(serializers.Serializer):
    glasses = serializers.IntegerField()
    goal = serializers.IntegerField()
    goal_is_default = serializers.BooleanField()
    remaining = serializers.IntegerField()


def _checkin_value(field) -> serializers.Field:
    if field.whole:
        return serializers.IntegerField(allow_null=True)
    return serializers.DecimalField(max_digits=7, decimal_places=2, allow_null=True)


CheckinSummarySerializer = type(
    "CheckinSummarySerializer",
    (serializers.Serializer,),
    {
        "id": serializers.UUIDField(),
        "date": serializers.DateField(),
        **{name: _checkin_value(field) for name, field in CHECKIN.items()},
    },
)


class CustomValueSummarySerializer(serializers.Serializer):
    id = serializers.UUIDField()
    category = serializers.CharField()
    category_id = serializers.UUIDField()
    frequency = serializers.CharField()
    unit = serializers.CharField()
    value = serializers.DecimalField(max_digits=14, decimal_places=4)
    date = serializers.DateField()
    entry_hour = serializers.IntegerField(allow_null=True)
    entry_timestamp = serializers.DateTimeField()


MeasurementsSummarySerializer = type(
    "MeasurementsSummarySerializer",
    (serializers.Serializer,),
    {
        "date": serializers.DateField(),
        # the unit each kind of check-in value is kept in: weight_unit, length_unit
        **{kind.argument: serializers.CharField() for kind in KINDS if kind.preference},
        "checkin": CheckinSummarySerializer(allow_null=True),
        "custom": CustomValueSummarySerializer(many=True),
    },
)


class NutrientIntakeSerializer(serializers.Serializer):
    """A nutrient eaten against the reference intake (nutrition.selectors.NutrientIntake)."""

    nutrient = serializers.CharField(help_text="e.g. iron, vitamin_b12, sodium")
    label = serializers.CharField()
    group = serializers.ChoiceField(choices=list(intakes.GROUPS))
    unit = serializers.CharField()
    amount = serializers.DecimalField(
        max_digits=14,
        decimal_places=3,
        allow_null=True,
        help_text="Eaten, from the foods that record it; null when none does.",
    )
    reference = serializers.DecimalField(max_digits=14, decimal_places=3)
    kind = serializers.ChoiceField(
        choices=[intakes.FLOOR, intakes.CEILING],
        help_text="floor: reach at least the reference; ceiling: stay under it.",
    )
    basis = serializers.ChoiceField(
        choices=[intakes.DRI, intakes.DAILY_VALUE, "goal"],
        help_text="dri: the National Academies' value for the user's sex and age (preferences); "
        "daily_value: the FDA Daily Value, without them; goal: the user's own goal.",
    )
    source = serializers.CharField()
    upper = serializers.DecimalField(
        max_digits=14,
        decimal_places=3,
        allow_null=True,
        help_text="The Tolerable Upper Intake Level, where one applies to food.",
    )
    percent = serializers.IntegerField(allow_null=True, help_text="amount / reference x 100")
    coverage = serializers.FloatField(
        help_text="Share of the day's entries whose food records this nutrient."
    )
    known = serializers.BooleanField(
        help_text="False when too few of the foods eaten record it to say how much it was."
    )
    status = serializers.ChoiceField(choices=["unknown", "low", "ok", "high"])
    days_logged = serializers.IntegerField(help_text="Days with food logged: 1 or 0 for a day.")


class DailySummarySerializer(serializers.Serializer):
    date = serializers.DateField()
    goal_source = serializers.ChoiceField(
        choices=["day", "default"], allow_null=True, help_text="Which goal applies, if any."
    )
    calories = CalorieSummarySerializer()
    nutrients = NutrientsProgressSerializer()
    exercise = ExerciseSummarySerializer()
    water = WaterSummarySerializer()
    measurements = MeasurementsSummarySerializer()
    nutrient_intakes = NutrientIntakeSerializer(
        many=True,
        help_text="Vitamins, minerals, protein, fiber and limits eaten against the user's "
        "reference intakes (a goal overrides the reference).",
    )


class SummaryView(APIView):
    documents_filters = True

    @extend_schema(
        summary="The day at a glance",
        description="Calories and every nutrient against the goal, exercise, water and "
        "measurements of one day (default: the user's today), and in `nutrient_intakes` the "
        "vitamins, minerals and limits against the user's reference intakes.",
        parameters=[OpenApiParameter("date", OpenApiTypes.DATE, description="Default today.")],
        responses=DailySummarySerializer,
        tags=["summary"],
    )
    def get(self, request):
        day = parse_day(request.user, request.query_params.get("date"))
        summary = selectors.daily_summary(user=request.user, day=day)
        # Beside the summary rather than in it: the coach's daily_summary tool hands the summary
        # to the model whole, and 29 more rows would crowd a small model's context.
        summary["nutrient_intakes"] = [
            row.as_dict() for row in nutrient_intakes(user=request.user, start=day)
        ]
        return Response(DailySummarySerializer(summary).data)


class PreferencesSerializer(serializers.Serializer):
    date_format = serializers.ChoiceField(choices=list(services.DATE_FORMATS))
    default_weight_unit = serializers.ChoiceField(
        choices=UserPreferences.WeightUnit.values,
        help_text="Changing it converts stored check-ins.",
    )
    default_measurement_unit = serializers.ChoiceField(
        choices=UserPreferences.MeasurementUnit.values
    )
    auto_clear_history = serializers.ChoiceField(
        choices=UserPreferences.AutoClear.values, allow_null=True
    )
    system_prompt = serializers.CharField(
        allow_null=True, allow_blank=True, max_length=services.MAX_PROMPT_CHARS
    )
    chat_categories = serializers.ListField(
        child=serializers.ChoiceField(choices=list(services.CHAT_CATEGORIES)),
        help_text="The chat tool selector; [] means automatic.",
    )
    dietary_notes = serializers.CharField(allow_blank=True, max_length=services.MAX_NOTES_CHARS)
    review_before_logging = serializers.BooleanField(
        help_text="Every logging turn waits for review: the turn's answer lists its items "
        "(review) and nothing is saved until they are confirmed."
    )
    review_photos = serializers.BooleanField(help_text="A photo's estimate waits for review.")
    sex = serializers.ChoiceField(
        choices=UserPreferences.Sex.values,
        allow_blank=True,
        help_text="female or male, for the reference intakes; blank: the FDA Daily Values.",
    )
    birth_year = serializers.IntegerField(
        allow_null=True, help_text="For the reference intakes of the age; null: not given."
    )
    time_zone = serializers.CharField(
        source="user.time_zone", max_length=64, help_text="IANA name, e.g. Europe/Berlin."
    )
    updated_at = serializers.DateTimeField(read_only=True)


class PreferencesView(APIView):
    @extend_schema(summary="Read preferences", responses=PreferencesSerializer, tags=["settings"])
    def get(self, request):
        prefs = services.preferences_for(request.user)
        return Response(PreferencesSerializer(prefs).data)

    @extend_schema(
        summary="Change preferences",
        description="Only the fields given change.",
        request=PreferencesSerializer(partial=True),
        responses=PreferencesSerializer,
        tags=["settings"],
    )
    def patch(self, request):
        given = PreferencesSerializer(data=request.data, partial=True)
        given.is_valid(raise_exception=True)
        fields = dict(given.validated_data)
        if "user" in fields:
            fields["time_zone"] = fields.pop("user")["time_zone"]
        prefs = preferences_update(user=request.user, **fields)
        request.user.refresh_from_db(fields=["time_zone"])
        prefs.user = request.user
        return Response(PreferencesSerializer(prefs).data)


# --- the week and month report -----------------------------------------------------------------

ReportNutrientsSerializer = type(
    "ReportNutrientsSerializer",
    (serializers.Serializer,),
    {name: _amount() for name in REPORT_NUTRIENTS},
)
ReportVerdictsSerializer = type(
    "ReportVerdictsSerializer",
    (serializers.Serializer,),
    {
        name: serializers.ChoiceField(choices=["low", "high"], allow_null=True)
        for name in REPORT_NUTRIENTS
    },
)


class ReportDaySerializer(serializers.Serializer):
    date = serializers.DateField()
    logged = serializers.BooleanField(help_text="Any food logged; the nutrients are null if not.")
    calories = _amount()
    protein = _amount()
    carbs = _amount()
    fat = _amount()
    goals = ReportNutrientsSerializer(help_text="The day's goals; null where none is set.")
    verdicts = ReportVerdictsSerializer(
        help_text="Off the goal by the coach's rule (low or high), null when on it or unlogged."
    )
    workouts = serializers.IntegerField()
    minutes = serializers.IntegerField()
    weight = serializers.DecimalField(max_digits=7, decimal_places=2, allow_null=True)


class ReportWeekSerializer(serializers.Serializer):
    start = serializers.DateField()
    end = serializers.DateField()
    workouts = serializers.IntegerField()
    minutes = serializers.IntegerField()


class ReportExerciseSerializer(serializers.Serializer):
    workouts = serializers.IntegerField()
    minutes = serializers.IntegerField()
    active_days = serializers.IntegerField()


class WeighInSerializer(serializers.Serializer):
    date = serializers.DateField()
    weight = serializers.DecimalField(max_digits=7, decimal_places=2)


class WeightTrendSerializer(serializers.Serializer):
    start = serializers.FloatField(help_text="The fitted line at the first weigh-in.")
    end = serializers.FloatField(help_text="The fitted line at the last weigh-in.")
    per_week = serializers.FloatField()


class ReportWeightSerializer(serializers.Serializer):
    unit = serializers.CharField()
    points = WeighInSerializer(many=True)
    change = serializers.DecimalField(
        max_digits=7, decimal_places=2, allow_null=True, help_text="Last weigh-in minus first."
    )
    trend = WeightTrendSerializer(
        allow_null=True, help_text="Least-squares line through the weigh-ins (two days or more)."
    )


class PeriodReportSerializer(serializers.Serializer):
    period = serializers.ChoiceField(choices=list(REPORT_PERIODS))
    start = serializers.DateField()
    end = serializers.DateField()
    days_logged = serializers.IntegerField()
    days = ReportDaySerializer(many=True)
    averages = ReportNutrientsSerializer(help_text="Over the days with food logged only.")
    goals = ReportNutrientsSerializer(help_text="The goals on the last day.")
    weeks = ReportWeekSerializer(many=True)
    exercise = ReportExerciseSerializer()
    weight = ReportWeightSerializer()


class ReportQuerySerializer(serializers.Serializer):
    period = serializers.ChoiceField(choices=list(REPORT_PERIODS), default="week")
    end = serializers.DateField(required=False)


class ReportView(APIView):
    documents_filters = True

    @extend_schema(
        summary="A week or a month",
        description="Calories, protein, carbs and fat per day against the goals, their averages "
        "over the logged days, workouts and minutes per day and week, and the weigh-ins with "
        "their least-squares trend: the 7 days (week) or 28 days (month, four whole weeks) "
        "ending on `end`.",
        parameters=[
            OpenApiParameter("period", OpenApiTypes.STR, enum=list(REPORT_PERIODS)),
            OpenApiParameter("end", OpenApiTypes.DATE, description="Default today."),
        ],
        responses=PeriodReportSerializer,
        tags=["summary"],
    )
    def get(self, request):
        query = ReportQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        end = parse_day(request.user, query.validated_data.get("end"))
        report = period_report(user=request.user, period=query.validated_data["period"], end=end)
        weight = report["weight"]
        points = [{"date": day, "weight": value} for day, value in weight["points"]]
        report = {**report, "weight": {**weight, "points": points}}
        return Response(PeriodReportSerializer(report).data)
