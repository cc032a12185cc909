"""ASGI entry point for Daphne: the application, plus in embedded mode a Celery worker and beat
running as threads of this process (no broker or worker to install)."""
import gc
import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from config.routing import application  # noqa: E402,F401
from django.conf import settings  # noqa: E402

if settings.EMBEDDED_WORKER:
    from config.embedded import start_embedded_celery

    start_embedded_celery()

# PERFORMANCE.md: full collections made the latency tail with thousands of sockets.
gc.set_threshold(50000, 20, 100)
