"""The embedded channel layer: a group's members get the message, expired ones are dropped."""
import pytest

from realtime.layers import EmbeddedChannelLayer

pytestmark = pytest.mark.asyncio


async def test_it_delivers_a_group_message_to_every_member_once():
    layer = EmbeddedChannelLayer()
    a, b = await layer.new_channel(), await layer.new_channel()
    await layer.group_add("table.1.seat.0", a)
    await layer.group_add("table.1.seat.0", b)
    await layer.group_send("table.1.seat.0", {"type": "table.send", "n": 1})
    assert await layer.receive(a) == {"type": "table.send", "n": 1}
    assert await layer.receive(b) == {"type": "table.send", "n": 1}
    assert not layer.channels  # both queues drained and dropped


async def test_it_expires_undelivered_messages_and_their_group_membership(monkeypatch):
    layer = EmbeddedChannelLayer(expiry=1)
    gone = await layer.new_channel()
    await layer.group_add("g", gone)
    await layer.group_send("g", {"type": "x"})
    import time
    later = time.time() + 5
    monkeypatch.setattr(time, "time", lambda: later)
    layer._last_clean = float("-inf")       # let the next operation clean
    await layer.group_send("g", {"type": "y"})
    assert gone not in layer.groups.get("g", {}) and gone not in layer.channels


async def test_it_refuses_invalid_names():
    layer = EmbeddedChannelLayer()
    with pytest.raises(TypeError):
        await layer.group_send("not a valid group!", {"type": "x"})


async def test_the_scaled_layer_delivers_a_batch_in_order_through_redis():
    from tests.services import require_redis
    from realtime.layers import ScaledChannelLayer
    require_redis()
    layer = ScaledChannelLayer(hosts=["redis://127.0.0.1:6379/8"], prefix="test-batch")
    try:
        seat, watcher = await layer.new_channel(), await layer.new_channel()
        await layer.group_add("table.7.seat.0", seat)
        await layer.group_add("table.7.spectators", watcher)
        await layer.group_send_many([("table.7.seat.0", {"type": "m", "n": i}) for i in range(3)]
                                    + [("table.7.spectators", {"type": "m", "n": 9}),
                                       ("table.7.nobody", {"type": "m", "n": -1})])
        assert [(await layer.receive(seat))["n"] for _ in range(3)] == [0, 1, 2]
        assert (await layer.receive(watcher))["n"] == 9
    finally:
        await layer.flush()


async def test_the_scaled_layer_records_each_tables_highest_published_version():
    """games/republish.py compares the record with the stored version: publishers in several
    processes may publish a table's versions out of order, and only messages telling a table's
    version are recorded."""
    from tests.services import require_redis
    from realtime.layers import ScaledChannelLayer
    require_redis()
    layer = ScaledChannelLayer(hosts=["redis://127.0.0.1:6379/8"], prefix="test-published")
    try:
        seat = await layer.new_channel()
        await layer.group_add("table.11", seat)
        await layer.group_send_many([("table.11", {"type": "table.each", "table": 11, "version": 5, "to": []})])
        await layer.group_send_many([("table.11", {"type": "table.each", "table": 11, "version": 4, "to": []}),
                                     ("table.12", {"type": "table.each", "table": 12, "to": []}),
                                     ("lobby.hearts", {"type": "lobby.send", "version": 9})])
        await layer.group_send_many([("table.13", {"type": "table.behind", "table": 13, "version": 2})])
        assert await layer.published_versions([11, 12, 13, 14]) == {11: 5, 13: 2}
        assert [(await layer.receive(seat))["version"] for _ in range(2)] == [5, 4]   # both were sent
    finally:
        await layer.flush()
        import redis.asyncio as aioredis
        client = aioredis.Redis(host="127.0.0.1", port=6379, db=8)
        await client.delete(*[f"test-published__published__{i}" for i in (11, 13)])
        await client.aclose()


async def test_the_scaled_layer_queues_a_burst_of_batches_on_one_connection_in_order():
    """A burst of commits larger than the connection pool: none fails, and the process's
    publishes reach Redis in the order they were committed."""
    import asyncio
    from tests.services import require_redis
    from realtime.layers import ScaledChannelLayer
    require_redis()
    layer = ScaledChannelLayer(hosts=[{"address": "redis://127.0.0.1:6379/8", "max_connections": 2}],
                               prefix="test-burst")
    try:
        seat = await layer.new_channel()
        await layer.group_add("table.8.seat.0", seat)
        await asyncio.gather(*(layer.group_send_many([("table.8.seat.0", {"type": "m", "n": i})])
                               for i in range(300)))
        assert [(await layer.receive(seat))["n"] for _ in range(300)] == list(range(300))
    finally:
        await layer.flush()


async def test_the_scaled_layer_reports_an_unreachable_redis_to_every_caller_and_recovers():
    import asyncio
    from redis.exceptions import ConnectionError as RedisConnectionError
    from realtime.layers import ScaledChannelLayer
    layer = ScaledChannelLayer(hosts=["redis://127.0.0.1:1/8"], prefix="test-down")
    try:
        results = await asyncio.gather(*(layer.group_send_many([("g", {"type": "m"})]) for _ in range(3)),
                                       return_exceptions=True)
        assert all(isinstance(r, RedisConnectionError) for r in results), results
        results = await asyncio.gather(layer.group_send_many([("g", {"type": "m"})]), return_exceptions=True)
        assert isinstance(results[0], RedisConnectionError)   # the writer started again, not stuck
    finally:
        await layer.flush()
