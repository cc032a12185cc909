"""Celery tasks on the ``analysis`` queue (CELERY_TASK_ROUTES): analyse a finished match, and a
sweeper for analyses whose task was lost."""
from celery import shared_task
from django.db import OperationalError

from . import scheduling, services, throttle


@shared_task(name="analysis.tasks.analyse_match", acks_late=True, autoretry_for=(OperationalError,),
             retry_backoff=True, max_retries=5)
def analyse_match(match_id: int) -> bool:
    return services.run(match_id, pause=throttle.pause)


@shared_task(name="analysis.tasks.sweep")
def sweep() -> int:
    """Queue again the analyses whose task was lost: only when the queue is empty, since while it
    holds a backlog the pending analyses wait in it, and sending them again each minute would only
    pile up copies in the broker (a site whose analyses fall behind would grow Redis for ever)."""
    if scheduling.waiting():
        return 0
    ids = services.lost()
    for match_id in ids:
        scheduling.send_analysis(match_id)      # the queue was counted once above, not once per id
    return len(ids)
