"""Call the site's ASGI application over HTTP in the test's own process (no server)."""
from __future__ import annotations

import asyncio
from dataclasses import dataclass


@dataclass
class Answer:
    status: int
    headers: dict
    body: bytes


async def get(app, path: str, *, client: str = "127.0.0.1", headers: dict | None = None,
              method: str = "GET") -> Answer:
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method,
             "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"",
             "root_path": "", "client": (client, 40000), "server": ("127.0.0.1", 8000),
             "headers": [(b"host", b"127.0.0.1:8000")] + [(k.lower().encode(), v.encode())
                                                         for k, v in (headers or {}).items()]}
    sent, asked = [], []

    async def receive():
        if not asked:
            asked.append(True)
            return {"type": "http.request", "body": b"", "more_body": False}
        await asyncio.Event().wait()        # the client stays: no disconnect

    async def send(message):
        sent.append(message)

    await app(scope, receive, send)
    start = next(m for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return Answer(start["status"], {k.decode(): v.decode() for k, v in start["headers"]}, body)
