"""The Celery app. Embedded mode uses the in-memory broker and a worker thread (config/asgi.py)."""
import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("cards")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
