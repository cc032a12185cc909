"""The Celery app. Embedded mode uses the in-memory broker and a worker thread (config/asgi.py)."""
import os

from celery import Celery
from celery.signals import (beat_init, task_postrun, task_prerun, worker_init, worker_process_init,
                            worker_process_shutdown)

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("cards")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


# Keep a worker's database connections between tasks: Celery's Django fixup otherwise closes them
# before and after every task (unless CELERY_DB_REUSE_MAX is set, config/settings.py), and a new
# PostgreSQL backend for each bot move cost more than the move. Django's own rule still applies:
# a connection older than CONN_MAX_AGE, or one that failed, is closed, as at each web request.
@task_prerun.connect
@task_postrun.connect
def _close_old_connections(**kwargs):
    from django.db import close_old_connections
    close_old_connections()


# Each worker process (the main one, and each prefork child) and beat report their memory and
# heartbeat for /metrics (ops/process.py); a child that ends marks its live gauges dead
# (multiprocess mode). The embedded worker thread is its web process's.
@worker_init.connect
@worker_process_init.connect
def _report_worker(**kwargs):
    import sys

    from ops import process
    process.start("analysis" if "analysis" in sys.argv else "worker")


@worker_process_shutdown.connect
def _worker_gone(pid=None, **kwargs):
    from ops import registry
    registry.mark_dead(pid)


@beat_init.connect
def _report_beat(**kwargs):
    from ops import process
    process.start("beat")
