"""Forms of the account and settings pages.

Forms only parse and shape what the browser sent; the rules (allowed values, one active service,
key encryption, goal ranges) live in the services, whose ValidationErrors the views put back on
the matching field with `attach_service_error`.
"""

from __future__ import annotations

from django import forms
from django.contrib.auth.forms import AuthenticationForm, BaseUserCreationForm
from django.core.exceptions import ValidationError

from sparky import logins, time_zones
from sparky.models import User

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


def notes_field(label: str, help_text: str, *, rows: int = 3) -> forms.CharField:
    """An optional free text of a few lines (instructions, notes)."""
    return forms.CharField(
        label=label,
        required=False,
        widget=forms.Textarea(attrs={"rows": rows}),
        help_text=help_text,
    )


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


class TimeZoneField(forms.ChoiceField):
    """A <select> of the zones people live in (sparky.time_zones), grouped; any real zone is
    accepted, since the page's script may add the browser's own zone to the list."""

    def __init__(self, **kwargs):
        kwargs.setdefault("choices", time_zones.choices)
        super().__init__(**kwargs)

    def valid_value(self, value) -> bool:
        return time_zones.is_zone(value)


class EmailLoginForm(DescribedErrorsMixin, AuthenticationForm):
    """Django's login form with the email as the user name (emails are stored lower-case)."""

    username = forms.EmailField(
        label="Email",
        widget=forms.EmailInput(attrs={"autocomplete": "email", "autofocus": True}),
    )

    def clean_username(self):
        return self.cleaned_data["username"].strip().lower()

    def get_invalid_login_error(self):
        if logins.is_locked_out(self.request):
            return ValidationError(logins.locked_out_message(), code="locked_out")
        return super().get_invalid_login_error()


class SignupForm(DescribedErrorsMixin, BaseUserCreationForm):
    # Filled in by the page's script from the browser's own setting; ignored when unknown.
    time_zone = forms.CharField(required=False, widget=forms.HiddenInput)

    class Meta:
        model = User
        fields = ("email",)
        widgets = {"email": forms.EmailInput(attrs={"autocomplete": "email", "autofocus": True})}

    def clean_email(self):
        # Whether the email has an account is the view's to answer, without saying so.
        return self.cleaned_data["email"].strip().lower()

    def validate_unique(self):
        pass  # as above: the email's "already exists" would confirm the account

    def clean_time_zone(self):
        value = (self.cleaned_data.get("time_zone") or "").strip()
        return value if time_zones.is_zone(value) else ""


class GroupedFieldsMixin:
    """A settings form drawn in two parts: the fields named in MAIN side by side, then every
    other visible field in the form's order (hidden ones are the template's to place)."""

    MAIN: tuple[str, ...] = ()

    def main_fields(self):
        return [self[name] for name in self.MAIN]

    def more_fields(self):
        return [self[n] for n in self.fields if n not in self.MAIN and not self[n].is_hidden]
