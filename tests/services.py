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
