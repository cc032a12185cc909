"""How fast the pool may be changed and told, so that a few accounts cannot slow the site:

- **Joins and leaves per account.** Each ``join`` or ``leave`` a logged-in player sends counts
  against POOL_CHANGE_RATE (django-ratelimit's counter in the shared cache, as the chat's);
  over it, the socket is answered ``rate_limited`` with a reason and the wait.
- **Counts at most once a second.** The counts go to every pool socket (each home page and
  lobby), each after a query, so not on every change of who waits: the first change in a
  window of POOL_COUNTS_SECONDS sends them; the later ones in that window are marked held, and
  beat's pool round (every POOL_SWEEP_SECONDS) sends them, read afresh, once the next window
  has begun. The window is claimed with one atomic ``add`` in the shared cache, so every web
  process and worker together send at most one per window. A broken cache sends every change.
"""
from __future__ import annotations

import logging
import time

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import gettext as _

from realtime.errors import ServiceError
from games.limits import count_user_rate

log = logging.getLogger(__name__)

HELD = "pool-counts:held"


def take_change(user) -> None:
    """Count a ``join`` or ``leave`` of ``user``; ServiceError ``rate_limited`` when over POOL_CHANGE_RATE."""
    if not getattr(user, "is_authenticated", False):
        return                  # the service refuses him with its own reason
    try:
        count_user_rate(user, "limit.pool", settings.POOL_CHANGE_RATE,
                        _("You are joining and leaving pools too fast."))
    except ServiceError:
        raise
    except Exception:
        log.warning("pool limit: the cache failed; not limiting", exc_info=True)


def _claim_window() -> bool:
    """Whether this caller is the first to send the counts in the current window."""
    seconds = settings.POOL_COUNTS_SECONDS
    window = int(time.time() // seconds)
    return cache.add(f"pool-counts:sent:{window}", 1, timeout=max(2, int(seconds) * 2))


def send_now() -> bool:
    """A change of who waits: whether its counts go out now (else they are held for the round)."""
    if not settings.POOL_COUNTS_SECONDS:
        return True
    try:
        if _claim_window():
            return True
        cache.set(HELD, 1, timeout=60)
        return False
    except Exception:
        log.warning("pool counts: the cache failed; sending them", exc_info=True)
        return True


def held_due() -> bool:
    """Beat's round: whether counts were held back and may go out now (then no longer held)."""
    if not settings.POOL_COUNTS_SECONDS:
        return False
    try:
        if cache.get(HELD) and _claim_window():
            cache.delete(HELD)          # before they are read: a change after this is held again
            return True
    except Exception:
        log.warning("pool counts: the cache failed", exc_info=True)
    return False
