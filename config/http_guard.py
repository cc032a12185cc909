"""The embedded server's guard against half-open requests (slowloris): uvicorn's httptools protocol
with a deadline for each request's head and body and a cap on plain HTTP connections per address.

uvicorn has no timeout while it reads a request (``timeout_keep_alive`` is reset by every byte
received) and its ``limit_concurrency`` counts every client together, so each connection gets:

- **a deadline for the head** (``header_seconds``) from the moment it opens or its last response
  ended, and then **one for the body** (``body_seconds``) once the head is in. Past it, the
  connection is answered 408 and closed. A WebSocket upgrade leaves the guard once its head is in.
- **a place among its address's plain HTTP connections** (``per_address``; IPv6 counted by its
  /64 as every per-address limit is, accounts/limits.py). One more is answered 429 and closed at
  once; sockets have their own limit (realtime/socket_guard.py).
- **a place among every plain HTTP connection** (``total``): one more is answered 503 and closed,
  so that many addresses together cannot take the process's last file descriptors.

``raise_file_limit`` lifts the process's soft RLIMIT_NOFILE to its hard limit at start.
"""
from __future__ import annotations

import asyncio
import logging
import resource
from collections import Counter

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from accounts.limits import network_of

log = logging.getLogger(__name__)

LINGER_SECONDS = 2     # a refused connection's reading side stays open this long, or until the client closes

REFUSALS = {
    408: (b"408 Request Timeout", b"The request was not sent in time."),
    429: (b"429 Too Many Requests", b"Too many connections from your address."),
    503: (b"503 Service Unavailable", b"The server has too many connections."),
}


def raise_file_limit() -> int:
    """Lift the soft limit on open files to the hard one; the soft limit in force after."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != soft:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
        except (ValueError, OSError):
            log.warning("could not raise the open files limit from %s to %s", soft, hard, exc_info=True)
    return soft


def guarded_protocol(header_seconds: float, body_seconds: float, per_address: int,
                     total: int) -> type[HttpToolsProtocol]:
    """uvicorn's ``http`` protocol class with the guard (0: that part off)."""
    open_per_address: Counter[str] = Counter()
    open_in_all = [0]

    class GuardedHttpToolsProtocol(HttpToolsProtocol):
        _address: str | None = None
        _counted = False
        _refused = False
        _deadline: asyncio.TimerHandle | None = None

        def connection_made(self, transport) -> None:
            super().connection_made(transport)
            address = network_of(self.client[0]) if self.client else None
            if total and open_in_all[0] >= total:
                log.warning("plain HTTP connections: %d open, refusing one from %s", open_in_all[0], address)
                return self._refuse(503)
            if per_address and address is not None and open_per_address[address] >= per_address:
                log.warning("plain HTTP connections: %d open from %s, refusing one more",
                            open_per_address[address], address)
                return self._refuse(429)
            self._address, self._counted = address, True
            open_per_address[address] += 1
            open_in_all[0] += 1
            self._arm(header_seconds)

        def connection_lost(self, exc) -> None:
            self._leave()
            super().connection_lost(exc)

        def on_headers_complete(self) -> None:
            super().on_headers_complete()
            self._arm(body_seconds)

        def on_message_complete(self) -> None:
            super().on_message_complete()
            self._disarm()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing() and not self.pipeline:
                self._arm(header_seconds)        # the next request's head

        def handle_websocket_upgrade(self) -> None:
            self._leave()
            super().handle_websocket_upgrade()

        def _arm(self, seconds: float) -> None:
            self._disarm()
            if seconds and self._counted:
                self._deadline = self.loop.call_later(seconds, self._too_slow)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _too_slow(self) -> None:
            self._deadline = None
            if self.transport.is_closing():
                return
            if self.cycle is None or not self.cycle.response_started:
                self._refuse(408)
            else:
                self.transport.close()

        def _leave(self) -> None:
            """Give up this connection's places (once: an upgrade leaves before the close)."""
            self._disarm()
            if self._counted:
                self._counted = False
                open_per_address[self._address] -= 1
                if open_per_address[self._address] <= 0:
                    del open_per_address[self._address]
                open_in_all[0] -= 1

        def data_received(self, data: bytes) -> None:
            if not self._refused:
                super().data_received(data)

        def _refuse(self, status: int) -> None:
            """Answer ``status`` and end the connection. Its sending side is shut first and what
            the client still sends is read and dropped for a moment: closing on unread data would
            reset the connection, and the client might never read the answer."""
            self._disarm()
            self._refused = True
            line, text = REFUSALS[status]
            self.transport.write(b"HTTP/1.1 " + line + b"\r\ncontent-type: text/plain; charset=utf-8\r\n"
                                 b"connection: close\r\ncontent-length: " + str(len(text)).encode()
                                 + b"\r\n\r\n" + text)
            if self.transport.can_write_eof():
                self.transport.write_eof()
                self.loop.call_later(LINGER_SECONDS, self.transport.close)
            else:
                self.transport.close()

    return GuardedHttpToolsProtocol
