"""The bare floor for bench/live.py --app echo: a Channels echo with no game and no database.

A table's sockets share one group; an action from any of them is published to the group as the
next version's update, which every socket passes on as it came. The snapshot and updates look
like the site's to the load generator (version, table status, a view with something legal), so
the same clients, pacing and measurement run against both: the site's p99 over this one's is
what the game adds (issue: within 2x at 200 tables). The seat is the session cookie's
``<table>.<seat>`` (bench/live.py makes them up).

Channel layer as the site's modes (stock Channels classes): REDIS_URL set, Redis pub/sub;
otherwise in-memory. The collector is tuned as config/asgi.py tunes the site's, so that the
comparison is of the work, not of the collector.
"""
from __future__ import annotations

import gc
import os

import django
from django.conf import settings

if not settings.configured:
    redis_url = os.environ.get("REDIS_URL")
    settings.configure(
        DEBUG=False, ALLOWED_HOSTS=["*"], INSTALLED_APPS=["channels"],
        CHANNEL_LAYERS={"default": (
            {"BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer", "CONFIG": {"hosts": [redis_url]}}
            if redis_url else {"BACKEND": "channels.layers.InMemoryChannelLayer"})},
    )
    django.setup()

import orjson  # noqa: E402
from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import path  # noqa: E402

VIEW = {"legal": [{"type": "play", "card": "AS"}]}
TABLE = {"status": "playing"}


class EchoTable(AsyncWebsocketConsumer):
    async def connect(self):
        self.table_id = self.scope["url_route"]["kwargs"]["table_id"]
        self.seat = _seat(self.scope)
        self.group = f"echo.{self.table_id}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.send(orjson.dumps({"type": "snapshot", "version": 0, "table": TABLE, "view": VIEW,
                                      "you": self.seat}).decode())

    async def disconnect(self, code):
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        msg = orjson.loads(text_data)
        if msg.get("type") != "action":
            return
        update = {"type": "update", "version": msg["version"] + 1, "table": TABLE, "view": VIEW,
                  "events": [{"kind": "action", "seat": self.seat, "action": msg["action"]}]}
        await self.channel_layer.group_send(self.group, {"type": "echo.send",
                                                         "text": orjson.dumps(update).decode()})

    async def echo_send(self, event):
        await self.send(event["text"])


def _seat(scope) -> int:
    for name, value in scope.get("headers", ()):
        if name == b"cookie":
            for part in value.decode().split(";"):
                key, _, val = part.strip().partition("=")
                if key == "sessionid":
                    return int(val.split(".")[1])
    return 0


application = ProtocolTypeRouter({
    "websocket": URLRouter([path("ws/table/<int:table_id>/", EchoTable.as_asgi())]),
})

gc.set_threshold(50000, 20, 100)
gc.collect()
gc.freeze()
