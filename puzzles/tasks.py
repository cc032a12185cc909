"""Celery tasks: take a match's puzzles once its analysis is stored (queue ``analysis``)."""
from celery import shared_task
from django.db import OperationalError

from . import services


@shared_task(name="puzzles.tasks.extract_match", acks_late=True, autoretry_for=(OperationalError,),
             retry_backoff=True, max_retries=5)
def extract_match(match_id: int) -> int:
    return services.extract_match(match_id)


def _celery_enqueue(match_id: int) -> None:
    extract_match.apply_async((match_id,))


# Tests swap this to run or collect the tasks themselves.
_enqueue = _celery_enqueue


def enqueue_extract(match_id: int) -> None:
    _enqueue(match_id)


@shared_task(name="puzzles.tasks.forget_sightings")
def forget_sightings() -> int:
    """Beat, hourly: forget the addresses solutions were shown to once past their retention."""
    from . import sightings
    return sightings.forget_old()
