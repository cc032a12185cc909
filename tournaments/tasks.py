"""Celery tasks: tournaments run themselves.

* ``tournament_tick`` (beat, every ``TOURNAMENT_TICK_SECONDS``): starts every tournament whose
  start time has come and advances every running one. It is the reliable path: it needs no task
  to have survived (a killed worker, a broker restart, the in-memory broker of embedded mode).
* ``advance_tournament(id)``: enqueued at the end of a break, when an arena table's match ends
  (a round format's step runs right after that commit: tournaments/services.py ``_after_table``),
  and when that step could not run, so rounds follow each other without waiting for the tick.
* ``start_tournament(id)``: the same start the tick does, for an admin's "start now".

Every one is idempotent (tournaments/services.py locks the row and does only what is due).
"""
from __future__ import annotations

from celery import shared_task

from . import scheduling, services


@shared_task(name="tournaments.tasks.start_tournament", acks_late=True)
def start_tournament(tournament_id: int) -> bool:
    return services.start(tournament_id)


@shared_task(name=scheduling.ADVANCE_TOURNAMENT, acks_late=True)
def advance_tournament(tournament_id: int) -> bool:
    return services.advance(tournament_id)


@shared_task(name="tournaments.tasks.tournament_tick")
def tournament_tick() -> int:
    done = 0
    for tid in services.due_to_start():
        done += services.start(tid)
    for tid in services.running():
        # A step may open the next one (a round closes, then the break is zero): loop a little.
        for _ in range(3):
            if not services.advance(tid):
                break
            done += 1
    return done
