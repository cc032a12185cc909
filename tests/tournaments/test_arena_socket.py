"""An arena's page socket: the leaderboard arrives as matches end, and no message of it carries a
card of a match being played (the tournament page is public; hidden cards stay at the table)."""
import json
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async as db
from channels.testing import WebsocketCommunicator

from config.routing import application
from games.models import Deal
from tournaments import services
from tournaments.models import Game, Tournament

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def _strings(node):
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for k, v in node.items():
            yield k
            yield from _strings(v)
    elif isinstance(node, list):
        for v in node:
            yield from _strings(v)


def _cards_in_play(tid):
    cards = set()
    for g in Game.objects.filter(round__tournament_id=tid, result__isnull=True):
        for deal in Deal.objects.filter(match__table_id=g.table_id, finished=False):
            for hand in deal.record.get("hands", []):
                cards.update(hand)
            cards.update(deal.record.get("stock") or [])
    return cards


async def test_the_leaderboard_follows_the_matches_and_carries_no_card(bots, clock, task_queue, advance_queue):
    t = await db(Tournament.objects.create)(
        name="Live arena", game="sixtysix", variant="kurnik", format="arena", arena_minutes=5,
        starts_at=clock.now() + timedelta(seconds=5), bank_seconds=10, increment_seconds=0, min_entries=2)
    for u in await db(bots)(4):
        await db(services.register)(t.pk, u)
    comm = WebsocketCommunicator(application, f"/ws/tournament/{t.pk}/", headers=[(b"origin", b"http://testserver")])
    assert (await comm.connect())[0]
    await comm.receive_from()                                  # the snapshot
    clock.advance(6)
    await db(services.start)(t.pk)
    started = json.loads(await comm.receive_from())
    in_play = await db(_cards_in_play)(t.pk)
    assert started["state"]["status"] == "running" and len(in_play) >= 12
    board = started["state"]["leaderboard"]
    assert len(board) == 4 and all(r["playing"] and r["points"] == 0 for r in board)
    assert in_play.isdisjoint(_strings(started))

    # The bots play their matches out: each end sends the page a new leaderboard.
    await db(task_queue.run_due)()
    seen = []
    while not await comm.receive_nothing(timeout=0.2):
        msg = json.loads(await comm.receive_from())
        seen.append(msg)
    assert seen and all(m["type"] == "update" for m in seen)
    last = seen[-1]["state"]["leaderboard"]
    assert sum(r["games"] for r in last) == 4 and sum(r["points"] for r in last) >= 2
    assert last == sorted(last, key=lambda r: r["rank"])
    assert all(a["points"] >= b["points"] for a, b in zip(last, last[1:]))

    # The next pairing, with new matches in play: still no card on the page's socket.
    await db(advance_queue.run_due)(clock.now())
    msg = json.loads(await comm.receive_from())
    in_play = await db(_cards_in_play)(t.pk)
    assert in_play and in_play.isdisjoint(_strings(msg))
    await comm.disconnect()
