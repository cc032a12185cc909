"""Limits on the tables a user creates and on chat.

Tables are limited per user in the default cache (Redis in scaled mode, so every process shares
the count): at most TABLE_CREATE_RATE new tables, however they are asked for: the lobby's form,
"Play now", a challenge a bot account accepts (counted for its challenger) and a rematch (counted
for the player who offers it). ``check_tables`` refuses without counting (a challenge when it is
sent); ``take_table`` counts one and refuses when that is over the limit, in one atomic step
(INCR), so simultaneous requests cannot all slip under it (``create_table(..., counted=True)``
takes one once the table is known to be valid, so a form with a mistake costs nothing). Tables the
system makes (tournaments, the showcase) are not counted.

Chat is limited per user in the default cache (Redis in scaled mode), so a user's sockets on
several web processes share one count: at most CHAT_RATE messages (django-ratelimit's fixed
window, e.g. "5/10s"), and the same words not again within CHAT_REPEAT_SECONDS.

Socket messages have their own limit, per connection (realtime/socket_limit.py); every limit
refuses the same way (``rate_refusal``: ``rate_limited`` with the wait).
"""
from __future__ import annotations

import hashlib
import logging
import time

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import gettext as _

from accounts.limits import TOO_MANY_REQUESTS
from django_ratelimit.core import get_usage
from realtime.errors import ServiceError
from realtime.socket_limit import RATE_LIMITED, rate_refusal

log = logging.getLogger(__name__)

TOO_MANY_TABLES = "too_many_tables"     # a table refused by TABLE_CREATE_RATE (category rate_limited)


# --- tables per user ----------------------------------------------------------------------------
def _table_usage(user, increment: bool) -> dict | None:
    """django-ratelimit's count of ``user``'s new tables (the key the lobby's ``key="user"`` makes,
    so the counts already in the cache carry on); None: no limit, or the cache failed."""
    rate = settings.TABLE_CREATE_RATE
    if not rate:
        return None
    try:
        return get_usage(None, group="limit.table", key=lambda _group, _request: str(user.pk),
                         rate=rate, increment=increment)
    except Exception:   # the cache is down: let tables be made rather than fail
        log.warning("table limit: the cache failed; not limiting", exc_info=True)
        return None


def tables_refusal(seconds: float, reason: str | None = None) -> ServiceError:
    """The refusal of a table over TABLE_CREATE_RATE (``reason``: worded for someone else than the
    user who is over it, e.g. the bot asked to accept his challenge)."""
    return rate_refusal(reason or _("You have created many tables lately."), seconds, TOO_MANY_TABLES)


def check_tables(user) -> None:
    """Raise ServiceError ``too_many_tables`` when ``user`` has created TABLE_CREATE_RATE tables
    in this window (nothing is counted)."""
    found = _table_usage(user, increment=False)
    if found is not None and found["count"] >= found["limit"]:
        raise tables_refusal(found["time_left"])


def take_table(user) -> None:
    """Count one new table of ``user``; raise ServiceError ``too_many_tables`` when it is over
    TABLE_CREATE_RATE."""
    found = _table_usage(user, increment=True)
    if found is not None and found["should_limit"]:
        raise tables_refusal(found["time_left"])


def _said_key(user_id: int, text: str) -> str:
    words = " ".join(text.casefold().split())
    return f"chat-said:{user_id}:{hashlib.sha256(words.encode()).hexdigest()[:32]}"


def answer(response, refusal: ServiceError | None):
    """An HTTP page answering a refusal: 429 with Retry-After when it was a limit's, else as is."""
    if refusal is not None and refusal.category == RATE_LIMITED:
        response.status_code = TOO_MANY_REQUESTS
        response["Retry-After"] = str(refusal.params.get("retry_after", 1))
    return response


def count_user_rate(user, group: str, rate: str, reason: str) -> None:
    """Count one of ``user``'s actions of ``group`` against ``rate`` (none: no limit); raise the
    ``rate_limited`` error with ``reason`` and the wait when it is over. The cache's errors are the
    caller's to forgive."""
    if not rate:
        return
    usage = get_usage(None, group=group, key=lambda _group, _request: str(user.pk), rate=rate, increment=True)
    if usage is not None and usage["should_limit"]:
        raise rate_refusal(reason, usage["time_left"])


def check_chat(user, text: str) -> None:
    """Count one chat message of ``user``; raise ServiceError ``rate_limited`` when it is over
    his rate or repeats what he said within CHAT_REPEAT_SECONDS. A broken cache limits nothing."""
    try:
        count_user_rate(user, "limit.chat", settings.CHAT_RATE, _("You are sending chat messages too fast."))
        repeat = settings.CHAT_REPEAT_SECONDS
        if repeat:
            key = _said_key(user.pk, text)
            until = time.time() + repeat
            if not cache.add(key, until, repeat):
                left = (cache.get(key) or until) - time.time()
                raise rate_refusal(_("You have just said that."), left)
    except ServiceError:
        raise
    except Exception:   # the cache is down: chat rather than fail
        log.warning("chat limit: the cache failed; not limiting", exc_info=True)
