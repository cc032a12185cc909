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
