"""The Celery app keeps database connections across tasks, closing only stale or broken ones."""
from celery.signals import task_postrun, task_prerun

from config.celery import app, close_stale_connections


def test_celery_does_not_close_every_connection_around_each_task():
    # The Django fixup closes all connections per task below this many tasks (times two).
    assert app.conf.get("CELERY_DB_REUSE_MAX") >= 10**6


def test_stale_connections_are_closed_around_each_task_as_around_a_request():
    receivers = [r[1]() for r in task_prerun.receivers] + [r[1]() for r in task_postrun.receivers]
    assert receivers.count(close_stale_connections) == 2
