"""factory_boy factories for the rows tests need: users, foods (with household servings), food
entries, exercises and their entries, check-ins and custom measurements, goals.

They write rows straight to Postgres in the shapes the catalog loader and the services write them
(public foods per 100 g in SR28's shape, servings with gram weights and their nutrients, entries
dated on the user's today). Tests that are about a service's own checks call the service; a test
that only needs a row to exist uses a factory.

    food = FoodFactory(name="Bananas, raw", calories=89, servings=[(1, "medium", 118)])
    FoodEntryFactory(user=alice, food=food, quantity=2)
"""

from __future__ import annotations

from decimal import Decimal

import factory
from factory.django import DjangoModelFactory

from exercise.models import Exercise, ExerciseEntry
from measurements.models import CheckInMeasurement, CustomCategory, CustomMeasurement
from nutrition.models import Food, FoodEntry, FoodVariant, UserGoal
from nutrition.names import catalog_display_name
from sparky import curation
from sparky.dates import today_for
from sparky.models import User

PASSWORD = "correct horse battery"


def _dec(value) -> Decimal | None:
    return None if value is None else Decimal(str(value))


class UserFactory(DjangoModelFactory):
    class Meta:
        model = User

    email = factory.Sequence(lambda n: f"user{n}@example.com")
    time_zone = "UTC"

    @classmethod
    def _create(cls, model_class, *args, **kwargs):
        # Through the manager, as sign-up does: the email normalised, the password hashed.
        password = kwargs.pop("password", PASSWORD)
        return model_class.objects.create_user(*args, password=password, **kwargs)


class FoodFactory(DjangoModelFactory):
    """A public catalog food per 100 g, named as the loader names it (display_name derived).

    `servings=[(amount, unit, grams), ...]` adds household servings in that order.
    """

    class Meta:
        model = Food
        skip_postgeneration_save = True

    name = factory.Sequence(lambda n: f"Testfood {n}, raw")
    original_name = factory.LazyAttribute(lambda o: o.name)
    display_name = factory.LazyAttribute(lambda o: catalog_display_name(o.original_name))
    calories = Decimal(100)
    protein = Decimal(0)
    carbs = Decimal(0)
    fat = Decimal(0)
    serving_size = Decimal(100)
    serving_unit = "g"
    is_custom = False
    source = "usda_sr28"
    source_id = factory.Sequence(lambda n: f"9{n:05d}")

    @factory.post_generation
    def servings(obj, create, extracted, **kwargs):  # factory_boy passes the new row first
        for sequence, (amount, unit, grams) in enumerate(extracted or (), start=1):
            FoodVariantFactory(
                food=obj,
                sequence=sequence,
                serving_size=amount,
                serving_unit=unit,
                gram_weight=grams,
            )


class CustomFoodFactory(FoodFactory):
    """A food of one user's own, per serving as `food_create_custom` writes it."""

    name = factory.Sequence(lambda n: f"My food {n}")
    original_name = ""
    display_name = ""
    user = factory.SubFactory(UserFactory)
    is_custom = True
    serving_size = Decimal(1)
    serving_unit = "serving"
    source = ""
    source_id = ""


class FoodVariantFactory(DjangoModelFactory):
    """A household serving of a food; its nutrients are the food's per-100 g values scaled to its
    gram weight, as the SR28 loader derives them."""

    class Meta:
        model = FoodVariant

    food = factory.SubFactory(FoodFactory)
    serving_size = Decimal(1)
    serving_unit = "serving"
    gram_weight = Decimal(100)
    sequence = factory.Sequence(lambda n: n + 1)

    @staticmethod
    def _scaled(o, name):
        value = getattr(o.food, name)
        if value is None or o.gram_weight is None:
            return None
        return (_dec(value) * _dec(o.gram_weight) / 100).quantize(Decimal("0.001"))

    calories = factory.LazyAttribute(lambda o: FoodVariantFactory._scaled(o, "calories"))
    protein = factory.LazyAttribute(lambda o: FoodVariantFactory._scaled(o, "protein"))
    carbs = factory.LazyAttribute(lambda o: FoodVariantFactory._scaled(o, "carbs"))
    fat = factory.LazyAttribute(lambda o: FoodVariantFactory._scaled(o, "fat"))


class FoodEntryFactory(DjangoModelFactory):
    """A diary row: `quantity` of `unit` (None: pieces/servings) of a food, on the user's today."""

    class Meta:
        model = FoodEntry

    user = factory.SubFactory(UserFactory)
    food = factory.SubFactory(FoodFactory)
    meal_type = "breakfast"
    quantity = Decimal(1)
    unit = None
    entry_date = factory.LazyAttribute(lambda o: today_for(o.user))


class ExerciseFactory(DjangoModelFactory):
    """A public Compendium activity; calories per hour are MET x 70 kg, as the loader has them."""

    class Meta:
        model = Exercise

    name = factory.Sequence(lambda n: f"Testactivity {n}, general")
    met = Decimal("5.0")
    calories_per_hour = factory.LazyAttribute(lambda o: round(float(o.met) * 70) if o.met else None)
    category = "cardio"
    is_custom = False
    source = "compendium_2011"
    source_id = factory.Sequence(lambda n: f"9{n:04d}")


class CustomExerciseFactory(ExerciseFactory):
    name = factory.Sequence(lambda n: f"My exercise {n}")
    met = None
    calories_per_hour = 400
    category = "general"
    is_custom = True
    user = factory.SubFactory(UserFactory)
    source = ""
    source_id = ""


class ExerciseEntryFactory(DjangoModelFactory):
    class Meta:
        model = ExerciseEntry

    user = factory.SubFactory(UserFactory)
    exercise = factory.SubFactory(ExerciseFactory)
    duration_minutes = 30
    calories_burned = factory.LazyAttribute(
        lambda o: round((o.exercise.calories_per_hour or 0) * o.duration_minutes / 60)
    )
    entry_date = factory.LazyAttribute(lambda o: today_for(o.user))
    notes = None


class CheckInFactory(DjangoModelFactory):
    """One day's check-in (weight in the user's weight unit, lengths in their length unit)."""

    class Meta:
        model = CheckInMeasurement
        django_get_or_create = ("user", "entry_date")

    user = factory.SubFactory(UserFactory)
    entry_date = factory.LazyAttribute(lambda o: today_for(o.user))
    weight = Decimal("80.00")


class CustomCategoryFactory(DjangoModelFactory):
    class Meta:
        model = CustomCategory
        django_get_or_create = ("user", "name")

    user = factory.SubFactory(UserFactory)
    name = factory.Sequence(lambda n: f"Measure {n}")
    unit = ""


class CustomMeasurementFactory(DjangoModelFactory):
    class Meta:
        model = CustomMeasurement

    user = factory.SubFactory(UserFactory)
    category = factory.SubFactory(CustomCategoryFactory, user=factory.SelfAttribute("..user"))
    value = Decimal("1")
    entry_date = factory.LazyAttribute(lambda o: today_for(o.user))


class UserGoalFactory(DjangoModelFactory):
    """The user's default goal (every day) unless `goal_date` is given."""

    class Meta:
        model = UserGoal

    user = factory.SubFactory(UserFactory)
    goal_date = None
    calories = Decimal(2000)


def approve_share(row) -> None:
    """Staff approve a user's shared food or exercise in the admin's curation, as a curator does."""
    curator = UserFactory(is_staff=True, is_superuser=True)
    curation.set_shared(type(row), actor=curator, ids=[row.pk], shared=True)
    row.refresh_from_db()
