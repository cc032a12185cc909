"""The table hub (games/hub.py): one layer message per table per commit, and each socket of the
process gets its own seat's payloads from it, in order; nobody else's."""
import asyncio

import pytest

from games import broadcast
from games.hub import TableHub, bundle
from games.layers import EmbeddedChannelLayer, ScaledChannelLayer
from tests.services import require_redis

pytestmark = pytest.mark.asyncio


class Recorder:
    """A socket as the hub sees it."""

    def __init__(self):
        self.got: asyncio.Queue = asyncio.Queue()

    def push(self, event):
        self.got.put_nowait(event)

    async def next(self, n=1):
        return [await asyncio.wait_for(self.got.get(), 10) for _ in range(n)]


def m(n):
    return {"type": "table.send", "text": str(n), "version": n}


async def test_a_commits_messages_for_a_tables_groups_become_one_message_in_the_place_of_the_first():
    sent = [("lobby.hearts", {"type": "lobby.send"}), ("table.3.seat.1", m(1)), ("user.9", {"type": "u"}),
            ("table.3.spectators", m(2)), ("table.4.seat.0", m(3)), ("table.3.seat.1", m(4)),
            ("table.3.nobody", m(5)), ("tournament.2", {"type": "t"})]
    assert bundle(sent) == [
        ("lobby.hearts", {"type": "lobby.send"}),
        ("table.3", {"type": "table.each", "table": 3, "to": [[1, m(1)], [None, m(2)], [1, m(4)]]}),
        ("user.9", {"type": "u"}),
        ("table.4", {"type": "table.each", "table": 4, "to": [[0, m(3)]]}),
        ("table.3.nobody", m(5)), ("tournament.2", {"type": "t"})]


async def test_each_socket_gets_its_own_seats_payloads_in_order_and_nobody_elses():
    layer = EmbeddedChannelLayer()
    hub = TableHub.of(layer)
    assert TableHub.of(layer) is hub
    north, north_too, east, watcher, elsewhere = (Recorder() for _ in range(5))
    await hub.join(1, 0, north)
    await hub.join(1, 0, north_too)
    await hub.join(1, 1, east)
    await hub.join(1, None, watcher)
    await hub.join(2, 0, elsewhere)
    await broadcast.send(layer, [("table.1.seat.0", m(i)) for i in range(5)]
                         + [("table.1.seat.1", m(10)), ("table.1.spectators", m(20))])
    assert await north.next(5) == [m(i) for i in range(5)]
    assert await north_too.next(5) == [m(i) for i in range(5)]
    assert await east.next() == [m(10)]
    assert await watcher.next() == [m(20)]
    await hub.leave(1, 1, east)
    await broadcast.send(layer, [("table.1.seat.1", m(11)), ("table.1.spectators", m(21))])
    assert await watcher.next() == [m(21)]
    for sock in (north, east, elsewhere):
        assert sock.got.empty()
    assert set(hub.tables) == {1, 2}
    for sock, seat in ((north, 0), (north_too, 0), (watcher, None)):
        await hub.leave(1, seat, sock)
    assert set(hub.tables) == {2}


async def test_two_processes_take_a_move_from_one_redis_message_and_resync_after_redis_reconnects():
    import redis.asyncio as aioredis
    require_redis()
    # Two layers with one prefix: two processes' worth of subscriptions on one Redis.
    first = ScaledChannelLayer(hosts=["redis://127.0.0.1:6379/8"], prefix="test-hub")
    second = ScaledChannelLayer(hosts=["redis://127.0.0.1:6379/8"], prefix="test-hub")
    spy = aioredis.Redis(host="127.0.0.1", port=6379, db=8).pubsub()
    try:
        north, east, watcher = Recorder(), Recorder(), Recorder()
        await TableHub.of(first).join(5, 0, north)
        await TableHub.of(second).join(5, 1, east)
        await TableHub.of(second).join(5, None, watcher)
        await spy.psubscribe("test-hub*table.5*")
        assert (await spy.get_message(timeout=5))["type"] == "psubscribe"
        await broadcast.send(first, [("table.5.seat.0", m(1)), ("table.5.seat.1", m(2)),
                                     ("table.5.spectators", m(3))])
        assert await north.next() == [m(1)]
        assert await east.next() == [m(2)]
        assert await watcher.next() == [m(3)]
        published = []
        while (got := await spy.get_message(ignore_subscribe_messages=True, timeout=0.5)) is not None:
            published.append(got["channel"])
        assert published == [b"test-hub__group__table.5"]     # one message for the whole table
        # Redis drops the second process's subscriber connection: its sockets there start again.
        await second._get_layer()._shards[0]._pubsub.connection.disconnect()
        assert await east.next() == [{"type": "table.lost"}]
        assert await watcher.next() == [{"type": "table.lost"}]
        assert north.got.empty()
        await broadcast.send(first, [("table.5.seat.1", m(4))])
        assert await east.next() == [m(4)]
    finally:
        await spy.aclose()
        await first.flush()
        await second.flush()


async def test_a_socket_slow_to_read_holds_up_only_itself():
    from games.consumers import TableConsumer

    class Socket(TableConsumer):
        def __init__(self, gate):
            super().__init__()
            self.table_id, self.held, self.version = 1, {}, 0
            self.outbox, self.pusher, self.view_lock = __import__("collections").deque(), None, asyncio.Lock()
            self.gate, self.texts = gate, []

        async def send(self, text_data=None, bytes_data=None, close=False):
            await self.gate.wait()
            self.texts.append(text_data)

    stuck, open_gate = asyncio.Event(), asyncio.Event()
    open_gate.set()
    slow, quick = Socket(stuck), Socket(open_gate)
    for version in (1, 2, 3):
        slow.push(m(version))
        quick.push(m(version))
    for _ in range(100):
        await asyncio.sleep(0)
    assert quick.texts == ["1", "2", "3"] and slow.texts == []
    stuck.set()
    for _ in range(100):
        await asyncio.sleep(0)
    assert slow.texts == ["1", "2", "3"] and slow.version == 3
