"""Every query Sparky's code makes on a user's rows names the user: a guard the whole suite runs.

    with user_rows_guard() as slips:   # tests/conftest.py wraps every test in it
        meal_repeat(user=alice, from_date="yesterday", meal="breakfast")
    assert slips == []                 # or: each statement that read rows of every user

A per-user table is one whose rows belong to one user (a model on `sparky.models.UserRow`, the AI
services, preferences): food entries, chat messages, goals, water, usual meals, exercise entries,
check-ins and custom measurements. While the guard is on, each SELECT, UPDATE or DELETE that
Sparky's own code sends to the database is read: every per-user table it names (in FROM or a JOIN,
subqueries included) must be filtered by its `user_id`. A write by primary key alone (a `save()` or
`delete()` of a row read before, through the user) is allowed; a read by primary key alone is not
(the style guide: lookups by primary key alone do not exist).

"Sparky's own code" is the innermost frame of the call stack that lies in the repository outside
tests/ and bench/: the tests' own setup and read-backs are not judged. Django's delete collector
(a food's PROTECT check over every user's entries, a variant's SET_NULL) is the database's
integrity, not a read anyone is shown, and is not judged either. Code that reads across users by
design is named in CROSS_USER with its reason.
"""

from __future__ import annotations

import contextlib
import dataclasses
import re
import sys
from collections.abc import Iterator
from pathlib import Path

from django.apps import apps
from django.conf import settings
from django.db import connection

ROOT = Path(__file__).resolve().parent.parent
_ROOT = str(ROOT) + "/"
_NOT_APP = (_ROOT + "tests/", _ROOT + "bench/")
_LIBRARIES = (_ROOT + ".venv/", sys.prefix + "/", sys.base_prefix + "/")
# Django's own queries that look across users by their nature (the delete collector: a food's
# PROTECT check over every user's entries, a variant's SET_NULL; full_clean's checks that a new
# row's key is free and that a row it points at exists), or that reach a row through one already
# held (refresh_from_db; a measurement's category read from the measurement).
_DJANGO_CHECKS = {
    ("/django/db/models/deletion.py", None),
    ("/django/db/models/base.py", "_perform_unique_checks"),
    ("/django/db/models/base.py", "refresh_from_db"),
    ("/django/db/models/fields/related.py", "validate"),
    ("/django/db/models/fields/related_descriptors.py", "get_object"),
}

# (file relative to the repository, function): why it reads rows of more than one user.
CROSS_USER = {
    ("chat/services.py", "history_auto_clear"): "the hourly clean-up runs over every user",
    ("sparky/rows.py", "recreate"): "an id is free or taken among every user's rows",
    ("sparky/rows.py", "take_back_unused"): "a created food stays once anyone has logged it",
    ("aiservices/services.py", "ai_service_rotate_keys"): "a new key re-encrypts every user's",
    # Staff curation of the catalog: merging duplicate foods or exercises moves every user's
    # entries of the duplicates to the row kept.
    ("sparky/curation.py", "finish"): "a merge moves every user's entries",
    ("sparky/admin.py", "merge_duplicates_page"): "a merge counts every user's entries",
    ("nutrition/catalog.py", "foods_merge"): "a merge moves every user's entries and servings",
    # A data migration runs once over every user's rows.
    (
        "measurements/migrations/0003_blood_pressure_from_custom.py",
        "move_blood_pressures",
    ): "custom blood pressures move into every user's check-ins",
}


def user_tables() -> frozenset[str]:
    """The tables whose every row belongs to one user (a `user` key to the user model), catalogs
    (public rows beside users' own) and sign-in tokens (found by their key) aside."""
    tables = set()
    for model in apps.get_models():
        field = next((f for f in model._meta.concrete_fields if f.name == "user"), None)
        if field is None or not field.is_relation:
            continue
        if field.related_model._meta.label != settings.AUTH_USER_MODEL or field.null:
            continue  # a catalog row's user is its owner when it is a custom one
        if model._meta.app_label == "authtoken":
            continue
        tables.add(model._meta.db_table)
    return frozenset(tables)


_REFERENCE = re.compile(r'\b(FROM|JOIN|UPDATE)\s+"(\w+)"(?:\s+(?:AS\s+)?"?([A-Z]\d+)\b"?)?', re.I)


def _filtered_by_user(sql: str, name: str) -> bool:
    return re.search(rf'(?:"{name}"|\b{name})\."user_id"\s*(?:=|IN\b)', sql) is not None


def _by_key_alone(sql: str, name: str) -> bool:
    where = sql.split(" WHERE ", 1)[-1]
    return re.fullmatch(rf'\(?"{name}"\."id" (?:= %s|IN \([%s, ]+\))\)?', where.strip()) is not None


def unscoped_tables(sql: str, tables: frozenset[str]) -> list[str]:
    """The per-user tables `sql` names without filtering them by user (none for an INSERT)."""
    statement = sql.lstrip().split(None, 1)[0].upper() if sql.strip() else ""
    if statement not in {"SELECT", "UPDATE", "DELETE"}:
        return []
    references = [
        (kind.upper(), table, alias or table) for kind, table, alias in _REFERENCE.findall(sql)
    ]
    # A user's table joined to a row read through its user (a measurement's category) is
    # reached through that row.
    through_user = any(
        kind == "FROM" and table in tables and _filtered_by_user(sql, name)
        for kind, table, name in references
    )
    missing = []
    for kind, table, name in references:
        if table not in tables:
            continue
        if _filtered_by_user(sql, name) or (kind == "JOIN" and through_user):
            continue
        if statement in {"UPDATE", "DELETE"} and _by_key_alone(sql, name):
            continue
        missing.append(table)
    return missing


def _django_check(code) -> bool:
    return any(
        code.co_filename.endswith(path) and function in (None, code.co_name)
        for path, function in _DJANGO_CHECKS
    )


def _caller() -> tuple[str, str, int] | None:
    """The innermost frame of Sparky's code that sent this query, or None when the query is the
    tests' own, one of Django's checks (_DJANGO_CHECKS), or made inside a function named in
    CROSS_USER."""
    frame = sys._getframe(2)
    found = None
    while frame is not None:
        code = frame.f_code
        filename = code.co_filename
        if filename.startswith(_LIBRARIES) or not filename.startswith(_ROOT):
            if found is None and _django_check(code):
                return None
        elif filename.startswith(_NOT_APP):
            if found is None:
                return None
        else:
            where = (filename[len(_ROOT) :], code.co_name)
            if where in CROSS_USER:
                return None
            found = found or (*where, frame.f_lineno)
        frame = frame.f_back
    return found


@dataclasses.dataclass
class Slip:
    sql: str
    tables: list[str]
    where: tuple[str, str, int]

    def __str__(self) -> str:
        path, function, line = self.where
        return (
            f"{path}:{line} ({function}) reads {', '.join(self.tables)} of every user: {self.sql}"
        )


@contextlib.contextmanager
def user_rows_guard() -> Iterator[list[Slip]]:
    """Collects, while on, each query of Sparky's code that leaves a per-user table unfiltered
    by user (the default database connection of this thread)."""
    tables = user_tables()
    slips: list[Slip] = []

    def check(execute, sql, params, many, context):
        missing = unscoped_tables(sql, tables) if isinstance(sql, str) else []
        if missing and (where := _caller()) is not None:
            slips.append(Slip(sql=sql, tables=missing, where=where))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(check):
        yield slips
