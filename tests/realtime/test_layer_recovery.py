"""The scaled channel layer after Redis went away: the subscriptions come back with a resync of
every table socket, and a publish through a connection that went stale is made again
(realtime/layers.py; tests/scaled/test_faults.py restarts a real Redis under running servers)."""
import asyncio

import pytest

from tests.services import require_redis

pytestmark = pytest.mark.asyncio


async def test_renewed_subscriptions_tell_each_table_socket_and_only_those():
    from realtime.layers import ScaledChannelLayer
    require_redis()
    layer = ScaledChannelLayer(hosts=["redis://127.0.0.1:6379/8"], prefix="test-renewed")
    try:
        seat, watcher, lobby = await layer.new_channel(), await layer.new_channel(), await layer.new_channel()
        await layer.group_add("table.5.seat.1", seat)
        await layer.group_add("table.5.spectators", watcher)
        await layer.group_add("lobby.hearts", lobby)
        shard = layer._get_layer()._shards[0]
        await shard._pubsub.connection.disconnect()      # as when Redis restarts; redis-py reconnects
        lost = {"type": "table.lost", "group": "table.5.seat.1"}
        assert await asyncio.wait_for(layer.receive(seat), 10) == lost
        assert await asyncio.wait_for(layer.receive(watcher), 10) == dict(lost, group="table.5.spectators")
        # Subscribed again: what is published now arrives; the lobby socket was told nothing.
        await layer.group_send_many([("table.5.seat.1", {"type": "m", "n": 1}), ("lobby.hearts", {"type": "m", "n": 2})])
        assert await asyncio.wait_for(layer.receive(seat), 10) == {"type": "m", "n": 1}
        assert await asyncio.wait_for(layer.receive(lobby), 10) == {"type": "m", "n": 2}
    finally:
        await layer.flush()


async def test_a_publish_through_a_connection_redis_dropped_is_made_again():
    import redis.asyncio as aioredis

    from realtime.layers import ScaledChannelLayer
    require_redis()
    layer = ScaledChannelLayer(hosts=["redis://127.0.0.1:6379/8"], prefix="test-stale")
    other = aioredis.Redis(host="127.0.0.1", port=6379, db=8)
    try:
        seat = await layer.new_channel()
        await layer.group_add("table.6.seat.0", seat)
        await layer.group_send_many([("table.6.seat.0", {"type": "m", "n": 0})])
        assert (await asyncio.wait_for(layer.receive(seat), 10))["n"] == 0
        shard = layer._get_layer()._shards[0]
        # The pooled connection the next publish takes (the pool reuses the last released one) is
        # closed by the server, as a restart does: only this connection, nobody else's.
        stale = await shard._redis.client_id()
        assert await other.client_kill_filter(_id=stale) == 1
        await layer.group_send_many([("table.6.seat.0", {"type": "m", "n": 1})])
        assert (await asyncio.wait_for(layer.receive(seat), 10))["n"] == 1
    finally:
        await other.aclose()
        await layer.flush()
