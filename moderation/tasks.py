"""Celery tasks of fair play: look at a rated match's players seen together, forget old sightings."""
from celery import shared_task
from django.db import OperationalError

from . import linked


@shared_task(name="moderation.tasks.check_linked", acks_late=True, autoretry_for=(OperationalError,),
             retry_backoff=True, max_retries=5)
def check_linked(match_id: int) -> int:
    return len(linked.check_match(match_id))


@shared_task(name="moderation.tasks.forget_addresses")
def forget_addresses() -> int:
    """Beat, hourly: forget the addresses accounts were seen on once past their retention."""
    return linked.forget_old()


def _celery_enqueue(match_id: int) -> None:
    check_linked.apply_async((match_id,))


# Tests swap this to run or collect the checks themselves.
_enqueue = _celery_enqueue


def enqueue_check(match_id: int) -> None:
    _enqueue(match_id)
