"""Enqueueing ``analyse_match`` by task name, so that analysis/services.py need not import
analysis/tasks.py, which imports it (as games/scheduling.py and tournaments/scheduling.py do).
Tests swap ``_enqueue`` to run or collect the tasks themselves."""
from __future__ import annotations

from celery import current_app

ANALYSE_MATCH = "analysis.tasks.analyse_match"


def _celery_enqueue(match_id: int) -> None:
    current_app.send_task(ANALYSE_MATCH, (match_id,))     # routed to the `analysis` queue by name


_enqueue = _celery_enqueue


def enqueue_analysis(match_id: int) -> None:
    _enqueue(match_id)
