"""A web process's event loop watched from a thread of its own: when the loop has not come round
for ``LOOP_STALL_SECONDS``, every thread's stack goes to the log, once per stall.

Every page and socket of a process is served by that one loop. A call that blocks it (a
synchronous wait on the loop's thread, a deadlock) stops them all at once, and from outside looks
only like timeouts: pages that never load, broadcasts that give up after 10 s
(realtime/broadcast.py). The stacks, written while it is stuck, say which call it was.
"""
from __future__ import annotations

import asyncio
import faulthandler
import logging
import sys
import threading
import time

from django.conf import settings

log = logging.getLogger(__name__)
BEAT_SECONDS = 1.0


class LoopWatch:
    def __init__(self):
        self.loop: asyncio.AbstractEventLoop | None = None
        self.beat_at = time.monotonic()
        self.stalls = 0
        self.lag = 0.0      # seconds the last beat came after its time (ops/ reports it)

    def keep_watching(self) -> None:
        """Watch the running loop (once per loop; LOOP_STALL_SECONDS 0: never)."""
        if settings.LOOP_STALL_SECONDS <= 0:
            return
        loop = asyncio.get_running_loop()
        if self.loop is loop:
            return
        self.loop, self.beat_at = loop, time.monotonic()
        loop.call_soon(self._beat, loop)
        threading.Thread(target=self._watch, args=(loop,), name="loop-watch", daemon=True).start()

    def _beat(self, loop: asyncio.AbstractEventLoop) -> None:
        now = time.monotonic()
        self.lag = max(0.0, now - self.beat_at - BEAT_SECONDS) if self.loop is loop else 0.0
        self.beat_at = now
        loop.call_later(BEAT_SECONDS, self._beat, loop)

    def _watch(self, loop: asyncio.AbstractEventLoop) -> None:
        told = False
        while True:
            time.sleep(BEAT_SECONDS)
            # Asked after the sleep: a loop that ended meanwhile is not stuck, whatever the clock says.
            if self.loop is not loop or loop.is_closed():
                return
            late = time.monotonic() - self.beat_at
            if late < settings.LOOP_STALL_SECONDS:
                told = False
            elif not told:
                told = True
                self.stalls += 1
                self.report(late)

    def report(self, late: float) -> None:
        log.error("the event loop has not come round for %.0f s: every thread's stack follows", late)
        for handler in logging.getLogger().handlers:
            handler.flush()
        faulthandler.dump_traceback(file=sys.stderr, all_threads=True)


LOOP_WATCH = LoopWatch()
