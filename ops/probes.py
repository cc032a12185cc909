"""``/healthz``, ``/readyz`` and ``/metrics``, answered in front of Django (config/routing.py).

A proxy or a process manager calls them every few seconds, by address (``Host: 127.0.0.1:8001``),
not by the site's name: so they skip ALLOWED_HOSTS, sessions, CSRF, the rate limits and the
request log; a failing ``/readyz`` is an answer (503), never an error in the log.

* ``/healthz``: the process answers (no database): 200 ``ok``.
* ``/readyz``: the database and, in scaled mode, Redis answer within ``READY_TIMEOUT_SECONDS``:
  200, else 503; JSON either way, with what failed.
* ``/metrics``: Prometheus's text format (ops/registry.py), to the readers ops/access.py allows;
  404 to anyone else.
"""
from __future__ import annotations

import asyncio

import orjson
from prometheus_client import CONTENT_TYPE_LATEST

from . import access, health, registry

PATHS = ("/healthz", "/readyz", "/metrics")


def readiness_answer() -> tuple[int, bytes]:
    results = health.readiness()
    ready = all(r.ok for r in results)
    body = {"ready": ready, "checks": {r.name: ("ok" if r.ok else r.detail) for r in results}}
    return (200 if ready else 503), orjson.dumps(body)


class Probes:
    """ASGI middleware: the three paths above, everything else to ``inner``."""

    def __init__(self, inner):
        self.inner = inner

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or scope["path"] not in PATHS:
            return await self.inner(scope, receive, send)
        path = scope["path"]
        if scope["method"] not in ("GET", "HEAD"):
            return await _answer(send, scope, 405, b"GET or HEAD\n", "text/plain", [(b"allow", b"GET, HEAD")])
        if path == "/healthz":
            return await _answer(send, scope, 200, b"ok\n", "text/plain")
        if path == "/readyz":
            status, body = await asyncio.to_thread(readiness_answer)
            return await _answer(send, scope, status, body, "application/json")
        headers = dict(scope.get("headers") or [])
        client = (scope.get("client") or (None, None))[0]
        if not access.may_read_metrics(client, headers.get(b"authorization", b"").decode("latin-1")):
            return await _answer(send, scope, 404, b"Not Found\n", "text/plain")
        body = await asyncio.to_thread(registry.exposition)
        return await _answer(send, scope, 200, body, CONTENT_TYPE_LATEST)


async def _answer(send, scope, status: int, body: bytes, content_type: str, extra=()) -> None:
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", content_type.encode()), (b"content-length", str(len(body)).encode()),
                            (b"cache-control", b"no-store"), *extra]})
    await send({"type": "http.response.body", "body": b"" if scope["method"] == "HEAD" else body})
