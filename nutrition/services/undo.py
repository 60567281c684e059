"""Undo of one chat reply's writes to the nutrition tables (chat.turn.undo)."""

from __future__ import annotations

from nutrition.models import (
    Food,
    FoodEntry,
    UserGoal,
    WaterIntake,
)
from sparky import rows
from sparky.dates import parse_day

# --- undo of one chat reply's writes (chat.turn.undo) ---------------------------------------------


def undo_write(*, user, kind: str, row_id, undo: dict) -> str:
    """Take back one write of the nutrition tables: sparky.rows' DONE, CHANGED or GONE.

    The caller holds the transaction; everything is scoped to the user, so an id from someone
    else's reply finds nothing.
    """
    op = undo.get("op")
    if kind in ("food_entry", "food_entry_deleted", "goal"):
        model = UserGoal if kind == "goal" else FoodEntry
        done = rows.undo_row(model, user, row_id, undo)
        if done is not None:
            return done
    if kind == "food" and op == "delete":
        return rows.take_back_unused(Food, user, row_id, entries=FoodEntry, via="food")
    if kind == "water":
        day = parse_day(user, row_id)
        row = WaterIntake.objects.for_user(user).select_for_update().filter(entry_date=day).first()
        if row is None:
            return rows.GONE
        if op == "water":  # glasses added: take off exactly those, whatever was added since
            added = int(undo.get("added") or 0)
            if row.glasses_consumed < added:
                return rows.CHANGED
            row.glasses_consumed -= added
        elif op == "restore":
            if row.glasses_consumed != undo["after"]["glasses"]:
                return rows.CHANGED
            row.glasses_consumed = int(undo["before"]["glasses"])
        else:
            raise ValueError(f"no undo {op!r} for water")
        row.save(update_fields=["glasses_consumed", "updated_at"])
        return rows.DONE
    raise ValueError(f"no undo {op!r} for {kind!r}")
