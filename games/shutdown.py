"""A web process told to stop (SIGTERM) loses nothing: its sockets are closed with "going away,
reconnect" and their clients carry on at another process (docs/PROTOCOL.md, "Restarts").

The table and lobby consumers register here when they open (``admit``; while the process stops, a
new socket is closed with 1012 at once). The first socket also
starts this process's heartbeat (games/liveness.py) and puts ``on_terminate`` in front of the
server's own SIGTERM handler (uvicorn's and Daphne's: both use ``signal.signal``). On SIGTERM:

1. ``GOING_AWAY`` is set: from now on a closing table socket keeps its presence record (and a
   player leaving a finished table does not cancel his rematch offer), so a player who reconnects
   elsewhere is never counted away;
2. the heartbeat stops and the process's row is set to expire in ``RESTART_GRACE_SECONDS``: the
   socket sweep removes the records its clients did not take elsewhere by then;
3. every tracked socket is closed with 1012 ("service restart"), which the client takes as
   "reconnect now": it opens a new socket (the proxy sends it to a live process), reads a fresh
   snapshot and goes on from it. A move in flight was either committed (the snapshot shows it) or
   not (the client sends it again with the version it saw; a second copy is refused as ``stale``),
   so none is lost or applied twice;
4. once its sockets are closed (or after ``DRAIN_SECONDS``) the server's own handler runs and the
   server stops as it would have. A second SIGTERM meanwhile stops it at once.
"""
from __future__ import annotations

import asyncio
import logging
import signal
import threading
import weakref

from django.conf import settings

from . import liveness

log = logging.getLogger(__name__)

GOING_AWAY = threading.Event()
RESTART = 1012          # "service restart" (RFC 6455 registry): the client reconnects at once
DRAIN_SECONDS = 5.0     # at most this long for the closed sockets' consumers to finish

_consumers: "weakref.WeakSet" = weakref.WeakSet()
_installed = False
_previous = None
_loop: asyncio.AbstractEventLoop | None = None     # the server's loop, where the sockets live


async def admit(consumer) -> bool:
    """A socket was accepted (its consumer's ``connect``, on the server's loop): tracked, or, while
    this process stops, closed with 1012 at once (False), so its client goes to another process."""
    if GOING_AWAY.is_set():
        await consumer.close(code=RESTART)
        return False
    track(consumer)
    return True


def track(consumer) -> None:
    """A socket opened: closed with the others when this process stops."""
    _consumers.add(consumer)
    if settings.GAMES_PROCESS_HEARTBEAT_SECONDS > 0:       # 0: neither (the test process's own sockets)
        liveness.HEART.keep_beating()
        _install()


def keeps_records() -> bool:
    """Whether a closing socket keeps its presence record: the process is going away."""
    return GOING_AWAY.is_set()


async def close_all(code: int = RESTART) -> None:
    """Close every tracked socket with ``code`` (their clients reconnect)."""
    for consumer in list(_consumers):
        try:
            await consumer.close(code=code)
        except Exception:       # already closing, or its client gone
            log.debug("closing a socket failed", exc_info=True)


def _install() -> None:
    global _installed, _previous
    if _installed or threading.current_thread() is not threading.main_thread():
        return
    global _loop
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
        loop.create_task(_drain()).add_done_callback(lambda _t: _stop_server(signum, frame))

    # The handler may run inside the loop's poll: call_soon_threadsafe wakes it.
    loop.call_soon_threadsafe(start)


async def _drain() -> None:
    log.info("SIGTERM: closing %d sockets with %d (reconnect), then stopping", len(_consumers), RESTART)
    liveness.HEART.stop()
    try:
        await asyncio.to_thread(_expire_soon)
    except Exception:
        log.warning("could not shorten this process's heartbeat; the sweep finds it when it expires",
                    exc_info=True)
    await close_all(RESTART)
    loop = asyncio.get_running_loop()
    end = loop.time() + DRAIN_SECONDS
    while any(not getattr(c, "forgotten", True) for c in list(_consumers)) and loop.time() < end:
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
