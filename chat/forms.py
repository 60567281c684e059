"""The AI service form of the settings pages; the rules live in chat.services."""

from __future__ import annotations

from django import forms

from chat.models import AIServiceSettings
from sparky.forms import DescribedErrorsMixin


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
