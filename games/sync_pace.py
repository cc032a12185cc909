"""A table socket's ``sync`` answered at most once every SYNC_SECONDS: a snapshot is a thread hop
and several queries, and spectators asking for one seven times a second slowed every table's
moves. A ``sync`` that comes sooner is not refused: one snapshot goes out when the time is up,
answering it and every other that came meanwhile, so a client that asked is never left stale.
Any snapshot the socket was sent (a resync after a gap, a stale move) counts as the last answer.
"""
from __future__ import annotations

import asyncio
import math
import time
from typing import Awaitable, Callable

from realtime.spawn import spawn


class SyncPace:
    def __init__(self, seconds: float, clock: Callable[[], float] = time.monotonic):
        self.seconds = seconds
        self.clock = clock
        self.last = -math.inf
        self.coming: asyncio.Task | None = None

    def sent(self) -> None:
        """A snapshot went out."""
        self.last = self.clock()

    async def ask(self, answer: Callable[[], Awaitable[None]]) -> None:
        """A ``sync``: ``answer`` (which sends a snapshot) now, or once, when the time is up."""
        if self.coming is not None:
            return                              # one is coming: it answers this one too
        wait = self.last + self.seconds - self.clock()
        if wait <= 0:
            self.last = self.clock()
            await answer()
            return
        self.coming = spawn(self._later(wait, answer))

    async def _later(self, wait: float, answer: Callable[[], Awaitable[None]]) -> None:
        try:
            await asyncio.sleep(wait)
        finally:
            self.coming = None
        self.last = self.clock()
        await answer()

    def stop(self) -> None:
        if self.coming is not None:
            self.coming.cancel()
            self.coming = None
