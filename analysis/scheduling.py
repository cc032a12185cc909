"""Enqueueing ``analyse_match`` by task name, so that analysis/services.py need not import
analysis/tasks.py, which imports it (as games/scheduling.py and tournaments/scheduling.py do).
Tests swap ``_enqueue`` to run or collect the tasks themselves."""
from __future__ import annotations

import logging

from celery import current_app
from django.conf import settings

log = logging.getLogger(__name__)

ANALYSE_MATCH = "analysis.tasks.analyse_match"
QUEUE = "analysis"          # settings.CELERY_TASK_ROUTES sends the analysis tasks there


def _celery_enqueue(match_id: int) -> None:
    current_app.send_task(ANALYSE_MATCH, (match_id,))     # routed to the `analysis` queue by name


_enqueue = _celery_enqueue


def enqueue_analysis(match_id: int) -> None:
    """Send the analysis task, unless ANALYSIS_QUEUE_LIMIT tasks already wait: then the analysis
    stays pending in the database, where a backlog costs disk rather than the broker's memory, and
    the sweeper (tasks.sweep) sends it once the queue has drained. A broker that cannot say how
    much waits gets the task, as before the limit."""
    try:
        full = _waiting() >= settings.ANALYSIS_QUEUE_LIMIT
    except Exception:       # noqa: BLE001 - the send below meets the same broker and reports it
        full = False
    if full:
        log.info("analysis queue full: match %s's analysis waits for the sweeper", match_id)
        return
    send_analysis(match_id)


def send_analysis(match_id: int) -> None:
    """Send the task whatever the queue holds (the sweeper's: it sends only into an empty queue)."""
    _enqueue(match_id)


def _celery_waiting() -> int:
    """Messages on the analysis queue that no worker has taken yet (0 for a queue never declared)."""
    with current_app.pool.acquire(block=True) as connection:     # the broker connections send_task uses
        connection.ensure_connection(max_retries=1)     # never Celery's retry-for-ever here
        try:
            return connection.default_channel.queue_declare(queue=QUEUE, passive=True).message_count
        except connection.channel_errors:
            return 0


_waiting = _celery_waiting


def waiting() -> int:
    return _waiting()
