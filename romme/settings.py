"""Settings for Rommé Ledger, read from the environment.

Defaults suit one laptop in a hall with no network: SQLite in the project folder.
A server sets DEBUG=0, SECRET_KEY, ALLOWED_HOSTS and DATABASE_URL (PostgreSQL).
"""

import os
import sys
from pathlib import Path

import dj_database_url
from csp.constants import NONCE, NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from common import datafolder

BASE_DIR = Path(__file__).resolve().parent.parent
# The templates, static files and translations: top-level folders of the source tree, or, in
# an installed copy (the wheel; setup.py copies them), folders of the package romme itself.
_PACKAGE_DIR = Path(__file__).resolve().parent
ASSETS_DIR = _PACKAGE_DIR if (_PACKAGE_DIR / "templates").is_dir() else BASE_DIR


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG", default=False)
# The test suite runs without a production environment; it never serves real users.
TESTING = "pytest" in sys.modules or sys.argv[1:2] == ["test"]

# The hall mode (`python -m romme.hall`, docs/hall.md): the director's laptop as the server
# for a room of phones. Production settings over plain HTTP in the hall's LAN, everything
# kept in one data folder (database, secret key, backups).
HALL_MODE = env_bool("HALL_MODE")
HALL_DATA_DIR = datafolder.resolve() if HALL_MODE else None
# The address printed on QR codes, when the laptop's own LAN address is not the one phones
# should use (a fixed address on a travel router); otherwise it is found at run time.
HALL_URL = os.environ.get("HALL_URL", "").strip()
HALL_PORT = int(os.environ.get("HALL_PORT", "8000"))
# The one address `romme.hall --listen` was given ("0.0.0.0": every address).
HALL_LISTEN = os.environ.get("HALL_LISTEN", "").strip()
# Loopback aliases that the hall mode treats as another device (a phone), for tests only:
# a test talks to the laptop from 127.0.0.3 and must be refused the director's pages.
HALL_OTHER_DEVICES = env_list("HALL_OTHER_DEVICES")
# The hall's backup loop (hall.backup_writer): an event's archive at most once per
# HALL_ARCHIVE_SECONDS after a change, a copy of the database every HALL_SNAPSHOT_SECONDS,
# looking every HALL_BACKUP_TICK seconds; tests shorten them through the environment.
HALL_ARCHIVE_SECONDS = float(os.environ.get("HALL_ARCHIVE_SECONDS", "60"))
HALL_SNAPSHOT_SECONDS = float(os.environ.get("HALL_SNAPSHOT_SECONDS", "600"))
HALL_BACKUP_TICK = float(os.environ.get("HALL_BACKUP_TICK", "3"))
HALL_BACKUPS_KEPT = 20
if HALL_MODE:
    DEBUG = False

PRODUCTION = not (DEBUG or TESTING)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if HALL_MODE and not SECRET_KEY:
    SECRET_KEY = datafolder.secret_key(HALL_DATA_DIR)
if not SECRET_KEY:
    if PRODUCTION:
        raise ImproperlyConfigured(
            "SECRET_KEY is not set. Set SECRET_KEY in the environment, or DEBUG=1 for development."
        )
    # Only ever used with DEBUG on or in tests, so a leaked development key protects nothing real.
    SECRET_KEY = "django-insecure-development-only-key-do-not-use-in-production"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost" if DEBUG else "")
if HALL_MODE:
    # The laptop's addresses change with the network: hall.access.HallHostMiddleware checks
    # every request's host against the addresses it has now (and localhost, HALL_URL).
    ALLOWED_HOSTS = ["*"]
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_filters",
    "django_tables2",
    "simple_history",
    "axes",
    "csp",
    "django_tasks",
    "django_tasks_db",
    "clubs",
    "tournaments",
    "scoring",
    "federation",
    "leagues",
    "prizes",
    "live",
    "hall",
]

MIDDLEWARE = [
    # Every request in a fresh chunk of CPython's frame stack: no hot loop on a chunk's edge,
    # whatever the depth (common.frame_stack; the standings page 45 ms instead of 100).
    "common.frame_stack.FrameStackMiddleware",
    # The hall mode's checks before anything else reads the host: a host that is not one of
    # the laptop's addresses gets 400, a phone only the pages meant for phones (hall.access).
    "hall.access.HallMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "romme.headers.PermissionsPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # An anonymous reader's 304 or cached public standings, before the session, locale,
    # CSRF, auth and message middleware (issue 19: most of the traffic, little work).
    "scoring.standings.public.PublicCacheMiddleware",
    # Django's session middleware, answering a fault while saving the session with 503.
    "romme.faults.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # A GET of a button's address: the German page instead of the browser's bare 405.
    "romme.button_addresses.ButtonAddressMiddleware",
    "common.safety.HostileInputMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    # Last, as django-axes asks: turns a lockout into the German page below.
    "axes.middleware.AxesMiddleware",
]

# Content-Security-Policy (django-csp 4): scripts only from our own static files, styles
# from them or from a <style> element carrying the request's nonce; nothing may frame us.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF, NONCE],
        "img-src": [SELF, "data:"],  # QR codes are data: URIs
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [NONE],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}
# The server (DEBUG=0) enforces the policy. The laptop's `make run` (DEBUG=1) only reports
# violations in the browser console, so that accessibility checkers and developer tools can
# inject their scripts while pages are reviewed; CSP_ENFORCE=1 enforces it there too.
if not env_bool("CSP_ENFORCE", default=not DEBUG):
    CONTENT_SECURITY_POLICY_REPORT_ONLY = CONTENT_SECURITY_POLICY
    CONTENT_SECURITY_POLICY = None
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
PERMISSIONS_POLICY = [
    "accelerometer",
    "autoplay",
    "camera",
    "display-capture",
    "geolocation",
    "gyroscope",
    "magnetometer",
    "microphone",
    "midi",
    "payment",
    "usb",
]

# Login throttling (django-axes; see romme/throttling.py and docs/security.md).
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    # ModelBackend, reading the user's club roles with the user (one query less a page).
    "clubs.auth.ClubRoleBackend",
]
AXES_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", "5"))
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]  # each counted on its own
AXES_COOLOFF_TIME = "romme.throttling.cool_off"
AXES_RESET_ON_SUCCESS = True
# Failures during a lockout neither extend it nor count as further lockouts.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_ENABLE_ACCESS_FAILURE_LOG = True
AXES_VERBOSE = False
AXES_LOCKOUT_CALLABLE = "romme.throttling.lockout_response"
# Behind nginx or another reverse proxy, set TRUSTED_PROXY_COUNT=1 (the number of proxies),
# or every client would share the proxy's address and one attacker lock out everybody.
TRUSTED_PROXY_COUNT = int(os.environ.get("TRUSTED_PROXY_COUNT", "0"))
AXES_CLIENT_IP_CALLABLE = "romme.throttling.client_ip"

ROOT_URLCONF = "romme.urls"
# A form from a page opened before a new login, or sent without the CSRF cookie: the app's own
# German page (and JSON for a phone's queued hand) instead of Django's technical one.
CSRF_FAILURE_VIEW = "romme.views.csrf_failure"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [ASSETS_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "romme.views.app_version",
            ],
        },
    },
]

WSGI_APPLICATION = "romme.wsgi.application"

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "60")),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Parameters bound on the server and a query the connection has run five times
    # prepared (Django turns psycopg's preparing off unless asked), so PostgreSQL stops
    # planning the read paths' queries afresh on every request (issue 38,
    # docs/performance-log.md). A pooler in transaction mode needs PgBouncer 1.21 or newer
    # with max_prepared_statements for it (README, DATABASE_URL).
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        server_side_binding=True, prepare_threshold=5
    )
    # Django's backend, its health check looking at the socket instead of a `SELECT 1` round
    # trip on every request (romme/postgresql/base.py).
    DATABASES["default"]["ENGINE"] = "romme.postgresql"
if HALL_MODE:
    DATABASES["default"] = dj_database_url.parse(
        f"sqlite:///{datafolder.database_path(HALL_DATA_DIR)}", conn_max_age=0
    )
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several scorers save at once in a hall: wait for the write lock instead of failing.
    DATABASES["default"]["OPTIONS"] = {"timeout": 20, "transaction_mode": "IMMEDIATE"}
    DATABASES["default"]["CONN_MAX_AGE"] = 0
if HALL_MODE:
    # The only copy of the tournament: WAL lets phones read while a sheet is written, and
    # synchronous=FULL syncs every commit to the disk, so an acknowledged save survives a
    # power cut (NORMAL in WAL mode may lose the last commits then). The hall's live worker
    # alone runs NORMAL (romme.hall sets HALL_SQLITE_SYNC): its own commits (task rows, the
    # server's acknowledgements) are sent again if lost, and its syncs queued with the
    # director's on the laptop's disk (docs/live.md); the one commit of it that must last,
    # numbering a change, is synced (live.laptop.outbox.allocate_change).
    HALL_SQLITE_SYNC = "NORMAL" if os.environ.get("HALL_SQLITE_SYNC") == "NORMAL" else "FULL"
    DATABASES["default"]["OPTIONS"]["init_command"] = (
        f"PRAGMA journal_mode=WAL; PRAGMA synchronous={HALL_SQLITE_SYNC}; PRAGMA busy_timeout=20000"
    )

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# German is what our users read; English for guests and the federation's visitors.
LANGUAGE_CODE = "de"
LANGUAGES = [("de", _("German")), ("en", _("English"))]
LOCALE_PATHS = [ASSETS_DIR / "locale"]
USE_I18N = True
TIME_ZONE = os.environ.get("TIME_ZONE", "Europe/Berlin")
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [ASSETS_DIR / "static"]
# `collectstatic` writes here; a server may put it elsewhere (the production smoke uses a temp dir).
STATIC_ROOT = Path(
    os.environ.get("STATIC_ROOT")
    or (datafolder.static_root(HALL_DATA_DIR) if HALL_MODE else BASE_DIR / "staticfiles")
)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if PRODUCTION
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}

# Player imports are read in memory; 5 MB holds far more than a federation's registry.
DATA_UPLOAD_MAX_MEMORY_SIZE = 10 * 1024 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = 10 * 1024 * 1024
# Overrides for the limits on uploads and typed text; defaults and their reasons are in
# romme/limits.py and docs/security.md. Example: {"player_rows": 50_000}.
UPLOAD_LIMITS: dict[str, int] = {}

DJANGO_TABLES2_TEMPLATE = "tables/table.html"

if PRODUCTION and not HALL_MODE:
    SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", True)
    CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", True)
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
if HALL_MODE:
    # Plain HTTP in a LAN without a name: no TLS to redirect to, no HSTS (it would lock the
    # phones out of http://192.168.x), no Secure cookies (they would never be sent back).
    # Everything else is as on a server.
    SILENCED_SYSTEM_CHECKS = [
        "security.W004",  # HSTS
        "security.W008",  # SSL redirect
        "security.W010",  # Secure session cookie (sessions app)
        "security.W011",  # Secure session cookie (session middleware)
        "security.W012",  # Secure session cookie
        "security.W016",  # Secure CSRF cookie
    ]

# Cache: local memory by default (the laptop needs no Redis). A server with several gunicorn
# workers sets CACHE_URL (or REDIS_URL), e.g. redis://127.0.0.1:6379/1, for one shared cache:
# the rendered public standings live there, one entry per results version (issue 19).
CACHE_URL = os.environ.get("CACHE_URL") or os.environ.get("REDIS_URL", "")
if CACHE_URL:
    CACHES = {
        "default": {
            "BACKEND": "romme.cache.SharedClientRedisCache",
            "LOCATION": CACHE_URL,
            "KEY_PREFIX": "romme",
        }
    }

# Faults and health: a database or disk fault answers 503 with a German page (romme.faults);
# /healthz reports database, cache, disk space and the task queue (romme.health).
MIDDLEWARE += ["romme.faults.ServiceUnavailableMiddleware"]
HEALTH_MIN_FREE_MB = int(os.environ.get("HEALTH_MIN_FREE_MB", "200"))
# Background tasks (long exports): django-tasks with its database backend, so the queue, the
# progress and the finished files are in the one database every app server and every worker
# (`manage.py db_worker`) shares; `make run` starts a worker beside the dev server.
# Two queues: "default" (exports, prints, imports) and "live" (live results' pushes, short
# and waited for by the hall's audience: the hall runs a worker of its own for them, so a
# long print never holds a push up). One worker may take both (`--queue-name '*'`).
TASK_QUEUES = ["default", "live"]
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": TASK_QUEUES}}
# Processes that lay out one long PDF (standings, workbook, score sheets) in parallel; never
# more than the machine's cores; 1 lays every PDF out in the requesting process.
PDF_WORKERS = int(os.environ.get("PDF_WORKERS", "2"))
# How a worker starts: "fork" (Django and fonts already loaded) or "spawn"/"forkserver".
# fork exists on Linux only in a safe form (Windows has none, macOS's is unsafe with threads):
# elsewhere, as on the club laptops, the workers are spawned.
PDF_WORKER_START = os.environ.get("PDF_WORKER_START") or (
    "fork" if sys.platform.startswith("linux") else "spawn"
)
if PRODUCTION:
    # A monitor on the same machine asks http://127.0.0.1/healthz without TLS.
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    # WeasyPrint's "Step …" records feed the prints' progress bars (scoring.exports.formats.pdf),
    # in every process from its first parsed style sheet on; never the console or the hall's log.
    "loggers": {"weasyprint.progress": {"level": "INFO", "propagate": False}},
}
if HALL_MODE and HALL_DATA_DIR.is_dir():  # (not for the doctor looking at a new folder)
    # A log in the data folder as well: what a club's helper sends along when asking for help.
    LOGGING["formatters"] = {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}}
    LOGGING["handlers"]["file"] = {
        "class": "logging.handlers.RotatingFileHandler",
        "filename": str(datafolder.log_path(HALL_DATA_DIR)),
        "maxBytes": 5_000_000,
        "backupCount": 3,
        "encoding": "utf-8",
        "formatter": "plain",
        "delay": True,
    }
    LOGGING["root"]["handlers"] = ["console", "file"]
