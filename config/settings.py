"""Settings from the environment (django-environ).

Embedded mode (the default): SQLite, the in-memory channel layer and a Celery worker inside the
Daphne process. Scaled mode: set DATABASE_URL (PostgreSQL) and REDIS_URL.
DEBUG is off unless asked for (DEBUG=1): an error never shows a traceback or the settings.
The secret key: SECRET_KEY, or in embedded mode one generated per checkout (.secret_key, not in git);
scaled mode runs several processes, perhaps on several machines, so it refuses to start without it.
"""
import ipaddress
import os
import re
import secrets
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlparse

import environ
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from ops.logs import logging_config

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env")  # optional; absent files are ignored

DEBUG = env.bool("DEBUG", default=False)
SCALED = bool(env.str("DATABASE_URL", default="") or env.str("REDIS_URL", default=""))


def _secret_key() -> str:
    key = env.str("SECRET_KEY", default="")
    if key:
        return key
    if SCALED and not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set in scaled mode when DEBUG is off: every "
                                   "web process and worker must sign sessions with the same key.")
    # Embedded mode: a per-checkout key, generated once, kept out of git (.gitignore).
    path = BASE_DIR / ".secret_key"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(50))
        path.chmod(0o600)
    return path.read_text().strip()


SECRET_KEY = _secret_key()
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "axes",                 # login failures per address and per account (limits below)
    "csp",                  # django-csp's checks of its settings (the policy: security headers below)
    "channels",
    "accounts",
    "realtime",             # the socket transport every app shares (sending on commit, hub, layers)
    "games",
    "lobby",                # the pages where players find a game: home, lobbies, the table page, rules
    "tournaments",
    "ratings",
    "archive",
    "moderation",           # mutes and reports
    "analysis",             # the strong bot's verdict on finished matches (docs/ANALYSIS.md)
    "puzzles",              # positions of finished deals to solve (docs/PUZZLES.md)
    "botapi",               # bot accounts' API: tokens on sockets, challenges (docs/BOTS.md)
    "pool",                 # quick pairing with people: a pool per game, variant and time control
    "ops",                  # health, readiness, Prometheus metrics, JSON logs, the staff status page
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "config.csp.CSPMiddleware",         # Content-Security-Policy on every page (security headers below)
    "django.contrib.sessions.middleware.SessionMiddleware",
    "ops.context.request_context",      # the user of each log line (ops/logs.py; request id, table: ops/context.py)
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "axes.middleware.AxesMiddleware",   # answers a locked-out login (accounts/limits.py)
]

ROOT_URLCONF = "config.urls"
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]
WSGI_APPLICATION = None
ASGI_APPLICATION = "config.asgi.application"

# --- database -------------------------------------------------------------------------------
DATABASE_URL = env.str("DATABASE_URL", default="")
if DATABASE_URL:
    DATABASES = {"default": env.db_url_config(DATABASE_URL)}
    DATABASES["default"].setdefault("CONN_MAX_AGE", env.int("CONN_MAX_AGE", default=60))
    # Every socket message is a "request" here, so a health check would add a round trip to each
    # move (a tenth of one in bench/live.py); Django drops a connection that failed anyway.
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = env.bool("CONN_HEALTH_CHECKS", default=False)
    if DATABASES["default"]["ENGINE"].endswith("postgresql"):
        # A database host that stops answering would hold a move's thread: for the kernel's
        # connect timeout (about two minutes) on a dead route, for as long as it stays silent if
        # it took the connection. libpq gives up after this many seconds and the player is
        # answered with a refusal instead.
        DATABASES["default"].setdefault("OPTIONS", {}).setdefault(
            "connect_timeout", env.int("DB_CONNECT_TIMEOUT", default=5))
    if env.bool("DB_PREPARED_STATEMENTS", default=True):
        # Lets games/prepared.py run a move's statements as server-side prepared statements
        # (Django's own cursors bind on the client and never prepare). Turn off behind a
        # transaction-pooling PgBouncer.
        DATABASES["default"].setdefault("OPTIONS", {})["prepare_threshold"] = 5
else:
    DATABASES = {
        "default": {
            # django.db.backends.sqlite3 with write transactions queued in-process (see there).
            "ENGINE": "config.sqlite",
            "NAME": env.str("SQLITE_PATH", default=str(BASE_DIR / "db.sqlite3")),
            "OPTIONS": {
                # IMMEDIATE: every atomic block takes the write lock up front, which is what
                # select_for_update gives us on PostgreSQL (SQLite ignores FOR UPDATE).
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            },
            # Sockets run services on pool threads: reconnecting per message cost more than the move.
            "CONN_MAX_AGE": env.int("CONN_MAX_AGE", default=60),
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "accounts.User"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# django-axes first: it refuses a locked-out login before the password is checked.
AUTHENTICATION_BACKENDS = ["axes.backends.AxesBackend", "django.contrib.auth.backends.ModelBackend"]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# --- languages --------------------------------------------------------------------------------
LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("pl", _("Polish")), ("bg", _("Bulgarian")), ("de", _("German"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = "UTC"
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
WHITENOISE_USE_FINDERS = DEBUG      # serve static/ straight from the tree in embedded mode
WHITENOISE_AUTOREFRESH = DEBUG

# --- e-mail: console in embedded mode ----------------------------------------------------------
EMAIL_BACKEND = env.str("EMAIL_BACKEND", default="django.core.mail.backends.console.EmailBackend")
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="cards@localhost")

# --- channels and celery ----------------------------------------------------------------------
REDIS_URL = env.str("REDIS_URL", default="")
if REDIS_URL:
    # The pub/sub layer, not the core RedisChannelLayer (docs/SCALING.md, "Lessons"). Its prefix
    # names the Redis database: Redis scopes keys by database but not pub/sub channels, so without
    # it every site (or test or bench run) on one Redis server got the others' table messages, the
    # hands of another site's seats among them.
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "realtime.layers.ScaledChannelLayer",   # the pub/sub layer, batched
            "CONFIG": {"hosts": [REDIS_URL], "prefix": "cards" + (urlparse(REDIS_URL).path.strip("/") or "0")},
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "realtime.layers.EmbeddedChannelLayer"}}

CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default=REDIS_URL or "memory://")
CELERY_TASK_IGNORE_RESULT = True
CELERY_RESULT_BACKEND = None
CELERY_TASK_ACKS_LATE = True           # a worker killed mid-task leaves it for the next one
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Celery's Django fixup closes every database connection around every task unless this is set;
# it closes them only every 2 x this many tasks then, and config/celery.py applies CONN_MAX_AGE.
CELERY_DB_REUSE_MAX = env.int("CELERY_DB_REUSE_MAX", default=1000)
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Celery's consumer, made to survive the broker going away (config/worker.py).
CELERY_WORKER_CONSUMER = "config.worker:Consumer"
# Workers and beat log through LOGGING as the web processes do (LOG_FORMAT=json included), not
# through a root handler of Celery's own.
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 3600}
if CELERY_BROKER_URL.startswith("memory://"):
    CELERY_BROKER_TRANSPORT_OPTIONS["polling_interval"] = 0.05   # kombu's default is 1 s
CELERY_BEAT_SCHEDULE = {
    "sweep-overdue-tables": {"task": "games.tasks.sweep", "schedule": env.float("SWEEP_SECONDS", default=1.0)},
    "rate-lost-matches": {"task": "ratings.tasks.sweep", "schedule": 60.0},
    # Starts due tournaments and moves running ones on (tournaments/tasks.py).
    "tournament-tick": {"task": "tournaments.tasks.tournament_tick",
                        "schedule": env.float("TOURNAMENT_TICK_SECONDS", default=3.0)},
    # Keeps a table to watch and a table to join per game (games/showcase.py; off: SHOWCASE=0).
    "showcase": {"task": "games.tasks.showcase", "schedule": 30.0},
    # Pairs the pools' waiters as their rating windows widen, drops expired leases (pool/tasks.py).
    "pool-sweep": {"task": "pool.tasks.sweep", "schedule": env.float("POOL_SWEEP_SECONDS", default=1.0)},
    # Removes the socket records of web processes that stopped beating (games/web_process/liveness.py).
    "sweep-dead-sockets": {"task": "games.tasks.sweep_sockets",
                           "schedule": env.float("PRESENCE_SWEEP_SECONDS", default=5.0)},
}
if REDIS_URL:
    # Tells the sockets of a table whose committed change was never published (games/republish.py).
    CELERY_BEAT_SCHEDULE["republish-lost-updates"] = {
        "task": "games.tasks.republish", "schedule": env.float("REPUBLISH_SECONDS", default=1.0)}
# Post-match analyses run on their own queue, so bot moves never wait behind one (Procfile: its own
# worker; embedded mode: its own worker thread that gives way to table work, analysis/throttle.py).
CELERY_TASK_ROUTES = {"analysis.tasks.analyse_match": {"queue": "analysis"},
                      "puzzles.tasks.extract_match": {"queue": "analysis"}}
CELERY_BEAT_SCHEDULE["analysis-lost"] = {"task": "analysis.tasks.sweep", "schedule": 60.0}
# Fair play keeps addresses as keyed hashes this many days (accounts/address_keys.py), then forgets them.
ADDRESS_KEY_DAYS = env.int("ADDRESS_KEY_DAYS", default=30)
# Rated matches between accounts seen on one address before the moderators get a report
# (moderation/linked.py), and the most one rated puzzle attempt moves a rating (puzzles/services.py).
LINKED_FLAG_MATCHES = env.int("LINKED_FLAG_MATCHES", default=3)
PUZZLE_MAX_CHANGE = env.int("PUZZLE_MAX_CHANGE", default=20)
CELERY_BEAT_SCHEDULE["forget-puzzle-sightings"] = {"task": "puzzles.tasks.forget_sightings", "schedule": 3600.0}
CELERY_BEAT_SCHEDULE["forget-seen-addresses"] = {"task": "moderation.tasks.forget_addresses", "schedule": 3600.0}
# Draws per analysed decision (0: per game, games/bots/analyse.py ITERATIONS).
ANALYSIS_ITERATIONS = env.int("ANALYSIS_ITERATIONS", default=0)
# The most analysis tasks the broker holds: past it a finished match's analysis waits in the
# database (pending) and the sweeper sends it once the queue has drained (analysis/scheduling.py).
ANALYSIS_QUEUE_LIMIT = env.int("ANALYSIS_QUEUE_LIMIT", default=200)
# Embedded mode runs a Celery worker and beat as threads of the ASGI process (config/asgi.py).
EMBEDDED_WORKER = env.bool("EMBEDDED_WORKER", default=CELERY_BROKER_URL.startswith("memory://"))

# --- the game platform ------------------------------------------------------------------------
GAMES_BOT_DELAY_MS = env.int("BOT_DELAY_MS", default=700)       # human-like pause before a bot acts
# Child processes that run the searching bots' thinking (games/thinking.py). Embedded mode: one per
# core, so its one web process never spends its event loop's GIL on a search; 0: in the calling
# process (a scaled site's Celery workers are processes of their own).
GAMES_BOT_PROCESSES = env.int("BOT_PROCESSES", default=(os.cpu_count() or 1) if EMBEDDED_WORKER else 0)
GAMES_DEAL_PAUSE_MS = env.int("DEAL_PAUSE_MS", default=4000)    # pause between deals
GAMES_REPLACEMENT_BOT = env.str("REPLACEMENT_BOT", default="basic")  # who takes a timed-out seat
# Provably fair deals (docs/FAIRNESS.md): how long a deal's draw waits, after its commitment, for
# the client seeds of the human seats it waits for (0: it never waits).
GAMES_FAIR_SEED_WAIT_MS = env.int("FAIR_SEED_WAIT_MS", default=1500)
# Work due within this many seconds gets a Celery task at its time; later deadlines (players'
# clocks) are found by the sweeper every SWEEP_SECONDS.
GAMES_TASK_HORIZON_SECONDS = env.float("TASK_HORIZON_SECONDS", default=20.0)
GAMES_SWEEP_GRACE_SECONDS = env.float("SWEEP_GRACE_SECONDS", default=2.0)   # how late before the sweeper steps in
# A stored version not published this many seconds after its commit was lost on its way (a process
# killed between the two); the republisher looks back this far for them (games/republish.py).
GAMES_REPUBLISH_QUIET_SECONDS = env.float("REPUBLISH_QUIET_SECONDS", default=2.0)
GAMES_REPUBLISH_WINDOW_SECONDS = env.float("REPUBLISH_WINDOW_SECONDS", default=600.0)
# A player whose last socket closed mid-match may come back within this many seconds; after it his
# opponent may claim the win (2 players) or a bot takes his seat (4 players). games/clocks.py
GAMES_LEAVER_GRACE_SECONDS = env.float("LEAVER_GRACE_SECONDS", default=60.0)
# Each web process beats every PROCESS_HEARTBEAT_SECONDS; one silent for PROCESS_EXPIRY_SECONDS is
# dead, and the next socket sweep (PRESENCE_SWEEP_SECONDS) removes its sockets' records: its players
# are away at most expiry + sweep (+ one beat) after a kill -9 (games/web_process/liveness.py).
# A full garbage collection this often in each web process (games/web_process/collector.py; 0: never).
GC_FULL_SECONDS = env.float("GC_FULL_SECONDS", default=60.0)
# A web process whose event loop has not come round for this long writes every thread's stack to
# its log, once per stall (games/web_process/loop_watch.py; 0: not watched).
LOOP_STALL_SECONDS = env.float("LOOP_STALL_SECONDS", default=10.0)
GAMES_PROCESS_HEARTBEAT_SECONDS = env.float("PROCESS_HEARTBEAT_SECONDS", default=5.0)
GAMES_PROCESS_EXPIRY_SECONDS = env.float("PROCESS_EXPIRY_SECONDS", default=15.0)
# A web process told to stop (SIGTERM) closes its sockets with 4503 (reconnect) and keeps their records this
# long, so players who reconnect to another process meanwhile never turn away (games/web_process/shutdown.py).
GAMES_RESTART_GRACE_SECONDS = env.float("RESTART_GRACE_SECONDS", default=10.0)
# Threads per web process for socket work off the event loop (games/consumers.py). On PostgreSQL
# a move's call spends most of its time waiting (its round trips, the GIL), so more threads than
# cores keep moves from queueing (the figures: docs/SCALING.md). Each thread keeps a database
# connection.
GAMES_DB_THREADS = env.int("DB_THREADS", default=8 if DATABASE_URL else 1)
# Per game, a public table of bots playing (to watch) and one waiting for a player (games/showcase.py).
SHOWCASE = env.bool("SHOWCASE", default=True)
# Arena tournaments: how long free players wait for others before the arena settles for less: house
# bots in the empty seats of a four-seat table, or the opponent of one's previous match again.
TOURNAMENT_ARENA_WAIT_SECONDS = env.float("ARENA_WAIT_SECONDS", default=10.0)

# Quick pairing (pool/): a waiter is offered a bot after POOL_BOT_OFFER_SECONDS; his place is a lease
# his pool socket renews, so the waiters of a killed web process drop out within POOL_LEASE_SECONDS;
# the rating window starts at POOL_WINDOW_START points and widens by POOL_WINDOW_GROWTH a second.
POOL_BOT_OFFER_SECONDS = env.float("POOL_BOT_OFFER_SECONDS", default=20.0)
POOL_LEASE_SECONDS = env.float("POOL_LEASE_SECONDS", default=15.0)
POOL_WINDOW_START = env.int("POOL_WINDOW_START", default=100)
POOL_WINDOW_GROWTH = env.float("POOL_WINDOW_GROWTH", default=10.0)

# --- limits on abuse ------------------------------------------------------------------------------
# Counted where every web process sees them: the cache (Redis in scaled mode; the embedded mode is
# one process, so its memory is enough) and, for logins, the database. accounts/limits.py (HTTP),
# games/limits.py (chat), realtime/socket_limit.py (sockets).
if REDIS_URL:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                          "LOCATION": REDIS_URL, "KEY_PREFIX": "cache"}}
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "cards"}}


def _rate(name: str, default: str) -> str | None:
    """A django-ratelimit rate ("10/h", "5/10s"); empty: no limit."""
    value = env.str(name, default=default).strip()
    if value and not re.fullmatch(r"\d+/\d*[smhd]", value):
        raise ImproperlyConfigured(f"{name} must look like 10/h or 5/10s (count/period), not {value!r}.")
    return value or None


# Logins (django-axes, counted in the database): LOGIN_FAILURE_LIMIT failures from one address, or
# for one account, lock it out for LOGIN_COOLOFF_MINUTES from the last of them. Attempts meanwhile
# are refused unrecorded: they neither write nor push the end back, so the page can say when it ends.
AXES_FAILURE_LIMIT = env.int("LOGIN_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = timedelta(minutes=env.float("LOGIN_COOLOFF_MINUTES", default=15))
AXES_LOCKOUT_PARAMETERS = ["ip_address", "username"]    # each on its own
AXES_CLIENT_IP_CALLABLE = "accounts.limits.client_address"     # IPv6 by its /64
AXES_USERNAME_CALLABLE = "accounts.login.axes_username"   # an account's failures, typed in any case
AXES_LOCKOUT_CALLABLE = "accounts.limits.lockout"      # a page saying when to try again (429)
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_DISABLE_ACCESS_LOG = True                          # the failures are all a lockout needs
AXES_VERBOSE = False
# Per address: accounts registered and guest accounts made; per user: tables created (the lobby's
# form, "Play now", accepted challenges, rematch offers; tournaments' and the showcase's tables are
# not counted: games/limits.py).
REGISTER_RATE = _rate("REGISTER_RATE", "10/h")
GUEST_RATE = _rate("GUEST_RATE", "30/h")
TABLE_CREATE_RATE = _rate("TABLE_CREATE_RATE", "10/10m")
# Deal records checked by /replay/upload/ (each deal is replayed through the engine): uploads per
# address, and the size of one upload in bytes and in deals (archive/views.py).
RECORD_UPLOAD_RATE = _rate("RECORD_UPLOAD_RATE", "10/10m")
RECORD_UPLOAD_BYTES = env.int("RECORD_UPLOAD_BYTES", default=256 * 1024)
RECORD_UPLOAD_DEALS = env.int("RECORD_UPLOAD_DEALS", default=30)
# Chat per user: messages per period, and the same words not again within this many seconds.
CHAT_RATE = _rate("CHAT_RATE", "5/10s")
HINT_RATE = _rate("HINT_RATE", "20/10m")      # hints per user (games/hints.py)
CHAT_REPEAT_SECONDS = env.int("CHAT_REPEAT_SECONDS", default=30)
# Pool joins and leaves per account, and how often everyone is sent the pools' counts (pool/pace.py).
POOL_CHANGE_RATE = _rate("POOL_CHANGE_RATE", "12/m")
POOL_COUNTS_SECONDS = env.float("POOL_COUNTS_SECONDS", default=1.0)
# Socket messages per connection: a bucket of SOCKET_BURST refilled at SOCKET_RATE a second; a
# connection refused SOCKET_FLOOD_CLOSE times within SOCKET_FLOOD_SECONDS is closed (4429).
SOCKET_BURST = env.int("SOCKET_BURST", default=20)
SOCKET_RATE = env.float("SOCKET_RATE", default=8.0)
SOCKET_FLOOD_CLOSE = env.int("SOCKET_FLOOD_CLOSE", default=50)
SOCKET_FLOOD_SECONDS = env.float("SOCKET_FLOOD_SECONDS", default=10.0)
# A socket message over this many bytes is refused (too_large) before it is parsed; the web
# servers drop frames over realtime/socket_guard.FRAME_BYTES. The largest honest message, a report
# of 1000 characters with every one escaped as JSON \\uXXXX pairs, is about 12 KB.
SOCKET_MESSAGE_BYTES = env.int("SOCKET_MESSAGE_BYTES", default=16384)
# What the web servers read at most of one socket message: a bigger one closes the socket (1009)
# unread. Four times SOCKET_MESSAGE_BYTES, so a message between the two is answered too_large rather
# than dropped. uvicorn: --ws-max-size (config/serve.py, the Procfile); Daphne:
# --websocket-max-message-size and --websocket-max-frame-size (`manage.py runserver`: these two).
SOCKET_FRAME_BYTES = 65536
DAPHNE_WEBSOCKET_MAX_MESSAGE_SIZE = DAPHNE_WEBSOCKET_MAX_FRAME_SIZE = SOCKET_FRAME_BYTES
# A table socket's `sync` is answered with a snapshot at most once this often; those that come
# sooner are answered together when the time is up (games/sync_pace.py).
SYNC_SECONDS = env.float("SYNC_SECONDS", default=1.0)
# The server's half of the socket heartbeat (docs/PROTOCOL.md "Heartbeat"): a WebSocket ping every
# SOCKET_PING_SECONDS; a client that has not answered within SOCKET_PING_TIMEOUT_SECONDS is closed,
# so a stalled path counts as a closed socket (the player is away) within 9 s, well inside the
# leaver's grace. Browsers answer protocol pings even in a throttled background tab. uvicorn:
# --ws-ping-interval / --ws-ping-timeout (config/serve.py, the Procfile); Daphne: --ping-interval /
# --ping-timeout.
SOCKET_PING_SECONDS = 5
SOCKET_PING_TIMEOUT_SECONDS = 4
# Open sockets per client address and per account, across every web process (0: no limit).
SOCKET_PER_ADDRESS = env.int("SOCKET_PER_ADDRESS", default=60)
SOCKET_PER_ACCOUNT = env.int("SOCKET_PER_ACCOUNT", default=30)
# The embedded server's guard against half-open requests (config/http_guard.py; behind nginx, its
# client_header_timeout and limit_conn do this, deploy/nginx.conf): seconds to send a request's
# head, then its body; plain HTTP connections open at once per client address and in all (0: off;
# the total is capped below the process's file limit, which the server raises to its hard limit).
HTTP_HEADER_TIMEOUT_SECONDS = env.float("HTTP_HEADER_TIMEOUT_SECONDS", default=10.0)
HTTP_BODY_TIMEOUT_SECONDS = env.float("HTTP_BODY_TIMEOUT_SECONDS", default=30.0)
HTTP_CONNECTIONS_PER_ADDRESS = env.int("HTTP_CONNECTIONS_PER_ADDRESS", default=32)
HTTP_CONNECTIONS_TOTAL = env.int("HTTP_CONNECTIONS_TOTAL", default=4096)
# The bot API (docs/BOTS.md): HTTP requests per bot account, and how long a challenge waits.
BOT_API_RATE = _rate("BOT_API_RATE", "60/m")
BOT_CHALLENGE_SECONDS = env.int("BOT_CHALLENGE_SECONDS", default=60)

# LOG_FORMAT=json: one JSON object a line, with the table, user and request id (ops/logs.py);
# every record at ERROR or above is also counted (cards_errors_total).
LOG_FORMAT = env.str("LOG_FORMAT", default="text")
if LOG_FORMAT not in ("text", "json"):
    raise ImproperlyConfigured(f"LOG_FORMAT is text or json, not {LOG_FORMAT!r}.")
LOGGING = logging_config(LOG_FORMAT, env.str("LOG_LEVEL", default="INFO"))

# --- operations (ops/: docs/OPERATIONS.md, "Watching the site") ----------------------------------
# /metrics answers this machine, these addresses or networks, and "Authorization: Bearer
# <METRICS_TOKEN>"; anyone else gets 404.
METRICS_ALLOWED_IPS = env.list("METRICS_ALLOWED_IPS", default=[])
for _network in METRICS_ALLOWED_IPS:
    try:
        ipaddress.ip_network(_network, strict=False)
    except ValueError:
        raise ImproperlyConfigured(f"METRICS_ALLOWED_IPS: {_network!r} is not an address or a network.") from None
METRICS_TOKEN = env.str("METRICS_TOKEN", default="")
READY_TIMEOUT_SECONDS = env.float("READY_TIMEOUT_SECONDS", default=2.0)
OPS_SAMPLE_SECONDS = env.float("OPS_SAMPLE_SECONDS", default=5.0)      # each process's memory, heartbeat, lag
BACKUP_DIR = env.str("BACKUP_DIR", default="")          # where backups are written: the last one's age

# --- security headers ---------------------------------------------------------------------------
# HTTPS=1 when the site is served over TLS (behind a proxy that sets X-Forwarded-Proto): secure
# cookies, redirects to https and HSTS. Off by default so `make run` works on http://127.0.0.1.
HTTPS = env.bool("HTTPS", default=False)
SESSION_COOKIE_SECURE = env.bool("SESSION_COOKIE_SECURE", default=HTTPS)
CSRF_COOKIE_SECURE = env.bool("CSRF_COOKIE_SECURE", default=HTTPS)
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=HTTPS)
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31536000 if HTTPS else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = HTTPS
SECURE_HSTS_PRELOAD = HTTPS
if HTTPS:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# Content-Security-Policy (django-csp 4; README, "Content Security Policy"): scripts, styles, fonts and
# everything fetched come from this site only, so an injected <script>, inline handler or style=""
# does nothing. The pages hold no inline code (JSON data blocks only; behaviour in static/js/), and
# the admin's pages are clean too. img-src data: is the table's favicon, drawn on a canvas; the
# middleware (config/csp.py) adds this site's websocket origin (ws:// or wss://host) to connect-src.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "font-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}

if not DEBUG:
    STORAGES = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "config.static_storage.StaticStorage"},
    }
