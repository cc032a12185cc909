"""Enqueueing ``advance_tournament`` by task name, so that tournaments/services.py need not import
tournaments/tasks.py, which imports it. Tests swap ``_enqueue`` for a list they drain themselves
(tests/tournaments/conftest.py)."""
from __future__ import annotations

from datetime import datetime

from celery import current_app
from django.utils import timezone

ADVANCE_TOURNAMENT = "tournaments.tasks.advance_tournament"


def _celery_enqueue(tournament_id: int, eta: datetime | None = None) -> None:
    if eta is not None and eta <= timezone.now():
        eta = None
    current_app.send_task(ADVANCE_TOURNAMENT, (tournament_id,), eta=eta)


_enqueue = _celery_enqueue


def enqueue_advance(tournament_id: int, eta: datetime | None = None) -> None:
    _enqueue(tournament_id, eta)
