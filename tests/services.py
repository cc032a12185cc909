"""What some tests need from the machine (PostgreSQL, Redis, chromium)."""
import os

import pytest


def require(available: bool, reason: str) -> None:
    """Skip a test whose service is missing on a developer's machine; under CI fail instead,
    so the scaled and browser tests can never silently stop running there."""
    if available:
        return
    if os.environ.get("CI"):
        pytest.fail(f"required in CI: {reason}", pytrace=False)
    pytest.skip(reason)


def require_redis() -> None:
    """The scaled channel layer's tests talk to the Redis that .ci/run starts."""
    import socket
    with socket.socket() as s:
        s.settimeout(0.5)
        answers = s.connect_ex(("127.0.0.1", 6379)) == 0
    require(answers, "Redis must answer on 127.0.0.1:6379 (.ci/run starts it)")


def xdist_worker() -> int:
    """This pytest-xdist worker's number (gw0 -> 0, gw1 -> 1, ...); 0 without xdist."""
    name = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    return int(name.removeprefix("gw") or 0)


def per_worker(name: str) -> str:
    """A name of this worker's own (a PostgreSQL database, a file): two workers never share one."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    return f"{name}_{worker}" if worker else name


# Redis has 16 database numbers; tests/realtime/test_layers.py and its kin use 8 with key prefixes of
# their own, the scaled stacks one number per worker from 10 on (each flushes it when it starts).
SCALED_REDIS_DBS = range(10, 16)


def worker_redis_db() -> int:
    """This worker's Redis database number for a scaled stack (flushed by the stack that takes it)."""
    index = xdist_worker()
    if index >= len(SCALED_REDIS_DBS):
        pytest.fail(f"only {len(SCALED_REDIS_DBS)} xdist workers can each have a Redis database of their own")
    return SCALED_REDIS_DBS[index]
