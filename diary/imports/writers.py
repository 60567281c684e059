"""Each row of an import written through its domain's services: the only writers of the diary.

A food from another tracker is the catalog food of exactly that name when the amount eaten of it
holds the file's calories; otherwise it becomes the user's own food with the file's numbers for
the amount eaten (nutrition.services.food_option_add, which reuses the same food for the same
amount and calories). A Sparky export's catalog foods and exercises are found again in this
catalog.
Services run with `confirmed=True`: the file is what the user logged, not a slip to question.
"""

from __future__ import annotations

import uuid
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db.models import Q

from diary.imports.rows import (
    CHECKIN,
    CUSTOM_EXERCISE,
    CUSTOM_FOOD,
    CUSTOM_MEASUREMENT,
    EXERCISE_ENTRY,
    FOOD_ENTRY,
    GOAL,
    WATER,
    Row,
)
from exercise import services as exercise_services
from exercise.models import Exercise, ExerciseEntry
from measurements import services as measurement_services
from measurements.models import CheckInMeasurement, CustomMeasurement
from nutrition import services as food_services
from nutrition.models import Food, FoodEntry, FoodVariant, UserGoal, WaterIntake

# A Sparky export's rows by kind: the model whose ids say "this row is already yours".
_OWN_ROWS = {
    CUSTOM_FOOD: Food,
    FOOD_ENTRY: FoodEntry,
    CUSTOM_EXERCISE: Exercise,
    EXERCISE_ENTRY: ExerciseEntry,
    CHECKIN: CheckInMeasurement,
    CUSTOM_MEASUREMENT: CustomMeasurement,
    GOAL: UserGoal,
    WATER: WaterIntake,
}


def _as_uuid(value) -> uuid.UUID | None:
    try:
        return uuid.UUID(str(value))
    except ValueError:
        return None


def already_yours(*, user, rows: list[Row]) -> dict[str, uuid.UUID]:
    """{key: id} of a Sparky export's rows that are the user's own rows already (the file came
    from this account): importing it back changes nothing."""
    found = {}
    for kind, model in _OWN_ROWS.items():
        wanted = {
            pk: row.key
            for row in rows
            if row.kind == kind and (pk := _as_uuid(row.file_id)) is not None
        }
        if not wanted:
            continue
        manager = model.objects
        own = manager.owned_by(user) if model in (Food, Exercise) else manager.for_user(user)
        for pk in own.filter(pk__in=list(wanted)).values_list("pk", flat=True):
            found[wanted[pk]] = pk
    return found


# A tracker's food is the catalog food of the same name when their calories for the amount
# eaten agree this closely; else it is a food of the user's own with the file's numbers.
CATALOG_KCAL_SPREAD = Decimal("0.05")


class Writer:
    """Writes rows for one user, remembering the foods and exercises of a Sparky export's file
    (by their ids in the file) for the entries that follow them."""

    def __init__(self, user):
        self.user = user
        self.foods: dict[str, Food] = {}
        self.exercises: dict[str, Exercise] = {}
        self.catalog_names: dict[str, Food | None] = {}

    def remember(self, row: Row, object_id) -> None:
        """A custom food or exercise imported before (or the user's already): its entries in
        this file are logged with it."""
        if object_id is None:
            return
        if row.kind == CUSTOM_FOOD:
            food = Food.objects.owned_by(self.user).filter(pk=object_id).first()
            if food is not None:
                self.foods[row.file_id] = food
        elif row.kind == CUSTOM_EXERCISE:
            exercise = Exercise.objects.owned_by(self.user).filter(pk=object_id).first()
            if exercise is not None:
                self.exercises[row.file_id] = exercise

    def write(self, row: Row):
        """Write one row; the id of what it became (None for water, kept per day)."""
        return getattr(self, f"_{row.kind}")(dict(row.values), row.file_id)

    # --- nutrition -----------------------------------------------------------------------------

    def _custom_food(self, values: dict, file_id: str):
        nutrients = {k: v for k, v in values["nutrients"].items() if v is not None}
        extra = {"barcode": values["barcode"]} if values.get("barcode") else {}
        food = food_services.food_create_custom(
            user=self.user,
            name=values["name"],
            serving_size=values["serving_size"],
            serving_unit=values["serving_unit"],
            **extra,
            **nutrients,
        )
        self.foods[file_id] = food
        return food.pk

    def _catalog_row(self, model, own: dict, ref: dict):
        """The food or exercise an exported row refers to: one of the file's own (already
        created, in `own`), else the catalog's by its source and id, else by its id."""
        if ref.get("custom"):
            return own.get(ref.get("file_id") or "")
        visible = model.objects.visible_to(self.user).filter(is_custom=False)
        if ref.get("source") and ref.get("source_id"):
            found = visible.filter(source=ref["source"], source_id=ref["source_id"]).first()
            if found is not None:
                return found
        pk = _as_uuid(ref.get("file_id"))
        return None if pk is None else visible.filter(pk=pk).first()

    def _food_entry(self, values: dict, file_id: str):
        common = {
            "user": self.user,
            "meal_type": values["meal_type"],
            "entry_date": values["entry_date"],
            "confirmed": True,
        }
        ref = values.get("food_ref")
        if ref is None:  # another tracker's food: the catalog's when it is the same food
            entry = self._catalog_entry(values, common)
            if entry is not None:
                return food_services.food_entry_save(entry).pk
        food = self._catalog_row(Food, self.foods, ref) if ref else None
        if food is None:  # not in the catalog, or a food this Sparky lacks: the user's own
            entry = food_services.food_option_add(
                option=values["food"], quantity=values["quantity"], unit=values["unit"], **common
            )
            return entry.pk
        sequence = ref.get("serving_sequence")
        variant = (
            None
            if sequence is None
            else FoodVariant.objects.filter(food=food, sequence=sequence).first()
        )
        entry = food_services.food_entry_create(
            food=food, quantity=values["quantity"], unit=values["unit"], variant=variant, **common
        )
        return entry.pk

    def _catalog_entry(self, values: dict, common: dict) -> FoodEntry | None:
        """The entry of the catalog food the row names exactly ("Bananas, raw"), when that
        amount of it holds the row's calories (within CATALOG_KCAL_SPREAD): the same food, not
        a namesake; else None."""
        option = values["food"]
        name = option["name"]
        if name.lower() not in self.catalog_names:
            found = (
                Food.objects.visible_to(self.user)
                .filter(is_custom=False)
                .filter(Q(name__iexact=name) | Q(display_name__iexact=name))
                .order_by("name")
                .first()
            )
            self.catalog_names[name.lower()] = found
        food = self.catalog_names[name.lower()]
        if food is None or option.get("calories") is None:
            return None
        try:
            entry = food_services.food_entry_prepare(
                food=food, quantity=values["quantity"], unit=values["unit"], **common
            )
            kcal = food_services.entry_nutrients(entry)["calories"]
        except ValidationError:
            return None  # a unit the catalog food cannot take ("1 Container")
        said = Decimal(option["calories"])
        if kcal is None or abs(kcal - said) > max(said * CATALOG_KCAL_SPREAD, Decimal(1)):
            return None
        return entry

    def _goal(self, values: dict, file_id: str):
        goal = food_services.goal_set(user=self.user, **values)
        return goal.pk

    def _water(self, values: dict, file_id: str):
        food_services.water_set(
            user=self.user, glasses=values["glasses"], entry_date=values["entry_date"]
        )
        return None

    # --- exercise ------------------------------------------------------------------------------

    def _custom_exercise(self, values: dict, file_id: str):
        own = Exercise.objects.owned_by(self.user).filter(name__iexact=values["name"]).first()
        if own is None:
            own = exercise_services.exercise_create_custom(
                user=self.user, **{k: v for k, v in values.items() if v is not None}
            )
        self.exercises[file_id] = own
        return own.pk

    def _exercise_entry(self, values: dict, file_id: str):
        ref = values.pop("exercise_ref", None)
        option = values.pop("exercise")
        exercise = self._catalog_row(Exercise, self.exercises, ref) if ref else None
        if exercise is None:
            entry = exercise_services.exercise_option_add(user=self.user, option=option, **values)
        else:
            entry = exercise_services.exercise_entry_create(
                user=self.user, exercise=exercise, **values
            )
        return entry.pk

    # --- measurements --------------------------------------------------------------------------

    def _checkin(self, values: dict, file_id: str):
        return measurement_services.checkin_upsert(user=self.user, **values).pk

    def _custom_measurement(self, values: dict, file_id: str):
        return measurement_services.custom_measurement_log(user=self.user, **values).pk
