"""Test settings: the embedded stack with no delays, no embedded worker, fast hashing."""
import os
import tempfile

os.environ.setdefault("EMBEDDED_WORKER", "0")
os.environ.setdefault("BOT_DELAY_MS", "0")
os.environ.setdefault("DEAL_PAUSE_MS", "0")
os.environ.setdefault("FAIR_SEED_WAIT_MS", "0")    # a test that wants the seed wait sets it

from .settings import *  # noqa: E402,F401,F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
EMBEDDED_WORKER = False
SHOWCASE = False            # a test that wants the showcase tables turns it on
# Limits on abuse: generous, so no test trips over the counts of another (the cache outlives a
# test); the tests of each limit set real values (tests/*/test_limits.py). django-axes is off: it
# needs a request in every authenticate(); the login-limit tests turn it on.
AXES_ENABLED = False
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "tests"}}
REGISTER_RATE = GUEST_RATE = TABLE_CREATE_RATE = CHAT_RATE = BOT_API_RATE = RECORD_UPLOAD_RATE = HINT_RATE = \
    POOL_CHANGE_RATE = "100000/m"
CHAT_REPEAT_SECONDS = 0
SOCKET_BURST = 100000
SOCKET_PER_ADDRESS = SOCKET_PER_ACCOUNT = 0
# The sockets of the test process neither beat nor take over SIGTERM (games/web_process/liveness.py, shutdown.py):
# the tests of both drive them by hand; servers in subprocesses run config.settings.
GAMES_PROCESS_HEARTBEAT_SECONDS = 0
CHANNEL_LAYERS = {"default": {"BACKEND": "realtime.layers.EmbeddedChannelLayer"}}
CELERY_BROKER_URL = "memory://"
LOGGING = {"version": 1, "disable_existing_loggers": False}
if DATABASES["default"]["ENGINE"] == "config.sqlite":  # noqa: F405
    # pytest-django holds a transaction open across a test: a process-wide write lock would
    # deadlock the threads a socket test starts. Live-server tests run the real backend.
    DATABASES["default"]["ENGINE"] = "django.db.backends.sqlite3"  # noqa: F405
    # A file, as in the embedded mode, not Django's default shared-cache in-memory database:
    # there a reader meets "database table is locked" at once while another thread writes,
    # where WAL lets socket threads read beside a writer as they do in production.
    DATABASES["default"]["TEST"] = {  # noqa: F405
        "NAME": os.path.join(tempfile.gettempdir(), f"cardgames-test-{os.getpid()}.sqlite3")}
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
