"""SQLite for the embedded mode: write transactions take a process-wide lock first, and DEBUG
does not turn on the per-query log.

SQLite has one writer at a time. When several threads of the one embedded process (socket
handlers, the Celery worker) start write transactions together, the losers wait in SQLite's
busy handler, which sleeps in growing steps of up to 100 ms: at a hundred busy tables that
sleeping, not the work, made the latency. Queueing on a Python lock first hands the database
over the moment it is free. Other processes (a management command) still meet SQLite's own
busy timeout.
"""
import threading

from django.db import OperationalError
from django.db.backends.sqlite3 import base

_WRITE_LOCK = threading.Lock()
LOCK_TIMEOUT_SECONDS = 30


class DatabaseWrapper(base.DatabaseWrapper):
    _holds_write_lock = False

    @property
    def queries_logged(self):
        # The embedded mode keeps DEBUG for its error pages, not for a log of every query, whose
        # formatting cost a tenth of a move. Tests that count queries still force the log on.
        return self.force_debug_cursor

    def _start_transaction_under_autocommit(self):
        if not _WRITE_LOCK.acquire(timeout=LOCK_TIMEOUT_SECONDS):
            raise OperationalError("database is locked (no write turn within "
                                   f"{LOCK_TIMEOUT_SECONDS} s)")
        self._holds_write_lock = True
        try:
            super()._start_transaction_under_autocommit()
        except BaseException:
            self._release_write_lock()
            raise

    def _commit(self):
        try:
            return super()._commit()
        finally:
            self._release_write_lock()

    def _rollback(self):
        try:
            return super()._rollback()
        finally:
            self._release_write_lock()

    def close(self):
        try:
            super().close()
        finally:
            self._release_write_lock()

    def _release_write_lock(self):
        if self._holds_write_lock:
            self._holds_write_lock = False
            _WRITE_LOCK.release()
