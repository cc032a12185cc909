"""Addresses kept as keyed hashes: what the fair-play rules compare, never the address itself.

An address (an IPv6 one by its /64, as every per-address limit counts it: ``limits.network_of``)
is stored as HMAC-SHA256 under the site's SECRET_KEY, so two records can be compared ("the same
address") while a leaked table names no address, and nobody without the key can test a guess.
Who keeps such keys says how long (``ADDRESS_KEY_DAYS``) and deletes them after. A loopback
address has no key: it is the machine itself (a local test, a proxy that does not pass on the
client's address) and says nothing about who is who.
"""
from __future__ import annotations

import hashlib
import hmac
import ipaddress

from django.conf import settings

from .limits import network_of

DOMAIN = b"cardroom-address/1:"


def key_of(address: str | None) -> str | None:
    """The keyed hash of a client address (None when there is none)."""
    if not address or _loopback(address):
        return None
    network = network_of(address)
    return hmac.new(settings.SECRET_KEY.encode(), DOMAIN + network.encode(), hashlib.sha256).hexdigest()[:40]


def _loopback(address: str) -> bool:
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


def of_request(request) -> str | None:
    return key_of(request.META.get("REMOTE_ADDR"))


def of_scope(scope) -> str | None:
    """A socket's: the address its server saw (the proxy's client address, README "Scaled mode")."""
    return key_of((scope.get("client") or (None,))[0])


def retention_days() -> int:
    return int(getattr(settings, "ADDRESS_KEY_DAYS", 30))
