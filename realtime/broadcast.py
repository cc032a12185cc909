"""The one sending path: every message to a socket group (table, lobby, tournament) goes here,
from whichever thread committed the change it tells of.

Writers call ``send_on_commit(build)``: after the transaction commits (never before), ``build()``
makes the messages (games/messages.py) and ``deliver`` sends them. Four callers, four paths:

* an async consumer runs the service on a worker thread inside ``collecting()``: the messages are
  collected and the consumer sends them from its own event loop (``send``), without a blocking
  hop back into the loop from the worker thread;
* a Celery worker thread inside the Daphne process (embedded mode) must reach the in-memory layer
  on Daphne's loop, which owns its queues (they are not thread-safe): the coroutine is scheduled
  there with ``run_coroutine_threadsafe``;
* a thread that ``sync_to_async`` runs for a loop (tests' async code calling a service) sends
  with ``async_to_sync``, which hands the coroutine to that loop: no thread is made;
* any other thread without a loop (a separate Celery worker, a management command, a sync test)
  sends through a loop of its process, kept running in a thread: the Redis layer's connections
  are made once per process rather than once per task, and no thread is started and ended per
  message, as ``async_to_sync`` does there. (Test workers crashed, a segfault in asgiref's
  context restore, on such short-lived threads and in ``sync_to_async`` worker threads. The
  cause was elsewhere: tasks left pending by an async test's loop, see tests/conftest.py.)
"""
from __future__ import annotations

import asyncio
import logging
import os
import threading
from contextlib import contextmanager
from typing import Callable, Iterator

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from . import hub
from .addresses import Message

log = logging.getLogger(__name__)

_local = threading.local()
_home_loop: asyncio.AbstractEventLoop | None = None


def set_home_loop(loop: asyncio.AbstractEventLoop) -> None:
    """Remember the ASGI server's event loop (config/asgi.py), home of the in-memory layer."""
    global _home_loop
    _home_loop = loop


@contextmanager
def collecting() -> Iterator[list[Message]]:
    """Collect, instead of sending, the messages committed in this thread within the block."""
    box: list[Message] = []
    previous = getattr(_local, "box", None)
    _local.box = box
    try:
        yield box
    finally:
        _local.box = previous


def send_on_commit(build: Callable[[], list[Message]]) -> None:
    """Once the current transaction commits, build a change's messages and deliver them. Built
    after the commit: what they show no longer changes then, and on SQLite the one write turn is
    not held while views are built."""
    transaction.on_commit(lambda: deliver(build()))


def deliver(messages: list[Message]) -> None:
    """Send (or collect) messages of a committed change."""
    if not messages:
        return
    box = getattr(_local, "box", None)
    if box is not None:
        box.extend(messages)
        return
    layer = get_channel_layer()
    if layer is None:
        return
    loop = home_or_process_loop()
    if loop is not None:
        run_on(loop, send(layer, messages))
    else:
        async_to_sync(send)(layer, messages)


def home_or_process_loop() -> asyncio.AbstractEventLoop | None:
    """The running loop, other than the caller's own, where the layer is to be used from this
    thread; None: use it through ``async_to_sync`` (which, in a thread that ``sync_to_async`` runs,
    hands the coroutine to the loop awaiting that thread: an in-memory layer's queues are that
    loop's)."""
    loop = _home_loop
    if loop is None and _awaiting_loop() is None:
        loop = _process_loop()
    if loop is not None and loop.is_running() and not _on_loop(loop):
        return loop
    return None


def _awaiting_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop awaiting this thread's sync_to_async call, if any (asgiref records it per
    thread, for async_to_sync)."""
    local = SyncToAsync.threadlocal
    if getattr(local, "main_event_loop_pid", None) != os.getpid():
        return None
    loop = getattr(local, "main_event_loop", None)
    return loop if loop is not None and loop.is_running() else None


def run_on(loop: asyncio.AbstractEventLoop, coroutine):
    """Run ``coroutine`` on ``loop`` from another thread and return its result. Bounded wait: a
    broadcast must never hold a worker forever."""
    return asyncio.run_coroutine_threadsafe(coroutine, loop).result(timeout=10)


async def send(layer, messages: list[Message]) -> None:
    """Send a commit's messages, in order: as one batch where the layer takes batches
    (realtime/layers.py), else one by one; a table's messages addressed to its seats as one message
    to the table's group (realtime/hub.py)."""
    if not messages:
        return
    messages = hub.bundle(messages)
    try:
        batch = getattr(layer, "group_send_many", None)
        if batch is not None:
            await batch(messages)
        else:
            for group, payload in messages:
                await layer.group_send(group, payload)
    except Exception:  # a broken layer must not undo or block a committed move
        log.exception("broadcast of %d messages failed", len(messages))


_own_loop: tuple[int, asyncio.AbstractEventLoop] | None = None
_own_loop_lock = threading.Lock()


def _process_loop() -> asyncio.AbstractEventLoop:
    """A loop of this process's own, running in a daemon thread, for callers without one (a Celery
    worker, a command, a test). A Redis layer keeps its connections per loop: async_to_sync's
    fresh loop per call made every bot move open new connections (the worker at 100% CPU in
    bench/live.py --bots).
    Keyed by pid: a forked worker child starts its own."""
    global _own_loop
    with _own_loop_lock:
        if _own_loop is None or _own_loop[0] != os.getpid():
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, name="broadcast-loop", daemon=True).start()
            _own_loop = (os.getpid(), loop)
        return _own_loop[1]


def _on_loop(loop: asyncio.AbstractEventLoop) -> bool:
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:
        return False
