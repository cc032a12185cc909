"""Leavers over the table socket: a player's last socket closing reaches the others at once (away,
with when the grace ends); the opponent's claim_win is refused with a reason until the grace is
over, then ends the match; a player back within the grace clears it."""
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async as db
from django.utils import timezone

from games import services
from games.models import Seat, Table

from .helpers import every_seat_moves
from .sockets import connect

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def two_players_and_a_watcher(make_user):
    ala, ola = await db(make_user)("ala"), await db(make_user)("ola")
    table = await db(services.create_table)(ala, "sixtysix", seats=[ala, ola], start=True)
    await db(every_seat_moves)(table.pk, [ala, ola])      # else a claim aborts the match (actions/test_exits.py)
    a, _ = await connect(table.pk, ala)
    o, _ = await connect(table.pk, ola)
    w, _ = await connect(table.pk)
    for s in (a, o, w):
        await s.drain()
    return table, ola, a, o, w


def left_long_ago(table_id, seat):
    Seat.objects.filter(table_id=table_id, index=seat).update(away_since=timezone.now() - timedelta(minutes=5))


async def test_the_opponent_sees_the_leaver_away_and_claims_the_win_after_the_grace(make_user, task_queue):
    table, ola, a, o, w = await two_players_and_a_watcher(make_user)
    assert a.last["table"]["seats"][1]["away_since"] is None
    await o.comm.disconnect()
    for s in (a, w):
        msgs = await s.drain()
        assert msgs and msgs[-1]["event"]["kind"] == "away" and msgs[-1]["event"]["seat"] == 1
        seat = s.last["table"]["seats"][1]
        assert seat["connected"] is False and seat["grace_ends_at"] - seat["away_since"] == 60_000
    reply = await a.request({"type": "claim_win", "version": a.version})
    assert reply["type"] == "error" and reply["code"] == "claim_too_early"
    assert "claim the win in" in reply["reason"] and reply["params"]["retry_after"] > 50
    reply = await w.request({"type": "claim_win", "version": w.version})
    assert reply["type"] == "error" and reply["code"] == "spectator" and reply["reason"]
    await db(left_long_ago)(table.pk, 1)
    reply = await a.request({"type": "claim_win", "version": a.version})
    assert reply["type"] == "update", reply
    assert [e["kind"] for e in reply["events"]] == ["abandoned", "match_end"]
    assert reply["event"]["ended_by"] == "abandoned" and reply["event"]["winners"] == [0]
    assert reply["table"]["status"] == "finished" and reply["table"]["match"]["abandoned"] == [1]
    await w.drain()
    assert w.last["table"]["match"]["ended_by"] == "abandoned"
    for s in (a, w):
        await s.comm.disconnect()


async def test_a_player_back_within_the_grace_is_no_longer_away(make_user, task_queue):
    table, ola, a, o, w = await two_players_and_a_watcher(make_user)
    await o.comm.disconnect()
    await a.drain()
    assert a.last["table"]["seats"][1]["away_since"] is not None
    again, _ = await connect(table.pk, ola)
    assert again.seat == 1 and again.last["table"]["seats"][1]["away_since"] is None
    msgs = await a.drain()
    assert msgs[-1]["event"] == {"kind": "back", "seat": 1}
    assert a.last["table"]["seats"][1]["connected"] and a.last["table"]["seats"][1]["away_since"] is None
    assert await db(lambda: Seat.objects.get(table_id=table.pk, index=1).away_since)() is None
    reply = await a.request({"type": "claim_win", "version": a.version})
    assert reply["type"] == "error" and reply["code"] == "opponent_here" and reply["reason"]
    assert await db(lambda: Table.objects.get(pk=table.pk).status)() == "playing"
    for s in (a, again, w):
        await s.comm.disconnect()
