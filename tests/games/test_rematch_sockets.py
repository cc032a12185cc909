"""Rematch over the table socket: the offer and each answer reach everyone at the table live; a
player's leaving cancels it; all accepting moves everyone to the new table; rating changes are
pushed to the table once computed."""
import pytest
from channels.db import database_sync_to_async as db

from games import loading
from games.models import Match, Seat, Table

from .sockets import connect

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def finish(table_id):
    Match.objects.filter(table_id=table_id).update(finished=True, ranks=[1, 2], winners=[0])
    Seat.objects.filter(table_id=table_id).update(turn_started_at=None)
    Table.objects.filter(pk=table_id).update(status=Table.Status.FINISHED, due_at=None)
    loading.forget(table_id)


async def finished_table(make_user, task_queue):
    from games import services
    ala, ola = await db(make_user)("ala"), await db(make_user)("ola")
    table = await db(services.create_table)(ala, "sixtysix", seats=[ala, ola], start=True)
    await db(finish)(table.pk)
    socks = [(await connect(table.pk, u))[0] for u in (ala, ola)]
    watcher = (await connect(table.pk))[0]
    return table, socks, watcher


async def test_offer_answers_and_the_new_table_reach_everyone(make_user, task_queue):
    table, (ala, ola), watcher = await finished_table(make_user, task_queue)
    reply = await watcher.request({"type": "rematch", "answer": "offer", "version": watcher.version})
    assert reply["type"] == "error" and reply["code"] == "spectator" and reply["reason"]
    reply = await ala.request({"type": "rematch", "answer": "offer", "version": ala.version})
    assert reply["type"] == "update" and reply["event"]["kind"] == "rematch"
    for s in (ola, watcher):
        await s.drain()
        assert s.last["table"]["rematch"]["status"] == "open"
        assert s.last["table"]["rematch"]["accepted"] == [0]
    reply = await ola.request({"type": "rematch", "answer": "accept", "version": ola.version})
    assert reply["event"]["status"] == "started"
    new_id = reply["table"]["rematch"]["table"]
    for s in (ala, watcher):
        await s.drain()
        assert s.last["table"]["rematch"] == dict(reply["table"]["rematch"])
    new, _code = await connect(new_id, await db(lambda: table.owner)())
    assert new.seat == 0 and new.last["table"]["status"] == "playing"
    for s in (ala, ola, watcher, new):
        await s.comm.disconnect()


async def test_a_player_closing_the_table_cancels_the_offer_for_the_others(make_user, task_queue):
    table, (ala, ola), watcher = await finished_table(make_user, task_queue)
    await ala.request({"type": "rematch", "answer": "offer", "version": ala.version})
    await ola.drain()
    await ola.comm.disconnect()
    msgs = await ala.drain()
    assert msgs and msgs[-1]["event"] == dict(msgs[-1]["table"]["rematch"], kind="rematch")
    assert (ala.last["table"]["rematch"]["status"], ala.last["table"]["rematch"]["reason"],
            ala.last["table"]["rematch"]["seat"]) == ("cancelled", "left", 1)
    for s in (ala, watcher):
        await s.comm.disconnect()


async def test_rating_changes_are_pushed_to_the_table_and_kept_for_a_late_socket(make_user, task_queue):
    from ratings import services as ratings
    from games import services
    ala, ola = await db(make_user)("ala"), await db(make_user)("ola")
    table = await db(services.create_table)(ala, "sixtysix", seats=[ala, ola], rated=True, start=True)
    await db(finish)(table.pk)
    match = await db(Match.objects.get)(table_id=table.pk)
    sock = (await connect(table.pk, ola))[0]
    assert "ratings" not in sock.last
    changes = await db(ratings.rate_match)(match.pk)
    assert len(changes) == 2
    pushed = [m for m in await sock.drain() if m["type"] == "ratings"]
    assert len(pushed) == 1
    rows = pushed[0]["changes"]
    assert [r["seat"] for r in rows] == [0, 1] and rows[0]["delta"] > 0 > rows[1]["delta"]
    assert all(r["after"] - r["before"] == r["delta"] for r in rows)
    late = (await connect(table.pk))[0]
    assert late.last["ratings"] == rows
    for s in (sock, late):
        await s.comm.disconnect()
