import pytest
from django.core.cache import cache

from sparky.models import User
from tests.sample_catalog import make_catalog
from tests.scoping import user_rows_guard


@pytest.fixture(autouse=True)
def _fast_password_hasher(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True, scope="session")
def _static_files_as_in_development_for_live_servers():
    # The same for the session's live server, which builds its middleware before any test's
    # own settings apply.
    from django.conf import settings as django_settings

    django_settings.WHITENOISE_AUTOREFRESH = True


@pytest.fixture(autouse=True)
def _static_files_as_in_development(settings):
    # Tests run with DEBUG off and nothing collected into STATIC_ROOT: WhiteNoise looks the files
    # up per request, as in development, instead of warning "No directory at: .../staticfiles/"
    # each time a test client builds the middleware.
    settings.WHITENOISE_AUTOREFRESH = True


@pytest.fixture(autouse=True)
def _fresh_cache():
    # Throttles (sign-ups per address, chat turns, the token endpoint) count in the cache: every
    # test starts with none of another test's requests counted.
    cache.clear()


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


@pytest.fixture(autouse=True)
def _user_rows_are_read_through_their_user():
    """Every test fails when Sparky's code sends a query on a user's rows without the user
    (tests/scoping.py): an unscoped read is caught by whichever test happens to run it."""
    with user_rows_guard() as slips:
        yield
    if slips:
        pytest.fail("unscoped queries on a user's rows:\n" + "\n".join(map(str, slips)))
