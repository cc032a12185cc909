"""A table socket's updates in version order, and its recovery from a lost one.

Each process publishes what it commits, so a quick change committed by one (a Celery worker's bot
move) can reach Redis before the change committed just before it by another (a web process busy
elsewhere): a socket may get update n + 2 before n + 1. ``UpdateOrder`` passes updates on in
version order: one its snapshot (or an earlier update) already showed is dropped, one that came
ahead of a missing one is held until the missing one comes, and when it has not come within
``GAP_SECONDS`` (it was lost) the socket is resynced: a fresh snapshot replaces what was held.
"""
from __future__ import annotations

import asyncio
import logging
from typing import Awaitable, Callable

log = logging.getLogger(__name__)

GAP_SECONDS = 1.0       # how long an update that came ahead of a missing one waits for it


class UpdateOrder:
    """The version one socket's client was last shown, and the updates held after a gap.

    ``resync`` (a coroutine function) sends the socket a fresh snapshot, which then calls
    ``shown`` with its version."""

    def __init__(self, resync: Callable[[], Awaitable[None]], name: str = "a socket"):
        self.resync = resync
        self.name = name                    # for the log: which table
        self.version: int | None = None     # None: nothing shown yet
        self.held: dict[int, str] = {}
        self._timer: asyncio.TimerHandle | None = None
        self._resyncing: asyncio.Future | None = None

    def shown(self, version: int) -> None:
        """The client was just sent a snapshot at ``version``: what was held is covered by it."""
        self.version = version
        self.held = {}

    def is_old(self, version: int) -> bool:
        """Whether the client has been shown ``version`` already (or nothing at all yet)."""
        return self.version is None or version <= self.version

    def admit(self, version: int, text: str) -> list[str]:
        """The texts to send now, in version order, for the update ``version`` (not ``is_old``):
        it and the held ones that follow it; none while an earlier one is missing."""
        if version > self.version + 1:
            self.held[version] = text
            self._watch_gap()
            return []
        texts = [text]
        self.version = version
        while (later := self.held.pop(self.version + 1, None)) is not None:
            texts.append(later)
            self.version += 1
        return texts

    def stop(self) -> None:
        """The socket closed: no gap is checked any more."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self.held = {}

    def _watch_gap(self) -> None:
        if self._timer is None:
            self._timer = asyncio.get_running_loop().call_later(GAP_SECONDS, self._check_gap, self.version)

    def _check_gap(self, waited_at: int) -> None:
        self._timer = None
        if not self.held:
            return
        if self.version != waited_at:       # the missing one came, but another is missing since
            self._watch_gap()
            return
        log.warning("%s: update %s never came; resending a snapshot", self.name, waited_at + 1)
        self._resyncing = asyncio.ensure_future(self.resync())
