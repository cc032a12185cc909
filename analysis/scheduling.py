"""Enqueueing ``analyse_match`` by task name, so that analysis/services.py need not import
analysis/tasks.py, which imports it (as games/scheduling.py and tournaments/scheduling.py do).
Tests swap ``_enqueue`` to run or collect the tasks themselves."""
from __future__ import annotations

from celery import current_app

ANALYSE_MATCH = "analysis.tasks.analyse_match"
QUEUE = "analysis"          # settings.CELERY_TASK_ROUTES sends the analysis tasks there


def _celery_enqueue(match_id: int) -> None:
    current_app.send_task(ANALYSE_MATCH, (match_id,))     # routed to the `analysis` queue by name


_enqueue = _celery_enqueue


def enqueue_analysis(match_id: int) -> None:
    _enqueue(match_id)


def _celery_waiting() -> int:
    """Messages on the analysis queue that no worker has taken yet (0 for a queue never declared)."""
    with current_app.connection_for_read() as connection:
        try:
            return connection.default_channel.queue_declare(queue=QUEUE, passive=True).message_count
        except connection.channel_errors:
            return 0


_waiting = _celery_waiting


def waiting() -> int:
    return _waiting()
