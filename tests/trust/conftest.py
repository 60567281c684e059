"""Alice's whole world, a way to photograph it in Postgres, and the strings bob must never see.

`alice_world` fills every kind of row a user owns — a private custom food (with a household
serving), a food entry, a custom exercise and an entry of it, a check-in, a custom measurement and
its category, water, a default and a dated goal, chat history with a stored photo, an active AI
service holding a planted API key, preferences and an API token — through the services, the way
the app writes them. `snapshot(user)` reads every one of those tables (and the photo files) back,
so a test can prove that nothing of alice's changed: not a value, not an `updated_at`.

MARKERS are strings only alice's data contains. A response, page, tool result or model request
made on bob's behalf that contains one of them (and did not get it from bob's own input) leaks.
"""

from __future__ import annotations

import dataclasses
import io
import json
from decimal import Decimal
from pathlib import Path

import pytest
from django.core.cache import cache
from django.test import Client
from PIL import Image
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from aiservices import services as ai_services
from aiservices.models import AIServiceSettings
from chat.models import ChatMessage
from chat.turn.coach import handle_turn
from diary import services as diary_services
from diary.imports import import_preview
from diary.models import ImportedRow, ImportJob
from exercise import services as exercise_services
from exercise.models import Exercise, ExerciseEntry
from measurements import services as measurement_services
from measurements.models import CheckInMeasurement, CustomCategory, CustomMeasurement
from nutrition import services as food_services
from nutrition.models import Food, FoodEntry, FoodVariant, UserGoal, UsualMeal, WaterIntake
from sparky.api import token_issue
from sparky.dates import today_for
from sparky.models import User, UserPreferences
from tests import fake_llm as fake_llm_module

fake_llm = fake_llm_module.fake_llm

PLANTED_KEY = "sk-trust-PLANTED-7f3a9c1e5b2d4680aa11"

FOOD_NAME = "Alicesecret Maple Granola"
EXERCISE_NAME = "Alicesecret Sword Dance"
CATEGORY_NAME = "Alicesecret Glucose"
SERVICE_NAME = "Alicesecret Loopback"
CHAT_TEXT = "alicesecret diary: 2 eggs for breakfast"
NOTES = "alicesecret: allergic to pistachios"
PROMPT = "alicesecret custom prompt: call me Captain"
SERVICE_PROMPT = "alicesecret service prompt"
VARIANT_UNIT = "alicesecret scoop"
WEIGHT = "73.37"
WAIST = "81.13"
GLUCOSE = "97.31"

# Words of alice's that no other data, template or prompt contains.
TEXT_MARKERS = (
    "alicesecret",
    PLANTED_KEY,
    PLANTED_KEY[-12:],  # a key shown partly ("sk-...aa11") still leaks
    "alice@example.com",
    WEIGHT,
    WAIST,
    GLUCOSE,
)


@dataclasses.dataclass
class World:
    alice: User
    food: Food
    variant: FoodVariant
    food_entry: FoodEntry
    exercise: Exercise
    exercise_entry: ExerciseEntry
    checkin: CheckInMeasurement
    category: CustomCategory
    measurement: CustomMeasurement
    goal: UserGoal
    dated_goal: UserGoal
    service: AIServiceSettings
    user_message: ChatMessage
    reply: ChatMessage
    photo_name: str  # relative to MEDIA_ROOT: chat/<alice id>/<hex>.jpg
    token: str
    day: object  # alice's today
    import_job: ImportJob | None = None  # an import of hers, previewed, waiting to be confirmed

    @property
    def ids(self) -> list[str]:
        """Every id of alice's rows, as a model, a client or a URL would write it."""
        rows = (
            self.alice,
            self.food,
            self.variant,
            self.food_entry,
            self.exercise,
            self.exercise_entry,
            self.checkin,
            self.category,
            self.measurement,
            self.goal,
            self.dated_goal,
            self.service,
            self.user_message,
            self.reply,
            *((self.import_job,) if self.import_job else ()),
        )
        return [str(row.pk) for row in rows]

    @property
    def photo_file(self) -> str:
        return self.photo_name.rsplit("/", 1)[-1]


def png_bytes(size=(40, 30), color=(210, 140, 60), fmt="PNG") -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, color).save(out, format=fmt)
    return out.getvalue()


@pytest.fixture(autouse=True)
def _media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


@pytest.fixture(autouse=True)
def _fresh_cache():
    # Throttle history and the LLM circuit live in the cache; every test starts clean.
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def alice_world(alice, catalog, settings) -> World:
    # Every write goes through the service that owns it, as the app would write it.
    diary_services.preferences_update(
        user=alice, dietary_notes=NOTES, system_prompt=PROMPT, default_weight_unit="kg"
    )
    food = food_services.food_create_custom(
        user=alice, name=FOOD_NAME, calories=451, protein=11, carbs=61, fat=17
    )
    variant = FoodVariant.objects.create(
        food=food,
        serving_size=1,
        serving_unit=VARIANT_UNIT,
        gram_weight=45,
        sequence=1,
        calories=Decimal("203"),
    )
    food_entry = food_services.food_entry_create(
        user=alice, food=food, quantity=Decimal("130"), unit="g", meal_type="breakfast"
    )
    exercise = exercise_services.exercise_create_custom(
        user=alice, name=EXERCISE_NAME, calories_per_hour=377
    )
    exercise_entry = exercise_services.exercise_entry_create(
        user=alice, exercise=exercise, duration_minutes=41, notes="alicesecret kata"
    )
    checkin = measurement_services.checkin_upsert(
        user=alice,
        weight=Decimal(WEIGHT),
        weight_unit="kg",
        waist=Decimal(WAIST),
        length_unit="cm",
        steps=12347,
    )
    measurement = measurement_services.custom_measurement_log(
        user=alice, name=CATEGORY_NAME, value=Decimal(GLUCOSE), unit="mg/dL"
    )
    food_services.water_add(user=alice, glasses=7)
    food_services.usual_meal_save(user=alice, meal="breakfast")  # her granola, as her usual
    day = today_for(alice)
    goal = food_services.goal_set(user=alice, calories=2345, protein=123, water_goal=9)
    dated_goal = food_services.goal_set(user=alice, goal_date=day, calories=1987)
    # Chat history with a photo: the offline coach (no service active yet) stores both.
    turn = handle_turn(alice, CHAT_TEXT, image=png_bytes())
    user_message = ChatMessage.objects.get(pk=turn.user_message_id)
    reply = ChatMessage.objects.get(pk=turn.message_id)
    photo_name = user_message.metadata["image"]["name"]
    service = ai_services.ai_service_create(
        user=alice,
        service_name=SERVICE_NAME,
        service_type="openai",
        api_key=PLANTED_KEY,
        model_name="gpt-4o-mini",
        system_prompt=SERVICE_PROMPT,
        is_active=True,
    )
    return World(
        alice=alice,
        food=food,
        variant=variant,
        food_entry=food_entry,
        exercise=exercise,
        exercise_entry=exercise_entry,
        checkin=checkin,
        category=measurement.category,
        measurement=measurement,
        goal=goal,
        dated_goal=dated_goal,
        service=service,
        user_message=user_message,
        reply=reply,
        photo_name=photo_name,
        token=token_issue(user=alice).key,
        day=day,
        import_job=import_preview(
            user=alice,
            filename="alicesecret-servings.csv",
            content=(
                "Day,Group,Food Name,Amount,Energy (kcal)\n"
                f"{day.isoformat()},Breakfast,{FOOD_NAME} bar,1.00 bar,188\n"
            ).encode(),
        ),
    )


# --- what alice has, read back from Postgres -------------------------------------------------

_OWNED = (
    Food,
    Exercise,
    FoodEntry,
    ExerciseEntry,
    CheckInMeasurement,
    CustomCategory,
    CustomMeasurement,
    WaterIntake,
    UserGoal,
    UsualMeal,
    ChatMessage,
    AIServiceSettings,
    UserPreferences,
    Token,
    ImportJob,
    ImportedRow,
)


def _rows(queryset) -> list[dict]:
    return sorted(
        (dict(row) for row in queryset.values()), key=lambda r: str(r.get("id") or r.get("pk"))
    )


def snapshot(user, media_root=None) -> dict:
    """Every row the user owns, column by column, and their stored photos."""
    from django.conf import settings

    found = {model._meta.db_table: _rows(model.objects.filter(user=user)) for model in _OWNED}
    found["food_variants"] = _rows(FoodVariant.objects.filter(food__user=user))
    found["users"] = _rows(User.objects.filter(pk=user.pk))
    folder = Path(media_root or settings.MEDIA_ROOT) / "chat" / str(user.pk)
    found["photos"] = sorted((p.name, p.stat().st_size) for p in folder.glob("*") if p.is_file())
    return found


def fingerprint(user) -> tuple:
    """The same information as snapshot(), folded into one query: a digest per table."""
    from django.conf import settings
    from django.db import connection

    parts = [
        f"(SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) "
        f'FROM "{model._meta.db_table}" t WHERE t.user_id = %(user)s)'
        for model in _OWNED
    ]
    parts.append(
        "(SELECT md5(coalesce(string_agg(v::text, '|' ORDER BY v::text), '')) "
        "FROM food_variants v JOIN foods f ON f.id = v.food_id WHERE f.user_id = %(user)s)"
    )
    parts.append("(SELECT md5(u::text) FROM users u WHERE u.id = %(user)s)")
    with connection.cursor() as cursor:
        cursor.execute("SELECT " + ", ".join(parts), {"user": user.pk})
        digests = cursor.fetchone()
    folder = Path(settings.MEDIA_ROOT) / "chat" / str(user.pk)
    photos = tuple(sorted(p.name for p in folder.glob("*")))
    return (*digests, photos)


def leaks(text: str, world: World, *, given: str = "", ids: bool = True) -> list[str]:
    """Alice's markers (and ids) found in `text` that were not in `given` (bob's own input)."""
    haystack = text.lower()
    supplied = given.lower()
    markers = [*TEXT_MARKERS, *(world.ids if ids else ())]
    return [m for m in markers if m.lower() in haystack and m.lower() not in supplied]


def as_text(value) -> str:
    if isinstance(value, bytes | bytearray):
        return bytes(value).decode("utf-8", "replace")
    if isinstance(value, str):
        return value
    return json.dumps(value, default=str)


# --- clients ---------------------------------------------------------------------------------


def api_client_for(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_issue(user=user).key}")
    return client


@pytest.fixture
def bob_api(bob):
    return api_client_for(bob)


@pytest.fixture
def bob_client(bob):
    client = Client()
    client.force_login(bob)
    return client


@pytest.fixture
def private_ai(settings):
    settings.SPARKY_ALLOW_PRIVATE_AI_URLS = True  # the fake model lives on loopback
    settings.SPARKY_LLM_TIMEOUT = 5
    settings.SPARKY_LOCAL_LLM_TIMEOUT = 5
    return settings
