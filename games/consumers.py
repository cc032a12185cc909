"""Table and lobby sockets. Thin: authorise, parse, call games/services.py, relay what it sends.

Each table socket is in exactly one group: its seat's (``table.<id>.seat.<n>``) or the spectators'
(``table.<id>.spectators``), so it only ever receives its own seat's view.
"""
from __future__ import annotations

import json
from urllib.parse import parse_qs

from asgiref.sync import async_to_sync
from channels.generic.websocket import WebsocketConsumer
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _

from . import services
from .engine.core import GAME_NAMES
from .models import Table
from .services import ServiceError

FORBIDDEN = 4403
NOT_FOUND = 4404


def _language(scope) -> str:
    cookie = scope.get("cookies", {}).get(settings.LANGUAGE_COOKIE_NAME)
    supported = {code for code, _name in settings.LANGUAGES}
    if cookie in supported:
        return cookie
    for name, value in scope.get("headers", ()):
        if name == b"accept-language":
            for lang, _q in translation.trans_real.parse_accept_lang_header(value.decode("latin-1")):
                if lang.split("-")[0] in supported:
                    return lang.split("-")[0]
    return settings.LANGUAGE_CODE


class TableConsumer(WebsocketConsumer):
    group: str | None = None
    seat: int | None = None

    # --- connection ---------------------------------------------------------------------------
    def connect(self):
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.user = self.scope.get("user")
        self.language = _language(self.scope)
        query = parse_qs(self.scope.get("query_string", b"").decode())
        self.invite = (query.get("invite") or [None])[0]
        table = Table.objects.filter(pk=self.table_id).first()
        if table is None:
            self.close(code=NOT_FOUND)
            return
        if not services.can_watch(table, self.user, self.invite):
            self.close(code=FORBIDDEN)
            return
        self.accept()
        self._resync(kind="snapshot")

    def disconnect(self, code):
        if self.group:
            async_to_sync(self.channel_layer.group_discard)(self.group, self.channel_name)
            services.set_connected(self.table_id, self.seat, -1)

    def _join(self, seat: int | None) -> None:
        group = services.spectator_group(self.table_id) if seat is None else services.seat_group(self.table_id, seat)
        if group == self.group:
            return
        if self.group:
            async_to_sync(self.channel_layer.group_discard)(self.group, self.channel_name)
            services.set_connected(self.table_id, self.seat, -1)
        async_to_sync(self.channel_layer.group_add)(group, self.channel_name)
        services.set_connected(self.table_id, seat, +1)
        self.group, self.seat = group, seat

    def _resync(self, kind="snapshot", events=None) -> None:
        """Join the right group, then send a full snapshot (joining first: nothing is missed)."""
        msg, seat = services.snapshot(self.table_id, self.user)
        if seat != self.seat or self.group is None:
            self._join(seat)
            msg, seat = services.snapshot(self.table_id, self.user)
        msg["type"] = kind
        if events:
            msg["event"] = events[-1]
            msg["events"] = events
        self.send_json(msg)

    # --- from the client ------------------------------------------------------------------------
    def receive(self, text_data=None, bytes_data=None):
        with translation.override(self.language):
            try:
                try:
                    data = json.loads(text_data if text_data is not None else bytes_data)
                except (TypeError, ValueError):
                    raise ServiceError("bad_json", _("That message is not valid JSON.")) from None
                if not isinstance(data, dict) or not isinstance(data.get("type"), str):
                    raise ServiceError("bad_request", _("A message must be an object with a type."))
                handler = self.HANDLERS.get(data["type"])
                if handler is None:
                    raise ServiceError("unknown_type", _("Unknown message type."))
                handler(self, data)
            except ServiceError as err:
                self._error(err)

    def _error(self, err: ServiceError) -> None:
        version = err.version
        if version is None:
            version = Table.objects.filter(pk=self.table_id).values_list("version", flat=True).first()
        self.send_json({"type": "error", "code": err.code, "reason": err.reason, "version": version})
        if err.code == "stale":
            self._resync()

    def on_action(self, data):
        services.act(self.table_id, self.user, data.get("version"), data.get("action"))

    def on_sit(self, data):
        services.sit(self.table_id, self.user, data.get("seat"))

    def on_leave(self, data):
        services.leave(self.table_id, self.user)

    def on_start(self, data):
        services.start(self.table_id, self.user)

    def on_chat(self, data):
        services.chat(self.table_id, self.user, data.get("text"))

    def on_sync(self, data):
        self._resync()

    HANDLERS = {"action": on_action, "sit": on_sit, "leave": on_leave, "start": on_start,
                "chat": on_chat, "sync": on_sync}

    # --- from the group -----------------------------------------------------------------------------
    def table_send(self, event):
        self.send_json(event["message"])

    def table_resync(self, event):
        self._resync(kind="update", events=event.get("events"))

    def send_json(self, content):
        self.send(text_data=json.dumps(content, separators=(",", ":")))


class LobbyConsumer(WebsocketConsumer):
    def connect(self):
        self.game = self.scope["url_route"]["kwargs"]["game"]
        if self.game not in GAME_NAMES:
            self.close(code=NOT_FOUND)
            return
        self.group = services.lobby_group(self.game)
        async_to_sync(self.channel_layer.group_add)(self.group, self.channel_name)
        self.accept()
        self.send(text_data=json.dumps({"type": "tables", "tables": services.lobby_tables(self.game)}))

    def disconnect(self, code):
        if getattr(self, "group", None):
            async_to_sync(self.channel_layer.group_discard)(self.group, self.channel_name)

    def receive(self, text_data=None, bytes_data=None):
        self.send(text_data=json.dumps({"type": "error", "code": "unknown_type",
                                        "reason": "The lobby socket only sends.", "version": None}))

    def lobby_send(self, event):
        self.send(text_data=json.dumps({"type": "tables", "tables": event["tables"]}))
