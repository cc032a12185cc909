"""The embedded mode's server: ``python -m config.serve [--host H] [--port P]``, what `make run` and
the browser tests start. One web process (the in-memory channel layer and the Celery threads live in
it, and it starts the bot processes that do the bots' thinking, games/thinking.py), on uvicorn with uvloop and httptools as the Procfile's web processes: at 400 embedded tables
it held p99 under 100 ms where Daphne did not (docs/SCALING.md, bench/matrix.py). Daphne serves
the same application unchanged: ``daphne --websocket-max-message-size 65536
--websocket-max-frame-size 65536 --ping-interval 5 --ping-timeout 4 config.asgi:application`` (the
frame limit: SOCKET_FRAME_BYTES; the pings: SOCKET_PING_SECONDS, SOCKET_PING_TIMEOUT_SECONDS), but
has no deadline for a request's head (its ``--http-timeout`` bounds the application's answer, and
Twisted's idle timeout restarts with every byte): serve it only behind deploy/nginx.conf.
"""
from __future__ import annotations

import argparse
import os

import uvicorn


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=8000)
    ap.add_argument("--access-log", action="store_true", help="log every request (off: it costs CPU)")
    args = ap.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from django.conf import settings

    from config.http_guard import guarded_protocol, raise_file_limit
    files = raise_file_limit()
    # Half-open requests (slowloris) time out, and no address holds more than its share of the
    # connections: config/http_guard.py. The total leaves room for sockets, the database and logs.
    total = settings.HTTP_CONNECTIONS_TOTAL
    if total:
        total = max(64, min(total, files - 1024))
    protocol = guarded_protocol(settings.HTTP_HEADER_TIMEOUT_SECONDS, settings.HTTP_BODY_TIMEOUT_SECONDS,
                                settings.HTTP_CONNECTIONS_PER_ADDRESS, total)
    uvicorn.run(
        "config.asgi:application", host=args.host, port=args.port,
        loop="uvloop", http=protocol, ws="websockets-sansio", lifespan="off",
        # No proxy in front: a client's X-Forwarded-For is not trusted, even from 127.0.0.1
        # (uvicorn's default), or it could choose the address the per-address limits count.
        proxy_headers=False, access_log=args.access_log,
        # Open sockets must not hold a stop (or a test's server) for long.
        timeout_graceful_shutdown=5,
        # A bigger socket message closes the socket unread (realtime/socket_guard.py).
        ws_max_size=settings.SOCKET_FRAME_BYTES,
        # A client that stops answering pings is closed: its player is away (docs/PROTOCOL.md "Heartbeat").
        ws_ping_interval=settings.SOCKET_PING_SECONDS, ws_ping_timeout=settings.SOCKET_PING_TIMEOUT_SECONDS,
    )


if __name__ == "__main__":
    main()
