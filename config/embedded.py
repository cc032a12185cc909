"""Embedded mode: a Celery worker and beat as daemon threads of the web process.

The broker is kombu's in-memory transport, so tasks only travel inside this process; this is why
embedded mode runs exactly one Daphne process. The worker is the same WorkController that
``celery.contrib.testing.worker.start_worker`` embeds (solo pool: tasks run one at a time in the
worker thread); beat is ``celery.beat.EmbeddedService`` in thread mode with an in-memory schedule.
"""
import logging
import threading

from celery.beat import EmbeddedService

from config.celery import app

log = logging.getLogger(__name__)
_started = threading.Event()


def start_embedded_celery() -> None:
    if _started.is_set():
        return
    _started.set()
    worker = app.WorkController(
        app=app, pool="solo", concurrency=1, hostname="embedded@localhost",
        without_heartbeat=True, without_mingle=True, without_gossip=True, loglevel="WARNING",
    )
    threading.Thread(target=worker.start, name="celery-worker", daemon=True).start()
    beat = EmbeddedService(app, thread=True, scheduler_cls="celery.beat:Scheduler")
    beat.start()
    # Tables left overdue by a previous run (the memory broker lost their tasks) are caught by
    # the sweeper within SWEEP_SECONDS.
    log.info("embedded Celery worker and beat started")
