"""Limits on abuse over HTTP, counted where every web process sees the same numbers.

- Logins: django-axes counts failures per address and per account in the database
  (``AXES_*`` in config/settings.py); ``lockout`` is its answer to a locked-out login.
- Registrations, guests and deal-record uploads per address: django-ratelimit's counters in the
  default cache (Redis in scaled mode, the process's memory in embedded mode, which is one
  process); tables per user are counted the same way in games/limits.py. ``check`` refuses with
  ``Limited`` once a window's count has reached its rate; ``count`` counts one use after it
  succeeded, so a form sent back with a typo costs nothing (simultaneous requests may overshoot
  by their number); ``take`` counts and refuses at once.

A view answers ``Limited`` with HTTP 429, its ``message`` in the visitor's language and a
``Retry-After`` header: on the form it came from, or on the page ``too_many`` renders.
"""
from __future__ import annotations

import ipaddress
import logging
import math

from django.conf import settings
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _, ngettext
from django_ratelimit.core import get_usage

log = logging.getLogger(__name__)

TOO_MANY_REQUESTS = 429

# group: (the setting holding its rate, e.g. "10/h", empty for no limit; who is counted)
LIMITS = {
    "register": ("REGISTER_RATE", "ip"),
    "guest": ("GUEST_RATE", "ip"),
    "upload": ("RECORD_UPLOAD_RATE", "ip"),
}
# Tables created per user are counted by games/limits.py, however they are asked for.


def client_address(request) -> str | None:
    """The visitor's address as the login limits count it (AXES_CLIENT_IP_CALLABLE)."""
    return network_of(request.META.get("REMOTE_ADDR"))


def network_of(address: str | None) -> str | None:
    """An address as every per-address limit counts it (logins, sockets): an IPv6 address by its
    /64, one household's or server's, as django-ratelimit counts it too."""
    if address and ":" in address:
        try:
            return str(ipaddress.ip_network(f"{address}/64", strict=False).network_address)
        except ValueError:
            return address
    return address


def wait_text(seconds: int) -> str:
    """When to try again, as a sentence."""
    seconds = max(1, int(seconds))
    if seconds < 60:
        return ngettext("Please try again in %(seconds)d second.",
                        "Please try again in %(seconds)d seconds.", seconds) % {"seconds": seconds}
    minutes = math.ceil(seconds / 60)
    return ngettext("Please try again in %(minutes)d minute.",
                    "Please try again in %(minutes)d minutes.", minutes) % {"minutes": minutes}


def _reasons() -> dict[str, str]:
    return {
        "register": _("Too many accounts were registered from your address lately."),
        "guest": _("Too many guest accounts were made from your address lately."),
        "upload": _("Many records were checked from your address lately."),
    }


class Limited(Exception):
    """Over a limit: ``message`` says which and when to try again (the active language)."""

    def __init__(self, group: str, seconds: int):
        self.group = group
        self.seconds = max(1, int(seconds))
        super().__init__(f"{group}: over the limit for {self.seconds} s")

    @property
    def message(self) -> str:
        return f"{_reasons()[self.group]} {wait_text(self.seconds)}"

    def answer(self, response):
        """``response`` (already rendered with status 429) with the Retry-After header."""
        response.status_code = TOO_MANY_REQUESTS
        response["Retry-After"] = str(self.seconds)
        return response


def usage(request, group: str, increment: bool) -> dict | None:
    """django-ratelimit's count of ``group`` for this request's address or user; None when the
    group has no limit or the cache failed (a broken cache must not close the site)."""
    name, key = LIMITS[group]
    rate = getattr(settings, name, None)
    if not rate:
        return None
    try:
        return get_usage(request, group=f"limit.{group}", key=key, rate=rate, increment=increment)
    except Exception:   # the cache is down: let the request through rather than fail it
        log.warning("rate limit %s: the cache failed; not limiting", group, exc_info=True)
        return None


def check(request, group: str) -> None:
    """Raise ``Limited`` when this window's count has reached the limit."""
    found = usage(request, group, increment=False)
    if found is not None and found["count"] >= found["limit"]:
        raise Limited(group, found["time_left"])


def count(request, group: str) -> None:
    """Count one use (after it succeeded)."""
    usage(request, group, increment=True)


def take(request, group: str) -> None:
    """Count one use, and raise ``Limited`` when it is over the limit: one atomic step (INCR in
    Redis), so simultaneous requests cannot all slip under it."""
    found = usage(request, group, increment=True)
    if found is not None and found["should_limit"]:
        raise Limited(group, found["time_left"])


def too_many(request, message: str, seconds: int, *, login: bool = False):
    """The 429 page: what was refused and when to try again."""
    response = render(request, "429.html", {"message": message, "wait": wait_text(seconds),
                                            "login": login}, status=TOO_MANY_REQUESTS)
    response["Retry-After"] = str(max(1, int(seconds)))
    return response


def lockout(request, *args, **kwargs):
    """django-axes' answer to a login refused for too many failures (AXES_LOCKOUT_CALLABLE), on
    the site's login page or the admin's: the 429 page, saying when the lockout ends."""
    seconds = _locked_for(request)
    message = _("Too many failed logins from your address or for this account, so logging in is paused.")
    return too_many(request, message, seconds, login=True)


def _locked_for(request) -> int:
    """Seconds until axes lets this visitor try again. Its database handler counts a parameter's
    (address, account) failures on the rows whose last failure is within the cool-off: the lockout
    ends when enough of the oldest rows have aged out to bring the sum under the limit. Attempts
    while locked out are not recorded (AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT off)."""
    from axes.handlers.proxy import AxesProxyHandler
    from axes.helpers import get_cool_off, get_failure_limit

    credentials = getattr(request, "axes_credentials", None)
    cool_off = get_cool_off(request)
    handler = AxesProxyHandler.get_implementation()
    if not cool_off or not hasattr(handler, "get_user_attempts"):
        return 3600
    limit = get_failure_limit(request, credentials)
    now = timezone.now()
    until = now
    for attempts in handler.get_user_attempts(request, credentials):
        rows = list(attempts.order_by("attempt_time").values_list("attempt_time", "failures_since_start"))
        left = sum(failures for _at, failures in rows)
        for at, failures in rows:
            if left < limit:
                break
            left -= failures
            until = max(until, at + cool_off)
    return max(1, math.ceil((until - now).total_seconds()))
