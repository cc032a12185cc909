"""A full garbage collection every ``GC_FULL_SECONDS`` in each web process (docs/SCALING.md, "Memory
over a long run").

config/asgi.py raises the young generation's threshold (50000) and freezes what start-up built, so
young collections are rare and short. But the older generations are then almost never collected:
a generation-2 collection waits for 100 generation-1 collections, each waiting for 20 young ones.
Objects that live in reference cycles for a while (alive at a young collection, so promoted) and
die later would stay until then, and a web process's memory would creep. A full collection on a
schedule frees them; with start-up frozen it walks only what came after.
"""
from __future__ import annotations

import asyncio
import gc
import logging
import time

from django.conf import settings

log = logging.getLogger(__name__)
SLOW_SECONDS = 0.5      # a collection longer than this is logged


class Collector:
    def __init__(self):
        self.task: asyncio.Task | None = None
        self.runs = 0

    def keep_collecting(self) -> None:
        """Start this process's collecting task on the running loop (once per loop; 0: never)."""
        if settings.GC_FULL_SECONDS <= 0:
            return
        loop = asyncio.get_running_loop()
        if self.task is None or self.task.done() or self.task.get_loop() is not loop:
            self.task = loop.create_task(self._collect_forever())

    async def _collect_forever(self) -> None:
        while True:
            await asyncio.sleep(settings.GC_FULL_SECONDS)
            self.collect()

    def collect(self) -> int:
        started = time.perf_counter()
        found = gc.collect()
        took = time.perf_counter() - started
        self.runs += 1
        if took > SLOW_SECONDS:
            log.warning("a full garbage collection took %.0f ms (%d unreachable objects)", took * 1000, found)
        return found


COLLECTOR = Collector()
