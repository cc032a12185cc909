"""Celery tasks: everything a table does on its own (bot moves, clock deadlines, the next deal).

One task, ``advance_table(table_id, version)``, scheduled by services on commit at the table's
``due_at``. It is idempotent against the version: run twice, late, or after a player acted, it does
nothing. ``sweep`` (beat) catches tables whose task was lost (a worker killed, a broker restart).
"""
from __future__ import annotations

from datetime import datetime

from celery import shared_task
from django.utils import timezone

from . import services


@shared_task(name="games.tasks.advance_table", acks_late=True)
def advance_table(table_id: int, version: int | None = None) -> None:
    later = services.advance(table_id, version)
    if later is not None:  # woke too early (clock skew, an early eta): look again then
        schedule_advance(table_id, version, later)


@shared_task(name="games.tasks.sweep")
def sweep() -> int:
    """Advance every table whose due work is overdue by more than a grace period."""
    ids = services.overdue_tables()
    for table_id in ids:
        services.advance(table_id)
    return len(ids)


def _celery_schedule(table_id: int, version: int | None, due_at: datetime) -> None:
    if due_at <= timezone.now():
        advance_table.apply_async((table_id, version))
    else:
        advance_table.apply_async((table_id, version), eta=due_at)


# Tests swap this for a queue they drain themselves (tests/conftest.py).
_scheduler = _celery_schedule


def schedule_advance(table_id: int, version: int | None, due_at: datetime) -> None:
    _scheduler(table_id, version, due_at)
