"""The AI service form of the settings pages; the rules live in aiservices.services."""

from __future__ import annotations

from django import forms

from aiservices.models import AIServiceSettings
from aiservices.services import DEFAULT_MODELS, KEYLESS_TYPES
from sparky.crypto import SecretError, decrypt_secret, encrypt_secret
from sparky.forms import DescribedErrorsMixin, GroupedFieldsMixin, notes_field

KEPT_KEY_SECONDS = 3600  # how long a key typed into a refused form is held for the next try
KEPT_HELP = "The key you typed is kept (not shown). Type another to replace it."


def _types_needing(exempt) -> str:
    return " ".join(t for t in AIServiceSettings.ServiceType.values if t not in exempt)


class AIServiceForm(GroupedFieldsMixin, DescribedErrorsMixin, forms.Form):
    MAIN = ("service_name", "service_type", "model_name", "api_key")

    service_name = forms.CharField(
        label="Name", max_length=255, help_text="Your own label, e.g. 'OpenAI at work'."
    )
    service_type = forms.ChoiceField(label="Provider", choices=AIServiceSettings.ServiceType)
    # Write-only: never rendered back (render_value=False), blank on edit keeps the stored key.
    api_key = forms.CharField(
        label="API key",
        required=False,
        strip=True,
        widget=forms.PasswordInput(
            render_value=False,
            attrs={"autocomplete": "off", "data-required-for": _types_needing(KEYLESS_TYPES)},
        ),
    )
    # A key typed into a form that was refused for another reason, encrypted for this user and
    # for an hour, so it need not be typed again; the key itself is never sent back.
    kept_key = forms.CharField(required=False, widget=forms.HiddenInput)
    model_name = forms.CharField(
        label="Model",
        required=False,
        max_length=255,
        help_text=(
            "The provider's model id, e.g. gpt-4o-mini, claude-haiku-4-5, llama3.2. Mistral and "
            "Google Gemini may leave it blank for their current model."
        ),
        widget=forms.TextInput(attrs={"data-required-for": _types_needing(DEFAULT_MODELS)}),
    )
    custom_url = forms.CharField(
        label="Server URL",
        required=False,
        help_text=(
            "Only for Ollama and OpenAI-compatible servers, e.g. http://127.0.0.1:11434 or "
            "https://host/v1."
        ),
        widget=forms.URLInput(
            attrs={"inputmode": "url", "spellcheck": "false", "data-required-for": "custom"}
        ),
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
    sparky_reads_first = forms.BooleanField(
        label="Sparky logs what it understands for sure, without asking the model",
        required=False,
        initial=True,
        help_text=(
            "Everyday logging ('2 eggs and toast for breakfast') is saved at once by Sparky's own "
            "parser; the model answers everything else. Faster, and much steadier with small "
            "local models."
        ),
    )
    system_prompt = notes_field(
        "Extra instructions for this service",
        "Added after Sparky's own prompt, never instead of it.",
    )
    is_active = forms.BooleanField(
        label="Use this service for the chat once it passes a connection test",
        required=False,
        initial=True,
    )

    def __init__(self, *args, key_set: bool = False, user=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.key_set = key_set
        self.user = user
        key = self.fields["api_key"]
        if self.held_key():
            key.help_text = KEPT_HELP
            key.widget.attrs["placeholder"] = "key kept (hidden)"
        elif key_set:
            key.help_text = "A key is set. Leave blank to keep it."
            key.widget.attrs["placeholder"] = "key set (hidden)"
        else:
            key.help_text = "Not needed for Ollama or most local servers."
        provider = self["service_type"].value() or AIServiceSettings.ServiceType.OPENAI
        for name in ("api_key", "model_name", "custom_url"):
            field = self.fields[name]
            needed = provider in field.widget.attrs["data-required-for"].split()
            if name == "api_key" and (key_set or self.held_key()):
                needed = False  # a key is there already
            field.may_be_required = True
            field.marked_required = needed  # the label's * (sparky.js follows the provider)
            if needed:
                field.widget.attrs["aria-required"] = "true"
            else:
                field.widget.attrs.pop("aria-required", None)

    def held_key(self) -> str:
        """The key typed into this form before it was refused ("" when none or expired)."""
        if self.user is None or not self.is_bound:
            return ""
        token = self.data.get("kept_key") or ""
        try:
            owner, _, key = decrypt_secret(token, ttl=KEPT_KEY_SECONDS).partition(":")
        except SecretError:
            return ""
        return key if owner == str(self.user.pk) else ""

    def keep_typed_key(self) -> None:
        """Before showing the form again with errors: hold the typed key (encrypted, for this
        user, for an hour) in place of the key itself."""
        typed = (self.data.get("api_key") or "").strip() or self.held_key()
        if not typed or self.user is None:
            return
        self.data = self.data.copy()
        self.data["kept_key"] = encrypt_secret(f"{self.user.pk}:{typed}")
        self.data["api_key"] = ""
        key = self.fields["api_key"]
        key.help_text = KEPT_HELP
        self["api_key"].help_text = KEPT_HELP  # the bound field copied the old one
        key.widget.attrs["placeholder"] = "key kept (hidden)"
        key.marked_required = False
        key.widget.attrs.pop("aria-required", None)

    def service_values(self) -> dict:
        values = dict(self.cleaned_data)
        values.pop("kept_key", None)
        values["api_key"] = values.get("api_key") or self.held_key()
        for name in ("model_name", "custom_url", "system_prompt"):
            values[name] = values.get(name) or None
        return values
