"""Sparky settings, read from the environment with safe local defaults.

Every integration is off until its variable is set: no broker means tasks run eagerly, no AI
service means the built-in offline model answers. Bad values raise ImproperlyConfigured.
"""

import datetime as dt
import os
from pathlib import Path

import environ
from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()
env_file = BASE_DIR / ".env"
if env_file.exists():
    environ.Env.read_env(env_file)

# litellm reaches for the internet at import unless told otherwise; keep it on its bundled data.
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
os.environ.setdefault("LITELLM_OFFLINE_MODE", "true")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

DEBUG = env.bool("DEBUG", default=True)

_DEV_SECRET = "sparky-local-development-secret-key-not-for-production-use-0123456789"
SECRET_KEY = env.str("SECRET_KEY", default=_DEV_SECRET if DEBUG else "")
if not SECRET_KEY:
    raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")

ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])
SITE_URL = env.str("SITE_URL", default="http://127.0.0.1:8000")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.postgres",
    "rest_framework",
    "rest_framework.authtoken",
    "axes",
    "drf_spectacular",
    "django_htmx",
    "template_partials",
    "sparky",
    "nutrition",
    "exercise",
    "measurements",
    "diary",
    "aiservices",
    "chat",
    "config",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    }
]

DATABASES = {
    "default": env.db("DATABASE_URL", default="postgres://postgres@127.0.0.1:5432/sparky"),
}
if not DATABASES["default"]["ENGINE"].endswith("postgresql"):
    raise ImproperlyConfigured("Sparky runs on PostgreSQL: DATABASE_URL must be a postgres:// URL.")
DATABASES["default"].setdefault("CONN_MAX_AGE", env.int("DB_CONN_MAX_AGE", default=0))
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
# Under ASGI (uvicorn) every request runs its sync view in a thread of its own, so persistent
# connections are never reused and each in-flight request opens one: connections grow with
# concurrent requests until Postgres refuses them. A pool per process bounds them (requests beyond
# it wait up to DB_POOL_TIMEOUT s for a free connection) and saves the connect per request.
DB_POOL_MAX_SIZE = env.int("DB_POOL_MAX_SIZE", default=0)
if DB_POOL_MAX_SIZE:
    DATABASES["default"]["CONN_MAX_AGE"] = 0  # Django refuses persistent connections with a pool
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": min(2, DB_POOL_MAX_SIZE),
        "max_size": DB_POOL_MAX_SIZE,
        "timeout": env.float("DB_POOL_TIMEOUT", default=30.0),
    }
DATABASES["default"].setdefault("TEST", {})
DATABASES["default"]["TEST"].setdefault(
    "NAME", env.str("TEST_DATABASE_NAME", default="test_sparky")
)

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "sparky.User"
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "chat:page"
LOGOUT_REDIRECT_URL = "login"

# Failed logins are counted per account by django-axes (sparky.logins): its backend goes first and
# refuses a locked account before any password is checked. The lockout is answered by the login
# page and the token endpoint themselves (a form error, a JSON 429), not by AxesMiddleware, whose
# page would be neither; hence the silenced check that asks for it.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
SPARKY_TRUSTED_PROXIES = env.int("SPARKY_TRUSTED_PROXIES", default=0)
if SPARKY_TRUSTED_PROXIES < 0:
    raise ImproperlyConfigured("SPARKY_TRUSTED_PROXIES is a number of proxies: 0 or more.")
SPARKY_LOGIN_FAILURE_LIMIT = env.int("SPARKY_LOGIN_FAILURE_LIMIT", default=10)
SPARKY_LOGIN_LOCKOUT_MINUTES = env.float("SPARKY_LOGIN_LOCKOUT_MINUTES", default=15.0)
AXES_FAILURE_LIMIT = SPARKY_LOGIN_FAILURE_LIMIT
AXES_COOLOFF_TIME = dt.timedelta(minutes=SPARKY_LOGIN_LOCKOUT_MINUTES)
# Each account, and each client address (one address trying many accounts), counted on its own.
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_USERNAME_CALLABLE = "sparky.logins.login_email"
AXES_CLIENT_IP_CALLABLE = "sparky.logins.client_address"
AXES_RESET_ON_SUCCESS = True
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False  # marks the refused request as locked out
AXES_DISABLE_ACCESS_LOG = True  # no row per successful login
AXES_VERBOSE = False
SILENCED_SYSTEM_CHECKS = ["axes.W002"]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# E-mail (the password reset link): printed on the console until EMAIL_URL names a server,
# e.g. smtp+tls://user:password@smtp.example.com:587.
vars().update(env.email_url("EMAIL_URL", default="consolemail://"))
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="Sparky <sparky@localhost>")
PASSWORD_RESET_TIMEOUT = env.int("PASSWORD_RESET_TIMEOUT", default=3 * 60 * 60)

LANGUAGE_CODE = "en-us"
TIME_ZONE = env.str("TIME_ZONE", default="UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
# Where `manage.py collectstatic` puts the files WhiteNoise serves when DEBUG is off (sparky_setup
# collects them then: `make serve` needs no separate step).
STATIC_ROOT = Path(env.str("STATIC_ROOT", default=str(BASE_DIR / "staticfiles")))
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
MEDIA_ROOT = Path(env.str("MEDIA_ROOT", default=str(BASE_DIR / "media")))
MEDIA_URL = "media/"

# Uploads: meal photos are re-encoded and capped by the chat app; refuse huge bodies up front.
DATA_UPLOAD_MAX_MEMORY_SIZE = 12 * 1024 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = 12 * 1024 * 1024
# One uploaded file (an import, a photo) is at most this large; the reading of a larger one stops
# at the limit as its bytes arrive (sparky.uploads).
SPARKY_MAX_UPLOAD_BYTES = env.int("SPARKY_MAX_UPLOAD_BYTES", default=10 * 1024 * 1024)
FILE_UPLOAD_HANDLERS = [
    "sparky.uploads.LimitedUploadHandler",
    "django.core.files.uploadhandler.MemoryFileUploadHandler",
    "django.core.files.uploadhandler.TemporaryFileUploadHandler",
]
SPARKY_MAX_IMAGE_BYTES = env.int("SPARKY_MAX_IMAGE_BYTES", default=8 * 1024 * 1024)
SPARKY_MAX_MESSAGE_CHARS = env.int("SPARKY_MAX_MESSAGE_CHARS", default=4000)

# Security headers and cookies; strict whenever DEBUG is off.
SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = False  # htmx reads the token from the page, not the cookie
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
if not DEBUG:
    SESSION_COOKIE_SECURE = env.bool("SESSION_COOKIE_SECURE", default=True)
    CSRF_COOKIE_SECURE = env.bool("CSRF_COOKIE_SECURE", default=True)
    SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
    SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# API keys of AI services are encrypted with these Fernet keys (comma separated, newest first).
# Rotation: put a new key first, keep the old ones after it, run `manage.py rotate_api_keys`.
SPARKY_ENCRYPTION_KEYS = env.list("SPARKY_ENCRYPTION_KEYS", default=[])
if not SPARKY_ENCRYPTION_KEYS and not DEBUG:
    raise ImproperlyConfigured("SPARKY_ENCRYPTION_KEYS must be set when DEBUG is off.")

# Custom AI service URLs are requests the user makes our server send; private, loopback and
# link-local targets are refused unless this is on (self-hosters running Ollama locally).
SPARKY_ALLOW_PRIVATE_AI_URLS = env.bool("SPARKY_ALLOW_PRIVATE_AI_URLS", default=False)
SPARKY_LLM_TIMEOUT = env.float("SPARKY_LLM_TIMEOUT", default=60.0)
# A server of the user's own (Ollama, llama.cpp) loading a model cold on a small machine: one
# request and a whole turn may take minutes (120 s is too short for a 9B model on a laptop).
SPARKY_LOCAL_LLM_TIMEOUT = env.float("SPARKY_LOCAL_LLM_TIMEOUT", default=300.0)
SPARKY_LOCAL_TURN_TIME_LIMIT = env.float("SPARKY_LOCAL_TURN_TIME_LIMIT", default=600.0)
# How long the settings page's Test connection may take in all (name, connection, reply).
SPARKY_AI_TEST_SECONDS = env.float("SPARKY_AI_TEST_SECONDS", default=10.0)
SPARKY_TURN_TIME_LIMIT = env.float("SPARKY_TURN_TIME_LIMIT", default=120.0)
SPARKY_MAX_AGENT_STEPS = env.int("SPARKY_MAX_AGENT_STEPS", default=6)

REST_FRAMEWORK = {
    # Token first: an unauthenticated request then gets 401 with WWW-Authenticate, not 403.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_PAGINATION_CLASS": "sparky.pagination.SparkyPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_SCHEMA_CLASS": "sparky.api.SparkyAutoSchema",
    "EXCEPTION_HANDLER": "sparky.api.exception_handler",
    # JSON nested past sparky.parsers.MAX_DEPTH is a 400, not a RecursionError.
    "DEFAULT_PARSER_CLASSES": [
        "sparky.parsers.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "chat": env.str("SPARKY_CHAT_RATE", default="30/min"),
        "auth": env.str("SPARKY_AUTH_RATE", default="10/min"),
        "signup": env.str("SPARKY_SIGNUP_RATE", default="10/hour"),
    },
    # Amounts are JSON numbers, not strings.
    "COERCE_DECIMAL_TO_STRING": False,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Sparky API",
    "DESCRIPTION": "Nutrition and fitness diary with Sparky the coach.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SERVE_PERMISSIONS": ["rest_framework.permissions.IsAuthenticated"],
    "COMPONENT_SPLIT_REQUEST": True,
    # Swagger UI and Redoc from drf-spectacular-sidecar's files (config/api_urls.py), no CDN.
    "SWAGGER_UI_DIST": "/api/docs/assets/swagger-ui-dist",
    "SWAGGER_UI_FAVICON_HREF": "/api/docs/assets/swagger-ui-dist/favicon-32x32.png",
    "REDOC_DIST": "/api/docs/assets/redoc",
    "SWAGGER_UI_SETTINGS": {
        "deepLinking": True,
        "persistAuthorization": True,
        "validatorUrl": None,
    },
    "ENUM_NAME_OVERRIDES": {
        "ChatCategoryEnum": "sparky.services.CHAT_CATEGORIES",
        "GoalSourceEnum": ["day", "default"],
        "MealTypeEnum": "nutrition.models.MealType",
        "ReportVerdictEnum": ["low", "high"],
    },
}

CACHES = {
    "default": env.cache("CACHE_URL", default="locmemcache://sparky"),
}

# Celery: with no broker configured tasks run in-process, so a fresh clone works alone.
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default="")
CELERY_RESULT_BACKEND = env.str("CELERY_RESULT_BACKEND", default="") or None
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TIMEZONE = "UTC"
CELERY_BEAT_SCHEDULE = {
    "auto-clear-chat-history": {
        "task": "chat.tasks.auto_clear_history_task",
        "schedule": crontab(minute=17),
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
    "loggers": {
        # Django's own console handler (DEBUG only) would print each 4xx/5xx a second time
        # beside the root's: its records go to the root handler alone.
        "django": {"handlers": [], "level": "INFO", "propagate": True},
        "LiteLLM": {"level": "WARNING"},
        "httpx": {"level": "WARNING"},
        "axes": {"level": "WARNING"},  # a line per failed login at INFO; lockouts still show
    },
}
