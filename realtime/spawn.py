"""Tasks started and not awaited (a socket's cleanup after it was killed, a hint's search, a table
hub's reader, the drain after SIGTERM).

asyncio keeps only a weak reference to a task, so a task nobody holds may be collected before it
ends (the asyncio documentation's warning on ``create_task``); ``spawn`` holds each one here until
it is done.
"""
from __future__ import annotations

import asyncio

_running: set[asyncio.Task] = set()


def spawn(coro) -> asyncio.Task:
    task = asyncio.ensure_future(coro)
    _running.add(task)
    task.add_done_callback(_running.discard)
    return task
