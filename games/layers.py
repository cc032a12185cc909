"""The channel layer of the embedded mode (one process, no Redis).

Channels' InMemoryChannelLayer scans every channel and group on every send and receive to expire
old messages, deep-copies a message for each member of a group and starts a task per member: with
hundreds of sockets that, not the game, was the cost of a move (PERFORMANCE.md: it collapses near
2,000 frames/s). Here expiry runs at most once a second, and a group's members share one message:
the consumers only read what they receive (the Redis layers serialise it anyway).
"""
from __future__ import annotations

import asyncio
import time

from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer


class EmbeddedChannelLayer(InMemoryChannelLayer):
    clean_interval = 1.0
    _last_clean = 0.0

    def _clean_expired(self):
        now = time.monotonic()
        if now - self._last_clean >= self.clean_interval:
            self._last_clean = now
            super()._clean_expired()

    async def send(self, channel, message):
        assert isinstance(message, dict), "message is not a dict"
        self.require_valid_channel_name(channel)
        assert "__asgi_channel__" not in message
        queue = self.channels.get(channel)
        if queue is None:
            queue = self.channels[channel] = asyncio.Queue(maxsize=self.get_capacity(channel))
        try:
            queue.put_nowait((time.time() + self.expiry, message))
        except asyncio.QueueFull:
            raise ChannelFull(channel) from None

    async def group_send(self, group, message):
        assert isinstance(message, dict), "Message is not a dict"
        self.require_valid_group_name(group)
        self._clean_expired()
        for channel in list(self.groups.get(group, ())):
            try:
                await self.send(channel, message)
            except ChannelFull:
                pass
