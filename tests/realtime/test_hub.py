"""The table hub (realtime/hub.py): one layer message per table per commit, and each socket of the
process gets its own seat's payloads from it, in order; nobody else's."""
import asyncio

import pytest

from realtime import broadcast
from realtime.addresses import ToSeat
from realtime.hub import BEHIND, TableHub, bundle
from realtime.layers import EmbeddedChannelLayer, ScaledChannelLayer
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


async def test_a_commits_messages_to_a_tables_seats_become_one_message_in_the_place_of_the_first():
    sent = [("lobby.hearts", {"type": "lobby.send"}), (ToSeat(3, 1), m(1)), ("user.9", {"type": "u"}),
            (ToSeat(3, None), m(2)), (ToSeat(4, 0), m(3)), (ToSeat(3, 1), m(4)),
            ("table.3.seat.1", m(5)), ("tournament.2", {"type": "t"})]
    assert bundle(sent) == [
        ("lobby.hearts", {"type": "lobby.send"}),
        # Each says the highest version it carries: the scaled layer records it (games/republish.py).
        ("table.3", {"type": "table.each", "table": 3, "version": 4, "to": [[1, m(1)], [None, m(2)], [1, m(4)]]}),
        ("user.9", {"type": "u"}),
        ("table.4", {"type": "table.each", "table": 4, "version": 3, "to": [[0, m(3)]]}),
        ("table.3.seat.1", m(5)), ("tournament.2", {"type": "t"})]     # a group's name is never read


async def test_a_bundle_of_chat_alone_says_no_version():
    chat = {"type": "table.send", "text": "hi"}
    assert bundle([(ToSeat(3, 0), chat)]) == [("table.3", {"type": "table.each", "table": 3, "to": [[0, chat]]})]


async def test_a_notice_of_a_version_never_published_reaches_every_socket_of_its_table_only():
    layer = EmbeddedChannelLayer()
    hub = TableHub.of(layer)
    north, watcher, elsewhere = Recorder(), Recorder(), Recorder()
    await hub.join(1, 0, north)
    await hub.join(1, None, watcher)
    await hub.join(2, 0, elsewhere)
    await broadcast.send(layer, [("table.1", {"type": BEHIND, "table": 1, "version": 7})])
    assert await north.next() == [{"type": BEHIND, "version": 7}]
    assert await watcher.next() == [{"type": BEHIND, "version": 7}]
    assert elsewhere.got.empty()


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
    await broadcast.send(layer, [(ToSeat(1, 0), m(i)) for i in range(5)]
                         + [(ToSeat(1, 1), m(10)), (ToSeat(1, None), m(20))])
    assert await north.next(5) == [m(i) for i in range(5)]
    assert await north_too.next(5) == [m(i) for i in range(5)]
    assert await east.next() == [m(10)]
    assert await watcher.next() == [m(20)]
    await hub.leave(1, 1, east)
    await broadcast.send(layer, [(ToSeat(1, 1), m(11)), (ToSeat(1, None), m(21))])
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
        await broadcast.send(first, [(ToSeat(5, 0), m(1)), (ToSeat(5, 1), m(2)),
                                     (ToSeat(5, None), m(3))])
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
        await broadcast.send(first, [(ToSeat(5, 1), m(4))])
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
            self.table_id, self.user = 1, None
            self.prepare()
            self.order.shown(0)
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


async def test_a_text_listed_under_a_seat_it_was_not_built_for_is_handed_to_nobody(caplog):
    layer = EmbeddedChannelLayer()
    hub = TableHub.of(layer)
    north, east = Recorder(), Recorder()
    await hub.join(1, 0, north)
    await hub.join(1, 1, east)
    east_hand = dict(m(7), seat=1)
    hub.deliver({"type": "table.each", "table": 1, "to": [[0, east_hand], [1, east_hand]]})
    assert await east.next() == [east_hand]
    assert north.got.empty()
    assert "an update for seat 1 was listed for seat 0" in caplog.text


@pytest.mark.django_db(transaction=True)
async def test_a_socket_never_passes_on_a_text_built_for_another_seat_and_resyncs_instead(
        make_user, task_queue, caplog):
    import json

    from channels.db import database_sync_to_async as db
    from channels.layers import get_channel_layer

    from games import services

    from tests.games.sockets import connect

    ala, ola = await db(make_user)("ala"), await db(make_user)("ola")
    table = await db(services.create_table)(ala, "sixtysix", seats=[ala, ola], start=True)
    north, _ = await connect(table.pk, ala)
    assert north.seat == 0
    forged = {"type": "update", "version": north.version + 1, "you": 1, "view": {"hand": ["AS"]}}
    for socket in TableHub.of(get_channel_layer()).tables[table.pk][0]:     # north's, as the hub would
        socket.push({"type": "table.send", "text": json.dumps(forged), "version": forged["version"], "seat": 1})
    got = await north.recv()
    assert got["type"] == "snapshot" and got["you"] == 0 and got["version"] == north.version
    assert await north.comm.receive_nothing(timeout=0.1)
    assert "an update for seat 1 reached a socket of seat 0" in caplog.text
    await north.comm.disconnect()


def _layer_prefix(redis_url: str) -> str:
    """The channel layer's prefix config/settings.py gives a scaled site on ``redis_url``."""
    import json
    import os
    import subprocess
    import sys
    env = dict(os.environ, DJANGO_SETTINGS_MODULE="config.settings", REDIS_URL=redis_url,
               SECRET_KEY="test-" + "x" * 50, DEBUG="1")
    out = subprocess.run([sys.executable, "-c", "import json; from django.conf import settings; "
                          "print(json.dumps(settings.CHANNEL_LAYERS['default']['CONFIG']))"],
                         env=env, capture_output=True, text=True, check=True).stdout
    return json.loads(out.strip().splitlines()[-1]).get("prefix", "asgi")    # channels_redis's default


async def test_sites_on_two_redis_databases_never_get_each_others_table_messages():
    """Redis scopes keys by database number, not pub/sub channels: the settings' prefix does."""
    require_redis()
    prefixes = [_layer_prefix("redis://127.0.0.1:6379/8"), _layer_prefix("redis://127.0.0.1:6379/9")]
    assert prefixes[0] != prefixes[1]
    ours, theirs = (ScaledChannelLayer(hosts=[f"redis://127.0.0.1:6379/{db}"], prefix=p)
                    for db, p in zip((8, 9), prefixes))
    try:
        north, their_north = Recorder(), Recorder()
        await TableHub.of(ours).join(6, 0, north)
        await TableHub.of(theirs).join(6, 0, their_north)
        await broadcast.send(theirs, [(ToSeat(6, 0), m(1))])
        assert await their_north.next() == [m(1)]
        await broadcast.send(ours, [(ToSeat(6, 0), m(2))])
        assert await north.next() == [m(2)]          # and not their m(1) first
        assert north.got.empty() and their_north.got.empty()
    finally:
        await ours.flush()
        await theirs.flush()
