"""Who and what a request or socket is about, for the log lines written while it is served
(games/log_context.py): its request id (the proxy's ``X-Request-ID``, else a new one), its user and,
for a table's page, the table.

``request_context`` is Django middleware (HTTP); ``SocketContext`` wraps the socket router after
authentication (config/routing.py), so the socket's consumer and every thread it hands work to
log with the same id.
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


def _bind(request, user: str | None) -> list:
    found = _TABLE_PAGE.match(request.path)
    return [(log_context.request_id, log_context.request_id.set(request_id(request.headers.get("X-Request-ID")))),
            (log_context.user_id, log_context.user_id.set(int(user) if user and str(user).isdigit() else None)),
            (log_context.table_id, log_context.table_id.set(int(found.group(1)) if found else None))]


def _unbind(tokens: list) -> None:
    for var, token in reversed(tokens):
        var.reset(token)


@sync_and_async_middleware
def request_context(get_response):
    """Django middleware, after SessionMiddleware. The user is the session's (the session is read
    once per request, and the view reads the same copy), not checked again: for the logs only."""
    if iscoroutinefunction(get_response):
        async def middleware(request):
            tokens = _bind(request, await request.session.aget(SESSION_KEY))
            try:
                return await get_response(request)
            finally:
                _unbind(tokens)
    else:
        def middleware(request):
            tokens = _bind(request, request.session.get(SESSION_KEY))
            try:
                return get_response(request)
            finally:
                _unbind(tokens)
    return middleware


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
