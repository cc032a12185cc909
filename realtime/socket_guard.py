"""What every socket passes before its consumer serves it (docs/PROTOCOL.md, "Limits").

- **Refusals a browser can read.** A handshake the server denies reaches the page as close code
  1006 with no reason, so a socket is refused by accepting it, sending one ``error`` that says why,
  and closing it at once with its code (4403, 4404, 4429) and the same reason where the server
  carries one (uvicorn does, Daphne does not): ``refuse``, ``turn_away``. A path that names no socket
  gets 4404 the same way (``NoRouteConsumer``, the routers' last route), not an exception.
- **Message size.** A message over ``SOCKET_MESSAGE_BYTES`` is answered with the error
  ``too_large`` before anything parses it (``Guarded``); the web servers themselves close a socket
  that sends a message over ``SOCKET_FRAME_BYTES`` (config/serve.py, the Procfile), so no bigger
  message is ever read.
- **Sockets per address and per account** (``SocketSlots``, around the routers in
  config/routing.py): each open socket holds one of ``SOCKET_PER_ADDRESS`` slots of its address and
  one of ``SOCKET_PER_ACCOUNT`` of its user, keys in the default cache (Redis in scaled mode, so
  every web process counts the same slots). A slot is a lease: the process holding it renews it
  every ``RENEW_SECONDS`` and frees it when the socket closes, so the sockets of a process that
  dies are forgotten within ``LEASE_SECONDS``. A broken cache limits nothing.
"""
from __future__ import annotations

import asyncio
import logging
import secrets

from accounts.limits import network_of
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.core.cache import cache
from django.utils import translation
from django.utils.translation import gettext as _

from . import language, wire
from .errors import ServiceError

log = logging.getLogger(__name__)

NOT_FOUND = 4404
TOO_MANY = 4429         # the code of every "too many" refusal: messages (realtime/socket_limit.py) or sockets
LEASE_SECONDS = 60
RENEW_SECONDS = 20
REASON_BYTES = 123      # the most a close frame's reason may hold (RFC 6455)


def _fit(reason: str) -> str:
    return reason.encode()[:REASON_BYTES].decode(errors="ignore")


ERROR_OF = {4403: "forbidden", 4404: "not_found"}      # a refusal's close code -> its error code


async def refuse(consumer: AsyncWebsocketConsumer, code: int, reason: str) -> None:
    """Refuse a socket from its consumer's ``connect``: accepted, told why (one ``error``: Daphne
    sends no close reason), and closed with ``code`` at once, so the client reads both (a denied
    handshake would show it neither)."""
    await consumer.accept()
    error = ServiceError(ERROR_OF[code], reason).as_json(None)
    await consumer.send(text_data=wire.dumps(error))
    await consumer.close(code=code, reason=_fit(reason))


async def turn_away(receive, send, code: int, error: dict) -> None:
    """The same before any consumer (ASGI middleware): the ``error`` message, then the close."""
    message = await receive()
    if message.get("type") != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.send", "text": wire.dumps(error)})
    await send({"type": "websocket.close", "code": code, "reason": _fit(error["reason"])})


class NoRouteConsumer(AsyncWebsocketConsumer):
    """Every path no other socket route takes: closed with 4404, no exception, nothing logged."""

    async def connect(self):
        await refuse(self, NOT_FOUND, _("There is no socket at this address."))


# --- message size -----------------------------------------------------------------------------------
def _too_large(message: dict) -> bool:
    limit = settings.SOCKET_MESSAGE_BYTES
    data = message.get("text")
    if data is None:
        data = message.get("bytes") or b""
    elif len(data) * 4 > limit:         # a character is at most 4 bytes: count them only then
        data = data.encode("utf-8", "surrogatepass")
    return limit > 0 and len(data) > limit


def too_large_error(version: int | None) -> dict:
    limit = settings.SOCKET_MESSAGE_BYTES
    return ServiceError("too_large", _("That message is too large: a message may have at most %(bytes)d bytes.")
                        % {"bytes": limit}, params={"max_bytes": limit}, category="bad_request").as_json(version)


class Guarded:
    """Mixed into the consumers that read messages (games/consumers.py ``ThinConsumer``): a message
    over the size limit never reaches ``receive`` (so it is never parsed); it still counts against
    the connection's rate (``over_limit``), and is answered with ``too_large``."""

    async def websocket_receive(self, message):
        if not _too_large(message):
            await super().websocket_receive(message)
            return
        version = getattr(self, "version", None)
        if await self.over_limit(version):
            return
        with translation.override(getattr(self, "language", None) or settings.LANGUAGE_CODE):
            await self.send_json(too_large_error(version))


# --- sockets per address and per account -------------------------------------------------------------
class SlotBook:
    """This process's leases on socket slots in the cache: slot key -> this socket's token."""

    def __init__(self):
        self.held: dict[str, str] = {}
        self.renewer: asyncio.Task | None = None

    def take(self, who: str, limit: int) -> str | None:
        """A free slot of ``who`` (its key), or None when all ``limit`` are held."""
        keys = [f"sockets:{who}:{n}" for n in range(limit)]
        held = cache.get_many(keys)
        token = secrets.token_hex(8)
        for key in keys:
            if key not in held and cache.add(key, token, LEASE_SECONDS):
                self.held[key] = token
                return key
        return None

    def release(self, keys: list[str]) -> None:
        mine = {key: self.held.pop(key) for key in keys if key in self.held}
        found = cache.get_many(list(mine))
        cache.delete_many([key for key, token in mine.items() if found.get(key) == token])

    def renew(self, leases: dict[str, str]) -> None:
        cache.set_many(leases, LEASE_SECONDS)
        # A socket closed while this ran: its slot, set again just now, is freed again.
        cache.delete_many([key for key in leases if key not in self.held])

    def keep_renewing(self) -> None:
        """Start this process's renewing task on the running loop (once per loop)."""
        loop = asyncio.get_running_loop()
        if self.renewer is None or self.renewer.done() or self.renewer.get_loop() is not loop:
            self.renewer = loop.create_task(self._renew_forever())

    async def _renew_forever(self) -> None:
        while self.held:
            await asyncio.sleep(RENEW_SECONDS)
            try:
                await asyncio.to_thread(self.renew, dict(self.held))
            except Exception:
                log.warning("socket slots: the cache failed; not renewed", exc_info=True)


BOOK = SlotBook()


def _claims(scope) -> list[tuple[str, int, str]]:
    """The slots a socket takes: (who, limit, the reason if none is free)."""
    out = []
    address = network_of((scope.get("client") or (None,))[0])
    if address and settings.SOCKET_PER_ADDRESS > 0:
        out.append((f"address:{address}", settings.SOCKET_PER_ADDRESS,
                    _("Too many connections from your address: close some of this site's pages, then try again.")))
    user = scope.get("user")
    if getattr(user, "is_authenticated", False) and settings.SOCKET_PER_ACCOUNT > 0:
        out.append((f"user:{user.pk}", settings.SOCKET_PER_ACCOUNT,
                    _("Too many connections for your account: close some of this site's pages, then try again.")))
    return out


def _take_all(claims) -> tuple[list[str], str | None]:
    """Slots for every claim, or none and the reason of the first refused."""
    taken = []
    for who, limit, reason in claims:
        key = BOOK.take(who, limit)
        if key is None:
            BOOK.release(taken)
            return [], reason
        taken.append(key)
    return taken, None


class SocketSlots:
    """ASGI middleware around a websocket router (config/routing.py): see the module's docstring.
    It sits inside the authentication, so the user is known; the socket's slots are held until its
    consumer ends."""

    def __init__(self, inner):
        self.inner = inner

    async def __call__(self, scope, receive, send):
        claims = _claims(scope) if scope["type"] == "websocket" else []
        if not claims:
            return await self.inner(scope, receive, send)
        with translation.override(language.of_scope(scope)):
            try:
                taken, refusal = await asyncio.to_thread(_take_all, claims)
            except Exception:
                log.warning("socket slots: the cache failed; not limiting", exc_info=True)
                taken, refusal = [], None
            if refusal is not None:
                error = ServiceError("too_many_sockets", refusal, category="rate_limited").as_json(None)
                return await turn_away(receive, send, TOO_MANY, error)
        if taken:
            BOOK.keep_renewing()
        try:
            return await self.inner(scope, receive, send)
        finally:
            if taken:
                try:
                    await asyncio.to_thread(BOOK.release, taken)
                except Exception:       # the lease runs out by itself
                    log.warning("socket slots: the cache failed; left to expire", exc_info=True)
