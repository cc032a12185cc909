"""The embedded channel layer: a group's members get the message, expired ones are dropped."""
import pytest

from games.layers import EmbeddedChannelLayer

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


async def test_broadcast_keeps_each_groups_order_within_a_commit():
    from games import broadcast
    layer = EmbeddedChannelLayer()
    ch = await layer.new_channel()
    await layer.group_add("table.1.seat.0", ch)
    await broadcast.send(layer, [("table.1.seat.0", {"type": "m", "n": i}) for i in range(5)]
                         + [("table.1.spectators", {"type": "m", "n": 9})])
    assert [(await layer.receive(ch))["n"] for _ in range(5)] == [0, 1, 2, 3, 4]
