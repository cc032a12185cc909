"""The pool socket, ``/ws/pool/`` (docs/PROTOCOL.md, "Pool"): the home page and the lobbies open
one. Everyone gets the pools' counts (``pools``) as they change; a logged-in player joins
(``join``), leaves (``leave``) or takes the bot he was offered (``play_bot``), and hears of his
place on all his pool sockets (``waiting``, ``bot_offer``, ``paired``, ``left``).

A place is held by the socket that joined: this socket renews its lease while it holds one and
gives it up when it closes (pool/services.py ``drop_socket``); a web process killed outright
renews nothing, so its sockets' places run out within POOL_LEASE_SECONDS.
"""
from __future__ import annotations

import asyncio
import logging

from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.utils import translation
from django.utils.translation import gettext as _

from accounts import address_keys
from realtime import broadcast, socket_base
from realtime import language
from realtime.socket_base import ThinConsumer, in_thread
from realtime.errors import ServiceError
from games.labels import bot_level_choices
from moderation import linked

from . import pace, services

log = logging.getLogger(__name__)


class PoolConsumer(ThinConsumer):
    user_group: str | None = None
    renewer: asyncio.Task | None = None
    offer: asyncio.TimerHandle | None = None
    holding = False         # this socket holds its user's place (it joined)

    async def connect(self):
        self.user = self.scope.get("user")
        self.language = language.of_scope(self.scope)
        await self.channel_layer.group_add(services.COUNTS_GROUP, self.channel_name)
        if getattr(self.user, "is_authenticated", False):
            self.user_group = services.user_group(self.user.pk)
            await self.channel_layer.group_add(self.user_group, self.channel_name)
        await self.accept()
        # After joining the groups: a change committed meanwhile reaches this socket.
        first = await in_thread(self._first)()
        for message in first:
            await self._pass_on(message)

    def _first(self) -> list[dict]:
        out = [services.counts_message()]
        entry = services.entry_of(self.user)
        if entry is not None:
            out.append(services.waiting_message(entry))
        return out

    async def disconnect(self, code):
        self._stop_offer()
        if self.renewer is not None:
            self.renewer.cancel()
        await self.channel_layer.group_discard(services.COUNTS_GROUP, self.channel_name)
        if self.user_group:
            await self.channel_layer.group_discard(self.user_group, self.channel_name)
        if self.holding:
            sent, _error = await in_thread(self._call)(services.drop_socket, self.channel_name)
            await broadcast.send(self.channel_layer, sent)

    # --- from the client ----------------------------------------------------------------------
    async def receive(self, text_data=None, bytes_data=None):
        if await self.over_limit():
            return
        data, kind = socket_base.parse(text_data, bytes_data)
        if kind in ("join", "leave"):           # POOL_CHANGE_RATE per account (pool/pace.py)
            _sent, error = await in_thread(self._call)(pace.take_change, self.user)
            if error is not None:
                await self.send_json(error)
                return
        if kind == "join":
            sent, error = await in_thread(self._call)(services.join, self.user, data.get("pool"), self.channel_name)
            if error is None:
                self.holding = True
                self._keep_renewing()
                # Where the account is seen (moderation/linked.py: the pool keeps such accounts apart).
                await in_thread(self._call)(linked.note, self.user, address_keys.of_scope(self.scope))
                await broadcast.send(self.channel_layer, sent)
                sent, error = await in_thread(self._call)(services.pair, data.get("pool"))
        elif kind == "leave":
            sent, error = await in_thread(self._call)(self._leave)
        elif kind == "play_bot":
            sent, error = await in_thread(self._call)(services.play_bot, self.user, data.get("level"))
        else:
            with translation.override(self.language):
                sent, error = [], self._error(ServiceError("unknown_type", _("Unknown message type.")))
        await broadcast.send(self.channel_layer, sent)
        if error is not None:
            await self.send_json(error)

    def _leave(self) -> None:
        if not services.leave(self.user):
            raise ServiceError("not_in_pool", _("You are not waiting in a pool."), category="bad_request")

    def _call(self, func, *args) -> tuple[list, dict | None]:
        """A service call on a worker thread: what its commit sends, and the error to answer with."""
        with translation.override(self.language), broadcast.collecting() as sent:
            try:
                func(*args)
            except ServiceError as err:
                return sent, self._error(err)
            except (OperationalError, InterfaceError):
                log.warning("pool: the database is unavailable", exc_info=True)
                return sent, self._error(ServiceError("unavailable", _(
                    "The server cannot reach its database just now. Please try again in a moment.")))
        return sent, None

    @staticmethod
    def _error(err: ServiceError) -> dict:
        return err.as_json(None)

    # --- the place's lease ----------------------------------------------------------------------
    def _keep_renewing(self) -> None:
        if self.renewer is None or self.renewer.done():
            self.renewer = asyncio.ensure_future(self._renew())

    async def _renew(self) -> None:
        every = max(0.5, settings.POOL_LEASE_SECONDS / 3)
        while self.holding:
            await asyncio.sleep(every)
            try:
                self.holding = await in_thread(services.renew)(self.channel_name)
            except (OperationalError, InterfaceError):
                log.warning("pool: could not renew a lease", exc_info=True)

    # --- from the groups ------------------------------------------------------------------------
    async def pool_event(self, event):
        await self._pass_on(event["message"])

    async def _pass_on(self, message: dict) -> None:
        kind = message.get("type")
        if kind == "waiting":
            self._offer_later(message["pool"], message["bot_offer_in"])
        elif kind in ("paired", "left"):
            self._stop_offer()
            self.holding = False
        await self.send_json(message)

    def _offer_later(self, pool: str, seconds: float) -> None:
        """The bot offer, once the wait reaches POOL_BOT_OFFER_SECONDS (if still waiting then)."""
        self._stop_offer()
        loop = asyncio.get_running_loop()
        self.offer = loop.call_later(seconds + 0.05, lambda: asyncio.ensure_future(self._offer(pool)))

    def _stop_offer(self) -> None:
        if self.offer is not None:
            self.offer.cancel()
            self.offer = None

    async def _offer(self, pool: str) -> None:
        self.offer = None
        entry = await in_thread(services.entry_of)(self.user)
        if entry is None or entry.pool != pool:
            return
        with translation.override(self.language):
            levels = [{"value": lv["value"], "label": str(lv["label"]), "rating": lv.get("rating")}
                      for lv in bot_level_choices(pool.split("/")[0])]
        await self.send_json({"type": "bot_offer", "pool": pool, "levels": levels})
