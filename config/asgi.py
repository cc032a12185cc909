"""ASGI entry point (uvicorn or Daphne): the application, plus in embedded mode a Celery worker and beat
running as threads of this process (no broker or worker to install)."""
import asyncio
import gc
import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from config.routing import application as _routed  # noqa: E402
from django.conf import settings  # noqa: E402

from realtime import broadcast  # noqa: E402
from games.web_process import shutdown  # noqa: E402
from ops import process  # noqa: E402


async def application(scope, receive, send):
    # The embedded worker thread sends through this loop, home of the in-memory channel layer.
    broadcast.set_home_loop(asyncio.get_running_loop())
    # Sockets are closed with 4503 (reconnect) when the process is told to stop (games/web_process/shutdown.py).
    return await shutdown.serve(_routed, scope, receive, send)


# This process's memory, heartbeat, sockets and loop lag, for /metrics (ops/process.py).
process.start("web")

if settings.EMBEDDED_WORKER:
    from config.embedded import start_embedded_celery

    start_embedded_celery()

# Full collections made the latency tail with thousands of sockets (docs/SCALING.md, "Lessons").
# With these thresholds the older generations are almost never collected on their own: a full
# collection runs every GC_FULL_SECONDS instead (games/web_process/collector.py: the soaks' memory creep).
gc.set_threshold(50000, 20, 100)
# What start-up built lives as long as the process: out of the collector's sight, a full
# collection walks only what came after (the figures: docs/SCALING.md, "Lessons").
gc.collect()
gc.freeze()
