"""The limit on socket messages, and the refusal every limit answers with.

Socket messages are limited per connection (a connection lives in one process): a token bucket of
SOCKET_BURST messages refilled at SOCKET_RATE a second. A message beyond it is refused with the
error ``rate_limited``; a connection refused SOCKET_FLOOD_CLOSE times within SOCKET_FLOOD_SECONDS
is closed with code 4429 (docs/PROTOCOL.md). The limits on what users do (tables, chat) count in
the cache and live with what they limit (games/limits.py); they refuse the same way
(``rate_refusal``).
"""
from __future__ import annotations

import time

from django.conf import settings
from django.utils.translation import gettext as _

from accounts.limits import wait_text

from .errors import ServiceError

RATE_LIMITED = "rate_limited"
FLOODING = 4429         # the close code of a connection that kept sending over its limit


def rate_refusal(reason: str, seconds: float, code: str = RATE_LIMITED) -> ServiceError:
    """A limit's refusal: ``reason`` and how long to wait (``retry_after``, in seconds)."""
    seconds = max(1, int(round(seconds)))
    return ServiceError(code, f"{reason} {wait_text(seconds)}", params={"retry_after": seconds},
                        category=RATE_LIMITED)


class SocketLimiter:
    """One connection's token bucket (see the module's docstring). ``check`` says what to do with
    the message just received: ``OK`` (handle it), ``REFUSE`` (answer rate_limited), ``CLOSE``
    (close the connection: once) or ``DROP`` (ignore it: the connection is closing)."""

    OK, REFUSE, CLOSE, DROP = "ok", "refuse", "close", "drop"
    closed = False

    def __init__(self, clock=None):
        self.clock = clock or time.monotonic
        self.burst = settings.SOCKET_BURST
        self.rate = settings.SOCKET_RATE
        self.flood_close = settings.SOCKET_FLOOD_CLOSE
        self.flood_seconds = settings.SOCKET_FLOOD_SECONDS
        self.tokens = float(self.burst)
        self.at = self.clock()
        self.refused = 0
        self.refused_since = 0.0

    def check(self) -> str:
        if self.closed:
            return self.DROP
        if self.burst <= 0:
            return self.OK
        now = self.clock()
        self.tokens = min(float(self.burst), self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return self.OK
        if self.refused == 0 or now - self.refused_since > self.flood_seconds:
            self.refused, self.refused_since = 0, now
        self.refused += 1
        if self.flood_close and self.refused >= self.flood_close:
            self.closed = True
            return self.CLOSE
        return self.REFUSE

    def error(self, version: int | None) -> dict:
        """The socket's answer to a refused message (in the active language)."""
        wait = max(1, round((1 - self.tokens) / self.rate)) if self.rate > 0 else 1
        return rate_refusal(_("Too many messages: slow down."), wait).as_json(version)
