"""Forms of the account and settings pages.

Forms only parse and shape what the browser sent; the rules (allowed values, one active service,
key encryption, goal ranges) live in the services, whose ValidationErrors the views put back on
the matching field with `attach_service_error`.
"""

from __future__ import annotations

import zoneinfo

from django import forms
from django.contrib.auth.forms import AuthenticationForm, BaseUserCreationForm
from django.core.exceptions import ValidationError

from nutrition.models import MealType
from sparky.models import AIServiceSettings, User, UserPreferences
from sparky.services import DATE_FORMATS

# Which form field a service's ValidationError code belongs to (others go on the form itself).
SERVICE_ERROR_FIELDS = {
    "service_name_required": "service_name",
    "model_required": "model_name",
    "url_required": "custom_url",
    "invalid_url": "custom_url",
    "blocked_url": "custom_url",
    "api_key_required": "api_key",
    "invalid_api_key": "api_key",
    "invalid_time_zone": "time_zone",
}


def attach_service_error(form: forms.Form, exc: ValidationError, fields: dict | None = None):
    """Show a service's refusal next to the field it is about.

    The field comes from the error code, else from the message naming the field first ("date_format
    'x' is not allowed..."), else the error goes on top of the form.
    """
    fields = {**SERVICE_ERROR_FIELDS, **(fields or {})}
    for error in exc.error_list if hasattr(exc, "error_list") else [exc]:
        message = " ".join(error.messages)
        name = fields.get(error.code or "")
        if name is None:
            name = next((f for f in form.fields if message.startswith(f + " ")), None)
        form.add_error(name if name in form.fields else None, message)
    if hasattr(form, "describe_errors"):
        form.describe_errors()


class DescribedErrorsMixin:
    """Point each invalid input at its error list, so a screen reader reads why it was refused.

    Django links help text by itself (aria-describedby="<id>_helptext") and marks aria-invalid;
    this adds the errors (templates/includes/field.html renders them as "<id>_errors").
    """

    def full_clean(self):
        super().full_clean()
        self.describe_errors()

    def describe_errors(self):
        for name in self.errors:
            if name not in self.fields:
                continue
            bound = self[name]
            ids = [f"{bound.auto_id}_errors"]
            if bound.help_text:
                ids.insert(0, f"{bound.auto_id}_helptext")
            self.fields[name].widget.attrs["aria-describedby"] = " ".join(ids)


class EmailLoginForm(DescribedErrorsMixin, AuthenticationForm):
    """Django's login form with the email as the user name (emails are stored lower-case)."""

    username = forms.EmailField(
        label="Email",
        widget=forms.EmailInput(attrs={"autocomplete": "email", "autofocus": True}),
    )

    def clean_username(self):
        return self.cleaned_data["username"].strip().lower()


class SignupForm(DescribedErrorsMixin, BaseUserCreationForm):
    # Filled in by the page's script from the browser's own setting; ignored when unknown.
    time_zone = forms.CharField(required=False, widget=forms.HiddenInput)

    class Meta:
        model = User
        fields = ("email",)
        widgets = {"email": forms.EmailInput(attrs={"autocomplete": "email", "autofocus": True})}

    def clean_email(self):
        email = self.cleaned_data["email"].strip().lower()
        if User.objects.filter(email__iexact=email).exists():
            raise ValidationError(
                "An account with this email already exists; log in instead.", code="taken"
            )
        return email

    def clean_time_zone(self):
        value = (self.cleaned_data.get("time_zone") or "").strip()
        return value if value in zoneinfo.available_timezones() else ""


class AIServiceForm(DescribedErrorsMixin, forms.Form):
    service_name = forms.CharField(
        label="Name", max_length=255, help_text="Your own label, e.g. 'OpenAI at work'."
    )
    service_type = forms.ChoiceField(label="Provider", choices=AIServiceSettings.ServiceType)
    # Write-only: never rendered back (render_value=False), blank on edit keeps the stored key.
    api_key = forms.CharField(
        label="API key",
        required=False,
        strip=True,
        widget=forms.PasswordInput(render_value=False, attrs={"autocomplete": "off"}),
    )
    model_name = forms.CharField(
        label="Model",
        required=False,
        max_length=255,
        help_text="The provider's model id, e.g. gpt-4o-mini, claude-haiku-4-5, llama3.2.",
    )
    custom_url = forms.CharField(
        label="Server URL",
        required=False,
        help_text=(
            "Only for Ollama and OpenAI-compatible servers, e.g. http://127.0.0.1:11434 or "
            "https://host/v1."
        ),
        widget=forms.URLInput(attrs={"inputmode": "url", "spellcheck": "false"}),
    )
    tool_profile = forms.ChoiceField(
        label="Tool profile",
        choices=AIServiceSettings.ToolProfile,
        initial=AIServiceSettings.ToolProfile.FULL,
        widget=forms.RadioSelect,
    )
    supports_tools = forms.BooleanField(
        label="The model can call tools",
        required=False,
        initial=True,
        help_text="Turn off for models without tool calling; Sparky then asks for one JSON reply.",
    )
    system_prompt = forms.CharField(
        label="Extra instructions for this service",
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="Added after Sparky's own prompt, never instead of it.",
    )
    is_active = forms.BooleanField(
        label="Use this service for the chat", required=False, initial=True
    )

    def __init__(self, *args, key_set: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.key_set = key_set
        if key_set:
            self.fields["api_key"].help_text = "A key is set. Leave blank to keep it."
            self.fields["api_key"].widget.attrs["placeholder"] = "key set (hidden)"
        else:
            self.fields["api_key"].help_text = "Not needed for Ollama or most local servers."

    def service_values(self) -> dict:
        values = dict(self.cleaned_data)
        for name in ("model_name", "custom_url", "system_prompt"):
            values[name] = values.get(name) or None
        return values


class PreferencesForm(DescribedErrorsMixin, forms.Form):
    date_format = forms.ChoiceField(
        label="Date format", choices=[(f, f) for f in DATE_FORMATS], initial=DATE_FORMATS[0]
    )
    default_weight_unit = forms.ChoiceField(label="Weight unit", choices=UserPreferences.WeightUnit)
    default_measurement_unit = forms.ChoiceField(
        label="Body measurement unit", choices=UserPreferences.MeasurementUnit
    )
    time_zone = forms.ChoiceField(
        label="Time zone", help_text="Decides what 'today' means for your diary."
    )
    auto_clear_history = forms.ChoiceField(
        label="Clear chat history", choices=UserPreferences.AutoClear
    )
    system_prompt = forms.CharField(
        label="Custom instructions for Sparky",
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="E.g. 'Be brief' or 'I train for a marathon'.",
    )
    dietary_notes = forms.CharField(
        label="Dietary notes",
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text="Allergies, vegetarian, low sodium... Sparky keeps them in mind.",
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["time_zone"].choices = [
            (name, name.replace("_", " ")) for name in sorted(zoneinfo.available_timezones())
        ]


def _goal_field(label: str, unit: str, *, decimals: int = 1) -> forms.DecimalField:
    return forms.DecimalField(
        label=f"{label} ({unit})",
        required=False,
        min_value=0,
        max_digits=9,
        decimal_places=decimals,
        widget=forms.NumberInput(attrs={"step": "any", "inputmode": "decimal"}),
    )


class GoalsForm(DescribedErrorsMixin, forms.Form):
    """The default daily goal; a blank field means no goal for that nutrient."""

    MAIN = ("calories", "protein", "carbs", "fat", "water_goal")

    calories = _goal_field("Calories", "kcal", decimals=0)
    protein = _goal_field("Protein", "g")
    carbs = _goal_field("Carbohydrates", "g")
    fat = _goal_field("Fat", "g")
    water_goal = forms.IntegerField(
        label="Water (glasses)", required=False, min_value=0, max_value=100
    )
    dietary_fiber = _goal_field("Fiber", "g")
    sugars = _goal_field("Sugars", "g")
    saturated_fat = _goal_field("Saturated fat", "g")
    polyunsaturated_fat = _goal_field("Polyunsaturated fat", "g")
    monounsaturated_fat = _goal_field("Monounsaturated fat", "g")
    trans_fat = _goal_field("Trans fat", "g")
    cholesterol = _goal_field("Cholesterol", "mg")
    sodium = _goal_field("Sodium", "mg")
    potassium = _goal_field("Potassium", "mg")
    vitamin_a = _goal_field("Vitamin A", "µg")
    vitamin_c = _goal_field("Vitamin C", "mg")
    calcium = _goal_field("Calcium", "mg")
    iron = _goal_field("Iron", "mg")

    def main_fields(self):
        return [self[name] for name in self.MAIN]

    def more_fields(self):
        return [self[name] for name in self.fields if name not in self.MAIN]


class FoodEntryForm(DescribedErrorsMixin, forms.Form):
    quantity = forms.DecimalField(
        label="Amount",
        min_value=0.001,
        max_digits=10,
        decimal_places=3,
        widget=forms.NumberInput(attrs={"step": "any", "inputmode": "decimal"}),
    )
    meal_type = forms.ChoiceField(label="Meal", choices=MealType)


class ExerciseEntryForm(DescribedErrorsMixin, forms.Form):
    duration_minutes = forms.IntegerField(label="Minutes", min_value=1, max_value=1440)
