"""A web process told to stop (SIGTERM) loses nothing: its sockets are closed with "going away,
reconnect" and their clients carry on at another process (docs/PROTOCOL.md, "Restarts").

Every websocket passes through ``serve`` (config/asgi.py), which keeps its ``send`` until it ends. The
first also starts this process's heartbeat (games/web_process/liveness.py) and puts ``on_terminate`` in front
of the server's own SIGTERM handler (uvicorn's and Daphne's: both use ``signal.signal``). On SIGTERM:

1. ``GOING_AWAY`` is set: from now on a closing table socket keeps its presence record (and a
   player leaving a finished table does not cancel his rematch offer), so a player who reconnects
   elsewhere is never counted away;
2. the heartbeat stops;
3. every socket (table, lobby, tournament, bot API) is closed with 4503 ("going away, reconnect"), and
   one that opens meanwhile at once; the client takes it as
   "reconnect now": it opens a new socket (the proxy sends it to a live process), reads a fresh
   snapshot and goes on from it. A move in flight was either committed (the snapshot shows it) or
   not (the client sends it again with the version it saw; a second copy is refused as ``stale``),
   so none is lost or applied twice; then the process's heartbeat row is set to expire in
   ``RESTART_GRACE_SECONDS``: the socket sweep removes the records its clients did not take
   elsewhere by then;
4. once its clients have answered the close (or after ``DRAIN_SECONDS``) the server's own handler
   runs (Daphne's would otherwise drop the connections before the close frame left) and the
   server stops as it would have. A second SIGTERM meanwhile stops it at once.
"""
from __future__ import annotations

import asyncio
import logging
import signal
import threading

from django.conf import settings

from . import collector, liveness, loop_watch
from realtime.spawn import spawn

log = logging.getLogger(__name__)

GOING_AWAY = threading.Event()
# "Going away, reconnect": the client reconnects at once. Not 1001/1012, the registry's codes for it:
# Daphne (autobahn) lets an application close only with 1000 or 3000-4999. Like the refusals'
# 4403/4404/4429, it reads as HTTP's 503. uvicorn closes what is left at its own stop with 1012.
RESTART = 4503
DRAIN_SECONDS = 5.0     # at most this long for the closed sockets' consumers to finish

_sockets: dict[object, "_Socket"] = {}    # every websocket this process serves, until its app returns
_installed = False
_previous = None
_loop: asyncio.AbstractEventLoop | None = None     # the server's loop, where the sockets live


class _Socket:
    """One websocket's ASGI ``send``, which this module can close: after that nothing more of the
    application's goes out (the server would refuse a frame after a close)."""

    def __init__(self, send):
        self.server_send = send
        self.closed = False

    async def send(self, message: dict) -> None:
        if self.closed:
            return
        if message.get("type") == "websocket.close":
            self.closed = True
        await self.server_send(message)

    async def close(self, code: int) -> None:
        if not self.closed:
            self.closed = True
            await self.server_send({"type": "websocket.close", "code": code})


async def serve(app, scope, receive, send):
    """Run ``app`` for one connection (config/asgi.py): a websocket is tracked until it ends, and
    one that opens while this process stops is closed with 4503 at once, so its client goes to
    another process."""
    if scope["type"] != "websocket":
        return await app(scope, receive, send)
    if GOING_AWAY.is_set():
        message = await receive()
        if message.get("type") == "websocket.connect":
            await send({"type": "websocket.accept"})
            await send({"type": "websocket.close", "code": RESTART})
        return None
    _start()
    key, sock = object(), _Socket(send)
    _sockets[key] = sock
    try:
        return await app(scope, receive, sock.send)
    finally:
        _sockets.pop(key, None)


def _start() -> None:
    """What runs on the server's loop for the process's life, started with its first socket."""
    if settings.GAMES_PROCESS_HEARTBEAT_SECONDS > 0:       # 0: neither (the test process's own sockets)
        liveness.HEART.keep_beating(when_swept=_reconnect_all)
        _install()
        collector.COLLECTOR.keep_collecting()
        loop_watch.LOOP_WATCH.keep_watching()


async def _reconnect_all() -> None:
    """This process was taken for dead (a frozen loop) and its sockets' records swept: its sockets
    reconnect, and are counted again."""
    if has_sockets():
        log.warning("presence: this process was taken for dead and its sockets' records removed; "
                    "closing its sockets so they reconnect")
        await close_all()


def has_sockets() -> bool:
    return bool(_sockets)


def open_sockets() -> int:
    """How many websockets this process serves now."""
    return len(_sockets)


def keeps_records() -> bool:
    """Whether a closing socket keeps its presence record: the process is going away."""
    return GOING_AWAY.is_set()


async def close_all(code: int = RESTART) -> None:
    """Close every websocket of this process with ``code`` (their clients reconnect)."""
    for sock in list(_sockets.values()):
        try:
            await sock.close(code)
        except Exception:       # its client gone already
            log.debug("closing a socket failed", exc_info=True)


def _install() -> None:
    global _installed, _previous, _loop
    if _installed or threading.current_thread() is not threading.main_thread():
        return
    _loop = asyncio.get_running_loop()
    _previous = signal.getsignal(signal.SIGTERM)
    signal.signal(signal.SIGTERM, on_terminate)
    _installed = True


def on_terminate(signum, frame) -> None:
    if GOING_AWAY.is_set():
        _stop_server(signum, frame)     # asked twice: no more waiting
        return
    GOING_AWAY.set()
    loop = _loop
    if loop is None or loop.is_closed():
        _stop_server(signum, frame)
        return

    def start() -> None:
        # Held until done (spawn): the loop keeps only a weak reference to a task.
        spawn(_drain()).add_done_callback(lambda _t: _stop_server(signum, frame))

    # The handler may run inside the loop's poll: call_soon_threadsafe wakes it.
    loop.call_soon_threadsafe(start)


async def _drain() -> None:
    log.info("SIGTERM: closing %d sockets with %d (reconnect), then stopping", len(_sockets), RESTART)
    liveness.HEART.stop()
    await close_all(RESTART)
    try:        # bounded: a database that does not answer must not hold the stop up
        await asyncio.wait_for(asyncio.to_thread(_expire_soon), DRAIN_SECONDS / 2)
    except Exception:
        log.warning("could not shorten this process's heartbeat; the sweep finds it when it expires",
                    exc_info=True)
    loop = asyncio.get_running_loop()
    end = loop.time() + DRAIN_SECONDS
    while _sockets and loop.time() < end:      # each ends when its client answered the close
        await asyncio.sleep(0.05)


def _expire_soon() -> None:
    from django.db import close_old_connections     # noqa: PLC0415

    close_old_connections()
    liveness.going_away(settings.GAMES_RESTART_GRACE_SECONDS)


def _stop_server(signum, frame) -> None:
    previous = _previous
    if callable(previous):
        previous(signum, frame)
    elif previous == signal.SIG_DFL:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.raise_signal(signal.SIGTERM)
