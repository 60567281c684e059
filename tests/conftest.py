import pytest

from sparky.models import User
from tests.sample_catalog import make_catalog


@pytest.fixture(autouse=True)
def _fast_password_hasher(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def make_user(email: str, time_zone: str = "UTC", **extra) -> User:
    return User.objects.create_user(
        email=email, password="correct horse battery", time_zone=time_zone, **extra
    )


@pytest.fixture
def alice(db):
    return make_user("alice@example.com")


@pytest.fixture
def bob(db):
    return make_user("bob@example.com")


@pytest.fixture
def catalog(db):
    """The suite's small public catalog (tests/sample_catalog.py): foods and activities by key."""
    return make_catalog()
