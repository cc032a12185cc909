"""The tournament page socket: a snapshot on connect, then the state after every change."""
import json
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async as db
from channels.testing import WebsocketCommunicator

from config.routing import application
from tournaments import services
from tournaments.models import Tournament

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def test_it_sends_a_snapshot_then_updates_as_players_register_and_rounds_start(
        bots, clock, task_queue, advance_queue):
    t = await db(Tournament.objects.create)(
        name="Live", game="sixtysix", starts_at=clock.now() + timedelta(seconds=30), rounds=1,
        bank_seconds=10, increment_seconds=0, min_entries=2)
    comm = WebsocketCommunicator(application, f"/ws/tournament/{t.pk}/", headers=[(b"origin", b"http://testserver")])
    connected, _ = await comm.connect()
    assert connected
    snap = json.loads(await comm.receive_from())
    assert snap["type"] == "snapshot" and snap["state"]["status"] == "scheduled" and snap["state"]["entries"] == []
    players = await db(bots)(2)
    for u in players:
        await db(services.register)(t.pk, u)
    msgs = [json.loads(await comm.receive_from()) for _ in range(2)]
    assert [len(m["state"]["entries"]) for m in msgs] == [1, 2]
    clock.advance(31)
    await db(services.start)(t.pk)
    msg = json.loads(await comm.receive_from())
    assert msg["type"] == "update" and msg["state"]["status"] == "running"
    assert msg["state"]["rounds"][0]["games"][0]["table"] is not None
    assert await comm.receive_nothing(timeout=0.1)
    await comm.disconnect()


async def test_it_refuses_an_unknown_tournament():
    comm = WebsocketCommunicator(application, "/ws/tournament/999/", headers=[(b"origin", b"http://testserver")])
    connected, _code = await comm.connect()
    error = json.loads(await comm.receive_from())
    closed = await comm.receive_output()
    assert connected and error["code"] == "not_found" and error["reason"] == "There is no such tournament."
    assert closed == {"type": "websocket.close", "code": 4404, "reason": "There is no such tournament."}
