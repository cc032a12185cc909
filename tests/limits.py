"""For the tests of the limits on abuse: an empty cache, and a clock the test moves."""
from __future__ import annotations

import time

import pytest


class Clock:
    """Stands for the ``time`` module where the limits read it: ``time()`` (django-ratelimit's
    windows, the chat's repeat memory) and ``monotonic()`` (the sockets' buckets) stand still
    until the test moves them on."""

    def __init__(self):
        self.now = time.time()
        self.mono = time.monotonic()

    def time(self) -> float:
        return self.now

    def monotonic(self) -> float:
        return self.mono

    def advance(self, seconds: float) -> None:
        self.now += seconds
        self.mono += seconds


@pytest.fixture
def clock(monkeypatch):
    """A fresh count: the cache emptied (it outlives a test), and the time the limits read held
    still, so that no window starts over in the middle of a test."""
    import django_ratelimit.core
    from django.core.cache import cache

    from games import limits
    from realtime import socket_limit

    cache.clear()
    fake = Clock()
    monkeypatch.setattr(django_ratelimit.core, "time", fake)
    monkeypatch.setattr(limits, "time", fake)
    monkeypatch.setattr(socket_limit, "time", fake)
    yield fake
    cache.clear()
