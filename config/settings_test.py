"""Test settings: the embedded stack with no delays, no embedded worker, fast hashing."""
import os

os.environ.setdefault("EMBEDDED_WORKER", "0")
os.environ.setdefault("BOT_DELAY_MS", "0")
os.environ.setdefault("DEAL_PAUSE_MS", "0")

from .settings import *  # noqa: E402,F401,F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
EMBEDDED_WORKER = False
CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
CELERY_BROKER_URL = "memory://"
LOGGING = {"version": 1, "disable_existing_loggers": False}
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
