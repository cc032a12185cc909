"""Who and what a request or socket is about, for the log lines written while it is served
(games/log_context.py): its request id (the proxy's ``X-Request-ID``, else a new one), its user and,
for a table's page, the table.

``HttpContext`` (in front of Django) and ``request_context`` (Django middleware: the session's user)
serve HTTP; ``SocketContext`` wraps the socket router after authentication (config/routing.py), so
the socket's consumer and every thread it hands work to log with the same id.
"""
from __future__ import annotations

import re
import uuid

from asgiref.sync import iscoroutinefunction
from django.contrib.auth import SESSION_KEY
from django.utils.decorators import sync_and_async_middleware

from games import log_context

_REQUEST_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")
_TABLE_PATH = re.compile(r"^/ws/table/(\d+)/")
_TABLE_PAGE = re.compile(r"^/table/(\d+)/")


def request_id(given: str | None) -> str:
    """The proxy's id when it looks like one (nginx's ``$request_id``), else a new one."""
    if given and _REQUEST_ID.fullmatch(given):
        return given
    return uuid.uuid4().hex


def _user_pk(user) -> int | None:
    return getattr(user, "pk", None) if getattr(user, "is_authenticated", False) else None


def _session_user(value) -> int | None:
    return int(value) if value is not None and str(value).isdigit() else None


@sync_and_async_middleware
def request_context(get_response):
    """Django middleware, after SessionMiddleware: the user of the log lines. The user is the
    session's (read once per request; the view reads the same copy), not checked again: for the
    logs only. Under ASGI the request runs in a task of its own, whose context ends with it; a sync
    request's thread is reused, so there it is reset."""
    if iscoroutinefunction(get_response):
        async def middleware(request):
            log_context.user_id.set(_session_user(await request.session.aget(SESSION_KEY)))
            return await get_response(request)
    else:
        def middleware(request):
            token = log_context.user_id.set(_session_user(request.session.get(SESSION_KEY)))
            try:
                return get_response(request)
            finally:
                log_context.user_id.reset(token)
    return middleware


class HttpContext:
    """ASGI middleware in front of Django: each HTTP request's id and, for a table's page, its
    table, seen by every line logged while it is served (Django's own 4xx lines come after the
    middleware has returned, so this is set outside them)."""

    def __init__(self, inner):
        self.inner = inner

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.inner(scope, receive, send)
        headers = dict(scope.get("headers") or [])
        found = _TABLE_PAGE.match(scope.get("path", ""))
        tokens = [(log_context.request_id,
                   log_context.request_id.set(request_id(headers.get(b"x-request-id", b"").decode("latin-1")))),
                  (log_context.table_id, log_context.table_id.set(int(found.group(1)) if found else None)),
                  (log_context.user_id, log_context.user_id.set(None))]
        try:
            return await self.inner(scope, receive, send)
        finally:
            for var, token in reversed(tokens):
                var.reset(token)


class SocketContext:
    """ASGI middleware for websockets (their scope's user already resolved)."""

    def __init__(self, inner):
        self.inner = inner

    async def __call__(self, scope, receive, send):
        headers = dict(scope.get("headers") or [])
        log_context.request_id.set(request_id(headers.get(b"x-request-id", b"").decode("latin-1")))
        log_context.user_id.set(_user_pk(scope.get("user")))
        found = _TABLE_PATH.match(scope.get("path", ""))
        log_context.table_id.set(int(found.group(1)) if found else None)
        return await self.inner(scope, receive, send)
