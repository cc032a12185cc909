"""What the table hub hands one socket, passed on in the order pushed by one task at a time, so
that a client slow to read holds up only itself (realtime/hub.py pushes; games/consumers.py
delivers)."""
from __future__ import annotations

import asyncio
import logging
from collections import deque
from typing import Awaitable, Callable

from .socket_base import CLIENT_GONE

log = logging.getLogger(__name__)


class Outbox:
    def __init__(self, deliver: Callable[[dict], Awaitable[None]], name: str = "a socket"):
        self.deliver = deliver
        self.name = name            # for the log: which table
        self.queue: deque[dict] = deque()
        self.pusher: asyncio.Task | None = None

    def push(self, event: dict) -> None:
        self.queue.append(event)
        if self.pusher is None:
            self.pusher = asyncio.ensure_future(self._pass_on())

    def clear(self) -> None:
        """Drop what is not passed on yet (the socket closed); a delivery under way is cancelled,
        unless it is the one calling."""
        self.queue.clear()
        pusher = self.pusher
        if pusher is not None and pusher is not asyncio.current_task():
            pusher.cancel()
        self.pusher = None

    async def _pass_on(self) -> None:
        try:
            while self.queue:
                event = self.queue.popleft()
                try:
                    await self.deliver(event)
                except CLIENT_GONE:
                    pass
                except Exception:
                    log.exception("%s: a %s message could not be passed on", self.name, event.get("type"))
        finally:
            if self.pusher is asyncio.current_task():
                self.pusher = None
