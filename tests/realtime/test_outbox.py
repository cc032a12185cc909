"""realtime/outbox.py: one socket's messages passed on in order by one task; a failing or gone
client costs only its own message."""
import asyncio

from autobahn.exception import Disconnected

from realtime.outbox import Outbox


async def settle():
    for _ in range(50):
        await asyncio.sleep(0)


async def test_it_passes_messages_on_in_the_order_pushed_one_at_a_time():
    got, running = [], []

    async def deliver(event):
        running.append(event["n"])
        assert len(running) == 1            # never two at once
        await asyncio.sleep(0)
        got.append(event["n"])
        running.remove(event["n"])

    box = Outbox(deliver)
    for n in range(5):
        box.push({"n": n})
    await settle()
    assert got == [0, 1, 2, 3, 4] and box.pusher is None


async def test_a_message_that_fails_or_finds_the_client_gone_is_skipped(caplog):
    got = []

    async def deliver(event):
        if event["n"] == 1:
            raise Disconnected()
        if event["n"] == 2:
            raise RuntimeError("broken")
        got.append(event["n"])

    box = Outbox(deliver, "table 9")
    for n in range(4):
        box.push({"type": "table.send", "n": n})
    await settle()
    assert got == [0, 3]
    assert "table 9: a table.send message could not be passed on" in caplog.text


async def test_clearing_drops_what_is_not_passed_on_yet():
    gate, got = asyncio.Event(), []

    async def deliver(event):
        await gate.wait()
        got.append(event["n"])

    box = Outbox(deliver)
    for n in range(3):
        box.push({"n": n})
    await settle()
    box.clear()
    gate.set()
    await settle()
    assert got == [] and box.pusher is None
