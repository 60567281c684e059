import re

import pytest
from django.test import Client
from django.urls import reverse

from aiservices.models import AIServiceSettings
from aiservices.services import ai_service_api_key, ai_service_create
from nutrition.models import UserGoal
from sparky.services import preferences_for

pytestmark = pytest.mark.django_db
KEY = "sk-live-VERY-secret-key-4242"


def service_form(**overrides):
    data = {
        "service_name": "My OpenAI",
        "service_type": "openai",
        "api_key": KEY,
        "model_name": "gpt-4o-mini",
        "custom_url": "",
        "tool_profile": "full",
        "supports_tools": "on",
        "system_prompt": "",
        "is_active": "on",
    }
    data.update(overrides)
    return {k: v for k, v in data.items() if v is not None}


@pytest.fixture
def alices_service(alice):
    return ai_service_create(
        user=alice,
        service_name="Work OpenAI",
        service_type="openai",
        api_key=KEY,
        model_name="gpt-4o-mini",
        is_active=True,
    )


def test_adding_a_service_stores_the_key_encrypted_and_never_shows_it(alice, alice_client):
    response = alice_client.post(
        reverse("settings_ai_add"), service_form(is_active=None), follow=True
    )

    assert response.status_code == 200
    service = AIServiceSettings.objects.for_user(alice).get()
    assert service.service_name == "My OpenAI" and not service.is_active
    assert ai_service_api_key(service) == KEY
    assert KEY not in service.api_key
    html = response.content.decode()
    assert "key set" in html
    assert KEY not in html and service.api_key not in html


def test_a_refused_service_form_does_not_echo_the_key(alice, alice_client):
    response = alice_client.post(reverse("settings_ai_add"), service_form(service_name=""))

    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="id_service_name_errors"' in html
    assert KEY not in html
    assert not AIServiceSettings.objects.for_user(alice).exists()


def test_a_service_error_from_the_service_layer_lands_on_its_field(alice, alice_client):
    response = alice_client.post(
        reverse("settings_ai_add"),
        service_form(service_type="custom", custom_url="ftp://example.com", api_key=""),
    )

    html = response.content.decode()
    assert 'id="id_custom_url_errors"' in html
    assert "must start with http:// or https://" in html
    assert not AIServiceSettings.objects.for_user(alice).exists()


def test_the_edit_form_never_renders_the_key_and_blank_keeps_it(
    alice, alice_client, alices_service
):
    url = reverse("settings_ai_edit", args=[alices_service.id])

    page = alice_client.get(url).content.decode()

    assert KEY not in page and alices_service.api_key not in page
    assert 'type="password"' in page and "A key is set" in page

    alice_client.post(url, service_form(api_key="", service_name="Renamed", tool_profile="core"))

    alices_service.refresh_from_db()
    assert alices_service.service_name == "Renamed"
    assert alices_service.tool_profile == "core"
    assert ai_service_api_key(alices_service) == KEY


def test_a_new_key_on_edit_replaces_the_old_one(alice, alice_client, alices_service):
    alice_client.post(
        reverse("settings_ai_edit", args=[alices_service.id]),
        service_form(api_key="sk-new-key-0002", supports_tools=None),
    )

    alices_service.refresh_from_db()
    assert ai_service_api_key(alices_service) == "sk-new-key-0002"
    assert alices_service.supports_tools is False


def test_the_list_shows_key_set_but_never_the_key(alice, alice_client, alices_service):
    html = alice_client.get(reverse("settings_ai")).content.decode()

    assert "Work OpenAI" in html and "key set" in html
    assert KEY not in html and alices_service.api_key not in html


def test_activating_a_service_deactivates_the_others(alice, alice_client, alices_service, settings):
    settings.SPARKY_ALLOW_PRIVATE_AI_URLS = True  # the local Ollama lives on loopback
    other = ai_service_create(
        user=alice,
        service_name="Local",
        service_type="ollama",
        api_key="",
        model_name="llama3.2",
        is_active=True,
    )
    assert not AIServiceSettings.objects.get(pk=alices_service.pk).is_active

    alice_client.post(reverse("settings_ai_activate", args=[alices_service.id]), {"insist": "1"})

    assert AIServiceSettings.objects.get(pk=alices_service.pk).is_active
    assert not AIServiceSettings.objects.get(pk=other.pk).is_active


def test_a_new_service_that_fails_its_test_is_kept_aside_with_the_cause(
    alice, alice_client, settings
):
    settings.SPARKY_ALLOW_PRIVATE_AI_URLS = True
    form = service_form(
        service_type="custom", custom_url="http://sparky-test.invalid:8080/v1", model_name="m"
    )

    response = alice_client.post(reverse("settings_ai_add"), form, follow=True)

    service = AIServiceSettings.objects.for_user(alice).get()
    assert not service.is_active
    html = response.content.decode()
    assert (
        "did not pass the connection test, so Sparky keeps using the built-in offline parser"
        in (html)
    )
    assert "sparky-test.invalid could not be found (DNS lookup failed)" in html
    assert "Use it anyway" in html and KEY not in html
    # the cause stays beside the service until it is tested again
    again = alice_client.get(reverse("settings_ai")).content.decode()
    assert "could not be found" in again and "Not in use" in again


def test_a_new_service_that_passes_its_test_is_used_at_once(
    alice, alice_client, fake_llm, private_ai
):
    fake_llm.reply_text("ok")
    form = service_form(service_type="custom", custom_url=fake_llm.openai_base, model_name="m")

    response = alice_client.post(reverse("settings_ai_add"), form, follow=True)

    assert AIServiceSettings.objects.for_user(alice).get().is_active
    assert "passed the connection test: Sparky now uses it" in response.content.decode()


def test_use_it_anyway_makes_a_failed_service_active_untested(alice, alice_client, settings):
    settings.SPARKY_ALLOW_PRIVATE_AI_URLS = True
    form = service_form(service_type="custom", custom_url="http://sparky-test.invalid/v1")
    alice_client.post(reverse("settings_ai_add"), form)
    service = AIServiceSettings.objects.for_user(alice).get()

    response = alice_client.post(
        reverse("settings_ai_activate", args=[service.id]), {"insist": "1"}, follow=True
    )

    service.refresh_from_db()
    assert service.is_active
    assert "Sparky now uses My OpenAI (untested)" in response.content.decode()


def test_make_active_tests_first_and_refuses_a_failing_service(alice, alice_client, settings):
    settings.SPARKY_ALLOW_PRIVATE_AI_URLS = True
    service = ai_service_create(
        user=alice, service_name="Down", service_type="custom", api_key="",
        model_name="m", custom_url="http://sparky-test.invalid/v1",
    )  # fmt: skip

    response = alice_client.post(reverse("settings_ai_activate", args=[service.id]), follow=True)

    service.refresh_from_db()
    assert not service.is_active
    assert "Down did not pass the connection test" in response.content.decode()


def test_a_refused_form_keeps_what_was_typed_and_the_key_without_showing_it(alice, alice_client):
    response = alice_client.post(reverse("settings_ai_add"), service_form(model_name=""))

    html = response.content.decode()
    assert "OpenAI needs a model name: the model id it lists, e.g. gpt-4o-mini." in html
    assert 'value="My OpenAI"' in html  # the name typed is still there
    assert KEY not in html and "The key you typed is kept" in html
    kept = re.search(r'name="kept_key" value="([^"]+)"', html).group(1)

    alice_client.post(
        reverse("settings_ai_add"),
        service_form(model_name="gpt-4o-mini", api_key="", kept_key=kept, is_active=None),
    )

    service = AIServiceSettings.objects.for_user(alice).get()
    assert ai_service_api_key(service) == KEY


def test_a_kept_key_is_no_use_to_another_user(alice, alice_client, bob_client, bob):
    html = alice_client.post(reverse("settings_ai_add"), service_form(model_name="")).content
    kept = re.search(r'name="kept_key" value="([^"]+)"', html.decode()).group(1)

    response = bob_client.post(
        reverse("settings_ai_add"), service_form(api_key="", kept_key=kept, is_active=None)
    )

    assert b"OpenAI needs an API key" in response.content
    assert not AIServiceSettings.objects.for_user(bob).exists()


def test_the_form_marks_what_the_provider_needs(alice_client):
    html = alice_client.get(reverse("settings_ai_add")).content.decode()

    assert re.search(r'<label for="id_model_name">Model <span class="required"[^>]*>\*', html)
    assert re.search(r'<label for="id_api_key">API key <span class="required"[^>]*>\*', html)
    assert re.search(
        r'<label for="id_custom_url">Server URL <span class="required"[^>]* hidden', html
    )
    assert 'data-required-for="openai anthropic ollama openrouter groq custom"' in html


def test_the_offline_button_deactivates_every_service(alice, alice_client, alices_service):
    alice_client.post(reverse("settings_ai_offline"))

    assert not AIServiceSettings.objects.for_user(alice).active().exists()


def test_deleting_a_service_removes_it(alice, alice_client, alices_service):
    alice_client.post(reverse("settings_ai_delete", args=[alices_service.id]))

    assert not AIServiceSettings.objects.for_user(alice).exists()


def test_bob_gets_404_for_alices_services(alice, bob_client, alices_service):
    for name in ("settings_ai_activate", "settings_ai_delete", "settings_ai_test"):
        assert bob_client.post(reverse(name, args=[alices_service.id])).status_code == 404, name
    edit = reverse("settings_ai_edit", args=[alices_service.id])
    assert bob_client.get(edit).status_code == 404
    assert bob_client.post(edit, service_form(service_name="Hijacked")).status_code == 404
    alices_service.refresh_from_db()
    assert alices_service.service_name == "Work OpenAI"
    assert KEY not in bob_client.get(reverse("settings_ai")).content.decode()


def test_test_connection_reports_success_from_the_model(alice, alice_client, fake_llm, private_ai):
    service = ai_service_create(
        user=alice,
        service_name="Loopback",
        service_type="custom",
        api_key="sk-loopback-0003",
        model_name="fake-model",
        custom_url=fake_llm.openai_base,
        is_active=True,
    )
    fake_llm.reply_text("ok")

    response = alice_client.post(
        reverse("settings_ai_test", args=[service.id]), HTTP_HX_REQUEST="true"
    )

    html = response.content.decode()
    assert response.status_code == 200
    assert "Works." in html and "Connected" in html
    assert "sk-loopback-0003" not in html
    assert fake_llm.last.api_key == "sk-loopback-0003"  # the key did reach the provider


def test_test_connection_reports_a_refused_url(alice, alice_client, settings):
    settings.SPARKY_ALLOW_PRIVATE_AI_URLS = True
    service = ai_service_create(  # saved while allowed, then switched off by the admin
        user=alice,
        service_name="Sneaky",
        service_type="custom",
        api_key="sk-sneaky-0004",
        model_name="m",
        custom_url="http://10.0.0.7/v1",
        is_active=True,
    )
    settings.SPARKY_ALLOW_PRIVATE_AI_URLS = False

    response = alice_client.post(
        reverse("settings_ai_test", args=[service.id]), HTTP_HX_REQUEST="true"
    )

    html = response.content.decode()
    assert "Failed." in html
    assert "sk-sneaky-0004" not in html


def test_the_service_form_is_protected_by_csrf(alice):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)

    response = client.post(reverse("settings_ai_add"), service_form())

    assert response.status_code == 403
    assert not AIServiceSettings.objects.for_user(alice).exists()


def test_preferences_are_saved(alice, alice_client):
    response = alice_client.post(
        reverse("settings_preferences"),
        {
            "date_format": "dd/MM/yyyy",
            "default_weight_unit": "lb",
            "default_measurement_unit": "inches",
            "time_zone": "America/New_York",
            "auto_clear_history": "7days",
            "system_prompt": "Be brief.",
            "dietary_notes": "vegetarian",
        },
        follow=True,
    )

    assert response.status_code == 200
    assert b"Preferences saved." in response.content
    prefs = preferences_for(alice)
    alice.refresh_from_db()
    assert (prefs.date_format, prefs.default_weight_unit, prefs.default_measurement_unit) == (
        "dd/MM/yyyy",
        "lb",
        "inches",
    )
    assert alice.time_zone == "America/New_York"
    assert prefs.auto_clear_history == "7days"
    assert prefs.system_prompt == "Be brief." and prefs.dietary_notes == "vegetarian"


def test_an_unknown_time_zone_is_refused_next_to_the_field(alice, alice_client):
    response = alice_client.post(
        reverse("settings_preferences"),
        {
            "date_format": "yyyy-MM-dd",
            "default_weight_unit": "kg",
            "default_measurement_unit": "cm",
            "time_zone": "Mars/Olympus_Mons",
            "auto_clear_history": "never",
        },
    )

    assert response.status_code == 200
    assert b'id="id_time_zone_errors"' in response.content
    alice.refresh_from_db()
    assert alice.time_zone == "UTC"


def test_the_preferences_page_lists_time_zones_and_labels_every_input(alice_client):
    html = alice_client.get(reverse("settings_preferences")).content.decode()

    assert '<option value="Europe/Berlin">Europe/Berlin (UTC' in html
    assert 'value="Factory"' not in html and 'value="localtime"' not in html
    assert html.index('label="Common time zones"') < html.index('label="Other time zones"')
    for name in ("date_format", "time_zone", "default_weight_unit", "dietary_notes"):
        assert f'<label for="id_{name}">' in html


def test_the_factory_placeholder_is_refused_as_a_time_zone(alice, alice_client):
    response = alice_client.post(
        reverse("settings_preferences"),
        {
            "date_format": "yyyy-MM-dd",
            "default_weight_unit": "kg",
            "default_measurement_unit": "cm",
            "time_zone": "Factory",
            "auto_clear_history": "never",
        },
    )

    assert b'id="id_time_zone_errors"' in response.content
    alice.refresh_from_db()
    assert alice.time_zone == "UTC"


def test_a_zone_the_browser_reports_is_accepted_even_if_not_listed(alice, alice_client):
    response = alice_client.post(
        reverse("settings_preferences"),
        {
            "date_format": "yyyy-MM-dd",
            "default_weight_unit": "kg",
            "default_measurement_unit": "cm",
            "time_zone": "Asia/Calcutta",
            "auto_clear_history": "never",
        },
    )

    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.time_zone == "Asia/Calcutta"


def test_clearing_the_chat_history_deletes_the_messages(alice, alice_client):
    from chat.models import ChatMessage

    ChatMessage.objects.create(user=alice, message_type="user", content="hello")

    alice_client.post(reverse("settings_clear_history"))

    assert not ChatMessage.objects.for_user(alice).exists()


def test_default_goals_are_saved_and_shown_again(alice, alice_client):
    alice_client.post(
        reverse("settings_goals"),
        {"calories": "2100", "protein": "130", "carbs": "", "fat": "70", "water_goal": "10"},
    )

    goal = UserGoal.objects.for_user(alice).get(goal_date__isnull=True)
    assert goal.calories == 2100 and goal.protein == 130 and goal.water_goal == 10
    assert goal.carbs is None
    html = alice_client.get(reverse("settings_goals")).content.decode()
    assert 'value="2100"' in html and 'value="130"' in html


def test_a_negative_goal_is_refused_next_to_the_field(alice, alice_client):
    response = alice_client.post(reverse("settings_goals"), {"calories": "-5"})

    assert response.status_code == 200
    assert b'id="id_calories_errors"' in response.content
    assert not UserGoal.objects.for_user(alice).exists()


def test_a_private_server_url_is_refused_next_to_the_url_field(alice, alice_client, settings):
    settings.SPARKY_ALLOW_PRIVATE_AI_URLS = False
    response = alice_client.post(
        reverse("settings_ai_add"),
        service_form(service_type="custom", custom_url="http://10.0.0.7/v1", model_name="m"),
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "10.0.0.7 is a private address" in html
    assert not AIServiceSettings.objects.for_user(alice).exists()


def test_a_service_waiting_to_pass_is_used_once_a_retest_passes(
    alice, alice_client, fake_llm, private_ai
):
    # "Add and test" with "use it once it passes": the model is busy loading, the test times out
    fake_llm.reply_error(503, {"error": {"message": "loading model"}})
    form = service_form(service_type="custom", custom_url=fake_llm.openai_base, model_name="m")
    alice_client.post(reverse("settings_ai_add"), form)
    service = AIServiceSettings.objects.for_user(alice).get()
    assert not service.is_active

    fake_llm.reply_text("ok")
    response = alice_client.post(
        reverse("settings_ai_test", args=[service.id]), HTTP_HX_REQUEST="true"
    )

    service.refresh_from_db()
    assert service.is_active
    assert response.headers["HX-Refresh"] == "true"  # the page redraws with it active
    page = alice_client.get(reverse("settings_ai")).content.decode()
    assert "passed the connection test: Sparky now uses it" in page


def test_a_passing_test_of_a_service_nobody_asked_to_use_changes_nothing(
    alice, alice_client, fake_llm, private_ai
):
    service = ai_service_create(
        user=alice, service_name="Spare", service_type="custom", api_key="",
        model_name="m", custom_url=fake_llm.openai_base,
    )  # fmt: skip
    fake_llm.reply_text("ok")

    alice_client.post(reverse("settings_ai_test", args=[service.id]), HTTP_HX_REQUEST="true")

    service.refresh_from_db()
    assert not service.is_active


def test_deleting_a_service_mentions_its_api_key_only_when_it_has_one(
    alice, alice_client, alices_service, settings
):
    settings.SPARKY_ALLOW_PRIVATE_AI_URLS = True
    ai_service_create(
        user=alice, service_name="Local", service_type="ollama", api_key="", model_name="m",
    )  # fmt: skip

    html = alice_client.get(reverse("settings_ai")).content.decode()

    assert "Delete Work OpenAI and its API key?" in html
    assert "Delete Local?" in html


def test_a_long_model_id_wraps_on_the_service_card(alice, alice_client, settings):
    settings.SPARKY_ALLOW_PRIVATE_AI_URLS = True
    ai_service_create(
        user=alice, service_name="Local", service_type="ollama", api_key="",
        model_name="hf.co/someone/a-very-long-model-repository-name-GGUF:Q4_K_M",
    )  # fmt: skip

    html = alice_client.get(reverse("settings_ai")).content.decode()

    assert '<dd class="break">hf.co/someone/a-very-long-model' in html
