from .celery import app as celery_app  # noqa: F401  (Django starts Celery's app with it)
