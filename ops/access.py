"""Who may read ``/metrics``: this machine (127.0.0.1, ::1), the addresses and networks in
``METRICS_ALLOWED_IPS``, and a request with ``Authorization: Bearer <METRICS_TOKEN>``. Everyone
else is told there is nothing there (404), so the endpoint is not advertised.

The address is the client's as the web server sees it: behind the proxy, the one it put in
X-Forwarded-For (README, "Scaled mode"), so a visitor coming through nginx is not "this machine".
"""
from __future__ import annotations

import hmac
import ipaddress
from functools import lru_cache

from django.conf import settings

LOOPBACK = ("127.0.0.0/8", "::1/128")


@lru_cache(maxsize=8)
def _networks(allowed: tuple[str, ...]) -> tuple:
    return tuple(ipaddress.ip_network(n, strict=False) for n in LOOPBACK + allowed)


def address_allowed(address: str | None) -> bool:
    try:
        ip = ipaddress.ip_address((address or "").strip())
    except ValueError:
        return False
    if ip.version == 6 and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return any(ip in net for net in _networks(tuple(settings.METRICS_ALLOWED_IPS)) if ip.version == net.version)


def token_allowed(authorization: str | None) -> bool:
    token = settings.METRICS_TOKEN
    if not token or not authorization:
        return False
    scheme, _, given = authorization.partition(" ")
    return scheme.lower() == "bearer" and hmac.compare_digest(given.strip().encode(), token.encode())


def may_read_metrics(address: str | None, authorization: str | None) -> bool:
    return address_allowed(address) or token_allowed(authorization)
