"""Celery tasks: everything a table does on its own (bot moves, clock deadlines, the next deal).

One task, ``advance_table(table_id, version)``, scheduled by the writers on commit at the table's
``due_at`` (games/scheduling.py). It is idempotent against the version: run twice, late, or after
a player acted, it does nothing. ``sweep`` (beat) catches tables whose task was lost (a worker
killed, a broker restart) and players' clock deadlines, which get no task of their own;
``republish`` (beat, scaled mode) changes committed and never published (games/republish.py).
"""
from __future__ import annotations

import logging
from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from . import republish as lost_updates, scheduling, services, showcase as house_tables
from .web_process import liveness
from .models import Table

Status = Table.Status
log = logging.getLogger(__name__)


@shared_task(name=scheduling.ADVANCE_TABLE, acks_late=True)
def advance_table(table_id: int, version: int | None = None) -> None:
    later = services.advance(table_id, version)
    if later is not None:  # woke too early (clock skew, an early eta): look again then
        scheduling.schedule_advance(table_id, version, later)


@shared_task(name="games.tasks.showcase")
def showcase() -> int:
    """Keep a table to watch and a table to join per game (games/showcase.py; SHOWCASE setting)."""
    return len(house_tables.ensure())


@shared_task(name="games.tasks.sweep")
def sweep() -> int:
    """Advance every table whose due work is overdue by more than a grace period."""
    ids = overdue_tables()
    for table_id in ids:
        # Players' clock deadlines are the sweeper's work; a bot move or a next deal here means
        # its task was lost or ran later than the grace (the log says which tables).
        log.info("sweeper: table %s is overdue", table_id)
        services.advance(table_id)
    return len(ids)


def overdue_tables(grace_seconds: float | None = None) -> list[int]:
    """Tables whose due work is late by more than the grace: a player's clock deadline (those
    get no task) or a lost task. The grace keeps the sweeper from doubling the work of tasks
    that are merely running late on a busy worker (at 0.5 s it did half the worker's bot moves
    a second time in bench/live.py --bots)."""
    if grace_seconds is None:
        grace_seconds = settings.GAMES_SWEEP_GRACE_SECONDS
    limit = timezone.now() - timedelta(seconds=grace_seconds)
    return list(Table.objects.filter(status__in=[Status.PLAYING, Status.BETWEEN_DEALS], due_at__lte=limit)
                .values_list("pk", flat=True)[:500])


@shared_task(name="games.tasks.sweep_sockets")
def sweep_sockets() -> int:
    """Remove the socket records of web processes that stopped beating (games/web_process/liveness.py): their
    players turn away and the leaver rules apply."""
    return liveness.sweep()


@shared_task(name="games.tasks.republish")
def republish() -> int:
    """Tell the sockets of tables whose committed change was never published (games/republish.py)."""
    return lost_updates.sweep()
