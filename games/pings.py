"""The client's heartbeat ping answered before any consumer sees it (docs/PROTOCOL.md "Heartbeat"):
a quiet page pings every 2.5 s, and through a consumer each ping cost a dispatch task and a wait
(bench/idle.py --heartbeat). One ping a second per connection is answered here; a faster one goes
on to the consumer, whose per-connection limit counts it like any message (and which answers it
too), so a flood of pings costs what any flood costs."""
from __future__ import annotations

import time

from realtime.socket_base import CLIENT_GONE, PING, PONG

PONG_MESSAGE = {"type": "websocket.send", "text": PONG}
MIN_GAP_SECONDS = 1.0


class AnswerPings:
    """ASGI middleware for the websocket router: answers ``{"type":"ping"}`` with ``{"type":"pong"}``."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        last = -MIN_GAP_SECONDS

        async def receive_but_pings():
            nonlocal last
            while True:
                message = await receive()
                if message["type"] != "websocket.receive" or message.get("text") != PING:
                    return message
                now = time.monotonic()
                if now - last < MIN_GAP_SECONDS:
                    return message          # the consumer's limit counts it
                last = now
                try:
                    await send(PONG_MESSAGE)
                except CLIENT_GONE:
                    pass                    # its websocket.disconnect comes next

        await self.app(scope, receive_but_pings, send)
