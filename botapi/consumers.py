"""The bot's event socket ``/ws/bot/`` (docs/BOTS.md): challenges as they come, answers to them.

Only a token socket of a bot account may open it (botapi/auth.py). On connecting it gets every
challenge still waiting (``challenges``), so a bot that reconnects misses nothing; then each new
one (``challenge``) and each that is no longer open (``challenge_gone``). The bot answers with
``accept`` or ``decline``; an accepted challenge is answered with ``accepted`` and the table's id,
whose table socket the bot then opens. Same per-connection limits as every socket.
"""
from __future__ import annotations

from django.utils import translation
from django.utils.translation import gettext as _

from realtime import broadcast, language, wire
from realtime.socket_base import ThinConsumer, in_thread
from realtime.errors import ServiceError

from . import services
from .auth import BAD_TOKEN, error_json


class BotEventConsumer(ThinConsumer):
    group: str | None = None

    async def connect(self):
        self.user = self.scope.get("user")
        self.language = language.of_scope(self.scope)
        if self.scope.get("bot_token") is None or not getattr(self.user, "is_bot_account", False):
            await self.accept()     # to say why: this socket is for bots with a token
            with translation.override(self.language):
                await self.send_json(error_json("no_token", _(
                    "The bot event socket needs a bot account's API token: Authorization: Bearer <token>.")))
            await self.close(code=BAD_TOKEN)
            return
        self.group = services.bot_group(self.user.pk)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        for message in await in_thread(self._state)():
            await self.send_json(message)

    def _state(self) -> list[dict]:
        """What the bot should know on (re)connecting or on ``sync``: the challenges still waiting
        and the unfinished tables where it has a seat."""
        return [{"type": "challenges", "challenges": [services.challenge_json(c) for c in services.pending_for(self.user)]},
                {"type": "playing", "tables": services.playing_tables(self.user)}]

    async def disconnect(self, code):
        if self.group:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        if self.group is None or await self.over_limit():
            return
        sent, replies = await in_thread(self._handle)(text_data if text_data is not None else bytes_data)
        await broadcast.send(self.channel_layer, sent)
        for reply in replies:
            await self.send_json(reply)

    def _handle(self, text) -> tuple[list, list[dict]]:
        with translation.override(self.language), broadcast.collecting() as sent:
            try:
                try:
                    data = wire.loads(text)
                except (TypeError, ValueError):
                    raise ServiceError("bad_json", _("That message is not valid JSON.")) from None
                kind = data.get("type") if isinstance(data, dict) else None
                if kind == "accept":
                    table = services.accept(self.user, data.get("id"))
                    return sent, [{"type": "accepted", "id": data.get("id"), "table": table.pk}]
                if kind == "decline":
                    services.decline(self.user, data.get("id"), data.get("reason") or "")
                    return sent, [{"type": "declined", "id": data.get("id")}]
                if kind == "sync":
                    return sent, self._state()
                raise ServiceError("unknown_type", _("Unknown message type."))
            except ServiceError as err:
                return sent, [err.as_json(None)]

    async def bot_event(self, event):
        await self.send_json(event["event"])
