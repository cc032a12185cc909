"""The Celery app. Embedded mode uses the in-memory broker and a worker thread (config/asgi.py)."""
import os

from celery import Celery
from celery.signals import task_postrun, task_prerun

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("cards")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@task_prerun.connect
@task_postrun.connect
def close_stale_connections(**kwargs):
    """Around each task, what Django does around each request: close a database connection that
    is past CONN_MAX_AGE or broken, keep a good one (settings.CELERY_DB_REUSE_MAX)."""
    from django.db import close_old_connections

    close_old_connections()
