"""Bearer-token authentication of the bot API (docs/BOTS.md), for sockets and HTTP.

Sockets: ``BearerTokenMiddleware`` sits in front of the site's websocket stack (config/routing.py).
A handshake without an ``Authorization`` header goes to the browser stack unchanged (origin check,
session cookie). A handshake with one is a bot's: a good token makes its bot account the socket's
user (``scope["user"]``, and ``scope["bot_token"]`` the token's id) and the socket goes straight to
the routes, with no session and no origin check: browsers cannot set that header on a WebSocket,
so no page of another site can make one for a visitor. A wrong, revoked or otherwise unusable token
is never taken for an anonymous visitor: the socket is accepted only to say why (one ``error``
message) and closed with code 4401. A token revoked while its sockets are open closes them the
same way (``revoked_token``), whichever process holds them: each token socket listens on its
token's group (``tokens.socket_group``), where ``tokens.revoke`` announces the revocation once it
is committed; the socket's consumer is told the client left, so it counts the socket off its seat
as on any close.

HTTP: ``token_required`` reads the same header on the few endpoints a bot needs (botapi/views.py);
the answer without a good token is 401 with the same ``error`` object. The token itself is never
logged, only its prefix.
"""
from __future__ import annotations

import asyncio
import functools
import logging

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.http import JsonResponse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django_ratelimit.core import get_usage

from accounts.limits import wait_text
from accounts.models import ApiToken
from realtime import wire
from realtime.socket_guard import turn_away

from . import tokens

log = logging.getLogger(__name__)
BAD_TOKEN = 4401            # close code: the token is wrong, revoked or not a bot account's


def _header(scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return value.decode("latin-1")
    return None


def _check(value: str) -> tuple:
    with translation.override(settings.LANGUAGE_CODE):
        return tokens.authenticate(tokens.bearer(value) or "")


class BearerTokenMiddleware:
    """See the module's docstring. ``bots``: the app for token sockets; ``browsers``: the rest."""

    def __init__(self, bots, browsers):
        self.bots = bots
        self.browsers = browsers

    async def __call__(self, scope, receive, send):
        value = _header(scope, b"authorization") if scope["type"] == "websocket" else None
        if value is None:
            return await self.browsers(scope, receive, send)
        try:
            user, token = await database_sync_to_async(_check)(value)
        except tokens.TokenError as err:
            log.info("bot socket refused (%s) for %s", err.code, scope.get("path"))
            return await _refuse(receive, send, err)
        scope = dict(scope, user=user, bot_token=token.pk)
        return await _RevocableSocket(token.pk).run(self.bots, scope, receive, send)


async def _refuse(receive, send, err: tokens.TokenError) -> None:
    """Accept only to say why, then close with BAD_TOKEN (a refused handshake carries no reason)."""
    await turn_away(receive, send, BAD_TOKEN, error_json(err.code, err.reason))


def _revoked_error() -> dict:
    with translation.override(settings.LANGUAGE_CODE):
        return error_json("revoked_token", _("That API token has been revoked."))


def _still_valid(token_id: int) -> bool:
    return ApiToken.objects.filter(pk=token_id, revoked_at__isnull=True).exists()


class _RevocableSocket:
    """One token socket, closed when its token is revoked (see the module's docstring). Between
    the server and the socket's consumer: it listens on the token's group on a channel of its own,
    and when the revocation comes it sends the client the ``error`` and close 4401 and hands the
    consumer a ``websocket.disconnect``; whatever the consumer still sends then is dropped."""

    def __init__(self, token_id: int):
        self.token_id = token_id
        self.revoked = asyncio.Event()
        self.accepted = self.closed = False

    async def run(self, app, scope, receive, send) -> None:
        self.receive_from_server, self.send_to_server = receive, send
        layer = get_channel_layer()
        if layer is None:
            return await app(scope, receive, send)
        group = tokens.socket_group(self.token_id)
        channel = await layer.new_channel()
        await layer.group_add(group, channel)
        listener = asyncio.ensure_future(self._listen(layer, channel))
        try:
            # Revoked between the handshake's check and joining the group: nothing would tell it.
            if not await database_sync_to_async(_still_valid)(self.token_id):
                self.revoked.set()
            await app(scope, self.receive, self.send)
        finally:
            listener.cancel()
            await layer.group_discard(group, channel)

    async def _listen(self, layer, channel) -> None:
        while not self.revoked.is_set():
            message = await layer.receive(channel)
            if message.get("type") == tokens.REVOKED:
                self.revoked.set()

    async def receive(self) -> dict:
        if not self.revoked.is_set():
            from_client = asyncio.ensure_future(self.receive_from_server())
            revoked = asyncio.ensure_future(self.revoked.wait())
            try:
                await asyncio.wait({from_client, revoked}, return_when=asyncio.FIRST_COMPLETED)
            finally:        # also when the consumer, ending, cancels its wait
                revoked.cancel()
                heard = from_client.done()
                if not heard:
                    from_client.cancel()
            if heard:
                return from_client.result()
        await self._close()
        return {"type": "websocket.disconnect", "code": BAD_TOKEN}

    async def _close(self) -> None:
        if self.closed:
            return
        if self.accepted:
            await self.send_to_server({"type": "websocket.send", "text": wire.dumps(_revoked_error())})
        await self.send_to_server({"type": "websocket.close", "code": BAD_TOKEN})
        self.closed = True

    async def send(self, message: dict) -> None:
        if self.closed:
            return      # the consumer's last words after the revocation closed the socket
        if message.get("type") == "websocket.accept":
            self.accepted = True
        elif message.get("type") == "websocket.close":
            self.closed = True
        await self.send_to_server(message)


def error_json(code: str, reason: str, **params) -> dict:
    out = {"type": "error", "code": code, "category": "forbidden" if code != "rate_limited" else code,
           "reason": reason, "version": None}
    if params:
        out["params"] = params
    return out


def _too_fast(user) -> int | None:
    """Seconds to wait when this bot is over BOT_API_RATE (HTTP requests per account), else None."""
    rate = settings.BOT_API_RATE
    if not rate:
        return None
    try:
        usage = get_usage(None, group="limit.botapi", key=lambda _g, _r: str(user.pk), rate=rate, increment=True)
    except Exception:       # the cache is down: serve rather than fail
        log.warning("bot API limit: the cache failed; not limiting", exc_info=True)
        return None
    if usage is not None and usage["should_limit"]:
        return max(1, int(usage["time_left"]))
    return None


def token_required(view):
    """An HTTP endpoint of the bot API: the request's user is the token's bot account."""

    @csrf_exempt        # no cookie is involved: a token in a header cannot be sent by another site
    @functools.wraps(view)
    def wrapped(request, *args, **kwargs):
        value = request.headers.get("Authorization")
        if value is None:
            return JsonResponse(error_json("no_token", _("Send your API token: Authorization: Bearer <token>.")),
                                status=401)
        try:
            user, token = tokens.authenticate(tokens.bearer(value) or "")
        except tokens.TokenError as err:
            return JsonResponse(error_json(err.code, err.reason), status=401)
        wait = _too_fast(user)
        if wait is not None:
            answer = JsonResponse(error_json("rate_limited", f"{_('Too many requests: slow down.')} {wait_text(wait)}",
                                             retry_after=wait), status=429)
            answer["Retry-After"] = str(wait)
            return answer
        request.user, request.bot_token = user, token
        return view(request, *args, **kwargs)

    return wrapped
