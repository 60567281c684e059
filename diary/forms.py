"""Forms of the diary and its settings pages: entry edits, preferences and daily goals.

Forms only parse and shape what the browser sent; the rules live in the services, whose
ValidationErrors the views put back on the matching field with `attach_service_error`.
"""

from __future__ import annotations

from django import forms

from nutrition import intakes
from nutrition.models import MICRONUTRIENTS, MealType, nutrient_unit
from sparky import time_zones
from sparky.forms import DescribedErrorsMixin, GroupedFieldsMixin, TimeZoneField, notes_field
from sparky.models import UserPreferences
from sparky.services import DATE_FORMATS, EARLIEST_BIRTH_YEAR


class PreferencesForm(GroupedFieldsMixin, DescribedErrorsMixin, forms.Form):
    MAIN = (
        "date_format",
        "time_zone",
        "default_weight_unit",
        "default_measurement_unit",
        "auto_clear_history",
    )

    date_format = forms.ChoiceField(
        label="Date format", choices=[(f, f) for f in DATE_FORMATS], initial=DATE_FORMATS[0]
    )
    default_weight_unit = forms.ChoiceField(label="Weight unit", choices=UserPreferences.WeightUnit)
    default_measurement_unit = forms.ChoiceField(
        label="Body measurement unit", choices=UserPreferences.MeasurementUnit
    )
    time_zone = TimeZoneField(
        label="Time zone",
        help_text="Decides what 'today' means for your diary.",
        widget=forms.Select(attrs={"data-browser-zone": ""}),
    )
    auto_clear_history = forms.ChoiceField(
        label="Clear chat history", choices=UserPreferences.AutoClear
    )
    system_prompt = notes_field(
        "Custom instructions for Sparky", "E.g. 'Be brief' or 'I train for a marathon'."
    )
    dietary_notes = notes_field(
        "Dietary notes", "Allergies, vegetarian, low sodium... Sparky keeps them in mind.", rows=2
    )
    review_before_logging = forms.BooleanField(
        label="Ask before logging",
        required=False,
        help_text="Sparky shows what it would log, for you to change or cancel, before saving.",
    )
    review_photos = forms.BooleanField(
        label="Ask before logging a photo",
        required=False,
        help_text="A photo's estimate is shown for you to check before it is saved.",
    )
    # What the reference intakes of the Nutrients panel depend on (nutrition.intakes).
    sex = forms.ChoiceField(
        label="Sex",
        required=False,
        choices=[("", "Not given"), *UserPreferences.Sex.choices],
        help_text="With your birth year, picks the nutrient references for you; without them, "
        "the Daily Values on food labels are used.",
    )
    birth_year = forms.IntegerField(
        label="Birth year",
        required=False,
        min_value=EARLIEST_BIRTH_YEAR,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        current = self.initial.get("time_zone") or self.data.get("time_zone")
        self.fields["time_zone"].choices = time_zones.choices(current)


def _goal_field(label: str, unit: str, *, decimals: int = 1) -> forms.DecimalField:
    return forms.DecimalField(
        label=f"{label} ({unit})",
        required=False,
        min_value=0,
        max_digits=9,
        decimal_places=decimals,
        widget=forms.NumberInput(attrs={"step": "any", "inputmode": "decimal"}),
    )


# A goal's other nutrients, in the order the goals page lists them (units are nutrition's).
MORE_GOALS = (
    "dietary_fiber",
    "sugars",
    "saturated_fat",
    "polyunsaturated_fat",
    "monounsaturated_fat",
    "trans_fat",
    "cholesterol",
    "sodium",
    "potassium",
    "vitamin_a",
    "vitamin_c",
    "calcium",
    "iron",
    # the micronutrients (UserGoal.micronutrients), in the Nutrients panel's order
    *(name for group in intakes.GROUPS.values() for name in group if name in MICRONUTRIENTS),
)
_GOAL_LABELS = {"dietary_fiber": "Fiber", **intakes.LABELS}


class GoalsForm(GroupedFieldsMixin, DescribedErrorsMixin, forms.Form):
    """The default daily goal; a blank field means no goal for that nutrient."""

    MAIN = ("calories", "protein", "carbs", "fat", "water_goal")

    calories = _goal_field("Calories", "kcal", decimals=0)
    protein = _goal_field("Protein", "g")
    carbs = _goal_field("Carbohydrates", "g")
    fat = _goal_field("Fat", "g")
    water_goal = forms.IntegerField(
        label="Water (glasses)", required=False, min_value=0, max_value=100
    )


# The other nutrients follow the main ones, in MORE_GOALS's order, on every goals form.
for _name in MORE_GOALS:
    GoalsForm.base_fields[_name] = _goal_field(
        _GOAL_LABELS.get(_name) or _name.replace("_", " ").capitalize(),
        nutrient_unit(_name),
        decimals=2 if _name in MICRONUTRIENTS else 1,  # copper: 0.9 mg, thiamin 1.15 mg
    )


def _day_field() -> forms.DateField:
    # blank keeps the stored day (a form from before the field existed sends none)
    return forms.DateField(
        label="Date", required=False, widget=forms.DateInput(attrs={"type": "date"})
    )


def _amount_field(label: str) -> forms.DecimalField:
    return forms.DecimalField(
        label=label,
        max_digits=12,
        decimal_places=4,
        widget=forms.NumberInput(attrs={"step": "any", "inputmode": "decimal"}),
    )


class FoodEntryForm(DescribedErrorsMixin, forms.Form):
    """A food entry's edit: a food named differently is looked up by the service."""

    # blank keeps the stored food or unit, as they were
    food = forms.CharField(label="Food", max_length=200, required=False)
    quantity = forms.DecimalField(
        label="Amount",
        min_value=0.001,
        max_digits=10,
        decimal_places=3,
        widget=forms.NumberInput(attrs={"step": "any", "inputmode": "decimal"}),
    )
    unit = forms.CharField(label="Unit", max_length=50, required=False)
    meal_type = forms.ChoiceField(label="Meal", choices=MealType)
    entry_date = _day_field()

    def __init__(self, *args, units_list: str = "", **kwargs):
        super().__init__(*args, **kwargs)
        if units_list:  # the units the food takes, offered as the user types
            self.fields["unit"].widget.attrs["list"] = units_list


class ExerciseEntryForm(DescribedErrorsMixin, forms.Form):
    """A workout's edit: an activity named differently is looked up by the service; calories
    left as they were follow a new duration."""

    exercise = forms.CharField(label="Activity", max_length=200, required=False)
    duration_minutes = forms.IntegerField(label="Minutes", min_value=1, max_value=1440)
    calories_burned = forms.IntegerField(label="kcal", min_value=0, required=False)
    entry_date = _day_field()


class CheckinValueForm(DescribedErrorsMixin, forms.Form):
    """One value of a day's check-in (the weight, the steps...), in the unit it is kept in."""

    value = _amount_field("Value")


class WaterForm(DescribedErrorsMixin, forms.Form):
    glasses = forms.IntegerField(label="Glasses", min_value=0)


class CustomMeasurementForm(DescribedErrorsMixin, forms.Form):
    value = _amount_field("Value")
    entry_date = _day_field()
