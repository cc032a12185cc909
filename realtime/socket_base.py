"""What the site's asynchronous socket consumers share (table, lobby, bot events): the thread
pool their blocking work runs on, per-connection limits, and a dispatch and send without
Channels' per-message hops (games/consumers.py, botapi/consumers.py).
"""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from autobahn.exception import Disconnected   # raised by Daphne's websocket library
from uvicorn.protocols.utils import ClientDisconnected   # uvicorn's (an OSError, as ASGI asks)
from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.sessions import InstanceSessionWrapper
from django.conf import settings
from django.utils import translation

from . import language, socket_guard, socket_limit, wire

FLOODING = socket_limit.FLOODING     # 4429: kept sending over its limit (realtime/socket_limit.py)
CLIENT_GONE = (Disconnected, ClientDisconnected)    # a send to a socket whose client has left


# Blocking work (the database, the engine) runs off the event loop on this pool. SQLite has one
# writer at a time, so the embedded mode uses one thread: more only convoy on the write turn and
# the GIL. PostgreSQL works in parallel, so scaled mode uses a few (DB_THREADS).
_db_pool = ThreadPoolExecutor(max_workers=settings.GAMES_DB_THREADS, thread_name_prefix="db")


def in_thread(func):
    return database_sync_to_async(func, thread_sensitive=False, executor=_db_pool)


class ThinConsumer(socket_guard.Guarded, AsyncWebsocketConsumer):
    """Channels (4.2+) hops to its sync thread before every message a consumer handles, to close
    stale database connections. These consumers never touch the database on the event loop:
    their database work runs through ``in_thread``, which closes stale connections around each
    call itself. Skipping the hop halved the loop's work per message (bench/live.py, py-spy)."""

    async def dispatch(self, message):
        handler = getattr(self, get_handler_name(message), None) or self.other_handler(message)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        try:
            await handler(message)
        except CLIENT_GONE:
            # The client closed while something was on its way to it (a player leaving a finished
            # table for its rematch). Raised on, it would end this consumer before its
            # websocket.disconnect, whose handler takes the socket off its seat's count.
            pass

    def other_handler(self, message):
        """The handler of a layer message this consumer has no method for (None: none)."""
        return None

    async def send_json(self, content):
        await self.send(text_data=wire.dumps(content))

    async def send(self, text_data=None, bytes_data=None, close=False):
        """A text frame goes straight to the server. Channels' session middleware wraps every
        send to save a session changed during an HTTP response, and reads the session's state
        for each websocket frame too (1.5% of a web process at 250 tables, bench/live.py
        --py-spy); a frame carries no cookie, so nothing is saved for it."""
        if text_data is None or close:
            await super().send(text_data, bytes_data, close)
            return
        send = self.base_send
        wrapper = getattr(send, "__self__", None)
        if isinstance(wrapper, InstanceSessionWrapper):
            send = wrapper.real_send
        await send({"type": "websocket.send", "text": text_data})

    limiter: socket_limit.SocketLimiter | None = None

    async def over_limit(self, version: int | None = None) -> bool:
        """Whether the message just received is over this connection's limit (realtime/socket_limit.py):
        then it is answered with the error ``rate_limited``, or the flooding socket is closed."""
        if self.limiter is None:
            self.limiter = socket_limit.SocketLimiter()
        verdict = self.limiter.check()
        if verdict == socket_limit.SocketLimiter.OK:
            return False
        if verdict == socket_limit.SocketLimiter.CLOSE:
            await self.close(code=FLOODING)
        elif verdict == socket_limit.SocketLimiter.REFUSE:
            with translation.override(language.of_scope(self.scope)):
                await self.send_json(self.limiter.error(version))
        return True


# The client's half of the heartbeat (docs/PROTOCOL.md "Heartbeat"): a page that has heard nothing
# for a while sends this exact text and is answered at once, without parsing or any other work.
PING = '{"type":"ping"}'
PONG = '{"type":"pong"}'


def parse(text_data, bytes_data) -> tuple[dict | None, str | None]:
    """A client's frame as (the message, its ``type``): (None, None) for what is not a JSON object
    (each consumer answers that in its own words)."""
    try:
        data = wire.loads(text_data if text_data is not None else bytes_data)
    except (TypeError, ValueError):
        return None, None
    return (data, data.get("type")) if isinstance(data, dict) else (data, None)
