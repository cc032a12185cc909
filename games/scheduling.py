"""Enqueueing a table's next due work, by task name.

The writers (games/services.py) schedule ``games.tasks.advance_table`` without importing
games/tasks.py, which imports them: the task is sent by its registered name. Tests swap
``_scheduler`` for a queue they drain themselves (tests/conftest.py).
"""
from __future__ import annotations

import logging
from datetime import datetime

from celery import current_app
from django.utils import timezone

ADVANCE_TABLE = "games.tasks.advance_table"
log = logging.getLogger(__name__)


def _celery_schedule(table_id: int, version: int | None, due_at: datetime) -> None:
    eta = due_at if due_at > timezone.now() else None
    try:
        current_app.send_task(ADVANCE_TABLE, (table_id, version), eta=eta)
    except Exception:
        # The broker is unreachable (Redis restarting). This runs on commit: raising here would
        # turn a committed move into an error for its player (a crashed socket) and skip the
        # commit's other hooks. The table is overdue then, and the sweeper (games/tasks.py)
        # does its work once the broker is back, as for any lost task.
        log.warning("table %s: could not enqueue its next work; the sweeper will", table_id, exc_info=True)


_scheduler = _celery_schedule


def schedule_advance(table_id: int, version: int | None, due_at: datetime) -> None:
    _scheduler(table_id, version, due_at)
