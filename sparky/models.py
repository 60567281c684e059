"""Cross-cutting models: the user (standing in for auth.users) and preferences, and what every
app's rows share: a user's rows (UserRow, DayRow for diary days) and their querysets."""

import uuid
import zoneinfo

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, BaseUserManager, PermissionsMixin
from django.contrib.postgres.functions import RandomUUID
from django.contrib.postgres.indexes import GinIndex, OpClass
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models.functions import Lower, Now
from django.utils import timezone

from sparky.time_zones import is_zone


def uuid_key() -> models.UUIDField:
    """A row's primary key: a random UUID, made by Django or, for rows written by SQL, by the
    database."""
    return models.UUIDField(
        primary_key=True, default=uuid.uuid4, db_default=RandomUUID(), editable=False
    )


def created_at_field(**options) -> models.DateTimeField:
    """When a row was made (by Django, or by SQL through the database default)."""
    return models.DateTimeField(default=timezone.now, db_default=Now(), **options)


def updated_at_field(**options) -> models.DateTimeField:
    """When a row was last saved (by Django, or made by SQL through the database default)."""
    return models.DateTimeField(auto_now=True, db_default=Now(), **options)


class UserRowsQuerySet(models.QuerySet):
    """Rows that belong to one user (a `user` foreign key)."""

    def for_user(self, user):
        return self.filter(user=user)


class DayRowsQuerySet(UserRowsQuerySet):
    """A user's rows dated by `entry_date`: the diary's days."""

    def on_date(self, day):
        return self.filter(entry_date=day)

    def between(self, start, end):
        """From start to end, both included."""
        return self.filter(entry_date__gte=start, entry_date__lte=end)


class CatalogQuerySet(models.QuerySet):
    """A catalog's rows (foods, exercises): public ones, those users share, and users' own."""

    def visible_to(self, user):
        """Public catalog rows, rows others share that staff approved, and the user's own."""
        return self.filter(
            models.Q(is_custom=False)
            | models.Q(shared_with_public=True, share_approved=True)
            | models.Q(user=user)
        )

    def owned_by(self, user):
        return self.filter(user=user)


def catalog_source_unique(table: str) -> models.UniqueConstraint:
    """A catalog's row loaded from a source is there once per source id (loads upsert on it)."""
    return models.UniqueConstraint(
        fields=["source", "source_id"],
        condition=~models.Q(source_id=""),
        name=f"{table}_source_unique",
    )


def catalog_name_indexes(table: str) -> list[models.Index]:
    """A catalog's search by words of the name (trigrams of lower(name)), and a user's own rows
    by name."""
    return [
        GinIndex(OpClass(Lower("name"), name="gin_trgm_ops"), name=f"{table}_name_trgm"),
        models.Index(fields=["user", "name"], name=f"{table}_user_name_idx"),
    ]


class UserRow(models.Model):
    """A row of one user's data: a UUID key and the user it belongs to (gone with the user)."""

    id = uuid_key()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")

    objects = UserRowsQuerySet.as_manager()

    class Meta:
        abstract = True


class DayRow(UserRow):
    """A user's row of one day of the diary (its `entry_date`)."""

    objects = DayRowsQuerySet.as_manager()

    class Meta:
        abstract = True


def validate_time_zone(value: str) -> None:
    if not is_zone(value):
        raise ValidationError(f"Unknown time zone {value!r}.", code="time_zone")


class UserManager(BaseUserManager):
    use_in_migrations = True

    def _create(self, email, password, **extra):
        if not email:
            raise ValueError("An email address is required.")
        user = self.model(email=self.normalize_email(email).lower(), **extra)
        user.set_password(password)
        user.save(using=self._db)
        return user

    def create_user(self, email, password=None, **extra):
        extra.setdefault("is_staff", False)
        extra.setdefault("is_superuser", False)
        return self._create(email, password, **extra)

    def create_superuser(self, email, password=None, **extra):
        extra["is_staff"] = True
        extra["is_superuser"] = True
        return self._create(email, password, **extra)


class User(AbstractBaseUser, PermissionsMixin):
    id = uuid_key()
    email = models.EmailField(unique=True)
    display_name = models.CharField(max_length=100, blank=True)
    time_zone = models.CharField(max_length=64, default="UTC", validators=[validate_time_zone])
    is_active = models.BooleanField(default=True)
    is_staff = models.BooleanField(default=False)
    date_joined = models.DateTimeField(default=timezone.now, db_default=Now())

    objects = UserManager()

    USERNAME_FIELD = "email"
    EMAIL_FIELD = "email"
    REQUIRED_FIELDS: list[str] = []

    class Meta:
        db_table = "users"

    def __str__(self) -> str:
        return self.email

    def save(self, *args, **kwargs):
        # Every way a password changes (the Settings page, a reset by e-mail, the admin, the
        # changepassword command) ends in set_password() and this save(), which is where Django
        # itself tells the password validators: so here, once, the old password's keys go too.
        # The user's other sessions need nothing: Django ends a session whose password hash no
        # longer matches on its next request (the page that changed it keeps its own session).
        password_changed = self._password is not None and not self._state.adding
        super().save(*args, **kwargs)
        if password_changed:
            self.revoke_tokens()

    def revoke_tokens(self) -> int:
        """Delete the user's API token (MCP's too): every client using it gets 401."""
        from rest_framework.authtoken.models import Token  # an app above the user model's

        deleted, _ = Token.objects.filter(user=self).delete()
        return deleted

    @property
    def tz(self) -> zoneinfo.ZoneInfo:
        try:
            return zoneinfo.ZoneInfo(self.time_zone)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            return zoneinfo.ZoneInfo("UTC")


class UserPreferences(models.Model):
    class AutoClear(models.TextChoices):
        NEVER = "never", "Never"
        SESSION = "session", "At the start of each session"
        DAYS_7 = "7days", "After 7 days"
        DAYS_30 = "30days", "After 30 days"

    class WeightUnit(models.TextChoices):
        KG = "kg", "kg"
        LB = "lb", "lb"

    class MeasurementUnit(models.TextChoices):
        CM = "cm", "cm"
        INCHES = "inches", "inches"

    class Sex(models.TextChoices):
        FEMALE = "female", "Female"
        MALE = "male", "Male"

    id = uuid_key()
    user = models.OneToOneField(User, on_delete=models.CASCADE, related_name="preferences")
    date_format = models.CharField(max_length=50, default="yyyy-MM-dd", db_default="yyyy-MM-dd")
    default_weight_unit = models.CharField(
        max_length=50, default=WeightUnit.KG, db_default="kg", choices=WeightUnit.choices
    )
    default_measurement_unit = models.CharField(
        max_length=50, default=MeasurementUnit.CM, db_default="cm", choices=MeasurementUnit.choices
    )
    auto_clear_history = models.TextField(
        null=True, default=AutoClear.NEVER, db_default="never", choices=AutoClear.choices
    )
    system_prompt = models.TextField(null=True, blank=True)
    # Added: the chat tool selector ([] means Auto), remembered per user.
    chat_categories = models.JSONField(default=list, blank=True)
    dietary_notes = models.TextField(blank=True, default="")
    # Review before logging (chat.turn.review): every logging turn, or only a photo's estimate.
    review_before_logging = models.BooleanField(default=False, db_default=False)
    review_photos = models.BooleanField(default=True, db_default=True)
    # Added (issue 36): what the reference intakes depend on (nutrition.intakes). Both optional:
    # without them the nutrients are read against the FDA Daily Values, which suit most adults.
    sex = models.CharField(max_length=10, blank=True, default="", db_default="", choices=Sex)
    birth_year = models.PositiveSmallIntegerField(null=True, blank=True)
    created_at = created_at_field()
    updated_at = updated_at_field()

    class Meta:
        db_table = "user_preferences"
        verbose_name_plural = "user preferences"
        constraints = [
            models.CheckConstraint(
                condition=models.Q(auto_clear_history__in=["never", "session", "7days", "30days"]),
                name="user_preferences_auto_clear_history_check",
            )
        ]

    def __str__(self) -> str:
        return f"preferences of {self.user_id}"
