"""Celery tasks: rate a finished match (idempotent), and a sweeper for lost rating tasks."""
from celery import shared_task
from django.db import OperationalError

from . import services


@shared_task(name="ratings.tasks.rate_match", acks_late=True, autoretry_for=(OperationalError,),
             retry_backoff=True, max_retries=5)
def rate_match(match_id: int) -> int:
    return len(services.rate_match(match_id))


@shared_task(name="ratings.tasks.sweep")
def sweep() -> int:
    """Rate finished rated matches whose task was lost (embedded mode's in-memory broker dies with
    its process). Harmless when they are already rated."""
    ids = services.unrated_matches()
    for match_id in ids:
        services.rate_match(match_id)
    return len(ids)


def _celery_enqueue(match_id: int) -> None:
    rate_match.apply_async((match_id,))


# Tests swap this (tests/ratings/conftest.py) to run or collect the tasks themselves.
_enqueue = _celery_enqueue


def enqueue_rating(match_id: int) -> None:
    _enqueue(match_id)
