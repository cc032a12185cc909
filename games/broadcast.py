"""Sending committed changes to socket groups, from whichever thread committed them.

Services queue their messages with ``on_commit`` (never before the transaction commits) and hand
them to ``deliver``. Three callers, three paths:

* an async consumer runs the service on a worker thread inside ``collecting()``: the messages are
  collected and the consumer sends them from its own event loop (``send``), without a blocking
  hop back into the loop from the worker thread;
* a Celery worker thread inside the Daphne process (embedded mode) must reach the in-memory layer
  on Daphne's loop, which owns its queues (they are not thread-safe): the coroutine is scheduled
  there with ``run_coroutine_threadsafe``;
* anything else (a separate Celery worker, a management command, tests) uses ``async_to_sync``.
"""
from __future__ import annotations

import asyncio
import logging
import threading
from contextlib import contextmanager
from typing import Iterator

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

log = logging.getLogger(__name__)

Message = tuple[str, dict]   # (group, payload)

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
    loop = _home_loop
    if loop is not None and loop.is_running() and not _on_loop(loop):
        # Bounded wait: a broadcast must never hold a worker forever.
        asyncio.run_coroutine_threadsafe(send(layer, messages), loop).result(timeout=10)
    else:
        async_to_sync(send)(layer, messages)


async def send(layer, messages: list[Message]) -> None:
    """Send a commit's messages, in order: as one batch where the layer takes batches
    (games/layers.py), else one by one."""
    if not messages:
        return
    try:
        batch = getattr(layer, "group_send_many", None)
        if batch is not None:
            await batch(messages)
        else:
            for group, payload in messages:
                await layer.group_send(group, payload)
    except Exception:  # a broken layer must not undo or block a committed move
        log.exception("broadcast of %d messages failed", len(messages))


def _on_loop(loop: asyncio.AbstractEventLoop) -> bool:
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:
        return False
