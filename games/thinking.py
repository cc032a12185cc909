"""Where a bot's search runs, and how long it may think.

The writers (games/services.py) call ``think_later`` for a bot level that searches
(``levels.Level.searches``), and ``choose`` where there is no pool; the table's lock is not held.

* **Where.** With ``BOT_PROCESSES`` above 0 (embedded mode's default: one per core) the search
  runs in a pool of child processes (``concurrent.futures.ProcessPoolExecutor``), so the web
  process, whose event loop serves every socket of the site, never spends its GIL on one; and
  ``think_later`` only hands it over, so the one worker thread waits for no search (more worker
  threads waiting would compete with the event loop for the GIL and the write lock). A scaled
  site's Celery worker is a process of its own already and searches in place (0, ``choose``).
  The post-match analysis's searches (``evaluate``) go to the same pool.
* **How long.** A bot move is due a bot delay after the change before it; when bot moves queue up
  faster than the workers think them through, each starts late (measured where the search
  starts: in the child process, after any wait in the pool's queue). Its budget is then shortened by
  as much as it is late (beyond ``LATE_SLACK_MS``), down to the level's floor (``Level.floor_ms``:
  a quarter of its budget), so the moves land close to their time instead of the lag growing,
  and the bot plays a little weaker while the site is that busy. A move thought during the bot's
  pause (games/services.py ``advance``) starts early and keeps its whole budget. The lag is logged per move (logger ``games.thinking``, at
  INFO) and ``bench/live.py`` reports it.
"""
from __future__ import annotations

import logging
import multiprocessing
import os
import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Callable

from django.conf import settings

from games import bots, signals
from games.bots import levels, strong

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Budget:
    budget_ms: int
    cap_ms: int | None


# Lateness a move has anyway (the broker's polling, the task's start) that does not shorten it.
LATE_SLACK_MS = 250


def budget(level: str, late_ms: float) -> Budget:
    """The thinking time of a ``level`` move that starts ``late_ms`` after it was due: the level's
    own budget less the lateness beyond ``LATE_SLACK_MS``, never under its floor (the cap of a
    hard decision likewise)."""
    found = levels.get(level)
    full = found.budget_ms or 0
    late = max(0, int(late_ms) - LATE_SLACK_MS)
    shortened = max(found.floor_ms, full - late)
    cap = None if found.cap_ms is None else max(shortened, found.cap_ms - late)
    return Budget(shortened, cap)


def choose(level: str, view: dict, due: float) -> dict:
    """The action of a searching ``level`` in ``view`` for a move due at ``due`` (epoch
    seconds), thought for its budget given how late it starts; in a child process when the pool
    is on (the caller waits)."""
    pool = _pool()
    found = pool.submit(_search, level, view, due).result() if pool is not None else _search(level, view, due)
    return _logged(level, found, pool is not None)


def think_later(level: str, view: dict, due: float, done: Callable[[dict], None]) -> bool:
    """Hand the search to the pool and return at once; ``done(action)`` is called (in the pool's
    thread) once it is chosen, with a random legal action if the search failed. False when there
    is no pool: then ``choose``."""
    pool = _pool()
    if pool is None:
        return False

    def finished(future) -> None:
        try:
            action = _logged(level, future.result(), True)
        except Exception:       # a bot's bug must not stall its table
            log.exception("bot %s: the search failed; a random legal action instead", level)
            action = bots.choose_action("random", view)
        done(action)

    pool.submit(_search, level, view, due).add_done_callback(finished)
    return True


@dataclass(frozen=True)
class Searched:
    action: dict
    late_ms: float
    thought_ms: float
    budget_ms: int


def _search(level: str, view: dict, due: float) -> Searched:
    """In a child process (or the caller's without a pool): the bots only, no Django."""
    late_ms = 1000 * (time.time() - due)
    given = budget(level, late_ms)
    started = time.perf_counter()
    action = bots.choose_action(level, view, budget_ms=given.budget_ms, cap_ms=given.cap_ms)
    return Searched(action, late_ms, 1000 * (time.perf_counter() - started), given.budget_ms)


def _logged(level: str, found: Searched, pooled: bool) -> dict:
    log.info("bot %s: %.0f ms late, thought %.0f ms (budget %d ms)%s", level, found.late_ms, found.thought_ms,
             found.budget_ms, " in the pool" if pooled else "")
    signals.bot_thought.send(sender=Searched, level=level, seconds=found.thought_ms / 1000,
                             late=max(0.0, found.late_ms) / 1000)
    return found.action


# --- the post-match analysis's searches ----------------------------------------------------------
_pooled = threading.local()


def evaluate(view: dict, rng, iterations: int, actions: list[dict]) -> list[dict]:
    """``strong.evaluate`` for the post-match analysis (games/bots/analyse.py), in the pool when
    it is on; the child's CPU time is added to this thread's ``cpu_clock``."""
    pool = _pool()
    if pool is None:
        return strong.evaluate(view, rng, iterations=iterations, actions=actions)
    evaluations, cpu = pool.submit(_evaluate, view, rng, iterations, actions).result()
    _pooled.cpu = getattr(_pooled, "cpu", 0.0) + cpu
    return evaluations


def cpu_clock() -> float:
    """This thread's CPU seconds, with those of the searches it had the pool run."""
    return time.thread_time() + getattr(_pooled, "cpu", 0.0)


def _evaluate(view: dict, rng, iterations: int, actions: list[dict]) -> tuple[list[dict], float]:
    started = time.thread_time()
    evaluations = strong.evaluate(view, rng, iterations=iterations, actions=actions)
    return evaluations, time.thread_time() - started


# --- other pure searches -----------------------------------------------------------------------------
def offload(func: Callable, *args):
    """``func(*args)`` (a module-level function of the bots, no Django) in the pool when it is on,
    else here; the caller waits. The puzzles' solver runs so (puzzles/services.py)."""
    pool = _pool()
    return func(*args) if pool is None else pool.submit(func, *args).result()


# --- hints (games/hints.py) ------------------------------------------------------------------------
# Without the bot processes (a scaled site's web process) a hint's search runs on this one thread,
# never on the event loop nor on the database threads: one hint at a time per process.
_hint_thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hint")


def hint_search(view: dict, actions: list[dict], budget_ms: int) -> Future:
    """``strong.evaluate`` of ``actions`` in ``view`` for ``budget_ms``, started now: a future of
    its evaluations (the caller awaits it without holding anything)."""
    pool = _pool()
    return (pool or _hint_thread).submit(_hint, view, actions, budget_ms)


def _hint(view: dict, actions: list[dict], budget_ms: int) -> list[dict]:
    return strong.evaluate(view, None, budget_ms=budget_ms, actions=actions)


# --- the pool ------------------------------------------------------------------------------------
_lock = threading.Lock()
_executor: ProcessPoolExecutor | None = None


def _pool() -> ProcessPoolExecutor | None:
    global _executor
    size = settings.GAMES_BOT_PROCESSES
    if size <= 0:
        return None
    with _lock:
        if _executor is None:
            # forkserver: the children start from a fresh interpreter, not a fork of a web process
            # with its threads, sockets and database connections.
            _executor = ProcessPoolExecutor(max_workers=size, mp_context=multiprocessing.get_context("forkserver"),
                                            initializer=_watch_parent, initargs=(os.getpid(),))
        return _executor


def start_pool() -> None:
    """Start the children now, each with the bots imported, so the first bot move does not wait
    for them (embedded mode calls it at start-up)."""
    pool = _pool()
    if pool is not None:
        pids = sorted({done.result() for done in [pool.submit(_warm) for _ in range(settings.GAMES_BOT_PROCESSES)]})
        log.info("bot processes: %s", pids)


def stop_pool() -> None:
    """Stop the children (a test that turned the pool on, or a process that is done)."""
    global _executor
    with _lock:
        if _executor is not None:
            _executor.shutdown()
            _executor = None


def _warm() -> int:
    """The child's pid (it imported this module, and with it the bots, to run this)."""
    time.sleep(0.05)        # long enough for each child to take one
    return os.getpid()


def _watch_parent(parent: int) -> None:
    """In each child: exit when the web process that started the pool is gone. A pool's children
    wait on their task queue forever otherwise (they hold its writing end themselves), and with
    them the forkserver: a server killed or stopped left them all behind."""
    def watch() -> None:
        while True:
            time.sleep(1.0)
            try:
                os.kill(parent, 0)
            except OSError:         # gone (or its pid is another user's process now)
                os._exit(0)
    threading.Thread(target=watch, name="parent-watch", daemon=True).start()
