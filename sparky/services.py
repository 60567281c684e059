"""Writes of the core: accounts and the user's preferences, and the checks every domain's
services share."""

import unicodedata
import uuid

from django.core.exceptions import ObjectDoesNotExist, ValidationError
from django.db import connection, models, transaction
from django.utils import timezone

from sparky import vocabulary
from sparky.dates import spoken_day, today_for
from sparky.models import User, UserPreferences, validate_time_zone

# Slugs of the chat tool selector (sparky/words/chat_categories.toml; chat.categories reads the
# same); [] means automatic selection.
CHAT_CATEGORIES = vocabulary.CHAT_CATEGORIES
DATE_FORMATS = ("yyyy-MM-dd", "MM/dd/yyyy", "dd/MM/yyyy", "dd.MM.yyyy", "dd-MM-yyyy")
MAX_PROMPT_CHARS = 4000
MAX_NOTES_CHARS = 1000


_PREFERENCE_FIELDS = {
    "date_format",
    "default_weight_unit",
    "default_measurement_unit",
    "auto_clear_history",
    "system_prompt",
    "chat_categories",
    "dietary_notes",
    "review_before_logging",
    "review_photos",
    "time_zone",
    "sex",
    "birth_year",
}
# The ages a birth year may give (a typo such as 198, or this year, is refused): Sparky's
# nutrient references and energy estimates are for teenagers and adults.
YOUNGEST_AGE = 13
OLDEST_AGE = 120
# The earliest birth year any preference may give; the form's floor (the service checks the age).
EARLIEST_BIRTH_YEAR = 1900


# --- accounts --------------------------------------------------------------------------------


@transaction.atomic
def account_create(*, email: str, password: str) -> User:
    """A new account. The first account of an instance is its owner: staff and superuser, so the
    person who installed Sparky can curate the catalog in the admin and use a local AI server
    (Ollama on this machine) without further setup."""
    with connection.cursor() as cursor:  # two first sign-ups at once: only one becomes owner
        cursor.execute("SELECT pg_advisory_xact_lock(hashtext('sparky:first-account'))")
    owner = not User.objects.exists()
    return User.objects.create_user(
        email=email, password=password, is_staff=owner, is_superuser=owner
    )


# --- what the domain services share ----------------------------------------------------------


def uuid_pk(value, model):
    """The id as a UUID; anything else is "no such row", as for an id that does not exist."""
    try:
        return value if isinstance(value, uuid.UUID) else uuid.UUID(str(value))
    except ValueError:
        raise model.DoesNotExist(f"No {model._meta.verbose_name} with id {value!r}.") from None


def visible_row(get, value, *, refused: str, code: str):
    """The row a caller names (an instance or its id) as `get(pk)` finds it for the user; one
    they cannot see is refused with a ValidationError saying `refused`."""
    pk = value.pk if isinstance(value, models.Model) else value
    try:
        return get(pk)
    except ObjectDoesNotExist:
        raise ValidationError(refused, code=code) from None


def own_custom_row(model, user, pk, *, noun: str, for_update: bool = True):
    """One of the user's own custom foods or exercises (`noun`), locked unless not `for_update`.
    One they can see but do not own (the catalog, one shared by someone else) is read-only; any
    other id does not exist."""
    queryset = model.objects.owned_by(user).filter(is_custom=True)
    if for_update:
        queryset = queryset.select_for_update()
    try:
        return queryset.get(pk=pk)
    except model.DoesNotExist:
        shared = model.objects.visible_to(user).filter(pk=pk).first()
        if shared is None:
            raise
        raise ValidationError(
            f"{shared.name} is not one of your own {noun}s: you can log it but not change or "
            f"delete it. Create your own {noun} to adjust it.",
            code="read_only",
        ) from None


def refuse_while_used(row, entries, *, user, yours: str) -> None:
    """Refuse to delete a food or exercise of the user's own while diary `entries` point at it:
    a past day's diary keeps its names and numbers. The message says what is using it (`yours`:
    "diary entries") and what to do instead."""
    mine = entries.filter(user=user).count()
    others = entries.exclude(user=user).count()
    if mine or others:
        used = f"{mine} of your {yours}" if mine else ""
        if others:
            used += (" and " if used else "") + "other people who logged it after you shared it"
        raise ValidationError(
            f"{row.name} is used by {used}, so it stays. Delete those entries first"
            + (", or stop sharing it." if others else "."),
            code="in_use",
        )


# --- preferences -----------------------------------------------------------------------------


def user_row_for_update(model, *, user, **key):
    """The user's row of `model` with `key`, inserted (empty) when missing, locked until the
    transaction ends. INSERT ... ON CONFLICT DO NOTHING then SELECT ... FOR UPDATE: writers that
    create the row at the same moment all reach the one row, none fails on the unique key."""
    model.objects.bulk_create([model(user=user, **key)], ignore_conflicts=True)
    return model.objects.for_user(user).select_for_update().get(**key)


def storable_text(value: str, *, field: str) -> str:
    """`value` unchanged, unless it holds what Postgres text cannot store (NUL) or UTF-8 cannot
    encode (lone surrogates): those would fail at the database instead of as a clear message."""
    if "\x00" in value or any("\ud800" <= ch <= "\udfff" for ch in value):
        raise ValidationError(
            f"{field} contains characters that cannot be stored; remove control characters.",
            code="invalid_characters",
        )
    return value


# What makes a character visible: a letter, digit, punctuation mark or symbol (not a space, a
# control or format character such as U+200B ZERO WIDTH SPACE, nor a lone combining mark).
_VISIBLE_CATEGORIES = ("L", "N", "P", "S")


def storable_name(value: str, *, field: str) -> str:
    """A name as storable_text stores it, refused unless it holds a character one can see: a
    name of only zero-width or blank characters would show as nothing in the diary."""
    value = storable_text(value, field=field)
    if value and not any(unicodedata.category(ch)[0] in _VISIBLE_CATEGORIES for ch in value):
        raise ValidationError(
            f"{field} has no letter, digit or sign one can see; give a name that shows.",
            code="invisible_name",
        )
    return value


def preferences_for(user: User) -> UserPreferences:
    """The user's preferences: the stored ones, else the spec's defaults (not saved: reading
    them writes nothing; `preferences_update` stores them on the first change)."""
    stored = UserPreferences.objects.filter(user=user).first()
    return stored or UserPreferences(user=user, updated_at=timezone.now())


def preferences_locked(user: User) -> UserPreferences:
    """The user's stored preferences, created with the defaults if need be, locked until the
    transaction ends: what a change starts from."""
    UserPreferences.objects.get_or_create(user=user)
    return UserPreferences.objects.select_for_update().get(user=user)


def clean_choice(value, choices, *, field: str, expected: str) -> str:
    text = str(value).strip() if value is not None else ""
    for choice in choices:
        if text.lower() == str(choice).lower():
            return str(choice)
    raise ValidationError(
        f"{field} {value!r} is not allowed; use {expected}.", code="invalid_choice"
    )


def optional_text(value, *, field: str, limit: int) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise ValidationError(f"{field} must be text.", code="invalid")
    value = storable_text(value.strip(), field=field)
    if len(value) > limit:
        raise ValidationError(
            f"{field} is {len(value)} characters long; keep it under {limit}.", code="too_long"
        )
    return value or None


def _chat_categories(value) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        value = [part for part in value.replace(",", " ").split() if part]
    if not isinstance(value, list | tuple):
        raise ValidationError(
            "Chat categories must be a list of category names.", code="invalid_categories"
        )
    cleaned: list[str] = []
    for item in value:
        slug = str(item).strip().lower()
        if slug not in CHAT_CATEGORIES:
            raise ValidationError(
                f"{item!r} is not a chat category; use any of {', '.join(CHAT_CATEGORIES)} "
                "(an empty list means automatic).",
                code="invalid_categories",
            )
        if slug not in cleaned:
            cleaned.append(slug)
    return cleaned


def _birth_year(value, *, user: User) -> int | None:
    """A year giving an age from YOUNGEST_AGE to OLDEST_AGE this year, or None (not given)."""
    if value in (None, ""):
        return None
    this_year = today_for(user).year
    first, last = this_year - OLDEST_AGE, this_year - YOUNGEST_AGE
    try:
        year = int(str(value).strip())
    except ValueError:
        year = None
    if year is None or not first <= year <= last:
        raise ValidationError(
            f"Birth year {str(value)[:20]} is not a year giving an age from {YOUNGEST_AGE} to "
            f"{OLDEST_AGE}; give a year from {first} to {last}.",
            code="invalid",
        )
    return year


@transaction.atomic
def preferences_update(*, user: User, **fields) -> UserPreferences:
    """Change the given preferences; unknown names and bad values raise, nothing is written.

    time_zone is stored on User.time_zone (the one place dates are computed from). The default
    units are taken as their stored values here (kg or lb; cm or inches): changing one also
    converts the stored check-ins, which is `diary.services.preferences_update`'s job.
    """
    unknown = sorted(set(fields) - _PREFERENCE_FIELDS)
    if unknown:
        raise ValidationError(
            f"Unknown preference {', '.join(unknown)}; known ones are "
            f"{', '.join(sorted(_PREFERENCE_FIELDS))}.",
            code="unknown_field",
        )
    prefs = preferences_locked(user)
    new_time_zone = None

    for name, value in fields.items():
        if name == "date_format":
            prefs.date_format = clean_choice(
                value, DATE_FORMATS, field="date_format", expected=", ".join(DATE_FORMATS)
            )
        elif name == "default_weight_unit":
            prefs.default_weight_unit = clean_choice(
                value, UserPreferences.WeightUnit.values, field=name, expected="kg or lb"
            )
        elif name == "default_measurement_unit":
            prefs.default_measurement_unit = clean_choice(
                value, UserPreferences.MeasurementUnit.values, field=name, expected="cm or inches"
            )
        elif name == "auto_clear_history":
            prefs.auto_clear_history = clean_choice(
                "never" if value is None else value,
                UserPreferences.AutoClear.values,
                field="auto_clear_history",
                expected="never, session, 7days or 30days",
            )
        elif name == "system_prompt":
            prefs.system_prompt = optional_text(
                value, field="system_prompt", limit=MAX_PROMPT_CHARS
            )
        elif name == "dietary_notes":
            prefs.dietary_notes = (
                optional_text(value, field="dietary_notes", limit=MAX_NOTES_CHARS) or ""
            )
        elif name in ("review_before_logging", "review_photos"):
            if not isinstance(value, bool):
                raise ValidationError(f"{name} is true or false.", code="invalid")
            setattr(prefs, name, value)
        elif name == "chat_categories":
            prefs.chat_categories = _chat_categories(value)
        elif name == "sex":
            prefs.sex = (
                ""
                if value in (None, "")
                else clean_choice(
                    value, UserPreferences.Sex.values, field="sex", expected="female or male"
                )
            )
        elif name == "birth_year":
            prefs.birth_year = _birth_year(value, user=user)
        elif name == "time_zone":
            new_time_zone = str(value or "").strip()
            try:
                validate_time_zone(new_time_zone)
            except ValidationError:
                raise ValidationError(
                    f"Unknown time zone {value!r}; use an IANA name such as Europe/Berlin.",
                    code="invalid_time_zone",
                ) from None

    prefs.full_clean()
    prefs.save()
    if new_time_zone is not None and new_time_zone != user.time_zone:
        user.time_zone = new_time_zone
        user.save(update_fields=["time_zone"])
    return prefs


# --- AI services -----------------------------------------------------------------------------


def spoken_day_for(user, day) -> str:
    """sparky.dates.spoken_day from the user's today, in their date format: "yesterday",
    "on Saturday", "on 03/11/2026"."""
    return spoken_day(day, today=today_for(user), pattern=preferences_for(user).date_format)
