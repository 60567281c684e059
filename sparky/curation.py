"""Curating a catalog (foods, exercises) from the Django admin: sharing rows with every user (a
user's request to share waits for it) and merging duplicates into one row.

Curation spans every user's rows on purpose (that is what merging duplicates is), so the scope is
the acting staff member's permissions on the model rather than ownership. The diary rows that use
a catalog row are its `entries` (the reverse name of their foreign key).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import models, transaction
from django.utils import timezone


def require_curator(actor, model: type[models.Model], *actions: str) -> None:
    """Refuse an actor who is not active staff with each `action` ("change", "delete") on the
    model."""
    opts = model._meta
    permissions = [f"{opts.app_label}.{action}_{opts.model_name}" for action in actions]
    if not (actor.is_active and actor.is_staff and actor.has_perms(permissions)):
        raise PermissionDenied(
            f"Only staff allowed to edit {opts.verbose_name_plural} can curate the catalog."
        )


@transaction.atomic
def set_shared(model: type[models.Model], *, actor, ids: Iterable, shared: bool) -> int:
    """Share (or stop sharing) rows with every user: staff sharing a row is its approval, which
    a user's own request to share (shared_with_public) waits for. Returns how many rows
    changed."""
    require_curator(actor, model, "change")
    # A flag flip on many rows: one UPDATE, with updated_at set by hand (update() skips auto_now).
    return (
        model.objects.filter(pk__in=list(ids))
        .exclude(shared_with_public=shared, share_approved=shared)
        .update(shared_with_public=shared, share_approved=shared, updated_at=timezone.now())
    )


@dataclass(frozen=True)
class Merge:
    """A merge under way: the row kept (locked), the duplicates' ids, and their diary entries."""

    keep: models.Model
    duplicate_ids: list
    entries: models.QuerySet
    entry_field: str  # the entries' foreign key to the catalog row

    def finish(self) -> int:
        """Point the entries at the kept row and delete the duplicates; how many entries moved."""
        moved = self.entries.update(**{self.entry_field: self.keep})
        type(self.keep).objects.filter(pk__in=self.duplicate_ids).delete()
        return moved


def start_merge(model: type[models.Model], *, actor, keep_id, ids: Iterable) -> Merge:
    """Lock the rows to merge and check the merge can be done: the row kept exists, there is at
    least one duplicate, and a private custom row is kept only when no other user logged the
    duplicates. Call inside a transaction."""
    require_curator(actor, model, "change", "delete")
    noun = model._meta.verbose_name
    locked = {
        row.pk: row for row in model.objects.select_for_update().filter(pk__in={*ids, keep_id})
    }
    keep = locked.get(keep_id)
    if keep is None:
        raise ValidationError(f"The {noun} to keep no longer exists.", code="merge_missing")
    duplicate_ids = [pk for pk in locked if pk != keep.pk]
    if not duplicate_ids:
        raise ValidationError(
            f"Select at least two {noun}s: the one to keep and the duplicates to merge into it.",
            code="merge_needs_two",
        )
    relation = model._meta.get_field("entries")
    entry_field = relation.field.name
    entries = relation.related_model.objects.filter(**{f"{entry_field}_id__in": duplicate_ids})
    if keep.is_custom and not (keep.shared_with_public and keep.share_approved):
        others = entries.exclude(user_id=keep.user_id).values("user_id").distinct().count()
        if others:
            raise ValidationError(
                f"“{keep.name}” is a private custom {noun}, but {others} other user(s) logged "
                f"the duplicates: keep a public or shared {noun}, or share this one first.",
                code=f"merge_private_{noun}",
            )
    return Merge(keep=keep, duplicate_ids=duplicate_ids, entries=entries, entry_field=entry_field)
