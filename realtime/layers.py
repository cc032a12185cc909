"""Channel layers: the embedded mode's in-memory one, and the scaled mode's Redis pub/sub one.

Both add ``group_send_many(messages)``: a committed move's messages to its seat groups and
spectators, sent as one batch (realtime/broadcast.py uses it when a layer has it).

The embedded layer (one process, no Redis):

Channels' InMemoryChannelLayer scans every channel and group on every send and receive to expire
old messages, deep-copies a message for each member of a group and starts a task per member: with
hundreds of sockets that, not the game, was the cost of a move (docs/SCALING.md: it collapses near
2,000 frames/s). Here expiry runs at most once a second, and a group's members share one message:
the consumers only read what they receive (the Redis layers serialise it anyway).
"""
from __future__ import annotations

import asyncio
import logging
import time

from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer
from channels_redis.pubsub import RedisPubSubChannelLayer
from redis.exceptions import ConnectionError as RedisConnectionError, TimeoutError as RedisTimeoutError

log = logging.getLogger(__name__)


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

    async def group_send_many(self, messages):
        for group, message in messages:
            await self.group_send(group, message)


class ScaledChannelLayer(RedisPubSubChannelLayer):
    """RedisPubSubChannelLayer (docs/SCALING.md) whose batches go out through one writer per shard.

    channels_redis publishes one message per round trip under a per-shard lock, so all the
    publishes of a process queue behind each other, each waiting for a busy event loop to come
    round: at 200 tables that queue, not Redis, was the latency (bench/live.py). Here each shard has
    one ``_Publisher``: whatever the process's consumers commit while a round trip is out goes
    in the next pipeline. One writer on one connection also keeps the process's publishes in
    commit order, and never asks the pool for more connections than one (a pipeline per batch
    took one each: a burst of moves exhausted redis-py's pool, which raises rather than waits,
    and those moves' updates were lost).
    This leans on two internals of channels_redis 4.3 (the loop layer's shard and group-name
    helpers, and the shard's client); tests/scaled exercise it against a real Redis.
    """

    async def group_add(self, group, channel):
        layer = self._get_layer()
        await layer.group_add(group, channel)
        shard = layer._get_shard(layer._get_group_channel_name(group))
        _Resubscribed.watch(layer, shard)
        _skip_push_logging(shard)

    async def group_send_many(self, messages):
        """Publish a batch; each table version it carries is recorded after its PUBLISH, in the
        same pipeline (``published_versions``)."""
        layer = self._get_layer()
        by_shard: dict = {}
        for group, message in messages:
            channel = layer._get_group_channel_name(group)
            items = by_shard.setdefault(layer._get_shard(channel), [])
            items.append((channel, self.serialize(message), self._published_key(layer, message)))
        for shard, items in by_shard.items():
            await _Publisher.of(shard).publish(items)

    # A table's highest published version, as the layer saw it go out (games/republish.py reads
    # it to find a committed change nobody was told of). Kept a while past the republisher's
    # window, then left to expire.
    PUBLISHED_SECONDS = 3600

    @staticmethod
    def _published_key(layer, message: dict) -> tuple[str, int] | None:
        """The record to keep for a message that tells a table's version (realtime/hub.py's bundle
        of a commit's updates, games/republish.py's notice): (key, version)."""
        table, version = message.get("table"), message.get("version")
        if type(table) is int and type(version) is int:
            return _published_name(layer, table), version
        return None

    async def published_versions(self, table_ids: list[int]) -> dict[int, int]:
        """The highest version published of each table that has a record (none: nothing was
        published for it within ``PUBLISHED_SECONDS``)."""
        from .hub import table_group
        layer = self._get_layer()
        by_shard: dict = {}
        for table_id in table_ids:
            shard = layer._get_shard(layer._get_group_channel_name(table_group(table_id)))
            by_shard.setdefault(shard, []).append(table_id)
        found: dict[int, int] = {}
        for shard, ids in by_shard.items():
            shard._ensure_redis()
            values = await shard._redis.mget([_published_name(layer, i) for i in ids])
            found.update((i, int(v)) for i, v in zip(ids, values) if v is not None)
        return found


def _published_name(layer, table_id: int) -> str:
    return f"{layer.prefix}__published__{table_id}"


async def _as_is(response):
    return response


def _skip_push_logging(shard) -> None:
    """redis-py's own handler of each pub/sub message (hiredis 3 reads them as push replies) builds
    a debug line from the whole message, ``str()`` of its bytes, whether or not debug is logged:
    4% of a web process's time at 250 scaled tables (bench/live.py --py-spy). This handler passes
    the message on as that one does. Set on the PubSub, redis-py installs it on every connection
    it makes for it; on the one it has now, here."""
    pubsub = shard._pubsub
    if pubsub is None or pubsub.push_handler_func is _as_is:
        return
    pubsub.push_handler_func = _as_is
    setter = getattr(getattr(pubsub.connection, "_parser", None), "set_pubsub_push_handler", None)
    if setter is not None:
        setter(_as_is)


class _Publisher:
    """Writes a shard's PUBLISH commands in the order they were queued, one pipeline at a time.

    ``publish`` returns once Redis has taken its items (or raises what the round trip raised)."""

    def __init__(self, shard):
        self.shard = shard
        self.pending: list[tuple[str, bytes, tuple[str, int] | None]] = []
        self.waiters: list[asyncio.Future] = []
        self.writer: asyncio.Task | None = None

    @classmethod
    def of(cls, shard) -> "_Publisher":
        publisher = getattr(shard, "_games_publisher", None)
        if publisher is None:
            publisher = shard._games_publisher = cls(shard)
        return publisher

    async def publish(self, items: list[tuple[str, bytes, tuple[str, int] | None]]) -> None:
        """``items``: (channel, data, the version record to keep once it is published, if any)."""
        done = asyncio.get_running_loop().create_future()
        self.pending.extend(items)
        self.waiters.append(done)
        if self.writer is None or self.writer.done():
            self.writer = asyncio.ensure_future(self._write())
        await done

    async def _write(self) -> None:
        while self.pending:
            items, waiters = self.pending, self.waiters
            self.pending, self.waiters = [], []
            try:
                await self._send(items)
            except Exception as exc:
                _settle(waiters, exc)
            except BaseException:     # cancelled (the loop is closing): no waiter may hang
                _settle(waiters + self.waiters, ConnectionError("the Redis publisher was stopped"))
                self.pending, self.waiters = [], []
                raise
            else:
                _settle(waiters, None)

    ATTEMPTS = 3

    async def _send(self, items: list[tuple[str, bytes, tuple[str, int] | None]]) -> None:
        """One pipeline of PUBLISH commands, each version record after its PUBLISH: a record never
        claims a message Redis did not take. A connection the pool kept from before Redis went
        away fails on its first use, after the subscribers have already renewed their
        subscriptions and resynced (_Resubscribed): what it carried would be lost for good. redis-py
        drops a connection that failed, so the next attempt connects afresh. (Were the commands
        delivered after all, a socket drops an update it already has: versions.)"""
        for attempt in range(1, self.ATTEMPTS + 1):
            try:
                self.shard._ensure_redis()
                async with self.shard._redis.pipeline(transaction=False) as pipe:
                    for channel, data, published in items:
                        pipe.publish(channel, data)
                        if published is not None:
                            key, version = published
                            pipe.eval(_KEEP_HIGHEST, 1, key, version, ScaledChannelLayer.PUBLISHED_SECONDS)
                    await pipe.execute()
                return
            except (RedisConnectionError, RedisTimeoutError):
                if attempt == self.ATTEMPTS:
                    raise


# Publishers in several processes may record a table's versions out of order: the highest stays.
_KEEP_HIGHEST = """
local known = tonumber(redis.call('GET', KEYS[1]) or '-1')
if tonumber(ARGV[1]) > known then redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2]) end
"""


class _Resubscribed:
    """Puts every table socket of this process right after its Redis subscriptions come back.

    What is published while a process is not subscribed (Redis restarted, a dropped connection)
    never reaches it, and a socket notices a missing update only when a later one comes
    (games/consumers.py, ``table_send``): when none comes, as when everyone waits for the one that
    was lost, the table would look stalled until a clock ran out. redis-py reconnects the shard's
    subscriber connection by itself and subscribes it again; right after, this sends each member
    of a table group a ``table.lost`` naming the group (the table hub, realtime/hub.py, passes it to
    each of the table's sockets), and each socket answers with a fresh snapshot. Read after the
    subscriptions were renewed, the snapshot covers every change published before them; later
    ones arrive as updates (tests/scaled/test_faults.py, the Redis restart)."""

    def __init__(self, layer, shard):
        self.layer, self.shard = layer, shard

    @classmethod
    def watch(cls, layer, shard) -> None:
        connection = getattr(shard._pubsub, "connection", None)
        if connection is None or getattr(shard, "_games_watched", None) is connection:
            return
        watcher = shard._games_resubscribed = cls(layer, shard)    # redis-py keeps a weak reference
        shard._games_watched = connection
        connection.register_connect_callback(watcher.reconnected)

    async def reconnected(self, connection) -> None:
        layer = self.layer
        named = len(layer._get_group_channel_name(""))
        for group, members in list(layer.groups.items()):
            if group[named:].startswith("table.") and layer._get_shard(group) is self.shard:
                # Which table: the table hub (realtime/hub.py) tells that table's sockets.
                lost = layer.channel_layer.serialize({"type": "table.lost", "group": group[named:]})
                for channel in members:
                    queue = layer.channels.get(channel)
                    if queue is not None:
                        queue.put_nowait(lost)
        log.warning("the channel layer's Redis subscriptions were renewed: table sockets resync")


def _settle(waiters: list[asyncio.Future], error: Exception | None) -> None:
    for done in waiters:
        if not done.done():
            if error is None:
                done.set_result(None)
            else:
                done.set_exception(error)
