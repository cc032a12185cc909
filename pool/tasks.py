"""Beat's pool round (config/settings.py ``pool-sweep``, every POOL_SWEEP_SECONDS): windows widen
with the wait, so a pool is paired again without anyone joining; places whose lease ran out (a
killed web process) are dropped; counts held back (pool/pace.py) are sent. Safe to run on several processes at once (pool/services.py)."""
from celery import shared_task

from . import services


@shared_task(name="pool.tasks.sweep")
def sweep() -> int:
    services.send_held_counts()         # counts held back by pool/pace.py
    return services.sweep()
