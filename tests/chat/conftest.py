"""A small public catalog and AI services pointing at the loopback fake, for coach tests."""

from decimal import Decimal

import pytest

from chat.services import ai_service_create
from exercise.models import Exercise
from nutrition.models import Food, FoodVariant
from nutrition.names import short_food_name
from tests import fake_llm as fake_llm_module

fake_llm = fake_llm_module.fake_llm

_FOODS = [
    # name, kcal, protein, carbs, fat per 100 g, (variant unit, grams)
    ("Egg, whole, raw, fresh", 143, 12.56, 0.72, 9.51, ("large", 50)),
    ("Bananas, raw", 89, 1.09, 22.84, 0.33, ('medium (7" to 7-7/8" long)', 118)),
    ("Bread, whole-wheat, commercially prepared, toasted", 306, 16.27, 51.16, 4.27, ("slice", 28)),
    ("Cereals, oats, regular and quick, not fortified, dry", 379, 13.15, 67.7, 6.52, ("cup", 81)),
    (
        "Chicken, broilers or fryers, breast, meat only, cooked, roasted",
        165,
        31.02,
        0,
        3.57,
        ("cup, chopped or diced", 140),
    ),
]


@pytest.fixture
def catalog(db):
    foods = {}
    for i, (name, kcal, protein, carbs, fat, (unit, grams)) in enumerate(_FOODS):
        food = Food.objects.create(
            name=name,
            original_name=name,
            display_name=short_food_name(name),  # as the catalog loader derives it
            calories=kcal,
            protein=protein,
            carbs=carbs,
            fat=fat,
            serving_size=100,
            serving_unit="g",
            source="usda_sr28",
            source_id=f"9{i:04d}",
        )
        factor = Decimal(grams) / 100
        FoodVariant.objects.create(
            food=food,
            serving_size=1,
            serving_unit=unit,
            gram_weight=grams,
            sequence=1,
            calories=Decimal(kcal) * factor,
            protein=Decimal(str(protein)) * factor,
            carbs=Decimal(str(carbs)) * factor,
            fat=Decimal(str(fat)) * factor,
        )
        foods[name.split(",")[0].lower()] = food
    for name, met, code in (
        ("Running, 6 mph (10 min/mile)", "9.8", "12050"),
        ("Walking, 3.5 mph, brisk", "4.3", "17200"),
        ("Swimming laps, freestyle, slow", "5.8", "18240"),
    ):
        Exercise.objects.create(
            name=name,
            met=Decimal(met),
            calories_per_hour=round(float(met) * 70),
            category="cardio",
            source="compendium_2011",
            source_id=code,
        )
    return foods


@pytest.fixture
def ai_settings(settings):
    settings.SPARKY_ALLOW_PRIVATE_AI_URLS = True  # the fake lives on loopback
    settings.SPARKY_LLM_TIMEOUT = 5
    return settings


@pytest.fixture
def openai_service(alice, fake_llm, ai_settings):
    return ai_service_create(
        user=alice,
        service_name="Loopback",
        service_type="custom",
        api_key="sk-test-alice-0001",
        model_name="fake-model",
        custom_url=fake_llm.openai_base,
        is_active=True,
    )


@pytest.fixture
def anthropic_service(alice, fake_llm, ai_settings):
    return ai_service_create(
        user=alice,
        service_name="Claude",
        service_type="anthropic",
        api_key="sk-ant-test-0002",
        model_name="claude-haiku-4-5",
        custom_url=fake_llm.anthropic_base,
        is_active=True,
    )


@pytest.fixture
def core_service(alice, fake_llm, ai_settings):
    return ai_service_create(
        user=alice,
        service_name="Gemma",
        service_type="custom",
        api_key="x",
        model_name="gemma2:2b",
        custom_url=fake_llm.openai_base,
        tool_profile="core",
        sparky_reads_first=False,  # these tests are about what the model does with a message
        is_active=True,
    )


@pytest.fixture
def reads_first_service(alice, fake_llm, ai_settings):
    """A core service as created by default: Sparky's parser reads each message first."""
    return ai_service_create(
        user=alice,
        service_name="Gemma",
        service_type="custom",
        api_key="x",
        model_name="gemma2:2b",
        custom_url=fake_llm.openai_base,
        tool_profile="core",
        is_active=True,
    )
