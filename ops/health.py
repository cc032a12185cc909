"""Is this process ready to serve: the database and (scaled mode) Redis answer within
``READY_TIMEOUT_SECONDS``. Used by ``/readyz`` and by the scrape's ``cards_ready`` gauge.

Each check runs on a thread of its own with a deadline, so a database that took the connection and
went silent costs the caller the timeout, never a hung request. A check still stuck from a previous
call is not started again (no pile of stuck threads): it fails at once, saying so.
"""
from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor, TimeoutError as FutureTimeout
from dataclasses import dataclass
from typing import Callable

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections

DATABASES = [DEFAULT_DB_ALIAS]      # the aliases /readyz asks


@dataclass(frozen=True)
class Result:
    name: str
    ok: bool
    detail: str = ""
    value: object = None


class _Check:
    """One probe with its own thread; ``run`` answers within ``timeout`` whatever the probe does."""

    def __init__(self, name: str, probe: Callable[[], None]):
        self.name, self.probe = name, probe
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"ready-{name}")
        self.lock = threading.Lock()
        self.pending = None

    def run(self, timeout: float) -> Result:
        with self.lock:
            if self.pending is not None and not self.pending.done():
                return Result(self.name, False, "no answer yet to the previous check")
            self.pending = future = self.pool.submit(self.probe)
        try:
            value = future.result(timeout=timeout)
        except FutureTimeout:
            return Result(self.name, False, f"no answer within {timeout:g} s")
        except Exception as exc:       # any failure of the probe is the answer
            return Result(self.name, False, f"{type(exc).__name__}: {exc}".strip()[:300])
        return Result(self.name, True, value=value)


def _database_probe(alias: str) -> Callable[[], None]:
    def probe() -> None:
        conn = connections[alias]
        conn.close_if_unusable_or_obsolete()
        with conn.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    return probe


def _redis_probe() -> None:
    import redis

    timeout = settings.READY_TIMEOUT_SECONDS
    client = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=timeout, socket_connect_timeout=timeout)
    try:
        client.ping()
    finally:
        client.close()


_checks: dict[str, _Check] = {}
_checks_lock = threading.Lock()


def _check(name: str, probe: Callable[[], None]) -> _Check:
    with _checks_lock:
        if name not in _checks:
            _checks[name] = _Check(name, probe)
        return _checks[name]


def within(name: str, probe: Callable[[], object], timeout: float | None = None) -> Result:
    """``probe()`` on the thread of the check ``name``, answered within the timeout (its value in
    ``Result.value``)."""
    return _check(name, probe).run(settings.READY_TIMEOUT_SECONDS if timeout is None else timeout)


READY_FOR_SECONDS = 1.0        # a passing answer is given again for this long: a flood costs no checks
_passed: dict[tuple, tuple[float, list[Result]]] = {}
_clock = time.monotonic


def readiness() -> list[Result]:
    """Every check's result, database first; Redis only where the site uses it (REDIS_URL). A
    failing answer is never reused: while a check hangs, the next callers are told so at once."""
    key = (tuple(DATABASES), settings.REDIS_URL)
    now = _clock()
    cached = _passed.get(key)
    if cached is not None and now - cached[0] < READY_FOR_SECONDS:
        return cached[1]
    timeout = settings.READY_TIMEOUT_SECONDS
    out = [_check(f"database:{alias}" if alias != DEFAULT_DB_ALIAS else "database",
                  _database_probe(alias)).run(timeout) for alias in DATABASES]
    if settings.REDIS_URL:
        out.append(_check("redis", _redis_probe).run(timeout))
    if all(r.ok for r in out):
        _passed[key] = (now, out)
    else:
        _passed.pop(key, None)
    return out
