"""No task outlives its loop: a task left pending when an async test's loop closes is finalized
later by the garbage collector in the middle of another test (tests/conftest.py,
``_cancel_every_task``), and a task nobody holds may be collected before it ends (realtime/spawn.py)."""
from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import sync_to_async

from realtime.spawn import spawn


def test_a_task_spawned_while_the_loop_shuts_down_ends_before_the_loop_closes():
    spawned = []

    async def cleanup():       # a thread of the sockets' own pool, as realtime/socket_base.py's in_thread
        await sync_to_async(time.sleep, thread_sensitive=False, executor=pool)(0.2)

    async def killed_socket():
        try:
            await asyncio.sleep(3600)
        finally:        # as TableConsumer.__call__ does when the shutdown cancels it
            spawned.append(spawn(cleanup()))

    with ThreadPoolExecutor(max_workers=1) as pool, asyncio.Runner() as runner:
        runner.get_loop().create_task(killed_socket())
        runner.run(asyncio.sleep(0))
    assert len(spawned) == 1
    assert spawned[0].done()
