"""The pool socket (/ws/pool/, pool/consumers.py) through Channels' communicator: counts for
everyone, join and pairing across two players' sockets, refusals with reasons, leave, a closed
socket giving up its place, and the bot offered after the wait and taken by choice."""
import json

import pytest
from channels.db import database_sync_to_async as db
from channels.testing import WebsocketCommunicator

from config.routing import application
from games.models import Table
from pool.models import PoolEntry
from tests.games.sockets import _cookie

from .test_services import HEARTS, POOL, rated

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def open_pool(user=None):
    headers = [(b"origin", b"http://localhost")]
    if user is not None:
        headers.append((b"cookie", await db(_cookie)(user)))
    comm = WebsocketCommunicator(application, "/ws/pool/", headers=headers)
    ok, _code = await comm.connect()
    assert ok
    first = json.loads(await comm.receive_from())
    assert first["type"] == "pools" and POOL in first["counts"]
    return comm


async def recv(comm, kind, timeout=3.0):
    """The next message of ``kind`` (the counts come and go in between)."""
    while True:
        msg = json.loads(await comm.receive_from(timeout=timeout))
        if msg["type"] == kind:
            return msg


async def test_two_players_are_paired_and_both_sent_to_the_new_table(task_queue):
    ala, bob = await db(rated)("ala"), await db(rated)("bob")
    watcher = await open_pool()
    a, b = await open_pool(ala), await open_pool(bob)
    await a.send_json_to({"type": "join", "pool": POOL})
    waiting = await recv(a, "waiting")
    assert waiting["pool"] == POOL and waiting["rating"] == 1500 and waiting["bot_offer_in"] == 20
    assert (await recv(watcher, "pools"))["counts"][POOL] == 1
    await b.send_json_to({"type": "join", "pool": POOL})
    to_a, to_b = await recv(a, "paired"), await recv(b, "paired")
    assert to_a["table"] == to_b["table"] and to_a["url"] == f"/table/{to_a['table']}/" and not to_a["bots"]
    table = await db(Table.objects.get)(pk=to_a["table"])
    assert table.rated and table.status != Table.Status.WAITING
    counts = [(await recv(watcher, "pools"))["counts"][POOL] for _ in range(2)]
    assert counts == [2, 0]
    for comm in (a, b, watcher):
        await comm.disconnect()


async def test_refusals_come_with_readable_reasons(task_queue):
    ala = await db(rated)("ala")
    a = await open_pool(ala)
    await a.send_json_to({"type": "join", "pool": "nope/none/1+1"})
    unknown = await recv(a, "error")
    assert unknown["code"] == "unknown_pool" and unknown["reason"] == "There is no such pool."
    await a.send_json_to({"type": "join", "pool": POOL})
    await recv(a, "waiting")
    await a.send_json_to({"type": "join", "pool": HEARTS})
    again = await recv(a, "error")
    assert again["code"] == "in_pool" and again["reason"].startswith("You are already waiting in a pool")
    await a.send_json_to({"type": "play_bot", "level": "basic"})
    assert (await recv(a, "error"))["code"] == "no_bot_offer"
    await a.send_json_to({"type": "dance"})
    assert (await recv(a, "error"))["code"] == "unknown_type"
    visitor = await open_pool()
    await visitor.send_json_to({"type": "join", "pool": POOL})
    assert (await recv(visitor, "error"))["reason"] == "Log in to play people from the pool."
    for comm in (a, visitor):
        await comm.disconnect()


async def test_leaving_and_closing_the_socket_each_take_the_player_out(task_queue):
    ala = await db(rated)("ala")
    a = await open_pool(ala)
    await a.send_json_to({"type": "join", "pool": POOL})
    await recv(a, "waiting")
    await a.send_json_to({"type": "leave"})
    assert (await recv(a, "left"))["reason"] == "left"
    await a.send_json_to({"type": "leave"})
    assert (await recv(a, "error"))["code"] == "not_in_pool"
    await a.send_json_to({"type": "join", "pool": POOL})
    await recv(a, "waiting")
    other_tab = await open_pool(ala)          # another tab of hers hears of the place it holds
    assert (await recv(other_tab, "waiting"))["pool"] == POOL
    await a.disconnect()                      # the tab that joined is closed: the place goes with it
    assert (await recv(other_tab, "left"))["reason"] == "closed"
    assert not await db(PoolEntry.objects.exists)()
    await other_tab.disconnect()


async def test_the_bot_is_offered_after_the_wait_and_only_taken_when_chosen(task_queue, settings):
    settings.POOL_BOT_OFFER_SECONDS = 0.2
    ala = await db(rated)("ala", 1500, "hearts", "standard")
    a = await open_pool(ala)
    await a.send_json_to({"type": "join", "pool": HEARTS})
    await recv(a, "waiting")
    offer = await recv(a, "bot_offer")
    assert offer["pool"] == HEARTS and "basic" in [lv["value"] for lv in offer["levels"]]
    assert await db(PoolEntry.objects.filter(user=ala).exists)()     # offered, not taken: still waiting
    await a.send_json_to({"type": "play_bot", "level": "basic"})
    to_table = await recv(a, "paired")
    assert to_table["bots"] is True
    table = await db(Table.objects.get)(pk=to_table["table"])
    assert not table.rated and table.game == "hearts" and table.bank_seconds == 180
    await a.disconnect()
