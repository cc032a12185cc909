"""The Celery worker's consumer (``CELERY_WORKER_CONSUMER``): Celery's own, surviving a lost broker.

Celery 5.7 with kombu 5.7's Redis transport: when the broker goes away (Redis restarted), the
consumer first collects the connection, which drops the transport's client, then closes it again;
the Redis channel, whose first close failed on the dead socket, now tries to put its unacked
messages (the tasks with an ETA it holds: bot moves, the next deal) back through a connection that
no longer has its address, and raises AttributeError. That is not a connection error, so it
escaped as "Unrecoverable error" and the worker exited: no bot moved and no sweep ran until
someone restarted it (tests/scaled/test_faults.py, the Redis restart). The broken connection is
already let go of by then; here the error is logged and the consumer reconnects as it does after
any connection error. The messages it could not put back are lost with the broker anyway, and the
sweeper (games/tasks.py) finds their tables overdue.
"""
import logging

from celery.worker.consumer import Consumer as CeleryConsumer

log = logging.getLogger(__name__)


class Consumer(CeleryConsumer):
    def on_connection_error_after_connected(self, exc):
        try:
            super().on_connection_error_after_connected(exc)
        except AttributeError:
            log.warning("closing the lost broker connection failed; reconnecting anyway", exc_info=True)
