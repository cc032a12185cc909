"""The services a socket needs, out of reach: the errors that mean "try again in a moment", and
the error a player reads (code ``unavailable``, docs/PROTOCOL.md "Outages").

PostgreSQL restarting shows as Django's OperationalError or InterfaceError; Redis (the channel
layer, the cache that counts the limits) as redis-py's ConnectionError or TimeoutError. Either way
the change was not made (or only its commit's answer was lost, and a retry is ``stale``): the socket
stays open, the client shows that it is reconnecting and may send it again; nothing hangs.
"""
from __future__ import annotations

from django.db import InterfaceError, OperationalError
from django.utils import translation
from django.utils.translation import gettext as _
from redis.exceptions import ConnectionError as RedisConnectionError, TimeoutError as RedisTimeoutError

from .errors import ServiceError

DATABASE = (OperationalError, InterfaceError)
REDIS = (RedisConnectionError, RedisTimeoutError)
UNAVAILABLE = DATABASE + REDIS


def error(exc: BaseException, language: str, version: int | None) -> dict:
    """The ``unavailable`` error for ``exc``, in ``language``."""
    with translation.override(language):
        if isinstance(exc, REDIS):
            reason = _("The server cannot reach its message service just now. Please try again in a moment.")
        else:
            reason = _("The server cannot reach its database just now. Please try again in a moment.")
        return ServiceError("unavailable", reason, version).as_json(version)
