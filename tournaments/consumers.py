"""The tournament page socket: ``/ws/tournament/<id>/``. Send-only and thin: one group per
tournament (``tournament.<id>``); services broadcast the page's state on every commit that changes
it (a round starts or ends, a table finishes, an entry comes or goes)."""
from __future__ import annotations

import json

from asgiref.sync import async_to_sync
from channels.generic.websocket import WebsocketConsumer
from django.utils import translation
from django.utils.translation import gettext as _

from realtime import language
from realtime.socket_limit import FLOODING, SocketLimiter

from . import page
from .models import Tournament

NOT_FOUND = 4404


class TournamentConsumer(WebsocketConsumer):
    group: str | None = None

    def connect(self):
        tid = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        if not Tournament.objects.filter(pk=tid).exists():
            # Accepted, then closed: a browser reads the code only of a socket that opened.
            with translation.override(language.of_scope(self.scope)):
                reason = _("There is no such tournament.")
            self.accept()
            self._send({"type": "error", "code": "not_found", "category": "not_found", "reason": reason, "version": None})
            self.close(code=NOT_FOUND, reason=reason)
            return
        # Join first, then snapshot: nothing committed in between is missed.
        self.group = page.group_name(tid)
        async_to_sync(self.channel_layer.group_add)(self.group, self.channel_name)
        self.accept()
        self._send({"type": "snapshot", "state": page.state(Tournament.objects.get(pk=tid))})

    def disconnect(self, code):
        if self.group:
            async_to_sync(self.channel_layer.group_discard)(self.group, self.channel_name)

    limiter: SocketLimiter | None = None

    def receive(self, text_data=None, bytes_data=None):
        # Send-only, but a flood still costs an answer each: the table socket's limit (realtime/socket_limit.py).
        self.limiter = self.limiter or SocketLimiter()
        verdict = self.limiter.check()
        if verdict == SocketLimiter.CLOSE:
            self.close(code=FLOODING)
        if verdict != SocketLimiter.OK:
            return
        self._send({"type": "error", "code": "unknown_type",
                    "reason": "The tournament socket only sends.", "version": None})

    def tournament_send(self, event):
        self._send({"type": "update", "state": event["state"]})

    def _send(self, content):
        self.send(text_data=json.dumps(content, separators=(",", ":")))
