"""Embedded mode: a Celery worker and beat as daemon threads of the web process.

The broker is kombu's in-memory transport, so tasks only travel inside this process; this is why
embedded mode runs exactly one web process (its bots think in child processes it starts). The worker is the same WorkController that
``celery.contrib.testing.worker.start_worker`` embeds (solo pool: tasks run one at a time in the
worker thread, the bots' searches in child processes, games/thinking.py; a second one, of an app
of its own, serves the ``analysis`` queue); beat is
``celery.beat.EmbeddedService`` in thread mode with an in-memory schedule.
"""
import logging
import threading

from celery import Celery
from celery.beat import EmbeddedService

from config.celery import app

from games import thinking

log = logging.getLogger(__name__)
_started = threading.Event()


def start_embedded_celery() -> None:
    if _started.is_set():
        return
    _started.set()
    _forget_previous_sockets()
    # Bots search in child processes (games/thinking.py: BOT_PROCESSES, one per core); the worker
    # hands a search over and goes on, so one worker thread keeps them all busy, and competes with
    # the event loop for the GIL and the write lock as little as before (three threads doubled the
    # people's p99 at 200 tables without bots).
    worker = app.WorkController(
        app=app, pool="solo", concurrency=1, hostname="embedded@localhost",
        without_heartbeat=True, without_mingle=True, without_gossip=True, loglevel="WARNING",
    )
    threading.Thread(target=worker.start, name="celery-worker", daemon=True).start()
    threading.Thread(target=thinking.start_pool, name="bot-pool-start", daemon=True).start()
    # Post-match analyses: a worker of their own queue, so bot moves never queue behind one; it
    # gives way to table work between batches of draws (analysis/throttle.py). It needs an app of
    # its own: a worker's queue selection is kept on its app (app.amqp.queues), and a second
    # worker of the same app selecting "analysis" left both consuming only that (no bot moved).
    # The memory broker's queues are per process, so both apps share them.
    analyst_app = _analysis_app()
    analyst = analyst_app.WorkController(
        app=analyst_app, pool="solo", concurrency=1, hostname="analysis@localhost", queues=["analysis"],
        without_heartbeat=True, without_mingle=True, without_gossip=True, loglevel="WARNING",
    )
    threading.Thread(target=analyst.start, name="celery-analysis", daemon=True).start()
    beat = EmbeddedService(app, thread=True, scheduler_cls="celery.beat:Scheduler")
    beat.start()
    # Tables left overdue by a previous run (the memory broker lost their tasks) are caught by
    # the sweeper within SWEEP_SECONDS.
    log.info("embedded Celery worker and beat started")


def _analysis_app() -> Celery:
    """A Celery app like config.celery's, for the analysis worker alone (its own queue selection)."""
    import analysis.tasks  # noqa: F401  (registers the shared tasks before the app finalizes)
    import puzzles.tasks  # noqa: F401  (taking a match's puzzles runs on the same queue)

    analyst = Celery("cards-analysis", set_as_current=False)
    analyst.config_from_object("django.conf:settings", namespace="CELERY")
    analyst.finalize()
    return analyst


def _forget_previous_sockets() -> None:
    """The one web process starts: the previous run's socket records are dead (games/web_process/liveness.py)."""
    from django.db import DatabaseError

    from games.web_process import liveness

    try:
        forgotten = liveness.forget_others()
    except DatabaseError:       # not migrated yet: nothing to forget
        log.warning("could not forget the previous run's sockets", exc_info=True)
        return
    if forgotten:
        log.info("forgot %d sockets of the previous run", forgotten)
