"""Progress summaries: after a turn that logged something, one message with the day's totals and a
tip tailored to what was just logged. Multi-item turns get one summary, not one per item.

The summary is written by a Celery task (eagerly in-process when no broker is configured) as an
assistant message marked `kind: progress_summary`; the chat page polls for it and the API lists it.
"""

from __future__ import annotations

import datetime as dt
import logging
from decimal import Decimal

from celery import shared_task
from django.db import transaction
from kombu.exceptions import OperationalError as KombuOperationalError

from chat.models import ChatMessage
from chat.turn.answers import calories_line
from diary.selectors import daily_summary
from measurements.fields import CHECKIN
from measurements.selectors import kept_unit
from nutrition.models import FoodEntry
from nutrition.selectors import reference_intakes_for
from nutrition.services import entry_nutrients
from sparky.dates import now_for, today_for
from sparky.services import preferences_for, spoken_day_for
from sparky.words import with_article

logger = logging.getLogger(__name__)
KIND = "progress_summary"
_FOOD = {"food_entry", "food_entry_deleted", "food"}
_EXERCISE = {"exercise_entry", "exercise_entry_deleted", "exercise"}
_BODY = {"checkin", "custom_measurement"}
# The check-in fields a progress summary shows (measurements/words/checkins.toml).
_SUMMED = {name for name, field in CHECKIN.items() if field.summary}


def _pct(row) -> int | None:
    return row.get("percent")


def just_logged(*, user, entries: list[dict]) -> dict[str, Decimal] | None:
    """Nutrients of the food entries this turn wrote (still existing, the user's own), summed."""
    ids = [e["id"] for e in entries if e.get("kind") == "food_entry" and e.get("id")]
    rows = list(
        FoodEntry.objects.for_user(user).filter(id__in=ids).select_related("food", "variant")
    )
    if not rows:
        return None
    total: dict[str, Decimal] = {}
    for row in rows:
        for name, value in entry_nutrients(row).items():
            total[name] = total.get(name, Decimal(0)) + (value or 0)
    total["items"] = Decimal(len(rows))
    return total


# Past this, a walk is no longer a fair way to even out a day's excess: say something else.
MAX_WALK_MINUTES = 90
# Brisk walking burns about 4-5 kcal a minute.
WALK_KCAL_PER_MINUTE = Decimal("4.5")


def share_of_limit(amount: Decimal, limit: Decimal) -> str:
    """How an amount compares with a day's limit, in words that follow the ratio: "close to
    half a day's limit", "about a whole day's limit", "about 3 times a day's limit"."""
    ratio = float(amount / limit) if limit else 0.0
    if ratio < 0.4:
        return f"{round(ratio * 100)}% of a day's limit"
    if ratio < 0.6:
        return "close to half a day's limit"
    if ratio < 0.9:
        return "most of a day's limit"
    if ratio < 1.15:
        return "about a whole day's limit"
    if ratio < 1.75:
        return "about one and a half times a day's limit"
    if ratio < 2.5:
        return "about twice a day's limit"
    return f"about {round(ratio)} times a day's limit"


def _meal_tip(meal: dict[str, Decimal], *, sodium_limit: Decimal) -> str | None:
    """A remark on the food just logged itself, when something about it stands out."""
    kcal = meal.get("calories") or 0
    protein = meal.get("protein") or 0
    sodium = meal.get("sodium") or 0
    sugars = meal.get("sugars") or 0
    fiber = meal.get("dietary_fiber") or 0
    if sodium >= 1000:
        return (
            f"That was salty ({round(sodium):,} mg sodium, "
            f"{share_of_limit(sodium, sodium_limit)} of {round(sodium_limit):,} mg); water "
            "and potassium-rich foods like beans, potatoes or bananas help balance it."
        )
    if kcal and sugars * 4 >= kcal * Decimal("0.4") and sugars >= 20:
        return (
            f"Most of that came as sugar ({round(sugars)} g); pairing sweet foods with some "
            "protein or fiber keeps energy steadier."
        )
    if kcal >= 150 and protein * 4 >= kcal * Decimal("0.25"):
        return f"A protein-rich choice ({round(protein)} g); that helps you stay full for longer."
    if fiber >= 8:
        return f"A good fiber boost ({round(fiber)} g); that keeps digestion and appetite steady."
    return None


def tip_for(*, user, kinds: set[str], summary: dict, meal: dict | None = None) -> str:
    """One concrete suggestion, chosen by what was just logged and where the day stands."""
    nutrients = summary["nutrients"]
    calories = summary["calories"]
    water = summary["water"]
    is_today = summary.get("date") in (None, today_for(user))
    # Time-of-day advice ("at your next meal") only makes sense for today's diary.
    hour = now_for(user).hour if is_today else 0
    if kinds & _FOOD:
        if calories["remaining"] is not None and calories["remaining"] < 0:
            over = -calories["remaining"]
            minutes = int(over / WALK_KCAL_PER_MINUTE) + 1
            if minutes > MAX_WALK_MINUTES:
                return (
                    f"You're {round(over):,} kcal over the day's goal, more than a walk would "
                    "sensibly burn; lighter meals over the next few days even it out better."
                )
            return (
                f"You're {round(over):,} kcal over the day's goal; "
                f"{with_article(f'{minutes}-minute')} brisk walk would about even it out, or "
                "keep the next meal light."
            )
        if meal:
            limit = reference_intakes_for(user, day=summary.get("date"))["sodium"].amount
            if remark := _meal_tip(meal, sodium_limit=limit):
                return remark
        protein = nutrients["protein"]
        if _pct(protein) is not None and _pct(protein) < 50 and hour >= 14:
            return (
                f"Protein is at {_pct(protein)}% of your goal; eggs, Greek yogurt, fish, tofu "
                "or lentils at the next meal would close the gap."
            )
        fiber = nutrients["dietary_fiber"]
        if fiber["consumed"] < 10 and hour >= 16:
            return (
                "Fiber is low so far today; vegetables, beans, berries or whole grains with "
                "dinner would help."
            )
        return "Logging as you go makes the day's numbers trustworthy; nice work."
    if kinds & _EXERCISE:
        if summary["exercise"]["minutes"] >= 60:
            return (
                "An hour or more of exercise today: a meal with both carbohydrates and protein "
                "in the next couple of hours refills your energy and helps your muscles recover."
            )
        if water["glasses"] < water["goal"]:
            return (
                f"Good session. Drink a glass or two of water to recover: you're at "
                f"{water['glasses']} of {water['goal']} glasses."
            )
        return "Good session. A protein-rich meal within a few hours helps recovery."
    if "water" in kinds:
        if water["remaining"]:
            return f"{water['remaining']} more glasses to reach your water goal."
        return "Water goal reached for today."
    checkin = (summary.get("measurements") or {}).get("checkin") or {}
    if "checkin" in kinds and checkin.get("weight"):
        return (
            "Weigh in at the same time of day, ideally in the morning, so the trend reflects "
            "real change rather than meals and water."
        )
    if kinds & _BODY:
        return "Noting it at about the same time each day makes the trend easy to read."
    return "Keep it up."


def _checkin_text(user, checkin: dict) -> str:
    """The day's check-in as the summary shows it: each value in the unit it is kept in, without
    needless decimals ("weight 81.4 kg, waist 90 cm, steps 8000")."""
    prefs = preferences_for(user)
    shown = []
    for name, value in checkin.items():
        if name not in _SUMMED or not value:
            continue
        unit = kept_unit(name, prefs)
        number = f"{Decimal(str(value)).normalize():f}"
        shown.append(
            f"{CHECKIN[name].label.lower()} {number}" + ("" if unit == name else f" {unit}")
        )
    return ", ".join(shown)


def build_progress_summary(
    *, user, kinds: set[str], day: dt.date, entries: list[dict] | None = None
) -> str:
    summary = daily_summary(user=user, day=day)
    said = spoken_day_for(user, day)  # "today", "yesterday", "on Saturday", "on 05/11/2026"
    label = "Today so far" if said == "today" else said[:1].upper() + said[1:]
    meal = just_logged(user=user, entries=entries or []) if kinds & _FOOD else None
    parts = []
    if kinds & _FOOD or not kinds & (_EXERCISE | _BODY | {"water"}):
        macros = summary["nutrients"]
        macro_text = ", ".join(
            f"{name} {round(float(macros[key]['consumed']))}"
            + (f"/{round(float(macros[key]['goal']))}" if macros[key]["goal"] is not None else "")
            + " g"
            for key, name in (("protein", "protein"), ("carbs", "carbs"), ("fat", "fat"))
        )
        parts.append(f"{calories_line(summary)}; {macro_text}")
    if kinds & _EXERCISE:
        ex = summary["exercise"]
        parts.append(f"exercise {ex['minutes']} min, {ex['calories_burned']} kcal burned")
    if "water" in kinds or kinds & _EXERCISE:
        water = summary["water"]
        parts.append(f"water {water['glasses']}/{water['goal']} glasses")
    if "checkin" in kinds:
        # only after a check-in: sleep or mood logged alone do not bring the day's weight up
        shown = _checkin_text(user, (summary.get("measurements") or {}).get("checkin") or {})
        if shown:
            parts.append(shown)
    if "custom_measurement" in kinds:
        measured = [e.get("chip") for e in entries or [] if e.get("kind") == "custom_measurement"]
        parts += [m[:1].lower() + m[1:] for m in measured if m]
    tip = tip_for(user=user, kinds=kinds, summary=summary, meal=meal)
    text = f"{label}: " + "; ".join(parts) + "."
    if meal and meal["items"] > 1:
        # One summary for a multi-item turn: say what the items came to together.
        text += (
            f"\nThose {int(meal['items'])} items: {round(meal.get('calories') or 0)} kcal, "
            f"{round(meal.get('protein') or 0)} g protein."
        )
    return text + f"\nTip: {tip}"


def create_progress_summary(*, message_id: str) -> ChatMessage | None:
    """Write the summary for one assistant reply; safe to re-run (one summary per reply)."""
    with transaction.atomic():
        # Lock only the reply (not the joined user row): concurrent runs for the same reply wait
        # here, and the second one finds the first one's summary.
        reply = (
            ChatMessage.objects.select_for_update(of=("self",))
            .filter(pk=message_id, message_type="assistant")
            .select_related("user")
            .first()
        )
        if reply is None:
            return None
        existing = (
            ChatMessage.objects.for_user(reply.user)
            .filter(metadata__kind=KIND, metadata__summary_for=str(reply.id))
            .first()
        )
        if existing is not None:
            return existing
        entries = ((reply.metadata or {}).get("response") or {}).get("entries") or []
        if not entries:
            return None
        kinds = {e.get("kind") for e in entries}
        dates = sorted({e["date"] for e in entries if e.get("date")})
        day = dt.date.fromisoformat(dates[-1]) if dates else today_for(reply.user)
        text = build_progress_summary(user=reply.user, kinds=kinds, day=day, entries=entries)
        return ChatMessage.objects.create(
            user=reply.user,
            session_id=reply.session_id,
            message_type=ChatMessage.Type.ASSISTANT,
            content=text,
            metadata={"kind": KIND, "summary_for": str(reply.id), "date": day.isoformat()},
        )


# Named as it was when chat.tasks held it, so queued messages and worker logs keep their name.
@shared_task(
    name="chat.tasks.progress_summary_task",
    bind=True,
    max_retries=3,
    default_retry_delay=5,
    acks_late=True,
)
def progress_summary_task(self, message_id: str) -> str | None:
    """Write the progress summary of one assistant reply. Safe to re-run: one summary per reply."""
    try:
        summary = create_progress_summary(message_id=message_id)
    except Exception as exc:  # a database blip: try again shortly
        raise self.retry(exc=exc) from exc
    return str(summary.id) if summary else None


def queue_progress_summary(*, user, message: ChatMessage) -> None:
    """Queue the progress summary of a reply that logged something, once the turn commits."""
    message_id = str(message.id)
    # robust: with no broker the task runs right here, eagerly; a summary that fails is logged
    # and must never turn the already-saved turn into an error.
    transaction.on_commit(lambda: _send_progress_summary(message_id), robust=True)


# A broker that does not answer is given about a second, not Celery's default patience: the
# reply waits for it.
_PUBLISH_RETRY = {"max_retries": 2, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.5}


def _send_progress_summary(message_id: str) -> None:
    """Hand the summary to the workers; when the broker cannot be reached, say so in one line
    and write it here, as with no broker at all (the user gets their note either way)."""
    if progress_summary_task.app.conf.task_always_eager:
        # No broker: run it here without asking for a broker connection (kombu would warn
        # "No hostname was supplied" for the one it cannot have).
        progress_summary_task.apply((message_id,))
        return
    try:
        progress_summary_task.apply_async((message_id,), retry_policy=_PUBLISH_RETRY)
    except (KombuOperationalError, OSError) as exc:
        logger.warning(
            "The task broker is unreachable (%s); the progress summary is written in-process.",
            type(exc).__name__,
        )
        create_progress_summary(message_id=message_id)
