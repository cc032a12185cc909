"""Enqueueing a table's next due work, by task name.

The writers (games/services.py) schedule ``games.tasks.advance_table`` without importing
games/tasks.py, which imports them: the task is sent by its registered name. Tests swap
``_scheduler`` for a queue they drain themselves (tests/conftest.py).
"""
from __future__ import annotations

from datetime import datetime

from celery import current_app
from django.utils import timezone

ADVANCE_TABLE = "games.tasks.advance_table"


def _celery_schedule(table_id: int, version: int | None, due_at: datetime) -> None:
    eta = due_at if due_at > timezone.now() else None
    current_app.send_task(ADVANCE_TABLE, (table_id, version), eta=eta)


_scheduler = _celery_schedule


def schedule_advance(table_id: int, version: int | None, due_at: datetime) -> None:
    _scheduler(table_id, version, due_at)
